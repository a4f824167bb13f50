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

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.responses_server import ResponsesServer, input_text

WRITE = {"name": "indent-style", "type": "feedback", "description": "Indent Python with 4 spaces, never tabs",
         "body": "**Why:** the linter.\n**How to apply:** every Python file."}
PROMPT = "Which port does the dev PostgreSQL use? I prefer 4 spaces to tabs."
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


def _run_codex(exe, env, project, server, *extra):
    args = [exe, "exec", "--skip-git-repo-check", *extra,
            "-c", 'model_provider="scripted"', "-c", f'model="{MODEL}"',
            "-c", f'model_providers.scripted={{name="scripted", base_url="{server.url}", wire_api="responses"}}',
            PROMPT]
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
    extracted = [m for m in Memory.open(home=isolated_home, project=project).list("user").memories
                 if m.origin == "extracted"]
    assert [m.description for m in extracted] == ["I prefer 4 spaces to tabs."], extracted


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
