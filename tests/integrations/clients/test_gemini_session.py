"""A headless run of the real Gemini CLI (`gemini -p`) against a scripted local Gemini API
(streamGenerateContent), after `memdir install gemini` in a temp HOME: SessionStart's context block
and BeforeAgent's recall block reach the model, and SessionEnd queues the chat file Gemini wrote.

Gemini CLI hands a hook's additionalContext to the model inside ``<hook_context>``, with ``<`` and
``>`` escaped: the model reads ``&lt;memory_context&gt;``."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.gemini_server import GeminiServer, request_text
from tests.integrations.clients.realclients import binary, client_env

MODEL = "gemini-2.5-flash"  # a fixed model: Gemini's "auto" routing asks a classifier model first


def _installed(tmp_path, isolated_home, project):
    """A store holding db-port, and memdir installed into the Gemini CLI of a user home under ``tmp_path``
    (API-key auth, so the scripted endpoint answers); the user home."""
    user_home = tmp_path / "userhome"
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    assert run_cli("install", "gemini", env={"HOME": str(user_home)}).returncode == 0
    return user_home


@pytest.mark.slow
def test_a_gemini_headless_run_gets_context_and_recall_and_queues_its_chat(tmp_path, isolated_home, project):
    exe = binary("gemini")
    user_home = tmp_path / "userhome"
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    assert run_cli("install", "gemini", env={"HOME": str(user_home)}).returncode == 0
    assert json.loads(settings.read_text())["security"] == {"auth": {"selectedType": "gemini-api-key"}}  # kept
    with GeminiServer(lambda body: "It listens on 5433.") as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project))
        done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "-m", MODEL],
                              capture_output=True, text=True, env=env, cwd=project, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip() == "It listens on 5433."
        main = [body for path, body in server.requests if f"models/{MODEL}:streamGenerateContent" in path]
    assert len(main) == 1, [path for path, _ in server.requests]
    sent = request_text(main[0])
    assert "<hook_context>&lt;memory_context&gt;" in sent and "db-port" in sent  # SessionStart's context block
    assert "&lt;memory_recall&gt;" in sent and "Moved on 2026-11-02." in sent  # BeforeAgent's recall block

    chats = list((user_home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))
    assert len(chats) == 1
    log = isolated_home / "logs" / "consolidate.log"
    deadline = time.time() + 20
    while time.time() < deadline and not (log.exists() and f"event=SessionEnd {chats[0]}" in log.read_text()):
        time.sleep(0.2)
    assert f"event=SessionEnd {chats[0]}" in log.read_text()  # SessionEnd queued the chat Gemini wrote


UV_BODY = "Install and lock dependencies with uv (uv add, uv sync); pip breaks the lock file."
POINTER = "(given earlier in this session, unchanged: uv — memory_read NAME to see one again)"
SESSION = "4d86dd5a-506d-4f87-a565-dd3eb086b20d"


def _reads_once(body: dict):
    """The scripted model: the first prompt calls memdir's memory_read of ``uv`` (Gemini CLI names it
    mcp_memdir_memory_read); every other request is answered "ok"."""
    contents = body.get("contents") or []
    last = json.dumps(contents[-1] if contents else {})
    if "Open the uv memory" in last and "functionResponse" not in last:
        return {"function_call": "mcp_memdir_memory_read", "args": {"name": "uv"}}
    return "ok"


@pytest.mark.slow
def test_a_memory_the_model_read_through_mcp_is_only_named_by_the_next_recall(tmp_path, isolated_home, project):
    """The real Gemini CLI 0.61: a body the model read with memdir's memory_read stands in the conversation; the
    AfterTool hook install registers (tool_name mcp_memdir_memory_read, translated to mcp__memdir__memory_read)
    records it as given, so the next prompt's recall (`gemini --resume` of the same session) names it only — the
    body is only the read's in what the model receives. Without that hook the recall gives it a second time (checked by
    removing it from HOOK_EVENTS: this test then fails). Control: a memory the model did not read is given whole."""
    exe = binary("gemini")
    user_home = tmp_path / "userhome"
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("uv", "Use uv for Python installs, never pip", "project", UV_BODY)
    person.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    assert run_cli("install", "gemini", env={"HOME": str(user_home)}).returncode == 0
    prompts = ["Open the uv memory, please.", "How should I install python packages with uv here?",
               "should I indent with tabs?"]
    marks = []
    with GeminiServer(_reads_once) as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        for number, prompt in enumerate(prompts):
            marks.append(len(server.requests))
            session = ["--session-id", SESSION] if number == 0 else ["--resume", SESSION]
            # --yolo: a headless run may call the MCP tool without asking
            done = subprocess.run([exe, "-p", prompt, "-m", MODEL, "--yolo", *session], capture_output=True,
                                  text=True, env=env, cwd=project, timeout=120, stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
        requests = [body for _, body in server.requests]
    _, asked, control = marks
    assert UV_BODY in json.dumps([b["contents"] for b in requests[:asked]])  # the tool's response carried it
    assert UV_BODY not in request_text(requests[0])  # the first prompt's recall did not give it
    *history, prompt = requests[asked]["contents"]
    assert POINTER in json.dumps(prompt, ensure_ascii=False) and UV_BODY not in json.dumps(prompt)  # only named
    responses = [p["functionResponse"] for c in history for p in c["parts"] if "functionResponse" in p]
    # every copy of the body the model receives is the read's (Gemini 0.61's resume repeats the tool's response)
    assert request_text(requests[asked]).count(UV_BODY) == json.dumps(responses).count(UV_BODY) >= 1
    assert "The linter enforces tabs in every file." in request_text(requests[control])  # control: given whole


@pytest.mark.slow
def test_a_resumed_gemini_session_keeps_the_persons_prompts_and_holds_one_block(tmp_path, isolated_home, project):
    """Gemini CLI 0.61 put SessionStart's additionalContext in front of the first prompt's text, and its `--resume`
    drops every earlier user message that begins with <hook_context>: with memdir installed, the person's earlier
    prompts were gone from a resumed conversation (the third request held "prompt 2" alone; Gemini's own doing:
    the same with a SessionStart hook of the person's, and all three prompts kept with none or with a BeforeAgent
    hook — trial19). Now the block comes with the next prompt (BeforeAgent, a part after the prompt,
    dialects.START_AT_PROMPT): every prompt stays, the first request's block stays in the conversation, and each
    resume with the index unchanged gets one line (memdir.prompt.start.UNCHANGED) instead of a second block."""
    from memdir.prompt.start import UNCHANGED

    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    with GeminiServer(lambda body: "ok") as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        for number in range(3):
            session = ["--session-id", SESSION] if number == 0 else ["--resume", SESSION]
            done = subprocess.run([exe, "-p", f"prompt {number}", "-m", MODEL, *session], capture_output=True,
                                  text=True, env=env, cwd=project, timeout=120, stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
        texts = [request_text(body) for path, body in server.requests if f"models/{MODEL}:" in path]
    assert len(texts) == 3 and texts[2].count('{"text": "ok"}') == 2
    assert all(f'"prompt {n}"' in texts[2] for n in range(3))  # the person's prompts, all kept
    assert [t.count("&lt;memory_context&gt;") for t in texts] == [1, 1, 1]  # the first one's, held
    assert [t.count(UNCHANGED) for t in texts] == [0, 1, 2] and "db-port" in texts[0]


def _interactive_without_a_prompt(exe: str, env: dict, cwd, held_dir, seconds: float = 60) -> list:
    """Start the real Gemini CLI interactively (a pty) in ``cwd``, wait for its SessionStart hook to hold the start
    text in ``held_dir``, then `/quit` without prompting (killed if it does not exit). The held files seen."""
    import os
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: Gemini's own process
        os.chdir(cwd)
        os.execve(exe, [exe, "-m", MODEL, "--session-id", SESSION], env)
    held, deadline = [], time.time() + seconds
    try:
        while time.time() < deadline and not held:
            if select.select([fd], [], [], 0.5)[0]:
                os.read(fd, 65536)
            held = list(held_dir.glob("*.start.txt")) if held_dir.exists() else []
        time.sleep(2)  # the prompt box is drawn; then /quit and Enter
        os.write(fd, b"/quit")
        time.sleep(1)
        os.write(fd, b"\r")
        end, exited = time.time() + 15, False
        while time.time() < end and not exited:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
            exited = bool(os.waitpid(pid, os.WNOHANG)[0])
        if not exited:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return held


def _started_and_quit(exe: str, user_home, home, project, server) -> dict:
    """The environment of a real Gemini run against ``server``, after one interactive start in ``project`` that
    quit before any prompt; asserted: its SessionStart hook held one start text naming db-port (the control that
    the start ran) and no request reached the model."""
    env = client_env(user_home, home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                     GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off", TERM="xterm")
    held = _interactive_without_a_prompt(exe, env, project, home / "sessions")
    assert len(held) == 1 and "db-port" in held[0].read_text()
    assert server.requests == []
    return env


def _prompted(exe: str, env: dict, project, server) -> list[str]:
    """The texts of the model requests after a headless "which port?" prompt of the same session."""
    done = subprocess.run([exe, "-p", "which port?", "-m", MODEL, "--session-id", SESSION], capture_output=True,
                          text=True, env=env, cwd=project, timeout=120, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return [request_text(body) for path, body in server.requests if f"models/{MODEL}:" in path]


@pytest.mark.slow
def test_an_interactive_gemini_session_that_never_prompts_records_no_block_given(tmp_path, isolated_home, project):
    """trial20: Gemini's start block (held for the next prompt, dialects.START_AT_PROMPT) was recorded as given when
    the start held it: the real Gemini CLI 0.61 started interactively and quit before any prompt left the session's
    record saying the conversation holds a block it never received. Now the block is recorded by the prompt that
    gives it. Control: the SessionStart hook did run (the held text names the memory); and a headless run, which
    prompts, records it."""
    from memdir.prompt import recalled

    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    with GeminiServer(lambda body: "ok") as server:
        env = _started_and_quit(exe, user_home, isolated_home, project, server)
        assert recalled.start_given(isolated_home, SESSION, project) is None  # was the block's digest

        sent = _prompted(exe, env, project, server)
    assert [t.count("&lt;memory_context&gt;") for t in sent] == [1]
    assert recalled.start_given(isolated_home, SESSION, project) is not None  # control: given with the prompt


FINDING = "Remember that the release is cut on Thursdays."


@pytest.mark.slow
def test_a_gemini_start_that_never_prompts_uses_up_no_showing_of_the_pending_findings(tmp_path, isolated_home, project):
    """trial22: the agent extractor's pending findings in Gemini's held start text were counted as shown when the
    SessionStart hook held them, not when a prompt gave them: the real Gemini CLI 0.61 started interactively and quit
    before any prompt recorded a showing of a finding the model never received (two such starts, in two sessions,
    and it expired unseen: pending.SHOW_LIMIT). Now the prompt that gives a finding counts it. Control: the start
    ran (its held text names the memory); the headless run that prompts gives the finding once and counts it."""
    from memdir.prompt import pending

    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    assert mem.consolidate([{"role": "user", "content": FINDING}], extractor="agent").pending == (FINDING,)
    layer = mem.session.layer_path("project")
    with GeminiServer(lambda body: "ok") as server:
        env = _started_and_quit(exe, user_home, isolated_home, project, server)
        assert pending.showings(layer) == {}  # was {id: {SESSION}}: counted, never given
        assert [item["text"] for item in pending.active(layer)] == [FINDING]

        sent = _prompted(exe, env, project, server)
    assert len(sent) == 1 and sent[0].count("&lt;memory_pending&gt;") == 1 and "Thursdays" in sent[0]
    assert sent[0].count("&lt;memory_context&gt;") == 1  # control: the held start text came with the prompt
    assert list(pending.showings(layer).values()) == [{SESSION}]  # counted once given


DEPLOY = {"name": "deploy-day", "type": "project", "description": "Deploys happen on Fridays only",
          "body": "Production deploys go out on Fridays only; other days are frozen."}


def _saves_deploy(body: dict):
    """The scripted model: a prompt saying "Remember that we deploy on Fridays only." calls memdir's memory_write
    when the request offers it (else says which tools it had); once the tool answered, "Saved."; else "ok"."""
    contents = body.get("contents") or []
    said = json.dumps([c for c in contents if c.get("role") == "user"])
    offered = [d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []]
    if "functionResponse" in json.dumps(contents[-1] if contents else {}):
        return "Saved."
    if "Remember that we deploy on Fridays only." in said:
        if "mcp_memdir_memory_write" in offered:
            return {"function_call": "mcp_memdir_memory_write", "args": DEPLOY}
        return "no memdir tool"
    return "ok"


@pytest.mark.slow
def test_a_memory_written_in_one_headless_gemini_session_is_recalled_in_the_next(tmp_path, isolated_home, project):
    """trial23, a new user's Gemini CLI 0.61: a headless `gemini -p` offered the model none of memdir's tools (its
    request listed Gemini's read tools only), and the install said nothing of it; now the install says how to allow
    them. Allowed with --allowed-mcp-server-names memdir, the model's memory_write saves the memory, and the next
    session's prompt about it gets its body. Control: the same prompt without it — no memdir tool, nothing saved."""
    exe = binary("gemini")
    user_home = tmp_path / "userhome"
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    installed = run_cli("install", "gemini", env={"HOME": str(user_home)})
    assert installed.returncode == 0 and "--allowed-mcp-server-names memdir" in installed.stdout
    with GeminiServer(_saves_deploy) as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")

        def gemini(prompt: str, *extra) -> str:
            done = subprocess.run([exe, "-p", prompt, "-m", MODEL, *extra], capture_output=True, text=True, env=env,
                                  cwd=project, timeout=120, stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout.strip()

        said = "Remember that we deploy on Fridays only."
        assert gemini(said) == "no memdir tool"  # control: not allowed, not offered
        store = Memory.open(home=isolated_home, project=project, search_vectors="off")
        assert store.list().memories == ()
        assert gemini(said, "--allowed-mcp-server-names", "memdir") == "Saved."
        memory = store.read("deploy-day")
        assert memory.record.origin == "agent" and memory.record.body == DEPLOY["body"]
        asked = len(server.requests)
        gemini("Which day do production deploys go out?")
        sent = request_text(server.requests[asked][1])
    assert "&lt;memory_recall&gt;" in sent and DEPLOY["body"] in sent  # the next session's recall gave the body


RULE = "Run tests with `make check`, never plain pytest"


@pytest.mark.slow
def test_a_gemini_chat_consolidates_the_persons_words_not_the_recall_block_it_holds(tmp_path, isolated_home, project):
    """trial29: Gemini CLI 0.61 writes BeforeAgent's output into its chat file as a user message of its own,
    ``<hook_context>&lt;memory_context&gt;…&lt;memory_recall&gt;…</hook_context>`` (escaped, so the injected-block
    cleaning never matched it): consolidation read memdir's own index and recall lines as the person's words, and the
    next session's <memory_pending> asked the agent to save "[test-runner](test-runner.md) — Run tests with make
    check, never plain pytest" and "Layer: project) — Run tests with …" — lines of a memory that exists. Now a Gemini
    chat's hook blocks are left out. Control: the person's own sentence in the same session is pending."""
    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("test-runner", RULE, "feedback", "**Why:** make check sets PYTHONHASHSEED.\n**How to apply:** any test run.")
    with GeminiServer(lambda body: "ok") as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        done = subprocess.run([exe, "-p", f"Should I run the tests with pytest or make check? {FINDING}", "-m", MODEL],
                              capture_output=True, text=True, env=env, cwd=project, timeout=120,
                              stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        sent = [request_text(body) for path, body in server.requests if f"models/{MODEL}:" in path]
    assert "&lt;memory_recall&gt;" in sent[0] and "PYTHONHASHSEED" in sent[0]  # the recall block reached the model
    chats = list((user_home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))
    assert len(chats) == 1 and "&lt;memory_recall&gt;" in chats[0].read_text()  # and Gemini wrote it in its chat
    # SessionEnd queued the chat and started a detached drain: let it finish (or drain here what it left), then
    # the pending findings are this chat's consolidation, whichever process ran it (the test raced it before)
    from filelock import FileLock

    from memdir.consolidation import queue
    from memdir.prompt import pending

    with FileLock(str(queue.queue_path(isolated_home).parent / "drain.lock"), timeout=120):
        pass
    queue.drain(isolated_home)
    layer = mem.session.layer_path("project")
    assert pending.waiting(layer) == (FINDING,)  # was also the two lines of test-runner
    again = Memory.open(home=isolated_home, project=project, search_vectors="off").consolidate(
        chats[0], extractor="agent")
    assert again.pending == () and pending.waiting(layer) == (FINDING,)  # consolidated once: nothing added


def _saves_then_deletes(body: dict):
    """The scripted model: memory_write of :data:`DEPLOY`, then (its answer back) memory_delete of it, then "Done."."""
    contents = body.get("contents") or []
    offered = [d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []]
    if "mcp_memdir_memory_write" not in offered:
        return "ok"
    answered = json.dumps(contents).count("functionResponse")
    steps = [{"function_call": "mcp_memdir_memory_write", "args": DEPLOY},
             {"function_call": "mcp_memdir_memory_delete", "args": {"name": DEPLOY["name"]}}, "Done."]
    return steps[answered] if answered < len(steps) else "ok"


@pytest.mark.slow
def test_a_memory_deleted_in_the_gemini_session_is_no_pending_finding_at_its_end(tmp_path, isolated_home, project):
    """newuser38: the person asked to remember a fact, the agent saved it, then deleted it in the same session;
    Gemini CLI's SessionEnd consolidation kept the person's sentence as a pending finding, so the next session's
    <memory_pending> asked the agent to save again what was just forgotten. Control: another fact the person said
    in that session is pending."""
    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    said = "Remember that we deploy on Fridays only."
    with GeminiServer(_saves_then_deletes) as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        done = subprocess.run([exe, "-p", f"{said} {FINDING}", "-m", MODEL, "--allowed-mcp-server-names", "memdir",
                               "--approval-mode", "yolo"], capture_output=True, text=True, env=env, cwd=project,
                              timeout=180, stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("Done."), done.stdout
    store = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert [t.name for t in store.session.layer("project").tombstones()] == ["deploy-day"]  # saved, then deleted
    from filelock import FileLock

    from memdir.consolidation import queue
    from memdir.prompt import pending

    with FileLock(str(queue.queue_path(isolated_home).parent / "drain.lock"), timeout=120):
        pass
    queue.drain(isolated_home)
    assert pending.waiting(store.session.layer_path("project")) == (FINDING,)  # before: also the deleted fact
