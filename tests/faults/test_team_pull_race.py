"""A team layer whose files git changes under concurrent readers and writers (break23): `git checkout`
between two commits of the team layer, back and forth for 20 s, takes no memdir lock, while `memdir
search`, `context`, `list --scope team` and personal `write`s run as real processes. Before, a file that
went between a sweep's listing and its reading of it made the command die with a KeyError traceback from
layer.commit.sweep (main: 4 of 56 commands in 40 s; after: 0). Every personal write stays, the
journals verify, and the team layer settles to its 79 memories."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow  # real git and processes


def _cli(clone, *args) -> subprocess.Popen:
    env = dict(os.environ, MEMDIR_HOME=str(clone.home), MEMDIR_SEARCH_VECTORS="off")
    return subprocess.Popen([sys.executable, "-m", "memdir.cli", "--project", str(clone.root), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_readers_and_writers_while_git_changes_the_team_layer_never_fail(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    a, b = shared_repository(tmp_path)
    team = a.memory()
    for i in range(60):
        team.write(f"team-note-{i}", f"Team fact {i} about the deploy pipeline", "project", f"kafka {i}", scope="team")
    a.commit_all("v1")
    for i in range(0, 60, 2):
        team.write(f"team-note-{i}", f"Team fact {i} about the deploy pipeline, revised", "project", f"kafka v2 {i}",
                   scope="team")
    for i in range(60, 80):
        team.write(f"team-note-{i}", f"Team fact {i} new in v2", "project", f"kafka {i}", scope="team")
    team.delete("team-note-1", scope="team")
    a.commit_all("v2")
    a.push()
    b.pull()
    b.trust()
    v2 = git(b.root, "rev-parse", "HEAD").stdout.strip()
    v1 = git(b.root, "rev-parse", "HEAD~1").stdout.strip()
    flips = (f"end=$((SECONDS+20)); while [ $SECONDS -lt $end ]; do "
             f"git checkout -q {v1}; sleep 0.05; git checkout -q {v2}; sleep 0.05; done")
    flipper = subprocess.Popen(["bash", "-c", flips],
                               cwd=b.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failed, wrote, commands = [], [], 0
    while flipper.poll() is None:
        name = f"personal-{len(wrote)}"
        batch = [_cli(b, "search", "kafka", "-k", "50"), _cli(b, "context"), _cli(b, "list", "--scope", "team"),
                 _cli(b, "write", name, "-d", f"Personal fact {len(wrote)} about redis", "-t", "project")]
        wrote.append(name)
        for process in batch:
            _, err = process.communicate(timeout=120)
            commands += 1
            if process.returncode != 0 or "Traceback" in err:
                failed.append((process.args[5:], process.returncode, err[-3000:]))
    git(b.root, "checkout", "-q", v2)
    assert commands >= 8 and failed == []
    mem = b.memory()
    assert {f"personal-{n}" for n in range(len(wrote))} <= {m.name for m in mem.list().memories}
    assert [layer.error for layer in mem.verify().layers if not layer.ok] == []
    assert len(mem.list(scope="team").memories) == 79  # control: the team layer as v2 holds it
