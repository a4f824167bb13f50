"""The line after the context block names only what the agent can call (newuser31): `memdir context` named
``mcp__memdir__`` tools in a home where memdir was installed into no client, and a client's SessionStart hook
named them where the server could not start (no ``mcp`` package). Then the line names memdir's commands
(:data:`memdir.prompt.context.CLI_NOTE`); with memdir installed and the package there, the MCP tools as before
(the control). The package is hidden as importlib sees one that cannot be imported (``sys.modules[name] = None``),
in-process."""

from __future__ import annotations

import json
import sys

from memdir.integrations.claude_code import hooks
from memdir.integrations.cli.main import main
from memdir.prompt.context import CLI_NOTE, TOOLS_NOTE
from memdir.prompt.start import mcp_reachable
from tests.conftest import run_cli


def _start_input(cwd) -> dict:
    return {"session_id": "s31", "transcript_path": "/tmp/none.jsonl", "cwd": str(cwd),
            "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-5"}


def test_context_names_the_commands_until_memdir_is_installed_into_a_client(person, project, isolated_home):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    before = run_cli("--project", project, "context")
    assert before.returncode == 0, before.stderr
    assert before.stdout.rstrip("\n") == person.context() + "\n" + CLI_NOTE
    assert "mcp__memdir__" not in before.stdout and "`memdir write NAME -d DESCRIPTION -t TYPE" in before.stdout
    status = json.loads(run_cli("--project", project, "status", "--json").stdout)
    assert status["context_bytes"] == len(before.stdout.rstrip("\n").encode("utf-8"))  # what status counts

    assert run_cli("install", "claude-code").returncode == 0
    after = run_cli("--project", project, "context")  # control: installed, the package there
    assert after.stdout.rstrip("\n") == person.context() + "\n" + TOOLS_NOTE
    assert run_cli("uninstall", "claude-code").returncode == 0  # the {} an uninstall leaves records nothing
    assert run_cli("--project", project, "context").stdout.rstrip("\n") == person.context() + "\n" + CLI_NOTE


def test_a_hook_names_the_commands_when_the_server_cannot_start(person, project, isolated_home, monkeypatch, capsys):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    started = json.loads(hooks.session_start(_start_input(project), None, client="claude-code"))
    assert started["hookSpecificOutput"]["additionalContext"] == person.context() + "\n" + TOOLS_NOTE  # control
    assert mcp_reachable(person.session.home_path, "claude-code") is True

    monkeypatch.setitem(sys.modules, "mcp", None)
    assert mcp_reachable(person.session.home_path, "claude-code") is False
    started = json.loads(hooks.session_start({**_start_input(project), "session_id": "s31b"}, None,
                                             client="claude-code"))
    assert started["hookSpecificOutput"]["additionalContext"] == person.context() + "\n" + CLI_NOTE
    assert main(["--project", str(project), "install", "claude-code"]) == 0
    capsys.readouterr()
    assert main(["--project", str(project), "context"]) == 0  # installed, but the package is not there
    assert capsys.readouterr().out.rstrip("\n") == person.context() + "\n" + CLI_NOTE
