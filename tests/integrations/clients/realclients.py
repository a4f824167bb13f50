"""The real coding-agent clients, as `make clients` installs them (pinned, from npm, into
.venv/clients): where each binary is, or the reason a test skips without it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

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
