"""A standalone warm process makes no removed home when it takes its lock (memdir.files.background's rule: a process
that runs on its own never makes a missing directory). It checked ``home.is_dir()`` and then took filelock's lock,
whose acquire makes the lock file's parents (``mkdir(parents=True)``): a home removed in between came back with a
``warm.lock`` in it. Now the lock file is opened with ``O_CREAT`` in the home as it is (memdir.search.warm.server
._own_lock), which fails when the home is gone. Real processes hold and ask for the lock."""

from __future__ import annotations

import subprocess
import sys

from memdir.search import warm
from memdir.search.warm.server import _own_lock

ASK = "import sys; from pathlib import Path; from memdir.search.warm.server import _own_lock; " \
      "print(_own_lock(Path(sys.argv[1])) is not None)"


def _asked(home) -> str:
    """What another process's :func:`_own_lock` of ``home`` gets: ``True`` (the lock) or ``False``."""
    return subprocess.run([sys.executable, "-c", ASK, str(home)], capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()


def test_the_lock_of_a_removed_home_makes_no_home(tmp_path):
    home = tmp_path / "home"  # removed after the process's is_dir check: it is not there when the lock is taken
    before = sorted(tmp_path.iterdir())
    assert _own_lock(home) is None
    assert not home.exists() and sorted(tmp_path.iterdir()) == before


def test_the_lock_of_a_home_that_is_there_is_held_alone_until_released(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    lock = _own_lock(home)
    assert lock is not None and (home / warm.LOCK_FILE).is_file()
    assert _asked(home) == "False"  # another warm process of the home waits, then gives up
    lock.release()
    assert _asked(home) == "True"  # released: the next takes it
    assert sorted(p.name for p in home.iterdir()) == [warm.LOCK_FILE]
