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
