"""memdir installed for Claude Code in both scopes (the user's ``~/.claude/settings.json`` and a project's
``.claude/settings.json``): Claude Code runs the hooks of both, so without a guard each SessionStart injected the
context block twice and each prompt its recall twice (trial30, real Claude Code 2.1.332)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env
from tests.messages_server import MessagesServer


@pytest.mark.slow
def test_a_session_with_memdir_in_both_scopes_gets_each_block_once(tmp_path, isolated_home, project):
    exe = binary("claude")
    user_home = tmp_path / "userhome"
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for project files
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    for scope in ("user", "project"):
        done = run_cli("--project", project, "install", "claude-code", "--scope", scope,
                       env={"HOME": str(user_home), "PATH": path})
        assert done.returncode == 0, done.stderr
    settings = [user_home / ".claude" / "settings.json", project / ".claude" / "settings.json"]
    assert all("memdir" in json.dumps(json.loads(p.read_text())["hooks"]["SessionStart"]) for p in settings)
    with MessagesServer(lambda body: "ok") as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off", PATH=path)
        done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "--output-format", "json"],
                              check=False, capture_output=True, text=True, env=env, cwd=project, timeout=180,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        first = json.dumps(next(b for b in server.requests if b.get("tools"))["messages"], ensure_ascii=False)
    assert first.count("<memory_context>") == 1 and "db-port" in first  # the context block, once
    assert first.count("<memory_recall>") == 1 and first.count("Moved on 2026-11-02.") == 1  # the recall, once
