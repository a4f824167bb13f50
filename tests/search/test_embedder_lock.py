"""The embedder's lock file is private like every file of the home (issue 24, §5)."""

import os
import stat

from filelock import FileLock

from memdir.search import embedder


def test_embed_lock_is_created_0600_whatever_the_umask(isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    lock_path = isolated_home / embedder.LOCK_FILE
    old = os.umask(0o022)  # the common umask, under which FileLock's default made it 0644
    try:
        assert embedder.running(isolated_home) is False
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(lock_path).st_mode) == 0o600
    # the control: the probe still sees an embedder holding the lock
    held = FileLock(str(lock_path))
    with held:
        assert embedder.running(isolated_home) is True
    assert embedder.running(isolated_home) is False


def test_a_running_embedder_is_probed_once_per_respawn_interval(isolated_home, monkeypatch):
    """A search schedules the embedder while sentences are not filled: an embedder found running is not probed
    again (its lock taken and let go) for RESPAWN_AFTER s; after that it is, and none running, one starts."""
    isolated_home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(embedder, "_spawned", {})
    probes: list[bool] = []
    real = embedder.running
    monkeypatch.setattr(embedder, "running", lambda home: probes.append(real(home)) or probes[-1])
    with FileLock(str(isolated_home / embedder.LOCK_FILE)):  # an embedder at work
        assert embedder.schedule(isolated_home) is None
        assert embedder.schedule(isolated_home) is None
    assert probes == [True]  # the second search did not take the lock to look
    assert embedder.schedule(isolated_home) is None  # within the interval: still not looked at, none started
    assert probes == [True]
    # control: once the interval is over the lock is probed again and, free now, an embedder starts
    embedder._spawned[str(isolated_home)] -= embedder.RESPAWN_AFTER
    pid = embedder.schedule(isolated_home)
    assert probes == [True, False] and isinstance(pid, int) and pid > 0
    os.waitpid(pid, 0)  # the embedder of an empty home: no index, it exits at once
