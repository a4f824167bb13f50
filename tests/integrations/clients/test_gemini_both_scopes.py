"""memdir installed for Gemini CLI in both scopes (``~/.gemini/settings.json`` and a project's
``.gemini/settings.json``): Gemini CLI 0.61 concatenates the hook lists of its settings files, so it runs memdir's
hooks of both in that project, as Claude Code and Codex do (newuser39, real Gemini CLI: the hooks' guard kept it to
one context block). Install and ``memdir doctor`` said so for Claude Code and Codex, never for Gemini CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.gemini_server import GeminiServer, request_text
from tests.integrations.clients.realclients import binary, client_env

TWICE = "gemini: memdir's hooks are registered twice, in {user} (user scope) and {project} (project scope): " \
        "Gemini CLI runs both in that project"


def _env(tmp_path):
    return {"HOME": str(tmp_path / "userhome"),
            "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}


def test_install_and_doctor_say_when_gemini_runs_memdirs_hooks_of_both_scopes(tmp_path, isolated_home, project):
    env = _env(tmp_path)
    user = tmp_path / "userhome" / ".gemini" / "settings.json"
    mine = project / ".gemini" / "settings.json"
    twice = TWICE.format(user=user, project=mine)
    alone = run_cli("--project", project, "install", "gemini", "--scope", "project", env=env)
    assert alone.returncode == 0, alone.stderr
    assert "registered twice" not in alone.stdout  # control: the project's hooks alone run once
    assert "registered twice" not in run_cli("--project", project, "doctor", env=env).stdout
    done = run_cli("--project", project, "install", "gemini", "--scope", "user", env=env)
    assert done.returncode == 0, done.stderr
    assert f"note: {twice}" in done.stdout
    doctor = run_cli("--project", project, "doctor", env=env)
    assert f"note: {twice}" in doctor.stdout, doctor.stdout
    assert run_cli("--project", project, "uninstall", "gemini", "--scope", "project", env=env).returncode == 0
    assert "registered twice" not in run_cli("--project", project, "doctor", env=env).stdout  # one scope left


@pytest.fixture
def gemini_user(tmp_path, isolated_home, project) -> SimpleNamespace:
    """A person who runs the real Gemini CLI in ``project`` (skips without the binary), logged in with an API key
    (``~/.gemini/settings.json``) and one project memory, db-port ("Moved on 2026-11-02." its body): ``install(scope)``
    runs ``memdir install gemini --scope scope`` (asserting exit 0) and ``ask()`` runs one prompt against a scripted
    local Gemini endpoint, asserting exit 0, and returns the text of the model request Gemini CLI sent."""
    exe = binary("gemini")
    env = _env(tmp_path)
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    settings = tmp_path / "userhome" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))

    def install(scope: str) -> None:
        assert run_cli("--project", project, "install", "gemini", "--scope", scope, env=env).returncode == 0

    def ask() -> str:
        with GeminiServer(lambda body: "ok") as server:
            run_env = client_env(tmp_path / "userhome", isolated_home, GEMINI_API_KEY="dummy",
                                 GOOGLE_GEMINI_BASE_URL=server.url, GEMINI_CLI_TRUST_WORKSPACE="true",
                                 PWD=str(project), MEMDIR_SEARCH_VECTORS="off", PATH=env["PATH"])
            done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "-m", "gemini-2.5-flash"],
                                  capture_output=True, text=True, env=run_env, cwd=project, timeout=180,
                                  stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
            return request_text(next(b for p, b in server.requests if "gemini-2.5-flash:stream" in p))

    return SimpleNamespace(install=install, ask=ask)


@pytest.mark.slow
def test_a_gemini_session_with_memdir_in_both_scopes_gets_each_block_once(gemini_user):
    for scope in ("user", "project"):
        gemini_user.install(scope)
    sent = gemini_user.ask()
    assert sent.count("&lt;memory_context&gt;") == 1 and "db-port" in sent  # the context block, once
    assert sent.count("&lt;memory_recall&gt;") == 1 and sent.count("Moved on 2026-11-02.") == 1  # the recall, once


GUIDANCE = "## How to use memory"


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["project", "user"])
def test_a_gemini_session_gets_the_guidance_once(gemini_user, scope):
    """team41: Gemini CLI 0.61 runs a project's hooks where it runs the project's MCP servers (a trusted folder:
    the hooks only warned of once) and puts a server's instructions into the project's context, so a project
    install's server, registered without ``--hooks``, gave the model memdir's "How to use memory" guidance a
    second time beside the SessionStart block's (measured: twice in the request). Now once, in the block, with
    the server's two short lines beside it; control: the user scope, once already."""
    gemini_user.install(scope)
    sent = gemini_user.ask()
    print(f"{scope}: guidance {sent.count(GUIDANCE)} time(s) in the request")
    assert sent.count("&lt;memory_context&gt;") == 1 and "db-port" in sent  # the hook's block reached the model
    assert "instructions provided by the tool server 'memdir'" in sent  # and the server's instructions too
    assert "are in the memory context block given at session start" in sent  # its short lines
    assert sent.count(GUIDANCE) == 1
