"""memdir installed for OpenCode in both scopes (``~/.config/opencode`` and a project's ``opencode.json``): OpenCode
1.18.33 adds a project's instructions to the global list, so its model reads memdir's guidance twice in that
project (newuser39, real OpenCode). Install and ``memdir doctor`` said nothing of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer

GUIDANCE = "# Persistent memory (memdir)"


def _env(tmp_path):
    return {"HOME": str(tmp_path / "userhome"),
            "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}


def test_install_and_doctor_say_when_opencode_lists_memdirs_guidance_of_both_scopes(tmp_path, isolated_home, project):
    env = _env(tmp_path)
    user = tmp_path / "userhome" / ".config" / "opencode" / "memdir.md"
    mine = project / ".opencode" / "memdir.md"
    twice = (f"note: opencode: memdir's instructions are listed twice, in {user} (user scope) and {mine} (project "
             "scope): OpenCode adds a project's instructions to the global ones, so its model reads memdir's "
             "guidance twice in that project; keep one (memdir uninstall opencode --scope user, or --scope project)")
    alone = run_cli("--project", project, "install", "opencode", "--scope", "project", env=env)
    assert alone.returncode == 0, alone.stderr
    assert "listed twice" not in alone.stdout  # control: the project's instructions alone are read once
    assert "listed twice" not in run_cli("--project", project, "doctor", env=env).stdout
    done = run_cli("--project", project, "install", "opencode", "--scope", "user", env=env)
    assert done.returncode == 0, done.stderr
    assert twice in done.stdout
    assert twice in run_cli("--project", project, "doctor", env=env).stdout
    assert run_cli("--project", project, "uninstall", "opencode", "--scope", "user", env=env).returncode == 0
    assert "listed twice" not in run_cli("--project", project, "doctor", env=env).stdout  # one scope left


@pytest.mark.slow
def test_opencode_reads_memdirs_guidance_of_both_scopes(tmp_path, isolated_home, project):
    """What the note stands on: the real OpenCode puts both memdir.md files in the system prompt. Control: the
    project's alone is there once."""
    exe = binary("opencode")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = _env(tmp_path)

    def system():
        with MessagesServer(lambda body: "ok") as server:
            provider = {"provider": {"anthropic": {"options": {"baseURL": server.url + "/v1", "apiKey": "dummy"}}}}
            run_env = client_env(tmp_path / "userhome", isolated_home, PATH=env["PATH"], PWD=str(project),
                                 OPENCODE_CONFIG_CONTENT=json.dumps(provider), OPENCODE_DISABLE_MODELS_FETCH="1",
                                 OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_DEFAULT_PLUGINS="1")
            done = subprocess.run([exe, "run", "-m", "anthropic/claude-sonnet-4-5", "hello"], capture_output=True,
                                  text=True, env=run_env, cwd=project, timeout=180, stdin=subprocess.DEVNULL,
                                  check=False)
            assert done.returncode == 0, done.stdout + done.stderr
            return json.dumps(next(b for b in server.requests if b.get("tools"))["system"], ensure_ascii=False)

    assert run_cli("--project", project, "install", "opencode", "--scope", "project", env=env).returncode == 0
    assert system().count(GUIDANCE) == 1
    assert run_cli("--project", project, "install", "opencode", "--scope", "user", env=env).returncode == 0
    assert system().count(GUIDANCE) == 2
