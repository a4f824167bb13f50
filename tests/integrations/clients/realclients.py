"""The real coding-agent clients, as `make clients` installs them (pinned, from npm, into
.venv/clients): where each binary is, or the reason a test skips without it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.messages_server import MessagesServer

ROOT = Path(__file__).resolve().parents[3]
BIN = ROOT / ".venv" / "clients" / "node_modules" / ".bin"
# The versions the Makefile's `clients` target pins (the tests read the real files they write).
VERSIONS = {"claude": "2.1.332", "codex": "0.171.0", "gemini": "0.61.0", "opencode": "1.18.33"}


def binary(name: str) -> str:
    """The path of client ``name`` (``.venv/clients`` first, then PATH), or skip saying why."""
    local = BIN / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found:
        return found
    pytest.skip(f"{name} is not installed: `make clients` installs it from npm (needs npm and the registry)")


def client_env(user_home: Path, memdir_home: Path, **extra) -> dict:
    """An environment whose HOME is ``user_home`` and with no outside credentials or config homes."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "CODEX_", "CLAUDE_", "XDG_"))}
    env.update(HOME=str(user_home), MEMDIR_HOME=str(memdir_home), NO_COLOR="1", CI="1", **extra)
    return env


OPENCODE_MODEL = "anthropic/claude-sonnet-4-5"  # in OpenCode's bundled model list: no models.dev fetch needed
# Seconds an `opencode run` may take: a bound on waiting, not a timing. Its start is CPU-bound (its log: 51 s from
# "creating instance" to "disposing instance" at a load of 12 on 2 cores, the test's call 156 s at a higher one), so
# the former 180 s was reached on a loaded machine.
OPENCODE_WAIT = 600.0


def opencode_run(exe: str, user_home: Path, memdir_home: Path, cwd: Path, prompt: str, script, *,
                 timeout: float = OPENCODE_WAIT, **extra) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """``opencode run`` of ``prompt`` in ``cwd`` against a scripted local Messages API (``script(body)`` answers each
    request, :class:`tests.messages_server.MessagesServer`), asserting it exits 0: ``(the run, the requests that
    carried tools)`` — the model's main conversation, whose first ``system`` is the system prompt OpenCode sent."""
    with MessagesServer(script) as server:
        provider = {"provider": {"anthropic": {"options": {"baseURL": server.url + "/v1", "apiKey": "dummy"}}}}
        env = client_env(user_home, memdir_home, PWD=str(cwd), OPENCODE_CONFIG_CONTENT=json.dumps(provider),
                         OPENCODE_DISABLE_MODELS_FETCH="1", OPENCODE_DISABLE_AUTOUPDATE="1",
                         OPENCODE_DISABLE_DEFAULT_PLUGINS="1", **extra)
        done = subprocess.run([exe, "run", "-m", OPENCODE_MODEL, prompt], capture_output=True, text=True, env=env,
                              cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        main = [b for b in server.requests if b.get("tools")]
    assert main, server.requests
    return done, main
