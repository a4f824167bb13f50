"""A team memory's conflict met in a rebase (`git pull --rebase`), not a merge: git's sides are the other way
round — "ours" is the branch rebased onto (the other person's text) and "theirs" this clone's own commit — and
``memdir team resolve`` says so (memdir.git.replaying). Before break28 it labelled the other person's value
"ours (this clone)" and the person's own "theirs (the side merged in)", so keeping "ours" to keep one's own text
threw it away, and resolve said to "commit the merge" in the middle of a rebase. Real git, two clones."""

from __future__ import annotations

import json

import pytest

from tests.operations.test_team_merge import _diverge, clones  # noqa: F401 — a fixture
from tests.operations.test_team_resolve_sides import A_SIDE, B_SIDE, _cli
from tests.teamgit import git


@pytest.mark.slow
def test_a_rebase_conflict_names_whose_each_side_is_and_the_step_after(clones):  # noqa: F811
    a, b = clones
    git(b.root, "config", "pull.rebase", "true")
    assert _diverge(a, b, {"description": A_SIDE}, {"description": B_SIDE}).returncode != 0
    assert (b.root / ".git" / "rebase-merge").is_dir()  # a rebase waits, not a merge
    shown = _cli(b, "team", "resolve", "db-port")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:4] == [
        "  description:",
        f"    ours (the branch rebased onto):     {A_SIDE!r}",  # A's text: in a rebase git's ours is upstream
        f"    theirs (your commit being rebased): {B_SIDE!r}"]  # before: 'ours (this clone): ' + A's text
    assert json.loads(_cli(b, "--json", "team", "resolve", "db-port").stdout)["replaying"] == "rebase"

    done = _cli(b, "team", "resolve", "db-port", "--theirs")  # B keeps B's own text
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Now `git add` it and `git rebase --continue`.")
    git(b.root, "add", "-A")
    finished = git(b.root, "-c", "core.editor=true", "rebase", "--continue", check=False)
    assert finished.returncode == 0, finished.stderr
    assert f"description: {B_SIDE}\n" in (b.team_dir / "db-port.md").read_text()
    assert [m["description"] for m in json.loads(_cli(b, "--json", "list").stdout)["memories"]
            if m["name"] == "db-port"] == [B_SIDE]


@pytest.mark.slow
def test_the_same_conflict_met_in_a_merge_keeps_the_merge_s_words(clones):  # noqa: F811 — the control
    a, b = clones
    assert _diverge(a, b, {"description": A_SIDE}, {"description": B_SIDE}).returncode != 0
    assert (b.root / ".git" / "MERGE_HEAD").is_file()
    shown = _cli(b, "team", "resolve", "db-port").stdout.splitlines()
    assert shown[2:4] == [f"    ours (this clone):           {B_SIDE!r}",
                          f"    theirs (the side merged in): {A_SIDE!r}"]
    assert json.loads(_cli(b, "--json", "team", "resolve", "db-port").stdout)["replaying"] is None
    done = _cli(b, "team", "resolve", "db-port", "--ours")
    assert done.stdout.rstrip().endswith("Now `git add` it and commit the merge.")
    assert f"description: {B_SIDE}\n" in (b.team_dir / "db-port.md").read_text()
