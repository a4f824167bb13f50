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

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, opencode_run
from tests.messages_server import text_of


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
    _done, main = opencode_run(exe, user_home, isolated_home, workdir, "Which port does the dev database use?",
                               lambda body: "ok", timeout=120, PATH=path)
    system = json.dumps(main[0]["system"], ensure_ascii=False)
    assert f"Working directory: {workdir}" in system
    assert f"Instructions from: {project / '.opencode' / 'memdir.md'}" in system  # resolved from the subdirectory
    assert "# Persistent memory (memdir)" in system and "memory_list" in system
    names = [tool["name"] for tool in main[0]["tools"]]
    assert "memdir_memory_write" in names and "memdir_memory_list" in names  # OpenCode's name for MCP tools


WRITE = {"name": "pkg-manager", "type": "project", "description": "This project uses pnpm, never npm",
         "body": "The lockfile is pnpm-lock.yaml."}


def _script(body: dict):
    """List the index, save a memory, search for it, answer (each step once its tool result is back)."""
    results = text_of(body).count('"tool_result"') if body.get("tools") else -1
    steps = [{"tool_use": "memdir_memory_list", "input": {}}, {"tool_use": "memdir_memory_write", "input": WRITE},
             {"tool_use": "memdir_memory_search", "input": {"query": "which package manager"}}, "Saved: pnpm."]
    return steps[results] if 0 <= results < len(steps) else "title"


@pytest.mark.slow
def test_a_user_scope_session_saves_and_finds_a_memory_and_uninstall_gives_back_opencodes_own_file(
        isolated_home, project, opencode_user):
    """trial18: a person who ran OpenCode once has the opencode.jsonc it wrote; they list an instructions file
    of their own in it. memdir edits that file (OpenCode reads it last: a list in an opencode.json beside it was
    replaced, and memdir's guidance never reached the model), the model gets both instructions, its memory_write
    lands on disk as the agent's, memory_search finds it, and uninstall gives back the file byte for byte."""
    user_home, mine = opencode_user.user_home, opencode_user.mine
    config = opencode_user.base / "opencode.jsonc"
    original = json.dumps({"$schema": "https://opencode.ai/config.json", "instructions": [str(mine)]}, indent=2) + "\n"
    config.write_text(original)
    done = run_cli("install", "opencode", env={"HOME": str(user_home)}, cwd=project)
    assert done.returncode == 0, done.stderr
    assert f"updated: {config}" in done.stdout and not (config.parent / "opencode.json").exists()
    done, main = opencode_run(opencode_user.exe, user_home, isolated_home, project,
                              "We use pnpm here, never npm. Remember that.", _script)
    assert "Saved: pnpm." in done.stdout
    system = json.dumps(main[0]["system"], ensure_ascii=False)
    assert "# Persistent memory (memdir)" in system  # memdir's guidance reached the model
    assert "Answer in plain English (the person's own instructions)." in system  # control: and the person's
    results = [json.dumps(b["messages"][-1]["content"], ensure_ascii=False) for b in main[1:]]
    assert "No memories yet." in results[0]
    assert "Memory created: pkg-manager (project)" in results[1]
    assert "pkg-manager (type: project; layer: project)" in results[2] and "This project uses pnpm" in results[2]
    saved = Memory.open(home=isolated_home, project=project).read("pkg-manager", count=False).record
    assert (saved.description, saved.origin, saved.type) == (WRITE["description"], "agent", "project")
    assert list((isolated_home / "projects").glob("*/pkg-manager.md"))  # the file in the project layer
    done = run_cli("uninstall", "opencode", env={"HOME": str(user_home)}, cwd=project)
    assert done.returncode == 0, done.stderr
    assert config.read_text() == original and not (config.parent / "memdir.md").exists()
