"""Consolidation inputs a user gets wrong: missing, empty and binary transcripts."""

import os

import pytest

from memdir import InvalidInput
from tests.conftest import run_cli


def test_missing_bare_file_name_is_an_error_not_text(mem, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInput, match="does not exist"):
        mem.consolidate("session.jsonl")


@pytest.mark.slow
def test_empty_and_binary_transcripts_do_nothing_and_leave_no_receipt(mem, tmp_path, project):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(os.urandom(2048))
    for path in (empty, binary):
        report = mem.consolidate(path)
        assert report.status == "empty"
        again = mem.consolidate(path)
        assert again.status == "empty"  # never "consolidated before"
    out = run_cli("--project", project, "consolidate", binary)
    assert out.returncode == 0 and "no message from the person or the assistant" in out.stdout
    good = tmp_path / "good.txt"
    good.write_text("USER: Remember that the staging database is on port 6543.\nASSISTANT: Noted.\n")
    assert mem.consolidate(good).status in ("ok", "noop")  # control: a readable transcript runs
    assert mem.consolidate(good).status == "seen"


def test_ingest_skips_a_dangling_link(tmp_path, project, monkeypatch):
    claude = tmp_path / "claude"
    folder = claude / "projects" / "p"
    folder.mkdir(parents=True)
    (folder / "dangling.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    out = run_cli("--project", project, "ingest", "--claude-code", env={"CLAUDE_CONFIG_DIR": str(claude)})
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
