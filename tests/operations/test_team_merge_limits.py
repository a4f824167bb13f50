"""What a team merge leaves that memdir would not show as one memory, with real git (team43): a clean merge
over the file-size ceiling is a conflict git reports, and two renames of one memory are named as two live
copies, with how to keep one."""

from __future__ import annotations

import json
import time

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

LINE = "Step: check the dashboard, then page the on-call person if the error rate stays above one percent.\n"


@pytest.fixture
def clones(tmp_path):
    """A and B sharing the team memories db-port and ci; B has run `memdir team init` (the driver registered)."""
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "The system cluster keeps 5432.",
                     scope="team")
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.publish("team memories", b)
    b.memory().team_init()
    return a, b


def _cli(clone, *args):
    return run_cli("--home", clone.home, "--project", clone.root, *args)


def _runbook(a, b, size: int, added: int):
    """A shared team memory `runbook` of about ``size`` body bytes; A appends ``added`` bytes and pushes, B
    prepends as many and commits, B pulls. Returns git's answer to the pull."""
    body = LINE * (size // len(LINE))
    a.memory().write("runbook", "The incident runbook", "reference", body, scope="team")
    a.publish("runbook", b)
    extra = added // len(LINE)
    time.sleep(1.1)
    a.memory().write("runbook", scope="team", body=body + "A-END\n" + LINE * extra)
    a.commit_all("A appends")
    a.push()
    time.sleep(1.1)
    b.memory().write("runbook", scope="team", body="B-START\n" + LINE * extra + body)
    b.commit_all("B prepends")
    return b.pull(check=False)


@pytest.mark.slow
def test_a_clean_merge_over_the_size_ceiling_stops_as_a_conflict_with_both_sides_kept(clones):
    a, b = clones
    pulled = _runbook(a, b, 239_000, 12_000)
    assert pulled.returncode != 0  # git did not commit the merge
    said = pulled.stdout + pulled.stderr
    # which ceiling: the merging person's, here memdir's default (left44c: it named no source)
    assert "CONFLICT" in said and ("over the 262144-byte ceiling of a memory file (max_file_bytes of the person "
                                   "merging, from memdir's default; a teammate's memdir reads with their own)") in said
    data = (b.team_dir / "runbook.md").read_bytes()
    assert len(data) > 256 * 1024 and b"<<<<<<<" not in data
    assert b"A-END\n" in data and b"B-START\n" in data  # both sides' text kept: nothing lost
    assert "UU .claude/memory/runbook.md" in git(b.root, "status", "--porcelain").stdout
    status = _cli(b, "team", "status").stdout
    assert "too large to read: " in status and "runbook.md" in status.split("too large to read: ")[1]
    assert "settled, not yet added" not in status  # not called settled: git add would commit an unread file
    assert "runbook" not in _cli(b, "context").stdout and "db-port" in _cli(b, "context").stdout
    git(b.root, "add", ".claude/memory/runbook.md")  # committed as it is (a person's choice): still named
    git(b.root, "commit", "-q", "-m", "merge")
    status = _cli(b, "team", "status").stdout
    assert "Nothing to commit: the team memories match git." in status
    assert "too large to read: " in status and "runbook.md" in status.split("too large to read: ")[1]


@pytest.mark.slow
def test_a_merge_under_the_size_ceiling_stays_clean(clones):
    a, b = clones  # the control: the same edits, smaller
    pulled = _runbook(a, b, 100_000, 12_000)
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    data = (b.team_dir / "runbook.md").read_bytes()
    assert b"A-END\n" in data and b"B-START\n" in data and len(data) < 256 * 1024
    status = _cli(b, "team", "status").stdout
    assert "Nothing to commit: the team memories match git." in status and "too large" not in status
    assert "runbook" in _cli(b, "context").stdout


def _rename_twice(a, b):
    a.memory().write("lint-ruff", rename_from="ci", scope="team")
    a.commit_all("A renames ci")
    a.push()
    time.sleep(1.1)
    b.memory().write("linting", rename_from="ci", scope="team")
    b.commit_all("B renames ci")
    return b.pull(check=False)


@pytest.mark.slow
def test_two_renames_of_one_memory_are_named_as_two_live_copies_until_one_is_kept(clones):
    a, b = clones
    assert _rename_twice(a, b).returncode != 0
    status = _cli(b, "team", "status").stdout
    assert ("renamed on both sides: ci became linting (ours) and lint-ruff (theirs) — two live copies of one "
            "memory") in status
    assert "`memdir team resolve ci --theirs` (their rename's fields) then `memdir delete linting --scope team`" in status
    shown = _cli(b, "team", "resolve", "ci").stdout
    assert "Both sides renamed ci: to linting (ours) and to lint-ruff (theirs)" in shown
    assert "superseded_by:" in shown  # the hunks are still shown
    assert _cli(b, "team", "resolve", "ci", "--theirs").returncode == 0  # the command status gives (break43)
    status = _cli(b, "team", "status").stdout
    assert "renamed on both sides" not in status  # settled in the file
    assert "live copies of one memory: lint-ruff, linting" in status  # but both copies still live
    assert "`memdir delete linting --scope team`" in status
    deleted = _cli(b, "delete", "linting", "--scope", "team")
    assert deleted.returncode == 0, deleted.stderr
    status = _cli(b, "team", "status").stdout
    assert "live copies" not in status and "settled, not yet added" in status
    listed = _cli(b, "list").stdout
    assert "lint-ruff" in listed and "linting" not in listed  # the kept copy is live, not tombstoned


@pytest.mark.slow
def test_one_rename_pulled_names_no_copies(clones):
    a, b = clones  # the control: a rename on one side only
    a.memory().write("lint-ruff", rename_from="ci", scope="team")
    a.commit_all("A renames ci")
    a.push()
    assert b.pull(check=False).returncode == 0
    status = _cli(b, "team", "status").stdout
    assert "renamed on both sides" not in status and "live copies" not in status
    assert "Nothing to commit: the team memories match git." in status
    assert "lint-ruff" in _cli(b, "list").stdout


@pytest.mark.slow
def test_team_init_outside_a_git_repository_says_there_is_none(tmp_path):
    plain, repo, home = tmp_path / "plain", tmp_path / "repo", tmp_path / "home"
    plain.mkdir()
    out = run_cli("--home", home, "--project", plain, "team", "init")
    assert out.returncode == 1, out.stderr  # left44c: it said so but exited 0 (the CLI's rule: not done, exit 1)
    assert "There is no git repository here, so nothing shares it yet" in out.stdout
    assert (plain / ".claude" / "memory").is_dir()  # the directory is made all the same (init again in a repository)
    out = run_cli("--home", home, "--project", plain, "--json", "team", "init")
    assert out.returncode == 1 and json.loads(out.stdout)["repository"] is False
    assert "Commit it (git add the directory" not in out.stdout
    git(tmp_path, "init", "-q", "-b", "main", str(repo))  # the control: a repository
    out = run_cli("--home", home, "--project", repo, "team", "init")
    assert out.returncode == 0, out.stderr
    assert "Commit it (git add the directory, git commit)" in out.stdout and "no git repository" not in out.stdout
