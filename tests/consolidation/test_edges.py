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


TRANSCRIPT = ("USER: Remember that I always use fish shell on my laptop.\nASSISTANT: ok\n"
              "USER: Remember that the staging server is called kestrel-9.\nASSISTANT: ok\n")


@pytest.mark.slow
def test_a_proposal_for_a_layer_with_unreadable_tombstones_is_skipped_and_the_others_applied(person, project,
                                                                                             tmp_path):
    person.write("me", "I like tea", "user")
    person.forget("me")
    stones = person.session.layer("user").meta / "tombstones.json"
    stones.write_text("not json\n")
    unreadable = (f"{stones} is unreadable (Expecting value: line 1 column 1 (char 0)); it is canonical, "
                  "fix it by hand")
    transcript = tmp_path / "tr3.txt"
    transcript.write_text(TRANSCRIPT)
    out = run_cli("--project", project, "consolidate", transcript, "--extractor", "rules")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert ("1. create → always-use-fish-shell-laptop (type: user; layer: user): skipped-unreadable — "
            f"{unreadable}") in lines
    assert "2. create → staging-server-called-kestrel-9 (type: project; layer: project): created" in lines
    assert lines[-1].startswith("1 change(s) made (at most 5 per run); the run is recorded in the project layer")
    assert person.read("staging-server-called-kestrel-9", count=False).record.description == (
        "The staging server is called kestrel-9.")
    # the run is partial: once the file is fixed, the skipped fact is applied by a new run
    stones.write_text("[]\n")
    again = person.consolidate(transcript, extractor="rules")
    assert [(o.result, o.name) for o in again.outcomes] == [("created", "always-use-fish-shell-laptop")]
    assert again.status == "ok"
