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


def test_team_init_warns_when_git_ignores_the_team_directory(tmp_path):
    """team40: `team init` in a repository whose .gitignore held `.claude/` said nothing, and every memory written
    after was ignored. It says so with the command that names the line — the same rule as `team status`
    (operations.team.git_ignores) — and status names a memory in a never-tracked ignored directory (git status
    listed only `.claude/` for it). Control: the same repository without the line gets no such line."""
    from memdir import Memory

    for ignore, new in (("", ()), (".claude/\n", (".claude/memory/memory.md", ".claude/memory/tombstones/memory.json")),
                        ("*.md\n", (".claude/memory/memory.md",))):
        root = tmp_path / f"repo{len(new)}"
        git(tmp_path, "init", "-q", str(root))
        (root / ".gitignore").write_text(ignore)
        done = run_cli("--home", tmp_path / "home", "--project", root, "team", "init")
        assert done.returncode == 0, done.stderr
        said = [line for line in done.stdout.splitlines() if line.startswith("Ignored by git")]
        if not new:  # control
            assert said == [] and "Created: README, .gitignore, .gitattributes, tombstones/" in done.stdout
            continue
        assert said == [(f"Ignored by git: a .gitignore line matches the team directory's files ({', '.join(new)}), "
                         "so no team memory or tombstone written there is ever committed or shared — "
                         "`git check-ignore -v .claude/memory/memory.md` names the line; remove it")]
        named = git(root, "check-ignore", "-v", ".claude/memory/memory.md").stdout
        assert named == f".gitignore:1:{ignore.strip()}\t.claude/memory/memory.md\n"
        mem = Memory.open(home=tmp_path / "home", project=root, actor="human")
        assert mem.team_init().ignores_new == new
        mem.write("ci", "CI runs on GitHub Actions", "project", scope="team")
        status = mem.team_status()
        assert (status.ignored, status.ignores_new) == ((".claude/memory/ci.md",), new)
        assert [c.path for c in status.changes if c.path.endswith(".md")] == []
    control = Memory.open(home=tmp_path / "home", project=tmp_path / "repo0", actor="human")
    control.write("ci", "CI runs on GitHub Actions", "project", scope="team")
    status = control.team_status()
    assert (status.ignored, status.ignores_new) == ((), ())
    assert ".claude/memory/ci.md" in {c.path for c in status.changes}
