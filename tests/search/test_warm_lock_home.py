"""The lock a job that runs on its own takes (a standalone warm process's ``warm.lock``, the embedder's
``embed.lock``) makes no removed home: :func:`memdir.layer.joblock.lock`, filelock's lock plus the check that
the home is there. filelock's acquire makes the lock file's parents (``mkdir(parents=True)``), so a home removed
between the check and the acquire came back with a lock file in it; the home is now compared before and after,
and what the acquire made is taken back. (Before, the warm process had a private ``flock`` path of its own beside
filelock, and the embedder kept the window.) Real processes hold, wait for and remove."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from memdir.files import background
from memdir.layer import joblock
from memdir.search import embedder, warm

ASK = ("import sys; import filelock; from memdir.files import background; from memdir.layer import joblock\n"
       "print('ready', flush=True)\n"
       "try:\n"
       "    lock = joblock.lock(sys.argv[1], sys.argv[2], float(sys.argv[3]))\n"
       "    print(lock is not None)\n"
       "except background.Gone as exc:\n"
       "    print('Gone:', exc)\n")
WAIT = 120.0  # seconds allowed for a process on a loaded machine (a wait, not an assertion)


def _ask(home, wait: float = 0.2, name: str = warm.LOCK_FILE) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", ASK, str(home), name, str(wait)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _answer(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0, err
    return out.strip().splitlines()[-1]  # after "ready"


def _past_its_check(process: subprocess.Popen) -> None:
    """Return once ``process`` has checked the home and waits for the lock: it says ``ready`` just before
    :func:`joblock.lock` (filelock already imported: the check is the next thing it does), given a second."""
    assert process.stdout.readline().strip() == "ready", process.communicate()
    time.sleep(1.0)


def test_the_lock_of_a_removed_home_makes_no_home(tmp_path):
    home = tmp_path / "home"  # removed after the process's own check: it is not there when the lock is taken
    before = sorted(tmp_path.iterdir())
    with pytest.raises(background.Gone):
        joblock.lock(home, warm.LOCK_FILE, 0.1)
    assert not home.exists() and sorted(tmp_path.iterdir()) == before
    # control: a home that is there gets its lock file, 0600
    home.mkdir()
    lock = joblock.lock(home, warm.LOCK_FILE, 0.1)
    assert lock is not None and oct((home / warm.LOCK_FILE).stat().st_mode & 0o777) == "0o600"
    lock.release()


def test_the_lock_of_a_home_that_is_there_is_held_alone_until_released(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    lock = joblock.lock(home, warm.LOCK_FILE, 0.1)
    assert lock is not None and (home / warm.LOCK_FILE).is_file()
    assert _answer(_ask(home)) == "False"  # another warm process of the home waits, then gives up
    lock.release()
    assert _answer(_ask(home)) == "True"  # released: the next takes it
    assert home.is_dir()


@pytest.mark.parametrize("name", [warm.LOCK_FILE, embedder.LOCK_FILE])
def test_a_home_removed_while_its_lock_is_waited_for_is_not_made_again(tmp_path, name):
    """A real process passes the home's check and waits for the lock another holds; the home is removed; the lock
    is let go. It gets Gone, and the home stays removed (filelock's acquire made it again, or failed to open)."""
    home = tmp_path / "home"
    home.mkdir()
    held = joblock.lock(home, name, 0.1)
    waiting = _ask(home, wait=WAIT, name=name)
    _past_its_check(waiting)
    shutil.rmtree(home)
    held.release()
    answer = _answer(waiting)
    assert answer == f"Gone: {home} went while its lock {name} was taken; a background job does not make it again"
    assert not home.exists()
    # control: the same wait with the home left there ends with the lock, and the home kept
    home.mkdir()
    held = joblock.lock(home, name, 0.1)
    waiting = _ask(home, wait=WAIT, name=name)
    _past_its_check(waiting)
    held.release()
    assert _answer(waiting) == "True" and home.is_dir()


def test_what_someone_put_in_the_home_made_again_is_kept(tmp_path, monkeypatch):
    """The home removed and made again by a person while the lock was taken: the lock file goes, the person's
    file and the home stay (rmdir removes only an empty home); Gone all the same."""
    from filelock import FileLock

    home = tmp_path / "home"
    home.mkdir()
    real = FileLock.acquire

    def removed_then_made(self, *args, **kwargs):  # the instant between the check and the acquire
        shutil.rmtree(home)
        home.mkdir()
        (home / "notes.md").write_text("mine")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(FileLock, "acquire", removed_then_made)
    with pytest.raises(background.Gone):
        joblock.lock(home, warm.LOCK_FILE, 0.1)
    assert sorted(p.name for p in home.iterdir()) == ["notes.md"]


def test_the_warm_process_and_the_embedder_end_quietly_on_a_removed_home(tmp_path):
    home = tmp_path / "home"
    before = sorted(tmp_path.iterdir())
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    ran = subprocess.run([sys.executable, "-m", "memdir.search.embedder", str(home)], capture_output=True,
                         text=True, env=env, timeout=WAIT, check=False)
    said = f"embedder: Gone: {home} is gone; a background job does not make it again (the next write through memdir does)"
    assert (ran.returncode, ran.stderr.strip()) == (1, said)
    assert not home.exists() and sorted(tmp_path.iterdir()) == before
    # control: the embedder of a home that is there takes its lock and embeds (none to embed)
    home.mkdir()
    ran = subprocess.run([sys.executable, "-m", "memdir.search.embedder", str(home)], capture_output=True,
                         text=True, env=env, timeout=WAIT, check=False)
    assert ran.returncode == 0 and ran.stdout.startswith("embedder: 0 memories embedded"), ran.stderr
