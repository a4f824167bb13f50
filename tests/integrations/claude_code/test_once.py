"""memdir installed in two scopes: the client runs two of memdir's hooks for each event, and only one gives its
block (:mod:`memdir.integrations.claude_code.once`). The real Claude Code with both scopes:
tests/integrations/clients/test_claude_both_scopes.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from memdir.integrations.claude_code import once

USER_SCOPE = [sys.executable, "-m", "memdir.hooks", "claude-code"]  # what a user-scope install runs
PROJECT_SCOPE = [sys.executable, "-m", "memdir.cli", "hook", "claude-code"]  # `memdir hook …` of a project's


def _start(command, event: str, payload: dict, **env) -> subprocess.Popen:
    full = dict(os.environ, MEMDIR_SEARCH_VECTORS="off", **env)
    proc = subprocess.Popen([*command, event], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full)
    proc.stdin.write(json.dumps(payload))
    proc.stdin.close()
    return proc


def _done(proc: subprocess.Popen) -> tuple[str, str]:
    out, err = proc.stdout.read(), proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    return out, err


def _input(project, transcript, event="SessionStart", **fields) -> dict:
    return {"session_id": "s-both", "transcript_path": str(transcript), "cwd": str(project),
            "hook_event_name": event, **fields}


def test_two_installs_running_at_once_give_the_context_block_once(mem, project, tmp_path):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    payload = _input(project, transcript, source="startup")
    both = [_start(USER_SCOPE, "SessionStart", payload), _start(PROJECT_SCOPE, "SessionStart", payload)]
    outs = [_done(p) for p in both]
    given = [out for out, _ in outs if out]
    assert len(given) == 1 and "db-port" in json.loads(given[0])["hookSpecificOutput"]["additionalContext"]
    assert [err for _, err in outs] == ["", ""]  # the quiet one says nothing unless asked (MEMDIR_LOG_LEVEL)


def test_the_same_prompt_again_is_recalled_and_the_other_install_stays_quiet(mem, project, tmp_path):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    payload = _input(project, transcript, "UserPromptSubmit", prompt="which port does the dev postgresql use?")
    first, _ = _done(_start(USER_SCOPE, "UserPromptSubmit", payload))
    assert "<memory_recall>" in first and "Moved on 2026-11-02." in first
    other, said = _done(_start(PROJECT_SCOPE, "UserPromptSubmit", payload, MEMDIR_LOG_LEVEL="info"))
    assert other == "" and "another of memdir's hooks gives this block" in said  # the second install, this event
    again, _ = _done(_start(USER_SCOPE, "UserPromptSubmit", payload))  # one install, the same prompt sent again
    assert "<memory_recall>" in again and "db-port" in again  # recall runs (the body only named: given already)
    with transcript.open("a") as log:
        log.write('{"type": "assistant"}\n')  # a later turn: the transcript grew
    later, _ = _done(_start(PROJECT_SCOPE, "UserPromptSubmit", payload))
    assert "<memory_recall>" in later  # a new event: the other install gives it


def test_claims_are_per_home_per_session_and_per_event(tmp_path):
    home, other_home = tmp_path / "a", tmp_path / "b"
    home.mkdir(), other_home.mkdir()  # homes made (in one not made yet, a claim goes to the runtime directory)
    data = {"session_id": "s1", "cwd": str(tmp_path), "source": "startup"}
    assert once.first(home, "claude-code", "SessionStart", data, "user")
    assert not once.first(home, "claude-code", "SessionStart", data, "project")  # the second install
    assert once.first(other_home, "claude-code", "SessionStart", data, "project")  # another home: other memories
    assert once.first(home, "claude-code", "SessionStart", {**data, "session_id": "s2"}, "project")
    assert once.first(home, "claude-code", "SessionStart", {**data, "source": "compact"}, "project")
    assert once.first(home, "codex", "SessionStart", data, "project")
    later = time.time() + once.WINDOW + 1  # long after: an earlier event's claim, taken over
    assert once.first(home, "claude-code", "SessionStart", data, "project", now=later)
    assert not once.first(home, "claude-code", "SessionStart", data, "user")
    assert once.first(home, "claude-code", "SessionStart", {"cwd": str(tmp_path)}, "user")  # no session id
    assert once.first(home, "claude-code", "SessionStart", {"cwd": str(tmp_path)}, "project")
    folder = home.joinpath(*once.ONCE_DIR)
    assert len(list(folder.iterdir())) == 4  # one claim per event, no temporary file left
    old = time.time() - once.KEEP - 10
    for claim in folder.iterdir():
        os.utime(claim, (old, old))
    assert once.first(home, "claude-code", "SessionStart", {**data, "session_id": "s3"}, "user")
    assert len(list(folder.iterdir())) == 1  # the old claims went when a new one was made


def test_a_home_that_cannot_take_a_claim_gives_the_block(tmp_path):
    home = tmp_path / "file-not-dir"
    home.write_text("")
    data = {"session_id": "s1", "cwd": str(tmp_path), "source": "startup"}
    assert once.first(home, "claude-code", "SessionStart", data, "user")
    assert once.first(home, "claude-code", "SessionStart", data, "project")  # twice: the safe side, never none


def test_the_first_claim_makes_the_sessions_directory_private(mem, project, tmp_path, isolated_home):
    """break40recall: a session start's claim made ``<home>/sessions`` with ``os.makedirs``, whose mode reaches
    only the last directory, so the directory of every session's record was 0755 (listable by anyone: which
    sessions ran and when) while the records' own writer makes it 0700."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    assert not (isolated_home / "sessions").exists()
    was = os.umask(0o022)
    try:
        out, _ = _done(_start(USER_SCOPE, "SessionStart", _input(project, transcript, source="startup")))
    finally:
        os.umask(was)
    assert "db-port" in json.loads(out)["hookSpecificOutput"]["additionalContext"]  # control: the block is given
    assert len(os.listdir(isolated_home / "sessions" / "once")) == 1  # control: its claim was made there
    assert (isolated_home / "sessions").stat().st_mode & 0o777 == 0o700
    assert (isolated_home / "sessions" / "once").stat().st_mode & 0o777 == 0o700
