"""File names inside a layer and the index freshness check.

Kept free of YAML and locking imports: the hot path (rendering the injected
context on every hook and step) needs only this module and :mod:`context`.
"""

from __future__ import annotations

import os
from pathlib import Path

INDEX_FILE = "MEMORY.md"
META_DIR = ".memdir"
STAMP_FILE = "index.stamp"


def index_is_fresh(layer_dir: Path, now_ns: int) -> bool:
    """True when ``MEMORY.md`` of ``layer_dir`` still equals what a rebuild
    would write: no file added, removed or renamed since the last rebuild
    (the stamp's mtime equals the directory's), and the stamped deadline (its
    atime: the next day boundary or valid-time edge) not reached. Two stats.

    A file edited in place keeps the directory's mtime; such an edit is picked
    up by the next memdir operation on the layer, which scans every file.
    """
    try:
        directory = os.stat(layer_dir)
        stamp = os.stat(os.path.join(layer_dir, META_DIR, STAMP_FILE))
    except OSError:
        return False
    return stamp.st_mtime_ns == directory.st_mtime_ns and now_ns < stamp.st_atime_ns
