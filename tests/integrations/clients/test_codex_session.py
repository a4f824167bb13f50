"""A whole headless session of the real Codex CLI (`codex exec`) against a scripted local Responses
API, after `memdir install codex` in a temp HOME/CODEX_HOME: SessionStart's context block and
UserPromptSubmit's recall block reach the model; the model finds memdir's deferred MCP tools with
Codex's tool search (the context block's guidance), its memory_write creates the memory and the
result comes back; the Stop hook queues the rollout Codex wrote under $CODEX_HOME/sessions and the
drain consolidates it.

Codex runs a hook only once the person trusted it (its /hooks review, stored as a hash of the hook
in config.toml). The session here runs with `--dangerously-bypass-hook-trust`, Codex's documented
switch for automation that vets its hooks itself — the one the install note names; the control
run without it shows an untrusted hook does not run."""

from __future__ import annotations

import json
import subprocess
import time
import tomllib

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.responses_server import ResponsesServer, input_text

WRITE = {"name": "indent-style", "type": "feedback", "description": "Indent Python with 4 spaces, never tabs",
         "body": "**Why:** the linter.\n**How to apply:** every Python file."}
PROMPT = "Which port does the dev PostgreSQL use? I prefer 4 spaces to tabs. Remember that we deploy on Fridays only."
# A model from Codex's own catalog: Codex offers it tool_search and defers MCP tools behind it,
# as it does for people (an unknown model name gets fallback metadata and no tool search).
MODEL = "gpt-5.5"
WAITS = 20  # steps the scripted model waits (0.5 s each) for Codex to finish loading the MCP server's tools


class ScriptedModel:
    """The scripted model: search the tools for memdir's, call its memory_write, end the turn."""

    def __init__(self):
        self.waits = 0

    def __call__(self, body: dict):
        items = body.get("input") or []
        last = items[-1] if items else {}
        if last.get("type") == "function_call_output" and _called(items, last.get("call_id")) == "memory_write":
            return "Saved the indent preference."
        if last.get("type") == "tool_search_output":
            if "memory_write" in _found(last, "mcp__memdir"):
                return {"function_call": "memory_write", "namespace": "mcp__memdir", "arguments": WRITE}
            self.waits += 1
            if self.waits > WAITS:
                return "memdir's tools never appeared."
            # Codex sends the first request before a slow MCP server has listed its tools: wait a step.
            return {"function_call": "exec_command", "arguments": {"cmd": "sleep 0.5"}}
        return {"tool_search": {"query": "memdir memory write"}}


def _called(items: list, call_id) -> str | None:
    """The name of the function call ``call_id`` among a request's input items."""
    return next((i.get("name") for i in items if i.get("type") == "function_call" and i.get("call_id") == call_id),
                None)


def _found(search_output: dict, namespace: str) -> list[str]:
    """The tool names a tool search returned inside ``namespace``."""
    return [tool.get("name") for found in search_output.get("tools") or [] if found.get("name") == namespace
            for tool in found.get("tools") or []]


def _run_codex(exe, env, project, server, *extra, prompt=PROMPT, resume=None):
    """``codex exec`` of ``prompt`` against ``server`` with the options ``extra``; ``resume``: the id of the
    session it goes on with (``codex exec resume ID``: a person's next prompt in that session)."""
    args = [exe, "exec", "--skip-git-repo-check", *extra,
            "-c", 'model_provider="scripted"', "-c", f'model="{MODEL}"',
            "-c", f'model_providers.scripted={{name="scripted", base_url="{server.url}", wire_api="responses"}}',
            *(["resume", resume] if resume else []), prompt]
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=project, timeout=120,
                          stdin=subprocess.DEVNULL)


def _setup(tmp_path, isolated_home, project):
    exe = binary("codex")
    user_home = tmp_path / "userhome"
    codex_home = user_home / ".codex"
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    done = run_cli("install", "codex", env={"HOME": str(user_home), "CODEX_HOME": str(codex_home)})
    assert done.returncode == 0, done.stderr
    assert "--dangerously-bypass-hook-trust" in done.stdout  # the install note says how automation runs them
    env = client_env(user_home, isolated_home, CODEX_HOME=str(codex_home), OPENAI_API_KEY="dummy")
    return exe, env, codex_home


@pytest.mark.slow
def test_a_codex_exec_session_gets_context_recall_writes_through_mcp_and_consolidates(
        tmp_path, isolated_home, project):
    exe, env, codex_home = _setup(tmp_path, isolated_home, project)
    with ResponsesServer(ScriptedModel()) as server:
        done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust")
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip().endswith("Saved the indent preference."), done.stdout + done.stderr
        first = input_text(server.requests[0])
        assert "<memory_context>" in first and "db-port" in first  # SessionStart's context block
        assert "<memory_recall>" in first and "Moved on 2026-11-02." in first  # the recall block's body
        assert 'search your tools for \\"memdir\\"' in first  # the guidance Codex's tool search answers
        assert any(t.get("type") == "tool_search" for t in server.requests[0]["tools"])
        answered = server.requests[-1]["input"]
        results = [i for i in answered if i.get("type") == "function_call_output"
                   and _called(answered, i.get("call_id")) == "memory_write"]
        assert len(results) == 1 and "Memory created: indent-style" in json.dumps(results[0])  # the result came back
    memory = Memory.open(home=isolated_home, project=project).read("indent-style")
    assert memory.record.description == WRITE["description"] and memory.record.origin == "agent"

    rollouts = list((codex_home / "sessions").rglob("rollout-*.jsonl"))
    assert len(rollouts) == 1
    log = isolated_home / "logs" / "consolidate.log"
    deadline = time.time() + 20
    while time.time() < deadline and not (log.exists() and f"ok: {rollouts[0]}" in log.read_text()):
        time.sleep(0.2)
    assert f"ok: {rollouts[0]}" in log.read_text()  # Stop queued the rollout and the drain consolidated it
    assert f"event=Stop {rollouts[0]}" in log.read_text()
    # trial23: what the agent saved during the session is not saved again by the Stop's consolidation (it was: a
    # user memory "I prefer 4 spaces to tabs." beside the agent's indent-style; with a memory of the same name, a
    # candidate in `memdir review` to replace the agent's text by the quoted sentence); control: the sentence the
    # agent did not save is saved by the consolidation
    store = Memory.open(home=isolated_home, project=project, actor="human")
    extracted = [(m.scope, m.description) for m in store.list().memories if m.origin == "extracted"]
    assert extracted == [("project", "We deploy on Fridays only.")], extracted
    assert [c.name for c in store.review().candidates] == []
    with ResponsesServer(lambda body: "ok") as server:  # the next session: a prompt the saved memory bears on
        done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust",
                          prompt="Should I indent this Python file with tabs?")
        assert done.returncode == 0, done.stdout + done.stderr
        sent = input_text(server.requests[0])
    assert "<memory_recall>" in sent and "every Python file." in sent  # the body the agent wrote, recalled


@pytest.mark.slow
def test_codex_runs_no_untrusted_hook(tmp_path, isolated_home, project):
    """The control: the same install without the bypass (and with no trust recorded) — Codex runs
    none of memdir's hooks, so no context block reaches the model, while the MCP server still does."""
    exe, env, codex_home = _setup(tmp_path, isolated_home, project)
    with ResponsesServer(lambda body: "ok") as server:
        done = _run_codex(exe, env, project, server)
        assert done.returncode == 0, done.stdout + done.stderr
        first = input_text(server.requests[0])
        assert PROMPT in first and "<memory_context>" not in first and "<memory_recall>" not in first
    assert "hook: SessionStart" not in done.stderr
    assert not (isolated_home / "logs" / "consolidate.log").exists()


UV_BODY = "Install and lock dependencies with uv (uv add, uv sync); pip breaks the lock file."
POINTER = "(given earlier in this session, unchanged: uv — memory_read NAME to see one again)"


class ReadsOnce(ScriptedModel):
    """The scripted model of a session of several prompts: the first searches the tools for memdir's and
    calls its memory_read of ``uv``; every other turn is answered "ok"."""

    def __call__(self, body: dict):
        items = body.get("input") or []
        last = items[-1] if items else {}
        if last.get("type") == "tool_search_output":
            if "memory_read" in _found(last, "mcp__memdir"):
                return {"function_call": "memory_read", "namespace": "mcp__memdir", "arguments": {"name": "uv"}}
            self.waits += 1
            return ({"function_call": "exec_command", "arguments": {"cmd": "sleep 0.5"}} if self.waits <= WAITS
                    else "memdir's tools never appeared.")
        if last.get("type") == "message" and "Open the uv memory" in json.dumps(last):
            return {"tool_search": {"query": "memdir memory read"}}
        if (last.get("type") == "function_call_output" and _called(items, last.get("call_id")) == "exec_command"
                or "Added deferred tool namespaces" in json.dumps(last)):  # waited a step, or Codex says they came
            return {"tool_search": {"query": "memdir memory read"}}
        return "ok"


@pytest.mark.slow
def test_a_memory_the_model_read_through_mcp_is_only_named_by_the_next_recall(tmp_path, isolated_home, project):
    """The real Codex 0.171: a body the model read with memdir's memory_read stands in the conversation; the
    PostToolUse hook install registers (tool_name mcp__memdir__memory_read, tool_response the MCP result) records
    it as given, so the next prompt's recall (a `codex exec resume` of the same session) names it only — the body
    is once in what the model receives. Without that hook the recall gives it a second time (checked by removing
    it from HOOK_EVENTS: this test then fails). Control: a memory the model did not read is given whole."""
    exe, env, _ = _setup(tmp_path, isolated_home, project)
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("uv", "Use uv for Python installs, never pip", "project", UV_BODY)
    person.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    env["MEMDIR_SEARCH_VECTORS"] = "off"
    prompts = ["Open the uv memory, please.", "How should I install python packages with uv here?",
               "should I indent with tabs?"]
    marks, session = [], None
    with ResponsesServer(ReadsOnce()) as server:
        for prompt in prompts:
            marks.append(len(server.requests))
            done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust", "--json", prompt=prompt,
                              resume=session)
            assert done.returncode == 0, done.stdout + done.stderr
            started = json.loads(done.stdout.splitlines()[0])
            assert started["type"] == "thread.started" and started["thread_id"] == (session or started["thread_id"])
            session = started["thread_id"]
        requests = server.requests
    _, asked, control = marks
    read = [i for body in requests[:asked] for i in body["input"] if i.get("type") == "function_call_output"
            and _called(body["input"], i.get("call_id")) == "memory_read"]
    assert read and UV_BODY in json.dumps(read[0], ensure_ascii=False)  # the tool result carried the body
    assert UV_BODY not in input_text(requests[0])  # the first prompt's recall did not give it (no recall block)
    seen = input_text(requests[asked])
    assert POINTER in seen and seen.count(UV_BODY) == 1  # the read's, once; the recall only names it
    assert "The linter enforces tabs in every file." in input_text(requests[control])  # control: given whole


@pytest.mark.slow
def test_a_resumed_codex_session_holds_one_context_block_until_the_index_changes(tmp_path, isolated_home, project):
    """Found with the real Codex 0.171: `codex exec resume` fires SessionStart (source resume) and keeps every
    earlier block in the conversation, so each resume added another copy of the same context block: [1, 2, 3]
    blocks in the three prompts' requests. Now a resume with the index unchanged gets one line instead
    (memdir.prompt.start.UNCHANGED): [1, 1, 1] (checked without the change: this test then fails at [1, 2, 3, 4]).
    Control, same session: a memory written before the fourth prompt changes the index, so its resume gets the
    whole new block (the conversation then holds the old one and the new one, which names the new memory)."""
    from memdir.prompt.start import UNCHANGED

    exe, env, _ = _setup(tmp_path, isolated_home, project)
    env["MEMDIR_SEARCH_VECTORS"] = "off"
    session, counts = None, []
    with ResponsesServer(lambda body: "ok") as server:
        for number, prompt in enumerate(["What port?", "And the other one?", "Thanks.", "Anything new?"]):
            if number == 3:
                Memory.open(home=isolated_home, project=project, actor="human").write(
                    "uv", "Use uv for Python installs", "project", "uv add, uv sync; never pip.")
            mark = len(server.requests)
            done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust", "--json", prompt=prompt,
                              resume=session)
            assert done.returncode == 0, done.stdout + done.stderr
            session = json.loads(done.stdout.splitlines()[0])["thread_id"]
            assert len(server.requests) == mark + 1  # one request per prompt: the model answers "ok"
            counts.append(input_text(server.requests[-1]).count("<memory_context>"))
        requests = server.requests
    assert counts == [1, 1, 1, 2], counts
    assert input_text(requests[2]).count(UNCHANGED) == 2  # the two resumes' line, once each
    assert UNCHANGED not in input_text(requests[0]) and "db-port" in input_text(requests[0])
    last_block = input_text(requests[3]).split("<memory_context>")[-1]
    assert "[uv](uv.md)" in last_block and "[db-port](db-port.md)" in last_block  # the new index, whole
    assert "[uv](uv.md)" not in input_text(requests[2])


def _lines(count: int) -> str:
    """A body of ``count`` lines of 36 characters (84 bytes of memory_read output each, quoted)."""
    return "\n".join(f"行{i:03d} 依存関係は uv で固定し、pip はロックファイルを壊す。" for i in range(count))


@pytest.mark.slow
@pytest.mark.parametrize("count", [140, 150])
def test_a_read_codex_cuts_for_the_model_is_not_recorded_as_given(tmp_path, isolated_home, project, monkeypatch,
                                                                   count):
    """The real Codex 0.171 with a model outside its catalog (its default truncation) cuts the middle out of a
    tool output over about 12,000 bytes, while its PostToolUse input holds it whole (break17). A body of 150 lines
    (12,773 bytes of output in one read) reached the model as 142 lines, its middle gone; now memory_read keeps
    each output within tool_output_max_bytes (11,900 by default, trial19): the first part is 138 whole lines and
    the offset of the rest, nothing cut by Codex, and a body not held whole is not recorded, so the next prompt's
    recall gives it again. Control: 140 lines (11,849 bytes) reach it whole in one read and are recorded."""
    monkeypatch.setattr(__import__(__name__, fromlist=["MODEL"]), "MODEL", "my-local-model")
    exe, env, _ = _setup(tmp_path, isolated_home, project)
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "uv", "Use uv for Python installs, never pip", "project", _lines(count))
    env["MEMDIR_SEARCH_VECTORS"] = "off"

    def model(body: dict):  # no tool search outside the catalog: memdir's tools are offered at once
        items = body.get("input") or []
        outs = [i for i in items if i.get("type") == "function_call_output"]
        # Codex may send the first request before the MCP server listed its tools ("unsupported call"): again
        if items and "Open the uv memory" in json.dumps(items) and "How should I" not in json.dumps(items) and (
                not outs or "unsupported call" in json.dumps(outs[-1]) and len(outs) < WAITS):
            time.sleep(0.5 if outs else 0)
            return {"function_call": "memory_read", "namespace": "mcp__memdir", "arguments": {"name": "uv"}}
        return "ok"

    session = None
    with ResponsesServer(model) as server:
        for prompt in ("Open the uv memory, please.", "How should I install python packages with uv here?"):
            mark = len(server.requests)
            done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust", "--json", prompt=prompt,
                              resume=session)
            assert done.returncode == 0, done.stdout + done.stderr
            session = json.loads(done.stdout.splitlines()[0])["thread_id"]
        requests = server.requests
    read = [i for i in requests[mark - 1]["input"] if i.get("type") == "function_call_output"][-1:]
    shown = json.dumps(read, ensure_ascii=False).count("> 行")
    text = input_text(requests[mark])
    recall = text[text.rindex("<memory_recall>"):text.rindex("</memory_recall>")]  # the second prompt's
    if count == 150:
        assert shown == 138 and "tokens truncated" not in json.dumps(read, ensure_ascii=False)  # nothing cut
        assert "call memory_read with offset=4968 for the next part" in json.dumps(read, ensure_ascii=False)
        assert "> 行000 依存関係" in recall and "given earlier in this session" not in recall  # given again
    else:
        assert shown == 140 and "truncated" not in json.dumps(read)  # whole
        assert "> 行000" not in recall and "(given earlier in this session, unchanged: uv" in recall


@pytest.mark.slow
def test_a_persons_lower_tool_output_token_limit_gets_reads_in_parts_codex_keeps_whole(tmp_path, isolated_home,
                                                                                        project, monkeypatch):
    """Found with the real Codex 0.171 (trial19): with `tool_output_token_limit = 500` in config.toml, a read of a
    60-line runbook (4,900 bytes) reached the model as 2,422 bytes: lines 13-45 cut out of the middle, marked only
    "…8 tokens truncated…", no offset to ask for them. Install now gives the server that limit's budget (1,900
    bytes): the model receives the first 20 lines whole and memory_read's offset of the rest, nothing cut by Codex.
    Control: the same read with the limit absent is one output, whole."""
    monkeypatch.setattr(__import__(__name__, fromlist=["MODEL"]), "MODEL", "my-local-model")
    body = "\n".join(f"line {i:03d}: deploys to staging need the VPN and the token from vault path ops/{i}"
                     for i in range(60))
    outputs = []
    for limit in ("tool_output_token_limit = 500\n", ""):
        home = tmp_path / ("limited" if limit else "default")
        (home / "userhome" / ".codex").mkdir(parents=True)
        (home / "userhome" / ".codex" / "config.toml").write_text(limit)
        exe, env, _ = _setup(home, isolated_home, project)
        Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
            "runbook", "Staging deploy runbook", "project", body)
        env["MEMDIR_SEARCH_VECTORS"] = "off"

        def model(request: dict):
            items = request.get("input") or []
            outs = [i for i in items if i.get("type") == "function_call_output"]
            if not outs or ("unsupported call" in json.dumps(outs[-1]) and len(outs) < WAITS):
                time.sleep(0.5 if outs else 0)  # the MCP server may list its tools after the first request
                return {"function_call": "memory_read", "namespace": "mcp__memdir", "arguments": {"name": "runbook"}}
            return "ok"

        with ResponsesServer(model) as server:
            done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust", prompt="Open the runbook.")
            assert done.returncode == 0, done.stdout + done.stderr
            items = server.requests[-1]["input"]
            outputs.append(json.dumps([i for i in items if i.get("type") == "function_call_output"][-1],
                                      ensure_ascii=False))
    limited, whole = outputs
    assert "tokens truncated" not in limited and "> line 019:" in limited and "> line 020" not in limited
    assert "call memory_read with offset=1570 for the next part" in limited
    assert "tokens truncated" not in whole and "> line 059:" in whole and "offset=" not in whole  # control


@pytest.mark.slow
def test_memdirs_hooks_in_both_scopes_are_said_twice(tmp_path, isolated_home, monkeypatch):
    """trial23, the real Codex 0.171 with memdir installed in the user's scope and a trusted project's: Codex runs
    both hooks.json files, so two context blocks reach the model, and install said nothing (Claude Code's does). Now
    install and doctor say so, and the hooks' guard gives one block (trial30); control: after `uninstall --scope
    project`, one block and no such note."""
    import os
    import sys

    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))  # memdir
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    exe, env, codex_home = _setup(tmp_path, isolated_home, root)
    (codex_home / "config.toml").write_text(
        (codex_home / "config.toml").read_text() + f'\n[projects."{root}"]\ntrust_level = "trusted"\n')
    said = run_cli("--project", root, "install", "codex", "--scope", "project")
    assert said.returncode == 0, said.stderr
    note = (f"codex: memdir's hooks are registered twice, in {codex_home / 'hooks.json'} (user scope) and "
            f"{root / '.codex' / 'hooks.json'} (project scope)")
    assert note in said.stdout

    def blocks() -> int:
        with ResponsesServer(lambda body: "ok") as server:
            done = _run_codex(exe, env, root, server, "--dangerously-bypass-hook-trust", prompt="hello")
            assert done.returncode == 0, done.stdout + done.stderr
            return input_text(server.requests[0]).count("<memory_context>")

    def doctor() -> list[str]:
        out = run_cli("--project", root, "doctor", "--json")
        return [n for n in json.loads(out.stdout)["notes"] if "registered twice" in n]

    assert blocks() == 1  # Codex ran both SessionStart hooks; the second stayed quiet (trial30: 2 before)
    assert [n[:len(note)] for n in doctor()] == [note]
    assert run_cli("--project", root, "uninstall", "codex", "--scope", "project").returncode == 0
    assert blocks() == 1 and doctor() == []  # control: one install, its block


POINTED = "We deploy only on Fridays, the release train leaves at 14:00 UTC. Remember that."
DEPLOY_WRITE = {"name": "deploy-window", "type": "project",
                "description": "Deploys only on Fridays; the release train leaves 14:00 UTC",
                "body": "Said by the user on the day the window was set."}


def _consolidated(log, rollout) -> None:
    """Wait until the drain logged the consolidation of ``rollout`` (the Stop hook queued it)."""
    deadline = time.time() + 20
    while time.time() < deadline and not (log.exists() and f": {rollout}" in log.read_text()):
        time.sleep(0.2)
    assert f"event=Stop {rollout}" in log.read_text()


@pytest.mark.slow
def test_a_fact_the_person_pointed_back_at_and_the_agent_saved_is_not_proposed_again(tmp_path, isolated_home,
                                                                                     project):
    """trial29, the real Codex 0.171: "<fact>. Remember that." and the agent's memory_write of it in the same turn;
    Codex's Stop consolidated the turn with the rules extractor, whose proposal quoted only the request ("Remember
    that.") as its evidence, so the check for what was saved during the session (consolidate._held) found nothing
    to match and `memdir review` held deploy-window-candidate, a change replacing the agent's memory with the
    quoted sentence. Now the evidence of a request pointing back holds the sentences it points to: nothing to
    review. Control: in a session whose agent saves nothing, the same turn is saved by the consolidation."""
    exe, env, _ = _setup(tmp_path, isolated_home, project)
    WRITE_BEFORE = dict(WRITE)
    try:
        WRITE.clear()
        WRITE.update(DEPLOY_WRITE)
        with ResponsesServer(ScriptedModel()) as server:
            done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust", prompt=POINTED)
    finally:
        WRITE.clear()
        WRITE.update(WRITE_BEFORE)
    assert done.returncode == 0, done.stdout + done.stderr
    log = isolated_home / "logs" / "consolidate.log"
    rollouts = sorted((tmp_path / "userhome" / ".codex" / "sessions").rglob("rollout-*.jsonl"))
    _consolidated(log, rollouts[-1])
    store = Memory.open(home=isolated_home, project=project, actor="human")
    assert store.read("deploy-window").record.description == DEPLOY_WRITE["description"]  # the agent's write
    assert [c.name for c in store.review().candidates] == []  # was ['deploy-window-candidate']
    assert [m.name for m in store.list().memories if m.origin == "extracted"] == []

    other = tmp_path / "other"
    other.mkdir()
    with ResponsesServer(lambda body: "Noted.") as server:  # control: the agent saves nothing
        done = _run_codex(exe, env, other, server, "--dangerously-bypass-hook-trust", prompt=POINTED)
    assert done.returncode == 0, done.stdout + done.stderr
    rollouts = sorted((tmp_path / "userhome" / ".codex" / "sessions").rglob("rollout-*.jsonl"),
                      key=lambda p: p.stat().st_mtime)
    _consolidated(log, rollouts[-1])
    saved = Memory.open(home=isolated_home, project=other, actor="human").list().memories
    assert [(m.origin, m.description) for m in saved] == [
        ("extracted", "We deploy only on Fridays, the release train leaves at 14:00 UTC.")]


class Deletes(ScriptedModel):
    """The scripted model: search the tools for memdir's, call its memory_delete of db-port, end the turn."""

    def __call__(self, body: dict):
        items = body.get("input") or []
        last = items[-1] if items else {}
        if last.get("type") == "function_call_output" and _called(items, last.get("call_id")) == "memory_delete":
            return "Deleted."
        if last.get("type") == "tool_search_output":
            if "memory_delete" in _found(last, "mcp__memdir"):
                return {"function_call": "memory_delete", "namespace": "mcp__memdir", "arguments": {"name": "db-port"}}
            self.waits += 1
            return ({"function_call": "exec_command", "arguments": {"cmd": "sleep 0.5"}} if self.waits <= WAITS
                    else "memdir's tools never appeared.")
        return {"tool_search": {"query": "memdir memory delete"}}


def _delete_output(server) -> str:
    answered = server.requests[-1]["input"]
    return json.dumps([i for i in answered if i.get("type") == "function_call_output"
                       and _called(answered, i.get("call_id")) == "memory_delete"])


@pytest.mark.slow
def test_codex_exec_runs_memdirs_delete_only_once_approved_and_a_new_install_keeps_the_approval(
        tmp_path, isolated_home, project):
    """newuser37: the README said `codex exec` runs memdir's tools as it is; Codex 0.171 asks before a tool marked
    destructive, so `codex exec` refused memory_delete (the forget the context block's guidance asks for) and said
    only "requires approval" to the model. Install now says so and how to approve it; and a new install (as after
    an upgrade) dropped that approval from memdir's entry in config.toml: it keeps it. Control: once approved, the
    same session deletes the memory."""
    exe, env, codex_home = _setup(tmp_path, isolated_home, project)
    note = run_cli("install", "codex", "--dry-run", env={"HOME": str(tmp_path / "userhome"),
                                                         "CODEX_HOME": str(codex_home)}).stdout
    assert ("note: Codex asks you before memdir's tools that delete (memory_delete, memory_prune, memory_delete_all) "
            "run; `codex exec` refuses them unless approved ahead in config.toml, per tool: "
            '[mcp_servers.memdir.tools.memory_delete] approval_mode = "approve"') in note
    store = Memory.open(home=isolated_home, project=project, actor="human")
    with ResponsesServer(Deletes()) as server:
        done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "requires approval" in _delete_output(server)
    assert "db-port" in [m.name for m in store.list().memories]  # refused: still there

    config = codex_home / "config.toml"
    installed = config.read_text()
    args = tomllib.loads(installed)["mcp_servers"]["memdir"]["args"]
    assert args[:3] == ["-m", "memdir.cli", "mcp"]
    # the person approves memory_delete in memdir's entry; the entry is an older memdir's (an upgrade rewrites it)
    config.write_text(installed.replace('"memdir.cli", "mcp"', '"memdir.cli", "mcp", "-v"')
                      + '\n[mcp_servers.memdir.tools.memory_delete]\napproval_mode = "approve"\n')
    again = run_cli("install", "codex", env={"HOME": str(tmp_path / "userhome"), "CODEX_HOME": str(codex_home)})
    assert again.returncode == 0 and f"updated: {config}" in again.stdout, again.stdout + again.stderr
    entry = tomllib.loads(config.read_text())["mcp_servers"]["memdir"]
    assert entry["args"] == args and entry["tools"] == {
        "memory_delete": {"approval_mode": "approve"}}
    with ResponsesServer(Deletes()) as server:
        done = _run_codex(exe, env, project, server, "--dangerously-bypass-hook-trust")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Deleted memory: db-port (project)" in _delete_output(server)
    assert "db-port" not in [m.name for m in store.list().memories]
