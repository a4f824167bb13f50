"""Consolidation inputs a user gets wrong: missing, empty and binary transcripts."""

import json
import random

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
    # Fixed bytes: random ones begin with "[" or "{" about once in a hundred runs, and then read as a (broken)
    # JSON transcript, refused as such — another case than "nothing to read".
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + random.Random(7).randbytes(2040))
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
    # the fact applied the first time is proposed to the memory that says it and left unchanged (rev49c: the one
    # "already says it" rule, restating.saved_by, in place of the rules extractor's 90% word share)
    assert [(o.result, o.name) for o in again.outcomes] == [("created", "always-use-fish-shell-laptop"),
                                                            ("unchanged", "staging-server-called-kestrel-9")]
    assert again.status == "ok"


def test_a_transcript_that_is_not_a_regular_file_fails_fast_naming_it(mem, tmp_path, project):
    """before: ``memdir consolidate FIFO`` (and the API, and a queued line naming one) blocked forever."""
    from tests.fifo import fifo

    good = tmp_path / "good.txt"  # control: a regular file is read
    good.write_text("USER: Remember that the staging database is on port 6543.\nASSISTANT: Noted.\n")
    with fifo(tmp_path / "pipe.jsonl") as pipe:
        for given in (pipe, str(pipe)):
            with pytest.raises(InvalidInput) as refused:
                mem.consolidate(given)
            assert str(refused.value) == f"transcript {pipe} is not a regular file"
        out = run_cli("--project", project, "consolidate", pipe, "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout) == {"error": f"transcript {pipe} is not a regular file", "kind": "InvalidInput"}
    assert mem.consolidate(good).status in ("ok", "noop")


def test_a_transcript_over_the_size_cap_is_refused_unread(mem, tmp_path):
    from memdir.consolidation.transcripts import MAX_TRANSCRIPT_BYTES

    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as handle:  # sparse: no byte of it is written or read
        handle.truncate(MAX_TRANSCRIPT_BYTES + 1)
    with pytest.raises(InvalidInput) as refused:
        mem.consolidate(huge)
    assert str(refused.value) == f"transcript {huge} is larger than {MAX_TRANSCRIPT_BYTES} bytes"


def test_a_workspace_file_or_a_claude_code_transcript_that_is_a_fifo_never_blocks(mem, tmp_path, project,
                                                                                   monkeypatch):
    """The workspace's CLAUDE.md (read for every extractor) and a ``*.jsonl`` in Claude Code's projects
    directory (read by ``memdir ingest`` for its cwd): before, each blocked on a FIFO."""
    from memdir.consolidation.consolidate import workspace_text
    from memdir.consolidation.ingest import find_transcripts
    from tests.fifo import fifo

    (project / "AGENTS.md").write_text("Always run make check.\n")
    projects = tmp_path / "claude" / "projects"
    (projects / "p").mkdir(parents=True)
    line = {"type": "user", "cwd": str(project), "message": {"role": "user", "content": "hi"}}
    (projects / "p" / "s1.jsonl").write_text(json.dumps(line) + "\n")
    with fifo(project / "CLAUDE.md"), fifo(projects / "p" / "s2.jsonl"):
        assert workspace_text(project) == "## AGENTS.md\nAlways run make check."
        assert find_transcripts(projects, project) == [(projects / "p" / "s1.jsonl", project)]
        report = mem.consolidate([{"role": "user", "content": "Remember that the API runs on port 8443."}])
    assert report.status in ("ok", "noop")
