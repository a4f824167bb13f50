"""A linked worktree's team memories are its own files (DESIGN §11: the team layer is "a directory inside the
repository ... shared through git"; §2: worktrees of one repository share the *project* layer). A ``--scope team``
write from a worktree made with ``git worktree add`` landed in the main checkout's ``.claude/memory/`` — on the
main checkout's branch, not the worktree's — and ``team status`` ran git there. Now the team layer's files are the
checkout's the session runs in (:func:`memdir.paths.root_paths_of`), its local side (journal, versions) is that
checkout's, and its trust is still the clone's, asked once for every worktree. Real git, real worktrees, real
files."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.teamgit import git, shared_repository


@pytest.fixture
def worktree(tmp_path):
    a, _ = shared_repository(tmp_path)  # A's team init (committed) trusted its clone
    a.memory().write("db-port", "Team dev DB listens on 5433", "project", "on the main branch", scope="team")
    a.commit_all("team memory")
    tree = tmp_path / "A-feature"
    git(a.root, "worktree", "add", "-q", str(tree), "-b", "feature")
    return a, tree


def _team_files(root) -> list[str]:
    return sorted(p.name for p in (root / ".claude" / "memory").glob("*.md") if p.name != "MEMORY.md")


@pytest.mark.slow
def test_a_team_write_from_a_linked_worktree_lands_in_that_worktree(worktree):
    a, tree = worktree
    mem = Memory.open(home=a.home, project=tree, actor="human")
    assert mem.session.root_path == str(a.root.resolve())  # the project layer is still the clone's (shared)
    assert mem.session.checkout_path == str(tree.resolve())
    done = mem.write("feature-flag", "The feature branch gates billing behind BILLING_V2", "project", "",
                     scope="team")
    assert done.scope == "team"
    assert _team_files(tree) == ["db-port.md", "feature-flag.md"]
    assert _team_files(a.root) == ["db-port.md"]  # before: feature-flag.md here, on the main checkout's branch
    changes = git(tree, "status", "--porcelain", "--", ".claude/memory").stdout
    assert "feature-flag.md" in changes
    assert git(a.root, "status", "--porcelain", "--", ".claude/memory").stdout == ""
    status = mem.team_status()  # git asked in the worktree
    assert [(c.path, c.state) for c in status.changes] == [(".claude/memory/feature-flag.md", "untracked")]
    assert mem.read("feature-flag").scope == "team"
    # control: the main checkout's session writes the main checkout's files, and does not see the worktree's
    main = Memory.open(home=a.home, project=a.root, actor="human")
    main.write("main-only", "Only on main", "project", "", scope="team")
    assert _team_files(a.root) == ["db-port.md", "main-only.md"] and "main-only.md" not in _team_files(tree)
    assert [m.name for m in main.list("team").memories] == ["db-port", "main-only"]
    assert sorted(m.name for m in mem.list("team").memories) == ["db-port", "feature-flag"]


@pytest.mark.slow
def test_the_cli_and_an_agent_in_the_worktree_agree(worktree):
    a, tree = worktree
    env = {"MEMDIR_HOME": str(a.home)}
    done = run_cli("--project", str(tree), "write", "cli-note", "-d", "Written by the CLI in the worktree",
                   "-t", "project", "--scope", "team", "--body", "b", env=env)
    assert done.returncode == 0, done.stderr
    assert "cli-note.md" in _team_files(tree) and "cli-note.md" not in _team_files(a.root)
    listed = json.loads(run_cli("--project", str(tree), "list", "--scope", "team", "--json", env=env).stdout)
    assert sorted(m["name"] for m in listed["memories"]) == ["cli-note", "db-port"]
    agent = Memory.open(home=a.home, project=tree, actor="agent")
    assert agent.session.team_trusted()  # the clone's trust: a worktree is not asked again
    assert "cli-note" in [m.name for m in agent.list("team").memories]
