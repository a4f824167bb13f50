"""Helpers of the memory-atlas acceptance tests: the production entry points.

Each property (``reference/landscape.md`` §1.2, §1.5) is asserted on what the
agent and the person actually see: the public API (:class:`memdir.Memory`),
the MCP tool handler through the MCP SDK's client, the CLI and the Claude Code
hooks in real subprocesses, and ``MEMORY.md`` on disk. :func:`surfaces`
gathers them, so a "must not appear" and its "must appear" control read the
same places.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.files.layout import INDEX_FILE
from memdir.integrations.mcp.server import MemoryServer, build_server

from ..conftest import run_cli

__all__ = ["agent", "person", "mcp_calls", "hook", "session_start", "prompt_recall", "index_text", "surfaces",
           "run_cli", "transcript"]


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture
def projects(tmp_path):
    """Two unrelated project roots (git work trees), A and B."""
    return _project(tmp_path / "work" / "alpha"), _project(tmp_path / "work" / "beta")


def agent(home, project) -> Memory:
    """The facade as an agent session of ``project`` sees it."""
    return Memory.open(home=home, project=project, use_cwd=False)


def person(home, project) -> Memory:
    """The facade as a person (CLI, panel) of ``project`` uses it."""
    return Memory.open(home=home, project=project, use_cwd=False, actor="human")


def mcp_calls(home, project, *calls: tuple[str, dict]) -> list[tuple[bool, str]]:
    """Run tool ``calls`` through the MCP server with the SDK's in-memory
    client, the server launched for ``project``: ``(is_error, text)`` each."""
    out: list[tuple[bool, str]] = []

    async def main():
        async with Client(build_server(MemoryServer(home=home, project=project))) as client:
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                out.append((bool(result.is_error), "".join(c.text for c in result.content)))

    anyio.run(main)
    return out


def hook(event: str, payload: dict) -> subprocess.CompletedProcess:
    """``python -m memdir.hooks claude-code EVENT`` as Claude Code runs it."""
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], input=json.dumps(payload),
                          capture_output=True, text=True, env=dict(os.environ), timeout=60)


def session_start(project) -> str:
    """The SessionStart hook's ``additionalContext`` for a session in ``project`` ("" when none)."""
    done = hook("SessionStart", {"session_id": "s", "cwd": str(project), "hook_event_name": "SessionStart",
                                 "source": "startup", "transcript_path": "/nonexistent.jsonl"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


def prompt_recall(project, prompt: str) -> str:
    """The UserPromptSubmit hook's ``additionalContext`` (the recall block) ("" when none)."""
    done = hook("UserPromptSubmit", {"session_id": "s", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                                     "prompt": prompt, "transcript_path": "/nonexistent.jsonl"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


def index_text(mem: Memory, scope: str = "project") -> str:
    """``MEMORY.md`` of a layer as it is on disk ("" when absent)."""
    path = mem.session.layer_dir(scope) / INDEX_FILE
    return path.read_text(encoding="utf-8") if path.exists() else ""


def surfaces(mem: Memory, query: str) -> dict[str, str]:
    """What the agent can see of ``query`` in-process: the names listed, the
    names ``query`` finds, the injected context, the recall block and every
    ``MEMORY.md`` of the session — each as one text to look a value up in."""
    return {"list": "\n".join(f"{m.name} {m.description}" for m in mem.list().memories),
            "search": "\n".join(f"{h.name} {h.description}" for h in mem.search(query, k=10)),
            "context": mem.context(), "recall": mem.recall(query, k=5),
            "MEMORY.md": "\n".join(index_text(mem, s) for s in mem.scopes())}


def transcript(path: Path, project, *user_lines: str) -> Path:
    """A Claude Code transcript (JSONL) of one session in ``project`` saying ``user_lines``."""
    rows = [{"type": "user", "timestamp": f"2026-11-25T09:0{i}:00Z", "sessionId": path.stem, "cwd": str(project),
             "uuid": f"u{i}", "message": {"role": "user", "content": line}} for i, line in enumerate(user_lines)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path
