"""memdir installed into a project's `.mcp.json` with the real Claude Code 2.1.332 (trial24): the server waits for
each person's approval ("Pending approval"; an interactive `claude` asks, a headless `claude -p` runs it without
asking), and one turned off with `disabledMcpjsonServers` never runs while the project's hooks still inject the
context block naming its tools. `memdir install claude-code --scope project` and `memdir doctor` said nothing of
either; now they do, and say nothing once it is approved."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer

APPROVE = "asks each person to approve memdir's server"


def _env(user_home, memdir_home, **extra) -> dict:
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for project files
    return client_env(user_home, memdir_home, PATH=path, DISABLE_AUTOUPDATER="1", MEMDIR_SEARCH_VECTORS="off",
                      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", **extra)


def _notes(project, user_home) -> list[str]:
    """Doctor's lines of the ``.mcp.json`` server: a note while an interactive session asks to approve it (a headless
    one runs it), a warning once turned off (no session runs it: newuser46)."""
    done = run_cli("--project", project, "doctor", "--json", env={"HOME": str(user_home)})
    report = json.loads(done.stdout)
    asks = [n for n in report["notes"] if ".mcp.json" in n]
    off = [n for n in report["warnings"] if ".mcp.json" in n]
    assert all("asks each person" in n for n in asks) and all("turned off" in n for n in off)
    return asks + off


def _list_result(project, user_home, memdir_home) -> str:
    """What a headless `claude -p` gives back to a scripted model (a local Messages API) that calls memdir's
    memory_list first thing: the tool's output, or Claude Code's error when it has no such tool."""
    def script(body):
        if '"tool_result"' in json.dumps(body.get("messages")):
            return "done"
        return {"tool_use": "mcp__memdir__memory_list", "input": {}}

    with MessagesServer(script) as server:
        env = _env(user_home, memdir_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy")
        done = subprocess.run([binary("claude"), "-p", "hello", "--output-format", "json", "--allowedTools",
                               "mcp__memdir__*"], capture_output=True, text=True, env=env, cwd=project, timeout=180,
                              stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        main = [b for b in server.requests if b.get("tools")]
    assert "memory_context" in json.dumps(main[0])  # the project's SessionStart hook ran either way
    results = [block for message in main[-1]["messages"] if isinstance(message.get("content"), list)
               for block in message["content"] if block.get("type") == "tool_result"]
    assert len(results) == 1
    return json.dumps(results[0]["content"])


def _status(project, user_home, memdir_home) -> str:
    done = subprocess.run([binary("claude"), "mcp", "get", "memdir"], capture_output=True, text=True,
                          env=_env(user_home, memdir_home), cwd=project, timeout=120, stdin=subprocess.DEVNULL,
                          check=False)
    return re.search(r"Status: \S+ (.+)", done.stdout).group(1)


@pytest.mark.slow
def test_install_and_doctor_say_a_project_server_waits_for_approval_or_is_turned_off(tmp_path, isolated_home, project):
    user_home = tmp_path / "userhome"
    (user_home / ".claude").mkdir(parents=True)
    done = run_cli("--project", project, "install", "claude-code", "--scope", "project",
                   env={"HOME": str(user_home), "PATH": _env(user_home, isolated_home)["PATH"]})
    assert done.returncode == 0, done.stderr
    assert sum(APPROVE in line for line in done.stdout.splitlines()) == 1
    assert _status(project, user_home, isolated_home).startswith("Pending approval")
    assert len(_notes(project, user_home)) == 1 and APPROVE in _notes(project, user_home)[0]
    assert "No memories yet." in _list_result(project, user_home, isolated_home)  # `claude -p` runs it unasked

    (user_home / ".claude" / "settings.json").write_text('{"disabledMcpjsonServers": ["memdir"]}')
    assert _status(project, user_home, isolated_home).startswith("Rejected")
    assert len(_notes(project, user_home)) == 1 and "turned off by disabledMcpjsonServers" in _notes(project, user_home)[0]
    assert "No such tool available: mcp__memdir__memory_list" in _list_result(project, user_home, isolated_home)

    (user_home / ".claude" / "settings.json").write_text('{"enabledMcpjsonServers": ["memdir"]}')  # as the note says
    assert _status(project, user_home, isolated_home) == "Connected"
    assert _notes(project, user_home) == []  # control: approved, nothing to say
    assert "No memories yet." in _list_result(project, user_home, isolated_home)


@pytest.mark.slow
@pytest.mark.parametrize("trusted, local, status, note", [
    (True, {"enabledMcpjsonServers": ["memdir"]}, "Connected", None),  # a trusted project's own local settings
    (False, {"enabledMcpjsonServers": ["memdir"]}, "Pending approval", APPROVE),  # not read before the trust dialog
    (True, {"disabledMcpjsonServers": ["memdir"]}, "Rejected", "turned off by disabledMcpjsonServers"),
])
def test_doctor_reads_approval_where_claude_code_does(tmp_path, isolated_home, project, trusted, local, status, note):
    user_home = tmp_path / "userhome"
    (user_home / ".claude").mkdir(parents=True)
    done = run_cli("--project", project, "install", "claude-code", "--scope", "project",
                   env={"HOME": str(user_home), "PATH": _env(user_home, isolated_home)["PATH"]})
    assert done.returncode == 0, done.stderr
    (project / ".claude" / "settings.local.json").write_text(json.dumps(local))
    claude_json = user_home / ".claude.json"
    data = json.loads(claude_json.read_text()) if claude_json.exists() else {}
    data.setdefault("projects", {})[str(project)] = {"hasTrustDialogAccepted": trusted}
    claude_json.write_text(json.dumps(data))
    assert _status(project, user_home, isolated_home).startswith(status)
    notes = _notes(project, user_home)
    assert (notes == []) if note is None else (len(notes) == 1 and note in notes[0])
