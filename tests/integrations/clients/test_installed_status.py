"""`memdir status` (and `doctor`) list the coding agents memdir is installed into, with the scope and the
files each installer recorded (its manifest, :func:`memdir.integrations.clients.edits.installed`); a client
memdir is not installed into is not listed."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.conftest import run_cli


def _on_path() -> dict:
    """PATH with this interpreter's `memdir` first (project scope writes `memdir …` and checks it is there)."""
    return {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def test_status_lists_each_installed_client_with_scope_and_files(tmp_path, project):
    user = tmp_path / "userhome"
    assert run_cli("install", "codex").returncode == 0
    done = run_cli("--project", project, "install", "claude-code", "--scope", "project", env=_on_path())
    assert done.returncode == 0, done.stderr

    listed = json.loads(run_cli("--project", project, "status", "--json").stdout)["clients"]
    assert listed == [
        {"client": "claude-code", "scope": "project",
         "files": [str(project / ".claude" / "settings.json"), str(project / ".mcp.json")]},
        {"client": "codex", "scope": "user",
         "files": [str(user / ".codex" / "config.toml"), str(user / ".codex" / "hooks.json")]}]
    text = run_cli("--project", project, "status").stdout.splitlines()
    assert [line for line in text if line.startswith("installed: ")] == [
        f"installed: claude-code (project scope): {project / '.claude' / 'settings.json'}, {project / '.mcp.json'}",
        f"installed: codex (user scope): {user / '.codex' / 'config.toml'}, {user / '.codex' / 'hooks.json'}"]
    # doctor reads the same records
    doctor = json.loads(run_cli("--project", project, "doctor", "--json").stdout)
    assert [c["client"] for c in doctor["clients"]] == ["claude-code", "codex"]

    # uninstall drops codex from the list; claude-code (control) stays
    assert run_cli("uninstall", "codex").returncode == 0
    after = json.loads(run_cli("--project", project, "status", "--json").stdout)["clients"]
    assert [(c["client"], c["scope"]) for c in after] == [("claude-code", "project")]
    text = run_cli("--project", project, "status").stdout
    assert "installed: codex" not in text and "installed: claude-code (project scope): " in text


def test_status_says_it_is_in_no_client_before_any_install(project):
    status = run_cli("--project", project, "status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["clients"] == []  # the key, with an empty list
    none = "installed: in no client — `memdir install claude-code` (or codex, gemini, cursor, opencode) adds it"
    text = run_cli("--project", project, "status").stdout.splitlines()
    assert [line for line in text if line.startswith("installed:")] == [none]  # newuser38: no line at all
    assert run_cli("install", "gemini").returncode == 0  # control: the same setup lists one once installed
    assert [c["client"] for c in json.loads(run_cli("--project", project, "status", "--json").stdout)["clients"]] \
        == ["gemini"]
    text = run_cli("--project", project, "status").stdout.splitlines()
    assert [line.split(" (")[0] for line in text if line.startswith("installed:")] == ["installed: gemini"]


def test_the_python_api_lists_the_clients_the_cli_lists(tmp_path, project, isolated_home):
    """One rule, every path (trial20): `Memory.status().to_dict()` said `clients: []` while `memdir status --json`
    listed the installs."""
    from memdir import Memory

    mem = Memory.open(home=isolated_home, project=project)
    assert mem.status().to_dict()["clients"] == []  # control: nothing installed, both say so
    assert json.loads(run_cli("--project", project, "status", "--json").stdout)["clients"] == []

    assert run_cli("install", "codex").returncode == 0
    user = tmp_path / "userhome" / ".codex"
    expected = [{"client": "codex", "scope": "user", "files": [str(user / "config.toml"), str(user / "hooks.json")]}]
    assert mem.status().to_dict()["clients"] == expected
    assert mem.doctor().status.to_dict()["clients"] == expected
    assert json.loads(run_cli("--project", project, "status", "--json").stdout)["clients"] == expected
