"""File names inside a layer and the index freshness check.

Kept free of YAML and locking imports: the hot path (rendering the injected
context on every hook and step) needs only this module and :mod:`context`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

INDEX_FILE = "MEMORY.md"
META_DIR = ".memdir"
STAMP_FILE = "index.stamp"
# What memdir keeps inside a layer's META_DIR; none of it may be a symlink (see symlink_refusal).
META_ENTRIES = ("journal.jsonl", "journal.anchor", "journal.torn", STAMP_FILE, "lock", "layer.json", "tombstones.json", "objects")
# A file that may hold a memory: ``*.md``, not a dot-file (temp files, ``.memdir``),
# not ``MEMORY.md`` in any case. A compiled pattern: the scan calls it once per file.
_MEMORY_FILE = re.compile(r"(?!\.)(?!(?i:memory\.md)\Z).*\.md", re.S)
memory_file_match = _MEMORY_FILE.fullmatch


def is_memory_file_name(filename: str) -> bool:
    """True for a file name that may hold a memory: ``*.md``, not a dot-file
    (temp files, ``.memdir``) and not ``MEMORY.md`` in any case. (Whether it is
    a regular file, not a symlink, is the scan's to check.)"""
    return memory_file_match(filename) is not None


def symlink_refusal(layer_dir: Path, meta: bool = True) -> str | None:
    """Why ``layer_dir`` must not be used, or None: the layer directory, its
    ``.memdir``, ``MEMORY.md`` or a file memdir keeps in ``.memdir`` is a
    symbolic link. Followed, it would list, inject, index and rewrite files
    outside the layer, or append the journal elsewhere. (A memory file that is
    a symlink is not a memory: the scan skips it.) Ten ``lstat`` calls; with
    ``meta`` False only the directory's (the hot path, which opens
    ``MEMORY.md`` with ``O_NOFOLLOW`` and reads no meta file)."""
    meta_dir = os.path.join(layer_dir, META_DIR)
    paths = (str(layer_dir), meta_dir, os.path.join(layer_dir, INDEX_FILE),
             *(os.path.join(meta_dir, entry) for entry in META_ENTRIES)) if meta else (str(layer_dir),)
    for path in paths:
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return (f"{path} is a symbolic link (to {target}); memdir does not follow symlinks in a layer: "
                    "replace it with the real directory or file")
    return None


def index_is_fresh(layer_dir: Path, now_ns: int, index_dir: Path | None = None) -> bool:
    """True when ``MEMORY.md`` of ``layer_dir`` still equals what a rebuild
    would write: no file added, removed or renamed since the last rebuild
    (the stamp's mtime equals the directory's), ``MEMORY.md`` not edited since
    (its mtime is not after the stamp's ctime), and the stamped deadline (its
    atime: the next day boundary or valid-time edge) not reached. Three stats.

    A file edited in place keeps the directory's mtime; such an edit is picked
    up by the next memdir operation on the layer, which scans every file.
    """
    try:
        directory = os.stat(layer_dir)
        stamp = os.stat(os.path.join(index_dir or layer_dir, META_DIR, STAMP_FILE))
    except OSError:
        return False
    if stamp.st_mtime_ns != directory.st_mtime_ns or now_ns >= stamp.st_atime_ns:
        return False
    try:
        index = os.stat(os.path.join(index_dir or layer_dir, INDEX_FILE))
    except FileNotFoundError:
        return True
    except OSError:
        return False
    # MEMORY.md edited in place after the rebuild (its mtime passes the stamp's ctime).
    return index.st_mtime_ns <= stamp.st_ctime_ns


def described_root(path: Path) -> str | None:
    """The project root a layer directory records in ``.memdir/layer.json``
    (written when the layer was first changed), or None: a user layer, or
    no readable description."""
    try:
        info = json.loads((Path(path) / META_DIR / "layer.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    root = info.get("root") if isinstance(info, dict) else None
    return root if isinstance(root, str) and root else None
