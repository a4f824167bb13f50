"""A trusted team directory that becomes a symbolic link (a pull that replaced ``.claude`` or
``.claude/memory`` by a link, e.g. into another project's memory layer) is refused by every reader and
writer (tests/operations/test_team_trial.py) — and `memdir doctor` now names it. Before break28 doctor said
"ok" (exit 0) while the team memories had left the agent's context and every team command failed: the
person learned why only from `memdir team status`. Real git, the real CLI."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import run_cli
from tests.teamgit import git


@pytest.mark.parametrize("link", [".claude", ".claude/memory"])
def test_doctor_names_a_team_directory_turned_into_a_symbolic_link(tmp_path, link):
    root, home = tmp_path / "app", tmp_path / "home"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    env = {"MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"}
    assert run_cli("--project", root, "team", "init", env=env).returncode == 0
    assert run_cli("--project", root, "write", "ci", "-d", "CI runs on Buildkite", "--scope", "team",
                   env=env).returncode == 0
    before = run_cli("--project", root, "doctor", env=env)
    assert before.returncode == 0 and "symbolic link" not in before.stdout  # the control: a real directory
    assert "team layer:" in before.stdout and "1 memory" in before.stdout

    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "memory").mkdir(parents=True)
    shutil.rmtree(root / link)
    (root / link).symlink_to(elsewhere if link == ".claude" else elsewhere / "memory")
    after = run_cli("--project", root, "doctor", env=env)
    assert after.returncode == 1, after.stdout  # before: 0, "ok"
    said = [line for line in after.stdout.splitlines() if "passes through a symbolic link" in line]
    assert len(said) == 1 and said[0].startswith(  # the line is cut at the render's width
        f"team: the team directory {root / '.claude' / 'memory'} passes through a symbolic link ({root / link} -> "
        f"{tmp_path}"), after.stdout
    assert after.stdout.splitlines()[-1] == "1 problem(s)"
    assert "CI runs on Buildkite" not in run_cli("--project", root, "context", env=env).stdout
