"""Installers against the person's own settings in shapes a breaker found: dotted TOML keys, a hand-made
``memdir`` server, symlinks, JSON the client reads differently, concurrent installs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomlkit

from memdir.errors import InstallError
from memdir.integrations.clients import codex, cursor, gemini, opencode

PY = "/usr/bin/python3"


def _home(tmp_path):
    return tmp_path / "u", tmp_path / "mem"


def test_codex_dotted_keys_keep_their_paths_and_uninstall_leaves_them(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    original = 'mcp_servers.other.command = "o"\nmodel = "o3"\napproval_policy = "never"\n'
    config.write_text(original)
    codex.install("user", mem, user_home=user, python=PY)
    data = tomlkit.parse(config.read_text()).unwrap()
    assert data["model"] == "o3" and data["approval_policy"] == "never"  # still top-level keys
    assert data["mcp_servers"]["other"] == {"command": "o"}
    assert data["mcp_servers"]["memdir"] == {"command": PY, "args": ["-m", "memdir.cli", "mcp"]}
    codex.uninstall("user", mem, user_home=user)
    assert config.read_text() == original


def test_codex_an_empty_mcp_servers_header_of_the_persons_stays(tmp_path):
    user, mem = _home(tmp_path)
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "o3"\n\n[mcp_servers]\n')
    codex.install("user", mem, user_home=user, python=PY)
    assert tomlkit.parse(config.read_text()).unwrap()["mcp_servers"]["memdir"]["command"] == PY
    config.write_text(config.read_text() + '\n[tui]\nnotifications = true\n')  # a later change by the person
    codex.uninstall("user", mem, user_home=user)
    assert tomlkit.parse(config.read_text()).unwrap() == {"model": "o3", "mcp_servers": {},
                                                           "tui": {"notifications": True}}
