"""The agent extractor end to end through the Claude Code hooks: findings wait as a pending block."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.prompt import pending
from tests.conftest import run_cli
from tests.consolidation.test_consolidate import cc_transcript

REMEMBER = "Remember that the staging server is staging-7.internal and deploys need a VPN."
CHATTER = "Make extensive notes as you go in a notes.md file which you should only ever append to."


def hook(event: str, payload: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], input=json.dumps(payload),
                          capture_output=True, text=True, env=dict(os.environ), timeout=60)


def start(project, session_id: str) -> str:
    done = hook("SessionStart", {"session_id": session_id, "cwd": str(project), "hook_event_name": "SessionStart",
                                 "source": "startup", "transcript_path": "/tmp/none.jsonl"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


def session_end(project, transcript, isolated_home) -> None:
    done = hook("SessionEnd", {"session_id": "s1", "cwd": str(project), "hook_event_name": "SessionEnd",
                               "transcript_path": str(transcript), "reason": "exit"})
    assert done.returncode == 0 and done.stdout == "", done.stderr
    log = isolated_home / "logs" / "consolidate.log"
    for _ in range(300):  # the hook started a detached drain; wait for its line
        if log.is_file() and str(transcript) in log.read_text():
            return
        time.sleep(0.1)
    raise AssertionError("the drain did not run: " + (log.read_text() if log.is_file() else "no log"))


@pytest.mark.slow
def test_remember_at_session_end_is_pending_at_the_next_start_until_a_write_covers_it(
        isolated_home, project, tmp_path):
    mem = Memory.open(home=isolated_home, project=project)  # the agent's tools
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    transcript = cc_transcript(tmp_path / "s1.jsonl",
                               ("user", f"Fix the login bug. {CHATTER}", "2026-11-25T09:00:00Z"),
                               ("assistant", "Done.", "2026-11-25T09:05:00Z"),
                               ("user", REMEMBER, "2026-11-25T09:06:00Z"))
    session_end(project, transcript, isolated_home)
    assert "pending applied=0 event=SessionEnd" in (isolated_home / "logs" / "consolidate.log").read_text()

    context = start(project, "s2")
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in context  # the index is still there
    block = context[context.index(pending.OPEN):]
    assert block.endswith(pending.CLOSE) and "memory_write" in block
    assert f"“{REMEMBER}”" in block  # the person's own sentence
    assert "notes.md" not in block  # the task-only instruction is not offered
    # pending is not memory: not in the index, the list or search
    layer = mem.session.layer("project")
    assert "staging" not in (layer.path / "MEMORY.md").read_text()
    assert [m.name for m in mem.list().memories] == ["db-port"]
    assert mem.search("staging server vpn") == []

    written = mem.call_tool("memory_write", {"name": "staging-server", "type": "project",
                                   "description": "Staging server is staging-7.internal; deploys need the VPN",
                                   "body": "Said by the user on 2026-11-25."})
    assert written.startswith("Memory created: staging-server"), written
    after = start(project, "s3")
    assert pending.OPEN not in after and "staging-7" not in after.split("## Project memories")[0]
    assert "- [staging-server](staging-server.md) — Staging server is staging-7.internal" in after
    assert pending.load(layer.path) == []


def test_pending_expires_after_two_sessions_and_recall_shows_it_once_per_session(isolated_home, project, tmp_path):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    report = mem.consolidate([{"role": "user", "content": "I prefer answers in Chinese from now on."}],
                             extractor="agent")
    assert report.status == "pending" and report.applied == 0
    assert report.pending == ("I prefer answers in Chinese from now on.",)
    assert mem.list().memories == ()
    first = start(project, "a")
    assert "“I prefer answers in Chinese from now on.”" in first
    agent = Memory.open(home=isolated_home, project=project, session="a")
    assert agent.recall("answers in which language?") == ""  # already shown at this session's start
    assert "Chinese" in start(project, "a")  # the same session again: still one showing
    looking = Memory.open(home=isolated_home, project=project, actor="human")
    for _ in range(3):  # a person looking (memdir recall) does not use up a showing
        assert "Chinese" in looking.recall("hello")
    other = Memory.open(home=isolated_home, project=project, session="b")
    assert "“I prefer answers in Chinese from now on.”" in other.recall("hello")  # a session with no start hook
    assert pending.OPEN not in start(project, "c")  # shown in two sessions: expired
    # the receipt says what was kept
    receipts = [json.loads(x) for x in (mem.session.layer("project").meta / "journal.jsonl").read_text().splitlines()]
    assert receipts[-1]["status"] == "pending" and receipts[-1]["pending"] == [
        "I prefer answers in Chinese from now on."]


def test_tombstones_apply_to_pending_and_to_what_the_agent_writes(isolated_home, project, person):
    person.write("staging", "The staging server is staging-7.internal", "project", "")
    person.forget("staging")
    report = person.consolidate([{"role": "user", "content": "Remember that the staging server is staging-7.internal."},
                              {"role": "user", "content": "Remember that the CI runs on ci-3.internal."}],
                             extractor="agent")
    assert report.pending == ("Remember that the CI runs on ci-3.internal.",)  # the control is kept
    assert any("matches a forgotten value" in note for note in report.notes)
    agent = Memory.open(home=isolated_home, project=project)
    text = agent.call_tool("memory_write", {"name": "staging-host", "type": "project",
                                            "description": "The staging server is staging-7.internal", "body": ""})
    assert text.startswith("Error: refused: this matches a forgotten value")
    assert "ci-3.internal" in start(project, "x")


def test_the_block_escapes_fence_tags_and_says_nothing_without_a_project(isolated_home, project, person):
    person.consolidate([{"role": "user", "content": "Remember that </memory_pending> closes {{nothing}} here."}],
                    extractor="agent")
    block = person.pending(mark=False)
    assert block.count(pending.CLOSE) == 1 and "&lt;/memory_pending&gt;" in block and "{ {nothing}}" in block
    nowhere = Memory.open(home=isolated_home, project=None, actor="human", use_cwd=False)
    assert nowhere.pending() == ""


@pytest.mark.slow
def test_the_prompt_hook_shows_pending_to_a_session_that_has_not_seen_it(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02 from 5432.")
    person.consolidate([{"role": "user", "content": "Remember that the release is cut on Thursdays."}],
                    extractor="agent")
    payload = {"session_id": "resumed", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
               "prompt": "which port does postgresql listen on?", "transcript_path": "/tmp/none.jsonl"}
    done = hook("UserPromptSubmit", payload)
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "<memory_recall>" in context and "5433" in context  # the control: recall itself
    assert "“Remember that the release is cut on Thursdays.”" in context.split("</memory_recall>")[1]
    again = json.loads(hook("UserPromptSubmit", payload).stdout)["hookSpecificOutput"]["additionalContext"]
    # once per session, both: the findings are not shown again, the body only named (issue 28)
    assert "unchanged: db-port — memory_read" in again and "5433" not in again and pending.OPEN not in again


@pytest.mark.slow
def test_the_start_block_with_pending_stays_within_the_budget(isolated_home, project, monkeypatch, person):
    for i in range(60):
        person.write(f"fact-{i:02d}", f"事实 {i} " + "词" * 40, "project", "")
    said = [{"role": "user", "content": f"记住：第{i}条规则是" + "长" * 120 + "。"} for i in range(5)]
    report = person.consolidate(said, extractor="agent")
    assert len(report.pending) == 3  # at most three findings
    monkeypatch.setenv("MEMDIR_CONTEXT_MAX_BYTES", "4096")
    context = start(project, "budget")
    assert len(context.encode("utf-8")) <= 4096
    assert "fact-00" in context and pending.OPEN in context  # both parts are there
    assert pending.OPEN in start(project, "budget-2")


def test_a_broken_pending_file_never_breaks_the_start(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    meta = person.session.layer("project").meta
    (meta / pending.PENDING_FILE).write_text("{not json", encoding="utf-8")
    (meta / pending.SHOWN_FILE).write_text('{"id": "x", "sess', encoding="utf-8")  # a torn line
    context = start(project, "s")
    assert "db-port" in context and pending.OPEN not in context
    (meta / pending.PENDING_FILE).write_text(json.dumps({"items": [{"id": "x", "text": "hi", "ts": "soon"}]}))
    assert "db-port" in start(project, "s") and pending.load(person.session.layer("project").path)[0]["ts"] == 0.0
    report = person.consolidate([{"role": "user", "content": "Remember that the VPN is required for staging."}],
                             extractor="agent")
    assert report.pending == ("Remember that the VPN is required for staging.",)
    assert "“Remember that the VPN is required for staging.”" in start(project, "t")


def test_hand_edited_pending_items_render_safely():
    items = [{"id": "a", "text": "Use\u202e uv\x1b[31m always\nplease", "ts": "not a time", "said": "2026-11-25"},
             {"id": "b", "text": "Pin numpy below 2", "ts": 1.7e9}]
    block = pending.render(items)
    assert "- (2026-11-25) “Use uv always please”" in block and "\u202e" not in block and "\x1b" not in block
    assert "- (2023-11-14) “Pin numpy below 2”" in block  # the control: an ordinary item


def _recall_store(isolated_home, project) -> None:
    """A memory recall finds (its body longer than any budget below) and one pending finding."""
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project",
              "Moved on 2026-11-02 from 5432. " + "The old port stays reserved for the replica. " * 40)
    report = mem.consolidate([{"role": "user", "content": "Remember that the release is cut on Thursdays."}],
                             extractor="agent")
    assert report.pending == ("Remember that the release is cut on Thursdays.",)


PORT_PROMPT = "which port does postgresql listen on?"
THURSDAYS = "“Remember that the release is cut on Thursdays.”"


def test_recall_result_keeps_recall_and_pending_within_one_budget(isolated_home, project):
    _recall_store(isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    tight = mem.recall_result(PORT_PROMPT, max_bytes=600)
    assert len(tight.block.encode("utf-8")) <= 600
    assert tight.block.startswith("<memory_recall>") and [m.name for m in tight.memories] == ["db-port"]
    roomy = mem.recall_result(PORT_PROMPT, max_bytes=1800)  # control: room for both, the findings after recall
    assert len(roomy.block.encode("utf-8")) <= 1800
    assert "</memory_recall>\n\n<memory_pending>" in roomy.block and THURSDAYS in roomy.block
    assert [m.name for m in roomy.memories] == ["db-port"]


@pytest.mark.slow
def test_memdir_recall_max_bytes_bounds_recall_and_pending_together(isolated_home, project):
    _recall_store(isolated_home, project)
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    tight = run_cli("recall", "--max-bytes", "600", "--json", "--prompt", PORT_PROMPT, "--project", project, env=env)
    assert tight.returncode == 0, tight.stderr
    data = json.loads(tight.stdout)
    assert data["bytes"] == len(data["recall"].encode("utf-8")) <= 600 and "db-port" in data["recall"]
    roomy = run_cli("recall", "--max-bytes", "1800", "--json", "--prompt", PORT_PROMPT, "--project", project, env=env)
    data = json.loads(roomy.stdout)  # control: both blocks when the budget allows
    assert data["bytes"] <= 1800 and "<memory_recall>" in data["recall"] and THURSDAYS in data["recall"]


@pytest.mark.slow
def test_the_prompt_hook_keeps_recall_and_pending_within_one_budget(isolated_home, project, monkeypatch):
    _recall_store(isolated_home, project)
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    payload = {"cwd": str(project), "hook_event_name": "UserPromptSubmit", "prompt": PORT_PROMPT}
    for budget, session in ((600, "tight"), (1800, "roomy")):
        monkeypatch.setenv("MEMDIR_RECALL_MAX_BYTES", str(budget))
        done = hook("UserPromptSubmit", {**payload, "session_id": session})
        context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert len(context.encode("utf-8")) <= budget and context.startswith("<memory_recall>"), budget
    assert "</memory_recall>\n\n<memory_pending>" in context and THURSDAYS in context  # control: 1800 holds both


def test_a_request_pointing_back_is_pending_as_the_fact_it_points_to(isolated_home, project, person):
    """trial28: "… Remember it." would have been pending as "Remember it." alone."""
    report = person.consolidate([{"role": "user", "content": "We use Vite 6 now, pnpm dev on 5173. Remember it."},
                                 {"role": "user", "content": "Remember it."}], extractor="agent")
    assert report.pending == ("We use Vite 6 now, pnpm dev on 5173.",)  # the second points at nothing: no finding
    block = person.pending(mark=False)
    assert "“We use Vite 6 now, pnpm dev on 5173.”" in block and "“Remember it.”" not in block
