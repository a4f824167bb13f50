"""A removed git worktree's team journal is named by ``memdir doctor`` for what it is (keep32).

A team layer's local side (journal, version objects, candidates) is keyed by its checkout
(:func:`memdir.paths.team_meta_path` of :func:`memdir.paths.root_paths_of`'s checkout): a linked worktree has its
own, ``<home>/team/<key of the worktree>``, and ``git worktree remove`` left it there. Doctor called it an
orphaned layer — a problem (exit 1) — and advised ``memdir move-layer KEY <the main checkout>``, which finds no
such project layer. Now the team layer's ``layer.json`` records the worktree's git directory
(:func:`memdir.git.identity`); once git removed it, doctor says a note: the journal, what it holds, that no
checkout uses it and how to remove it. Nothing is deleted (a worktree added again there takes it up)."""

from __future__ import annotations

import json
import subprocess

from memdir.paths import project_key
from tests.conftest import run_cli


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_doctor_names_a_removed_worktrees_team_journal_and_keeps_it(tmp_path, isolated_home):
    repo, wt1, wt2 = tmp_path / "repo", tmp_path / "wt1", tmp_path / "wt2"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init")
    assert run_cli("team", "init", cwd=repo).returncode == 0
    assert run_cli("write", "deploy", "-d", "Deploys go through make ship", "-t", "project", "--scope", "team",
                   "--body", "From the release branch.", cwd=repo).returncode == 0
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "team memory")
    for tree in (wt1, wt2):
        _git(repo, "worktree", "add", "-q", str(tree), "-b", tree.name)
        done = run_cli("write", f"{tree.name}-note", "-d", f"A note of {tree.name} only", "-t", "project",
                       "--scope", "team", "--body", "x", cwd=tree)
        assert done.returncode == 0, done.stderr
    journal = isolated_home / "team" / project_key(str(wt1))
    recorded = json.loads((journal / ".memdir" / "layer.json").read_text())
    assert recorded["root"] == str(wt1) and recorded["worktree"] == str(repo / ".git" / "worktrees" / "wt1")
    # a journal an older memdir described (no "worktree") is described again by its next change
    del recorded["worktree"]
    (journal / ".memdir" / "layer.json").write_text(json.dumps(recorded) + "\n")
    done = run_cli("write", "wt1-note", "--body", "y", "--scope", "team", cwd=wt1)
    assert done.returncode == 0, done.stderr
    assert json.loads((journal / ".memdir" / "layer.json").read_text())["worktree"] == str(
        repo / ".git" / "worktrees" / "wt1")
    _git(repo, "worktree", "remove", "--force", str(wt1))
    done = run_cli("doctor", cwd=repo)
    assert done.returncode == 0, done.stdout  # before: 1 problem, an "orphaned layer" to move-layer
    assert "orphaned layer" not in done.stdout and "move-layer" not in done.stdout
    assert (f"note: team journal {journal}: of {wt1}, a git worktree that was removed; no checkout here uses it. "
            f"It holds 3 journal events (with the versions of the team memories written there: one not committed "
            f"before the worktree went is only there). A worktree added again at {wt1} takes it up again; if none "
            f"will be and nothing in it is wanted, remove it: rm -r {journal}") in done.stdout.splitlines()
    # (3: the deploy memory the checkout held, taken in; wt1-note written, then updated)
    assert journal.is_dir()  # reported, never removed
    # control: the live worktree's journal is not named, and it is there
    wt2_journal = isolated_home / "team" / project_key(str(wt2))
    assert wt2_journal.is_dir() and str(wt2_journal) not in done.stdout
    # control: a worktree moved by hand (git still has its git directory: not removed) is an orphan still
    subprocess.run(["mv", str(wt2), str(tmp_path / "moved")], check=True)
    done = run_cli("doctor", cwd=repo)
    assert f"orphaned layer {project_key(str(wt2))}: 0 memories of {wt2}, which no longer exists" in done.stdout, (
        done.stdout)
    assert str(journal) in done.stdout  # and the removed one is still the note it was
