"""When the search index file was last found sound by ``PRAGMA quick_check``, so ``status`` need not read every
page of it again (:func:`memdir.search.rebuild.check` with ``changed_only``): 320 ms of a cold check at 10,000
memories (a 64 MB index), paid by every ``memdir status`` and ``memory_status`` before.

The stamp of a file is what any change of its bytes moves: its device, inode, size, modification and change times
(``st_ctime_ns``: set by the kernel on every write, not by ``touch`` or ``os.utime``), for the index and its
write-ahead log (whose pages ``quick_check`` reads too). A pass records the stamp taken *before* the check, in
``<home>/index.checked`` (:data:`CHECKED_FILE`, derived: lost, the next status checks again), so a change made
during the check is checked next time. A byte flipped in the file, by whatever means, moves its change time: the
first status after it checks the file again and reports it.

Measured (``benchmarks/bench_hooks.py --fresh [--instructions] --commands python_pass,status``, int46 against this,
one run): a steady ``memdir status`` at 10,000 memories 1,900 M → 1,718 M instructions (1,804 M when the check
runs; the collector's pause, :func:`memdir.operations.maintenance.status`, is the rest), p50 1,054 → 838 ms.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import StoreError
from ..files.fsio import atomic_write

CHECKED_FILE = "index.checked"  # under the home: the stamp of the index file last found sound


def stamp(path: Path) -> str | None:
    """One line naming the state of the index file at ``path`` and of its ``-wal``: ``"<dev> <ino> <size>
    <mtime_ns> <ctime_ns>|…"`` (``-`` for a log that is absent or empty); None when the index itself is absent or cannot
    be looked at. Never raises."""
    parts = []
    for name in (str(path), f"{path}-wal"):
        try:
            st = os.stat(name)
        except FileNotFoundError:
            if name == str(path):
                return None
            parts.append("-")
            continue
        except OSError:
            return None
        if name != str(path) and st.st_size == 0:  # an empty log holds no page: as good as none (an open makes one)
            parts.append("-")
            continue
        parts.append(f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}")
    return "|".join(parts)


def passed(home: Path, now: str | None) -> bool:
    """True when ``now`` (:func:`stamp` of the index of ``home``) is the stamp recorded by the last check that
    found it sound (:func:`record`). Never raises: an unreadable record is no record."""
    if now is None:
        return False
    try:
        return (Path(home) / CHECKED_FILE).read_text(encoding="utf-8") == now
    except (OSError, ValueError):
        return False


def record(home: Path, then: str | None) -> None:
    """Record ``then`` (:func:`stamp` taken before a check that found the index sound) in ``<home>/index.checked``;
    nothing for None. Never raises: a home that cannot be written checks again next time."""
    if then is None:
        return
    try:
        atomic_write(Path(home) / CHECKED_FILE, then.encode("utf-8"), sync=False, sync_dir=False)
    except (StoreError, OSError):
        pass


__all__ = ["CHECKED_FILE", "passed", "record", "stamp"]
