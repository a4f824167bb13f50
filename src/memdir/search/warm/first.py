"""A home's first session: memories on disk but no search index yet, built in the background from SessionStart.

Memories written by hand, a team's memories freshly cloned, or saved by an agent's tool calls that never searched
leave a home with memory files and no ``index.sqlite``: the index is built lazily, by the first search or recall.
Before, that was the session's first prompt hook: it built the index on the agent's path (≈ 1.3–1.9 s for five
memories on a loaded 2-core machine), ranked by words alone (no vector yet, so no warm process was started at the
session's start: :func:`memdir.search.warm.worth_serving`), and "Which CI system runs our builds?" recalled nothing
of the memory "GitHub Actions is our CI".

Now the SessionStart hook, which has just counted the memories of its context block, calls :func:`start` when the
home has no index: it starts ``python -m memdir.search.warm.first HOME CWD`` (:data:`COMMAND`) detached, which
indexes the session's layers (:func:`memdir.search.sync.sync`, words) and then, when dense retrieval is wanted
(:func:`memdir.search.vectors.wanted`), starts the warm process (:func:`memdir.search.warm.launch`), which loads
the model, while it embeds the memories itself (:func:`memdir.search.embedder.run`, under the embedder's lock).
The hook indexes and embeds nothing: one stat, one ``posix_spawn``, no SQLite, no model. The build's launch is
recorded as the warm process's (:func:`memdir.runtime.note_start`: it starts it), so a prompt that comes while it
runs waits for it, bounded (:func:`memdir.search.warm.run_hook`, :func:`memdir.runtime.starting_wait` after the
session's start), then uses what is there: the index the build made and the vectors landed by then, through the
warm process — or, vectors off, the index alone, once the build has exited. Before, such a prompt built the index
itself beside the build (twice the work, two writers of one new index); it still does when the build outlasts the
wait. The build runs itself as a background job (:mod:`memdir.files.background`): a home or layer directory
removed under it is not made again. A home whose vectors are off or not installed gets the words index alone and no warm
process (nothing it cannot use); a home without the ``search`` extra, whose index could not be built, gets nothing.
"""

from __future__ import annotations

import os
import sys
import time

from ...files import background
from . import has_index, launch, note_start, spawn

COMMAND = ("-m", "memdir.search.warm.first")


def start(home: str, cwd: str, memories: int) -> int | None:
    """The SessionStart hook's call after it rendered the context block: when ``memories`` (the memories the block
    counted, shown or not) is positive, ``home`` has no search index (:func:`memdir.search.warm.has_index`, one
    stat) and the ``search`` extra is installed (found, not imported), start the background build (:func:`build`)
    for the session whose project is the hook input's ``cwd``: :data:`COMMAND`, detached, its output appended to
    ``<home>/embed.log``, its launch recorded as the warm process's (a prompt meanwhile waits for it). Returns its
    pid, or None (nothing to build, or it could not start). Never raises."""
    if memories <= 0 or has_index(home):
        return None
    from importlib.util import find_spec

    from ...paths import EMBED_LOG

    try:
        if find_spec("snowballstemmer") is None:  # the search extra: no index can be built (MissingExtra)
            return None
    except (ImportError, ValueError):
        return None
    pid = spawn(home, [*COMMAND, str(home), str(cwd)], EMBED_LOG)  # the embedder's log: the build runs it
    if pid is not None:
        # The build is how this home's warm process starts (it launches it once the index is there): a prompt that
        # comes meanwhile waits for it, bounded (memdir.search.warm.run_hook), rather than build the index itself
        # beside it — twice the work, and two writers of one new index. (A str path: no pathlib on this hook's path.)
        note_start(home, pid, time.time())
    return pid


def build(home: str, cwd: str) -> tuple[int, int]:
    """Index the layers of the session whose project is ``cwd`` in ``home`` (:func:`memdir.search.sync.sync`) and,
    with dense retrieval wanted (:func:`memdir.search.vectors.wanted`), start the warm process
    (:func:`memdir.search.warm.launch`) and embed what lacks a vector (:func:`memdir.search.embedder.run`: 0 when
    another embedder holds the lock, which embeds them then). ``(memories indexed, memories embedded)``. Raises
    what :func:`memdir.session.open_session` and :func:`~memdir.search.sync.sync` raise."""
    from ...session import open_session
    from .. import vectors
    from ..sync import sync

    session = open_session(home, cwd, actor="agent", use_cwd=False)
    conn = sync(session.home, session.layers())
    indexed = vectors.pending(conn)[1]
    if not vectors.wanted(session.settings):
        return indexed, 0
    # The index is there: the warm process loads the model while this process embeds, and a prompt hook from now
    # on waits (bounded) for it and runs there (memdir.search.warm.run_hook), with the vectors landed by then.
    launch(session.home)
    from ..embedder import run

    return indexed, run(session.home)


def main(argv: list[str] | None = None) -> int:
    """``python -m memdir.search.warm.first HOME CWD``: :func:`build`, one line on stdout (the log); exit 0, 1 when
    it failed (the reason on stderr, the log), 2 for a bad command line."""
    from ...text.plural import counted

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not os.path.isdir(args[0]):
        print("usage: python -m memdir.search.warm.first HOME CWD (HOME an existing directory)", file=sys.stderr)
        return 2
    background.enter()  # it writes only into a home and layer directories that are there (memdir.files.background)
    began = time.monotonic()
    try:
        indexed, embedded = build(args[0], args[1])
    except Exception as exc:  # noqa: BLE001 - a background job: the log says why; the first search builds it
        # The home removed under it (a test's tmp_path, a person's rm; Gone: one of its files went while the rest
        # was being removed): nothing to do.
        if isinstance(exc, background.Gone) or not os.path.isdir(args[0]):
            return 0
        print(f"first session: index not built: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    print(f"first session: {counted(indexed, 'memory')} indexed, {embedded} embedded in "
          f"{time.monotonic() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["COMMAND", "build", "main", "start"]
