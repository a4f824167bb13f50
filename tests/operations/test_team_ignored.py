"""A team file git ignores is said by `team status` (break39): a repository whose .gitignore holds `.claude/`
(or `*.md`) kept every new team memory and tombstone out of every commit, while status said "Nothing to commit:
the team memories match git" — a team write never reached the team, a forget never bound another clone."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow

IGNORED = "Ignored by git, so never committed and never shared: "


def test_team_memories_and_tombstones_git_ignores_are_named(tmp_path):
    a, _ = shared_repository(tmp_path, trust=False)
    mem = a.memory()
    mem.write("ci", "CI runs on GitHub Actions", "project", scope="team")
    status = mem.team_status()
    assert status.ignored == () and [c.path for c in status.changes] == [".claude/memory/ci.md"]  # control
    a.commit_all("ci")
    (a.root / ".gitignore").write_text(".claude/\n")
    git(a.root, "add", ".gitignore")
    git(a.root, "commit", "-q", "-m", "ignore .claude")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    stone = mem.forget("ci", scope="team").tombstone
    status = mem.team_status()
    assert status.ignored == (".claude/memory/db-port.md", f".claude/memory/tombstones/{stone}.json")
    assert [(c.path, c.state) for c in status.changes] == [(".claude/memory/ci.md", "deleted")]  # tracked: seen
    out = run_cli("--home", a.home, "--project", a.root, "team", "status").stdout
    assert f"{IGNORED}2 team file(s) (.claude/memory/db-port.md, .claude/memory/tombstones/{stone}.json)" in out
    assert "Nothing to commit: the team memories match git." not in out
    (a.root / ".gitignore").write_text("")  # control: the line removed, both are files to commit
    again = mem.team_status()
    assert again.ignored == () and {c.path for c in again.changes} >= {".claude/memory/db-port.md"}
