"""The real OpenCode (`opencode run`) against a scripted local Messages API, after
`memdir install opencode --scope project`: OpenCode resolves the project's relative instructions
path `.opencode/memdir.md` (also when started in a subdirectory of the project), so memdir's
guidance reaches the model's system prompt, and memdir's MCP tools are in its tool list."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer

MODEL = "anthropic/claude-sonnet-4-5"  # in OpenCode's bundled model list: no models.dev fetch needed


@pytest.mark.slow
def test_opencode_reads_the_project_instructions_file_and_lists_memdirs_tools(tmp_path, isolated_home, project):
    exe = binary("opencode")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for the portable entry
    user_home = tmp_path / "userhome"
    done = run_cli("install", "opencode", "--scope", "project", env={"HOME": str(user_home), "PATH": path},
                   cwd=project)
    assert done.returncode == 0, done.stderr
    assert json.loads((project / "opencode.json").read_text())["instructions"] == [".opencode/memdir.md"]
    workdir = project / "src" / "app"
    workdir.mkdir(parents=True)
    with MessagesServer(lambda body: "ok") as server:
        provider = {"provider": {"anthropic": {"options": {"baseURL": server.url + "/v1", "apiKey": "dummy"}}}}
        env = client_env(user_home, isolated_home, PATH=path, PWD=str(workdir),
                         OPENCODE_CONFIG_CONTENT=json.dumps(provider), OPENCODE_DISABLE_MODELS_FETCH="1",
                         OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_DEFAULT_PLUGINS="1")
        done = subprocess.run([exe, "run", "-m", MODEL, "Which port does the dev database use?"],
                              capture_output=True, text=True, env=env, cwd=workdir, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        main = [b for b in server.requests if b.get("tools")]
    assert main, server.requests
    system = json.dumps(main[0]["system"], ensure_ascii=False)
    assert f"Working directory: {workdir}" in system
    assert f"Instructions from: {project / '.opencode' / 'memdir.md'}" in system  # resolved from the subdirectory
    assert "# Persistent memory (memdir)" in system and "memory_list" in system
    names = [tool["name"] for tool in main[0]["tools"]]
    assert "memdir_memory_write" in names and "memdir_memory_list" in names  # OpenCode's name for MCP tools
