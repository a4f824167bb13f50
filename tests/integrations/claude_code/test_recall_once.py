"""Once per session (issue 28 item 3): a memory's body is injected by the prompt hook once per session,
again only when it changed or after a compaction; a new session starts fresh; the record is bounded.

The hooks run in this process (``hooks.run``) on real files, a real index and a real session record."""

from __future__ import annotations

import io
import json
import os
import time

import pytest

from memdir.integrations.claude_code import hooks
from memdir.prompt import recalled, sessionfiles
from tests.integrations.claude_code.conftest import BODY, STYLE, recalled_text

_prompt = recalled_text  # the prompt hook's recall (claude_code/conftest.py)


def _event(project, event: str, session_id: str, **fields) -> str:
    payload = {"cwd": str(project), "hook_event_name": event, "session_id": session_id, **fields}
    try:
        return hooks.run(event, stdin=io.StringIO(json.dumps(payload)))
    except hooks.HookSkip as skip:  # a transcript that is not there: nothing queued, the record cleared first
        assert "does not exist; nothing queued" in str(skip)
        return ""


@pytest.fixture
def store(store, monkeypatch):
    """claude_code/conftest.py's db-port and style, and no detached drain started by a session's end here."""
    from memdir.consolidation import queue

    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: None)
    return store


@pytest.mark.slow
def test_four_prompts_of_one_session_get_the_body_once(store, project):
    first = _prompt(project, "s-1")
    assert BODY in first and "<memory_recall>" in first
    for _ in range(3):
        again = _prompt(project, "s-1")
        assert BODY not in again  # once per session
        assert "(given earlier in this session, unchanged: db-port — memory_read NAME" in again
        assert len(again.encode()) < len(first.encode())
    assert BODY in _prompt(project, "s-2")  # control: another session gets it
    assert BODY in _prompt(project, None) and BODY in _prompt(project, None)  # no session id: every prompt


def test_a_memory_that_changed_is_given_again(store, project):
    assert BODY in _prompt(project, "s-1")
    store.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY + " Ask ops before changing it.")
    assert "Ask ops before changing it." in _prompt(project, "s-1")
    assert "Ask ops before changing it." not in _prompt(project, "s-1")  # and then once again


def test_another_memory_in_the_same_session_is_still_given(store, project):
    assert BODY in _prompt(project, "s-1")
    tabs = _prompt(project, "s-1", "should I indent with tabs? what does the linter enforce")
    assert STYLE in tabs and BODY not in tabs


@pytest.mark.parametrize("event, fields, fresh", [
    ("PreCompact", {"transcript_path": "/nonexistent/t.jsonl", "trigger": "auto"}, True),
    ("SessionStart", {"source": "compact"}, True),
    ("SessionStart", {"source": "clear"}, True),
    ("SessionStart", {"source": "resume"}, False),  # control: a resumed conversation still holds the body
])
def test_a_compaction_clears_the_record(store, project, event, fields, fresh):
    assert BODY in _prompt(project, "s-1")
    assert BODY not in _prompt(project, "s-1")
    _event(project, event, "s-1", **fields)
    assert (BODY in _prompt(project, "s-1")) is fresh


PROMPT_EVENT = {"claude-code": "UserPromptSubmit", "codex": "UserPromptSubmit", "gemini": "BeforeAgent"}


def _client_prompt(project, client: str, session_id: str) -> str:
    payload = {"cwd": str(project), "hook_event_name": PROMPT_EVENT[client], "session_id": session_id,
               "prompt": "which port does the dev postgresql listen on?"}
    out = hooks.run(PROMPT_EVENT[client], stdin=io.StringIO(json.dumps(payload)), client=client)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


# Every client memdir installs a prompt hook for, with each event of its own that compacts or clears the
# conversation (and its real input fields), and a control of the same event that does not.
RESTART_CASES = [
    ("claude-code", "PreCompact", {"trigger": "auto", "transcript_path": "/nonexistent/t.jsonl"}, True),
    ("claude-code", "SessionStart", {"source": "compact"}, True),
    ("claude-code", "SessionStart", {"source": "clear"}, True),
    ("claude-code", "SessionStart", {"source": "resume"}, False),
    ("codex", "PreCompact", {"trigger": "manual", "transcript_path": "/nonexistent/t.jsonl"}, True),
    ("codex", "SessionStart", {"source": "compact"}, True),
    ("codex", "SessionStart", {"source": "clear"}, True),
    ("codex", "SessionStart", {"source": "resume"}, False),
    ("codex", "Stop", {"transcript_path": "/nonexistent/t.jsonl"}, False),  # the end of a turn, not a compaction
    # Gemini CLI 0.61 sends PreCompress of trigger auto before every model request, compressing or not (seen with
    # the real binary: test_gemini_session.py); manual is /compress
    ("gemini", "PreCompress", {"trigger": "auto", "transcript_path": "/nonexistent/t.json"}, False),
    ("gemini", "PreCompress", {"trigger": "manual", "transcript_path": "/nonexistent/t.json"}, True),
    ("gemini", "SessionStart", {"source": "clear"}, True),
    ("gemini", "SessionStart", {"source": "resume"}, False),
    ("gemini", "SessionStart", {"source": "startup"}, False),
]


@pytest.mark.parametrize("client, event, fields, fresh", RESTART_CASES)
def test_each_clients_compaction_clears_the_record(store, project, client, event, fields, fresh):
    assert BODY in _client_prompt(project, client, "s-1")
    second = _client_prompt(project, client, "s-1")
    assert BODY not in second and "given earlier in this session, unchanged: db-port" in second
    payload = {"cwd": str(project), "hook_event_name": event, "session_id": "s-1", **fields}
    try:
        hooks.run(event, stdin=io.StringIO(json.dumps(payload)), client=client)
    except hooks.HookSkip as skip:  # the transcript is not there: nothing queued, but the record is cleared first
        assert "does not exist; nothing queued" in str(skip)
    after = _client_prompt(project, client, "s-1")
    assert (BODY in after) is fresh
    assert ("given earlier in this session, unchanged: db-port" in after) is not fresh


def test_every_client_with_a_prompt_hook_has_its_compaction_in_the_one_table():
    from memdir.integrations.clients import INSTALLERS

    prompting = {c for c, events in hooks.DIALECTS.items() if "prompt" in events.values()}
    assert prompting == {"claude-code", "codex", "gemini"}
    assert set(hooks.RESTARTS) == set(hooks.DIALECTS) and set(hooks.DIALECTS) <= set(INSTALLERS)
    from memdir.integrations.clients import installer

    for client in prompting:  # a compaction event of each; every event of the table is one memdir installs
        assert hooks.RESTARTS[client]
        assert set(hooks.RESTARTS[client]) <= set(hooks.DIALECTS[client]) & set(installer(client).HOOK_EVENTS)
    assert {c for c in hooks.RESTARTS if hooks.RESTARTS[c]} == prompting  # control: Cursor records nothing
    assert hooks.conversation_restarts("gemini", "PreCompress", {"trigger": "manual"})
    assert not hooks.conversation_restarts("gemini", "PreCompress", {"trigger": "auto"})
    assert not hooks.conversation_restarts("gemini", "PreCompact", {})  # Claude Code's name is not Gemini's


def test_the_record_is_bounded_and_pruned(isolated_home, store, project, monkeypatch):
    monkeypatch.setattr(sessionfiles, "MAX_SESSIONS", 3)
    for i in range(5):
        assert BODY in _prompt(project, f"old-{i}")
    files = sorted((isolated_home / sessionfiles.SESSIONS_DIR).glob("*.json"))
    assert sorted(p.name for p in (isolated_home / sessionfiles.SESSIONS_DIR).iterdir()) == sorted(
        [sessionfiles.LOCK_FILE] + [f.name for f in files])  # the session files and their lock, nothing else
    assert len(files) == 3 and all(oct(f.stat().st_mode & 0o777) == "0o600" for f in files)
    stale = files[0]
    os.utime(stale, (time.time() - 8 * 86400,) * 2)
    assert sessionfiles.prune(isolated_home) == 1 and not stale.exists()
    assert len(list((isolated_home / sessionfiles.SESSIONS_DIR).glob("*.json"))) == 2  # control: the recent ones stay
    recalled.record(isolated_home, "big", {f"project/m{i}": "x" for i in range(recalled.MAX_SHOWN + 20)}, project=None)
    kept = recalled.shown(isolated_home, "big", None)
    assert len(kept) == recalled.MAX_SHOWN and "project/m0" not in kept and f"project/m{recalled.MAX_SHOWN + 19}" in kept


def test_a_record_that_cannot_be_written_never_costs_the_block(store, project, isolated_home, tmp_path,
                                                              monkeypatch):
    from memdir import runtime

    (isolated_home / sessionfiles.SESSIONS_DIR).write_text("not a directory")  # writes in the home fail
    spare = tmp_path / "run"
    spare.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(spare))
    assert BODY in _prompt(project, "s-1")
    assert BODY not in _prompt(project, "s-1")  # kept in the runtime directory: once per session still
    assert BODY in _prompt(project, "s-2")  # control: another session
    os.chmod(spare, 0o755)  # no private runtime directory either (others may enter it)
    monkeypatch.setattr(runtime, "SHARED_TMP", str(tmp_path / "no-such-dir"))
    (tmp_path / "cache").write_text("not a directory")  # nor the last place, <user cache dir>/memdir-run
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert runtime.private_dir(create=True)[0] is None
    assert BODY in _prompt(project, "s-3")
    assert BODY in _prompt(project, "s-3")  # given again: nothing could be recorded, the safe side
