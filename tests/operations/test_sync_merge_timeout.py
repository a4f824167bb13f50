"""A sync's merge cut at its timeout (memdir.files.repository.merge_remote): undone, nothing lost, no driver left.

The merge runs one merge-driver process (a Python start) per memory both machines changed: ~0.1 s idle, 0.9-6.6 s at
load 19 on 2 cores, so a bound of 1 s a file failed merges of ten memories and more on a busy machine. Whatever the
bound, a merge that reaches it is killed — git and the drivers it started — and undone: the live layers keep both
the person's text and what they had, and the next sync merges both.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir.errors import StoreError
from memdir.files import repository
from tests.conftest import wait_until
from tests.operations.test_sync import git, prefs_changed_apart, world  # noqa: F401  (world: the fixture)

pytestmark = pytest.mark.slow


def _dead(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status  # killed, waiting for init to reap it


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads a process's state from /proc (Linux)")
def test_a_merge_cut_at_its_timeout_is_undone_kills_its_drivers_and_loses_nothing(world, tmp_path, monkeypatch):  # noqa: F811
    from memdir import git as git_module

    a, b, remote = world
    names = prefs_changed_apart(a, b, remote, 3)  # every file goes through the merge driver
    repo = repository.repository(b.home)
    real_driver = git(repo, "config", "merge.memdir.driver").stdout.strip()
    pids = tmp_path / "driver-pids"
    # A driver that never finishes (a machine so busy that one run outlasts the merge's whole bound).
    git(repo, "config", "merge.memdir.driver", f"echo $$ >> {pids}; exec sleep 600")
    monkeypatch.setattr(git_module, "TIMEOUT", 8.0)
    monkeypatch.setattr(repository, "MERGE_SECONDS_PER_FILE", 0.0)
    with pytest.raises(StoreError) as said:
        b.sync()
    assert str(said.value).startswith("the merge from another machine timed out after 8s (")
    assert "and was undone; nothing here changed, and the next sync merges again" in str(said.value)
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 1  # git waits for each driver in turn: the first one was running
    wait_until(lambda: _dead(started[0]), "the merge driver killed with git", limit=30)
    # Undone: nothing of git's left in the work tree, no merge in progress, the repository at its HEAD.
    assert [n for n in os.listdir(repo) if n.startswith(repository.GIT_TEMP_PREFIX)] == []
    assert not (repository.git_dir(repo) / "MERGE_HEAD").exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=all").stdout == ""
    for name in names:  # B's live memories as they were: its own text, not A's yet
        record = b.mem().read(name, scope="user").record
        assert "B's reason" in record.body and record.description == f"Preference {name}"
    # The next sync (the driver back, the bound as shipped) merges both machines' text.
    git(repo, "config", "merge.memdir.driver", real_driver)
    monkeypatch.setattr(repository, "MERGE_SECONDS_PER_FILE", 10.0)
    report = b.sync()
    assert report.outcome == "synced" and report.conflicts == ()
    assert not any("saved aside" in note for note in report.notes)  # nothing in the repository was taken for a hand edit
    for name in names:
        record = b.mem().read(name, scope="user").record
        assert record.description == f"Preference {name}, as A says" and "B's reason" in record.body
