"""The user-scope files each client's installer writes, for the tests that install two memdir homes into one
client file: where each is under a person's home (:data:`FILES`) and a byte-for-byte snapshot of them
(:func:`snapshot`); a person's home and a memdir home beside it (:func:`homes`)."""

from __future__ import annotations

from pathlib import Path

from memdir.integrations.claude_code import install as claude_code
from memdir.integrations.clients import codex, cursor, gemini, opencode

PY = "/usr/bin/python3"  # the interpreter the installs name in their commands (never run)
# client module -> its user-scope file, relative to the person's home
FILES = {claude_code: ".claude/settings.json", codex: ".codex/config.toml", gemini: ".gemini/settings.json",
         cursor: ".cursor/mcp.json", opencode: ".config/opencode/opencode.json"}
GEMINI_ORIGINAL = b'{"theme": "dark"}'  # a person's own Gemini CLI settings, before any install


def homes(tmp_path: Path) -> tuple[Path, Path]:
    """``(user, mem)``: a person's home ``tmp_path/u`` and a memdir home ``tmp_path/mem`` (neither made)."""
    return tmp_path / "u", tmp_path / "mem"


def snapshot(user: Path) -> dict[Path, bytes]:
    """Every file under ``user`` (recursively) -> its bytes."""
    return {p: p.read_bytes() for p in user.rglob("*") if p.is_file()}


def gemini_settings(tmp_path: Path) -> tuple[Path, Path]:
    """``(user, path)``: a person's home ``tmp_path/user`` whose ``~/.gemini/settings.json`` (``path``) holds
    :data:`GEMINI_ORIGINAL` only."""
    user = tmp_path / "user"
    path = user / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(GEMINI_ORIGINAL)
    return user, path
