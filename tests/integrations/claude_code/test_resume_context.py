"""Once per session for the context block (issue 28 item 3): a SessionStart that resumes a conversation which
still holds the block an earlier start of the session gave (Codex's `exec resume`, Claude Code's `--resume`:
source resume) gives the block again only when it changed, else one line (memdir.prompt.start.UNCHANGED).
Measured with the real Codex 0.171: each resume added another copy, [1, 2, 3] blocks over three prompts.

The hooks run in this process (``hooks.run``) on real files and a real session record."""

from __future__ import annotations

import io
import json

import pytest

from memdir.integrations.claude_code import hooks
from memdir.prompt import recalled, sessionfiles
from memdir.prompt.start import UNCHANGED

BLOCK = "<memory_context>"


def _start(project, session_id: str, source: str, client: str = "codex") -> str:
    payload = {"cwd": str(project), "hook_event_name": "SessionStart", "session_id": session_id, "source": source}
    out = hooks.run("SessionStart", stdin=io.StringIO(json.dumps(payload)), client=client)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


@pytest.fixture
def store(person, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")  # no warm process started by the session start
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    return person


@pytest.mark.parametrize("client", ["codex", "claude-code"])
def test_a_resume_with_the_index_unchanged_gets_one_line_not_a_second_block(store, project, client):
    first = _start(project, "s-1", "startup", client)
    assert first.count(BLOCK) == 1 and "[db-port](db-port.md)" in first and UNCHANGED not in first
    root = store.session.project_root
    assert recalled.start_given(store.session.home, "s-1", root) == recalled.digest(first)  # the block given, recorded
    prompt = {"cwd": str(project), "hook_event_name": "UserPromptSubmit", "session_id": "s-1",
              "prompt": "which port does the dev postgresql listen on?"}
    assert "Moved from 5432" in hooks.run("UserPromptSubmit", stdin=io.StringIO(json.dumps(prompt)), client=client)
    assert _start(project, "s-1", "resume", client) == UNCHANGED  # recall's record kept the block's digest
    assert _start(project, "s-1", "resume", client) == UNCHANGED  # and again: one line per resume
    # Control, same session: the index changed, so the whole new block is given (the model needs it) ...
    store.write("uv", "Use uv for Python installs", "project", "uv add, uv sync; never pip.")
    changed = _start(project, "s-1", "resume", client)
    assert changed.count(BLOCK) == 1 and "[uv](uv.md)" in changed and "[db-port](db-port.md)" in changed
    assert UNCHANGED not in changed
    assert _start(project, "s-1", "resume", client) == UNCHANGED  # ... and recorded: the next resume is a line


def test_a_new_session_a_compaction_and_a_clear_get_the_whole_block(store, project):
    assert _start(project, "s-1", "startup").count(BLOCK) == 1
    assert _start(project, "s-1", "resume") == UNCHANGED  # the control: this session's resume
    assert _start(project, "s-2", "startup").count(BLOCK) == 1  # another session: its conversation holds none
    assert _start(project, "s-3", "resume").count(BLOCK) == 1  # a resume of a session with no block recorded
    compacted = _start(project, "s-1", "compact")  # the conversation is a summary now: the block again
    assert compacted.count(BLOCK) == 1 and UNCHANGED not in compacted
    assert _start(project, "s-1", "resume") == UNCHANGED  # the compaction's block is the one held now
    assert _start(project, "s-1", "clear").count(BLOCK) == 1
    assert _start(project, "s-1", "startup").count(BLOCK) == 1  # a startup never takes the record's word


def test_a_precompact_clears_the_recorded_block(store, project):
    assert _start(project, "s-1", "startup").count(BLOCK) == 1
    payload = {"cwd": str(project), "hook_event_name": "PreCompact", "session_id": "s-1", "trigger": "manual"}
    with pytest.raises(hooks.HookSkip, match="no transcript_path"):  # cleared first, then nothing to queue
        hooks.run("PreCompact", stdin=io.StringIO(json.dumps(payload)), client="codex")
    assert recalled.start_given(store.session.home, "s-1", store.session.project_root) is None
    assert _start(project, "s-1", "resume").count(BLOCK) == 1


def _prompt(project, session_id: str, prompt: str, client: str = "gemini") -> str:
    payload = {"cwd": str(project), "hook_event_name": "BeforeAgent", "session_id": session_id, "prompt": prompt}
    out = hooks.run("BeforeAgent", stdin=io.StringIO(json.dumps(payload)), client=client)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_gemini_gets_the_start_block_with_its_next_prompt_and_a_resume_gets_the_line(store, project):
    """Gemini CLI 0.61's `--resume` drops every earlier user message that begins with a SessionStart's
    <hook_context> — the person's prompts with it (trial19, measured with a SessionStart hook of the person's own).
    So Gemini's start block comes with the next prompt's (BeforeAgent) output, after the prompt, which its resume
    keeps; the conversation then holds it, and a resume gets the one line. Control: Codex's start prints it."""
    assert _start(project, "g-1", "startup", "gemini") == ""  # held
    first = _prompt(project, "g-1", "which port does the dev postgresql listen on?")
    assert first.count(BLOCK) == 1 and first.index(BLOCK) < first.index("<memory_recall>")
    assert "Moved from 5432 on 2026-11-02." in first  # the prompt's recall beside it
    assert BLOCK not in _prompt(project, "g-1", "and the staging one?")  # given once
    assert _start(project, "g-1", "resume", "gemini") == ""
    assert _prompt(project, "g-1", "thanks").startswith(UNCHANGED)  # the conversation holds the block
    assert _start(project, "g-2", "startup", "codex").count(BLOCK) == 1  # control: Codex's start prints it


def test_a_resume_does_not_show_the_pending_findings_of_this_session_again(store, project):
    """The agent extractor's pending findings follow the block; a resume's conversation holds the ones an earlier
    start of the session showed, so they are not shown again (as the prompt hook shows them once per session).
    Control: a finding not shown in this session yet follows the one line."""
    assert _start(project, "s-1", "startup").count(BLOCK) == 1  # no finding yet
    report = store.consolidate([{"role": "user", "content": "Remember that the release is cut on Thursdays."}],
                               extractor="agent")
    assert report.pending == ("Remember that the release is cut on Thursdays.",)
    resumed = _start(project, "s-1", "resume")
    assert resumed.startswith(UNCHANGED + "\n\n<memory_pending>") and "Thursdays" in resumed  # new to s-1
    assert _start(project, "s-1", "resume") == UNCHANGED  # shown in s-1 already: neither again
    other = _start(project, "s-2", "startup")
    assert other.count(BLOCK) == 1 and "Thursdays" in other  # another session is shown it


def test_a_held_start_text_is_taken_once_and_an_old_one_no_prompt_took_is_pruned(tmp_path):
    """recalled.hold_start / take_start: the text comes back once; a held text no prompt took is removed after
    MAX_AGE_DAYS, and is not counted among the session files (control: a fresh one stays)."""
    import os
    import time

    home = tmp_path / "mem"
    home.mkdir()  # a home made (one not made yet holds the text in the runtime directory: test_new_home_hooks)
    assert recalled.hold_start(home, "g-1", "<memory_context>A</memory_context>", "/p")
    assert recalled.take_start(home, "g-1", "/p") == ("<memory_context>A</memory_context>", None)
    assert recalled.take_start(home, "g-1", "/p") == ("", None)  # given once
    assert recalled.hold_start(home, "old", "x", "/p") and recalled.hold_start(home, "new", "y", "/p")
    old = os.path.join(home, sessionfiles.SESSIONS_DIR, recalled.session_key("old\0/p")[:16] + sessionfiles.HELD_SUFFIX)
    stale = time.time() - (sessionfiles.MAX_AGE_DAYS + 1) * 86400
    os.utime(old, (stale, stale))
    assert sessionfiles.prune(home) == 1 and not os.path.exists(old)
    assert recalled.take_start(home, "new", "/p") == ("y", None)  # control: the fresh one stays


def test_a_start_held_in_one_project_is_not_given_by_a_prompt_in_another(store, project):
    """break20: Gemini's start block, held for the session's next prompt, was taken by the next prompt of that
    session id whatever its cwd: a prompt in another project was given this project's memory index (projects never
    see each other's memories). Control: the prompt in the project itself gets it, once."""
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    assert _start(project, "g-9", "startup", "gemini") == ""  # held
    elsewhere = _prompt(other, "g-9", "which port does the dev postgresql listen on?")
    assert BLOCK not in elsewhere and "5433" not in elsewhere  # was the block naming this project's memories
    here = _prompt(project, "g-9", "which port does the dev postgresql listen on?")
    assert here.count(BLOCK) == 1 and "5433" in here  # control


def test_a_held_start_no_prompt_gave_is_not_recorded_as_given(store, project):
    """trial20: Gemini's start block was recorded as given when the start held it, so a session that never prompted
    (the person quit before typing) had a resume told "unchanged" of a block its conversation never held. Recorded
    when the prompt gives it. Control: a session that did prompt gets the line on resume."""
    root = store.session.project_root
    assert _start(project, "g-3", "startup", "gemini") == ""  # held, never given: no prompt came
    assert recalled.start_given(store.session.home, "g-3", root) is None
    assert _start(project, "g-3", "resume", "gemini") == ""
    resumed = _prompt(project, "g-3", "which port does the dev postgresql listen on?")
    assert resumed.count(BLOCK) == 1 and UNCHANGED not in resumed  # was the one line, and no block at all
    assert recalled.start_given(store.session.home, "g-3", root) == recalled.digest(resumed.split("\n\n<memory_recall>")[0])
    assert _start(project, "g-3", "resume", "gemini") == ""  # control: given now, so the resume is a line
    assert _prompt(project, "g-3", "thanks").startswith(UNCHANGED)


def test_the_start_given_record_is_per_project(store, project):
    """trial20: the record of the block a session was given was keyed by session only: the same session id in
    another project with the same block (no project memories: the user layer alone) was told "unchanged" of a block
    its conversation never held. Control: the same session id in the same project still gets the line on resume."""
    store.delete("db-port", "project")
    store.write("editor", "The person edits in Helix", "user", "Keybindings: kakoune-like.")
    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    here = _start(project, "c-1", "startup")
    assert here.count(BLOCK) == 1 and "[editor](editor.md)" in here
    there = _start(other, "c-1", "resume")
    assert there.count(BLOCK) == 1 and "[editor](editor.md)" in there and UNCHANGED not in there
    assert _start(other, "c-1", "resume") == UNCHANGED  # that project's conversation holds it now
    assert _start(project, "c-1", "startup").count(BLOCK) == 1
    assert _start(project, "c-1", "resume") == UNCHANGED  # control: same session, same project


def test_start_texts_held_for_sessions_that_never_prompt_are_bounded_by_count(store, project, monkeypatch):
    """A Gemini CLI session that starts and never prompts leaves its held start text (hold_start) behind: 80 such
    starts through the real hook kept 80 files, bounded by age alone. They are bounded by count too (the newest
    MAX_SESSIONS), counted apart from the session records: control, a session's record and the newest held text
    stay, and that session's next prompt still gets its block."""
    monkeypatch.setattr(sessionfiles, "MAX_SESSIONS", 3)
    sessions = store.session.home / sessionfiles.SESSIONS_DIR
    assert "Moved from 5432 on 2026-11-02." in _prompt(project, "kept", "which port does the dev postgresql listen on?")
    records = sorted(p.name for p in sessions.glob("*.json"))
    assert len(records) == 1
    for i in range(6):
        assert _start(project, f"g-{i}", "startup", "gemini") == ""  # held, never prompted
    held = sorted(sessions.glob("*" + sessionfiles.HELD_SUFFIX))
    assert len(held) == 3  # bounded: the oldest three went
    assert sorted(p.name for p in sessions.glob("*.json")) == records  # control: the records are not pushed out
    assert _prompt(project, "g-5", "thanks").count(BLOCK) == 1  # control: the newest held text is still given
