"""Each real client reads memdir's MCP registration back (`… mcp list`) after `memdir install`
with HOME pointed at a temp dir; uninstall and the client no longer lists it."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env

# client -> (the binary, the line that names memdir's server when it is registered)
CLIENTS = {"claude-code": ("claude", "memdir:"), "codex": ("codex", "memdir "),
           "gemini": ("gemini", "memdir:"), "opencode": ("opencode", "memdir")}


def _mcp_list(exe, env, cwd) -> str:
    done = subprocess.run([exe, "mcp", "list"], capture_output=True, text=True, env=env, cwd=cwd, timeout=120,
                          stdin=subprocess.DEVNULL)
    return done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_client_lists_memdirs_server(client, tmp_path, isolated_home, project):
    exe = binary(CLIENTS[client][0])
    env = client_env(tmp_path / "userhome", isolated_home)
    before = _mcp_list(exe, env, project)
    assert "memdir.cli" not in before  # control: nothing of memdir's yet
    done = run_cli("install", client, env={"HOME": env["HOME"]})
    assert done.returncode == 0, done.stderr
    listed = _mcp_list(exe, env, project)
    line = next((l for l in listed.splitlines() if "memdir.cli mcp" in l or l.strip().startswith("memdir")), "")
    assert CLIENTS[client][1] in listed and "memdir.cli" in listed, listed
    if client == "claude-code":
        assert "Connected" in listed, listed  # Claude Code starts the server and completes the handshake
    if client == "opencode":
        assert "connected" in listed, listed
    assert line, listed
    done = run_cli("uninstall", client, env={"HOME": env["HOME"]})
    assert done.returncode == 0, done.stderr
    assert "memdir.cli" not in _mcp_list(exe, env, project)


@pytest.mark.slow
def test_gemini_runs_memdirs_user_server_only_in_a_trusted_folder_and_install_says_so(tmp_path, isolated_home, project):
    """trial24: Gemini CLI 0.61 turns off every MCP server, the user's own too, in a folder the person has not
    trusted; `memdir install gemini` (user scope) said nothing of it. Now its note says so, and the real client bears
    it out: "Disabled" in the untrusted project, "Connected" once ~/.gemini/trustedFolders.json trusts it."""
    import json

    exe = binary("gemini")
    env = client_env(tmp_path / "userhome", isolated_home)
    done = run_cli("install", "gemini", env={"HOME": env["HOME"]})
    assert done.returncode == 0, done.stderr
    assert "note: Gemini CLI runs MCP servers, memdir's user-scope one too, only in a folder you trust" in done.stdout
    line = next(l for l in _mcp_list(exe, env, project).splitlines() if "memdir.cli mcp" in l)
    assert line.endswith("Disabled"), line
    (tmp_path / "userhome" / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    line = next(l for l in _mcp_list(exe, env, project).splitlines() if "memdir.cli mcp" in l)
    assert line.endswith("Connected"), line  # control: the same install, the folder trusted
