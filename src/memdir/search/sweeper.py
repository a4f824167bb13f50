"""The detached sweeper of one layer: ``python -m memdir.search.sweeper --lock-fd N HOME SCOPE ROOT``.

Started by a hook or a CLI command (:func:`memdir.files.sweeps.hand_off`) that found a large
layer's sweep overdue and did not do it on its path (the rule: :mod:`memdir.files.sweeps`). It holds the layer's sweep lock it
was handed (``--lock-fd``) until it exits, and:

1. sweeps the layer as a write does (:meth:`memdir.layer.layer.Layer.refresh_index` without a
   rebuild: every file stat'ed, only those changed read; hand edits journaled as
   ``external-edit``, their ``MEMORY.md`` lines moved, the stamp and the manifest kept — the
   manifest's ``swept`` recorded);
2. records the sweep for the context block (``.memdir/swept``:
   :func:`memdir.files.layout.record_swept`);
3. brings the search index in step with the layer's files (a forced sync:
   :func:`memdir.search.sync.sync_layer`, which records ``swept:<layer>``), when the ``search``
   extra is installed.

A step that fails (a busy lock past its timeout, a read-only home, no index) is said on stderr
(the starting process sends it to ``/dev/null``) and the rest still run; the next hook or command
starts another sweeper after the interval. Exit 0 when every step ran, else 1.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from ..errors import MemdirError
from ..files import background
from ..files.layout import SWEPT_FILE, record_swept
from ..session import open_session


def sweep(home: Path, scope: str, root: str | None) -> list[str]:
    """Sweep the ``scope`` layer of ``home`` (``root``: the project root of a project or team layer)
    and bring the search index in step (see the module docstring); returns what failed, as lines."""
    failed: list[str] = []
    try:
        session = open_session(home, root or None, actor="human", use_cwd=False)
        layer = session.layer(scope)
    except MemdirError as exc:
        return [f"cannot open the {scope} layer: {exc}"]
    try:
        for note in layer.refresh_index(wait=True, rebuild=False):
            print(f"memdir sweeper: {note}", file=sys.stderr)
    except MemdirError as exc:
        failed.append(f"the {scope} layer was not swept: {exc}")
    else:
        record_swept(layer.meta / SWEPT_FILE)
    from .tokenize import available

    if available():
        from .index import ReadOnly, connect
        from .sync import sync_layer

        try:
            conn = connect(session.home)
            if not isinstance(conn, ReadOnly):
                sync_layer(conn, session.home, layer, force=True)
        except (MemdirError, sqlite3.Error) as exc:
            failed.append(f"the search index was not brought in step: {exc}")
    return failed


def main(argv: list[str] | None = None) -> int:
    """The command line of the module docstring; the ``--lock-fd`` descriptor is kept open (the
    lock held) until the process exits."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lock = None
    if len(argv) >= 2 and argv[0] == "--lock-fd":
        lock = int(argv[1])
        argv = argv[2:]
    if len(argv) != 3:
        print("usage: python -m memdir.search.sweeper [--lock-fd N] HOME SCOPE ROOT", file=sys.stderr)
        return 2
    home, scope, root = argv
    background.enter()  # it writes only into a layer directory that is there (memdir.files.background)
    failed = sweep(Path(home), scope, root)
    for line in failed:
        print(f"memdir sweeper: {line}", file=sys.stderr)
    if lock is not None:
        os.close(lock)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
