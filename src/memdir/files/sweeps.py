"""When every file of a layer is stat'ed again, and which process does it (issue 28 §7: fast at any size).

A *sweep* stats every memory file of a layer to find what was changed in place behind memdir's
back (a hand edit keeping the file's inode, as many editors write). Nothing else needs one: a file
added, removed or renamed — by hand, by ``git pull`` — moves the layer directory's mtime, which
every reader compares with what it last saw (``MEMORY.md``'s stamp:
:func:`memdir.files.layout.index_is_fresh`; the manifest: :mod:`memdir.layer.manifest`; the search
index's row of the layer: :mod:`memdir.search.sync`), so such a change is seen at once without a
stat of the other files. Each of those readers records its last sweep: ``.memdir/swept``'s mtime
(the context block's), the manifest's ``swept`` (the layer's writes and reads), the search index's
``swept:<layer>`` (its syncs).

The rule:

* a small layer (at most :data:`SWEEP_ALWAYS_MAX` files) is swept by whoever needs it — a write
  and a search each time, the context block once per :func:`memdir.files.layout.sweep_interval`:
  a few hundred stats at most;
* a large layer is swept at most once per interval (:func:`sweep_can_wait`); in between an
  in-place edit waits (the file a write touches is always checked itself:
  :meth:`memdir.layer.transaction.Transaction.fresh`);
* past the interval, code answering someone who waits — every CLI command (the MCP server it runs
  too), a hook, the warm process answering a hook: inside :func:`hand_sweeps_off` — never sweeps a
  large layer on that path: it starts a detached sweeper (:func:`hand_off`; the sweeper is
  :mod:`memdir.search.sweeper`, which sweeps the layer as a write does — journals the hand edits,
  moves their ``MEMORY.md`` lines, keeps the manifest — brings the search index in step, and
  records the sweep for all three readers) and answers from what the stamps say. Other code (the
  library, ``reindex``, ``verify``, a rebuild) sweeps itself, as before.

One sweeper per layer at a time: the starting process takes ``.memdir/sweep.lock`` (``flock``)
and hands it to the child, which holds it until it exits; none is started while one holds it, nor
within the interval after the last was started (the lock file's mtime), so a sweeper that cannot
finish (a read-only home) is not started on every prompt. An in-place edit of a large layer is so
taken up within about one interval and one sweep after the next command or hook — never on the
path of a prompt. Where no sweeper can be started (no ``posix_spawn``, a meta directory that
cannot be written), the process sweeps itself.

Standard library only, imported on the hooks' hot path.
"""

from __future__ import annotations

import os
import sys
import time

from .layout import META_DIR, SWEEP_LOCK_FILE, is_memory_file_name, sweep_interval

# A layer of more files than this skips the per-file hand-edit sweep between writes (and the
# search index's syncs) for at most memdir.files.layout.sweep_interval() seconds, across processes,
# and past it a hook or CLI command hands the sweep off (see the module docstring): one stat per file
# would be the floor of a write and of a prompt. Read at call time, so a test may patch it.
SWEEP_ALWAYS_MAX = 500
SWEEPER = ("-m", "memdir.search.sweeper")  # the detached sweeper's command, after the interpreter

_handing_off = False
_handed: dict[str, float] = {}  # meta directory -> monotonic time this process handed its sweep off (or found one)


class hand_sweeps_off:
    """For the block (someone waits for its answer: a CLI command, a hook), a large layer's overdue
    sweep is handed off to a sweeper (:func:`hand_off`), never done on this path. A context manager:
    ``with hand_sweeps_off(): …``; nests (the outer block's setting comes back on exit). A class, not
    ``contextlib.contextmanager``: the console script's hot path imports no ``contextlib``."""

    __slots__ = ("_before",)

    def __enter__(self) -> None:
        global _handing_off
        self._before, _handing_off = _handing_off, True

    def __exit__(self, *exc) -> None:
        global _handing_off
        _handing_off = self._before


def handing_off() -> bool:
    """Whether overdue sweeps of large layers are handed off now (:func:`hand_sweeps_off`)."""
    return _handing_off


def since(wall_ns: int | None) -> float:
    """Seconds from the wall-clock time ``wall_ns`` (ns since the epoch: a sweep's, recorded by some process)
    to now; ``inf`` when none was recorded (None, 0) or it lies after now — a clock set back since (or one
    running ahead that wrote it): when it really was is unknown, so whatever waits on it is due, never
    put off until the clock catches up. The one reading of a recorded sweep time."""
    if not wall_ns:
        return float("inf")
    elapsed = time.time_ns() - wall_ns
    return elapsed / 1e9 if elapsed >= 0 else float("inf")


def swept_always(files: int) -> bool:
    """True when a layer of ``files`` memory files is swept at every sync, whatever the interval (at most
    :data:`SWEEP_ALWAYS_MAX`): when it was last swept decides nothing for it (:func:`sweep_can_wait`)."""
    return files <= SWEEP_ALWAYS_MAX


def sweep_can_wait(files: int, elapsed: float, layer=None) -> bool:
    """Whether a layer of ``files`` memory files, last swept ``elapsed`` seconds ago (``inf``: never
    that this process knows of), may go without its sweep for in-place hand edits now: only a large
    layer (more than :data:`SWEEP_ALWAYS_MAX` files) — within the interval, or past it in code
    handing sweeps off that handed it to a sweeper (``layer``: the :class:`memdir.layer.layer.Layer`,
    :func:`hand_off_layer`). The one policy of the layer's writes and reads and the search index's
    syncs."""
    if swept_always(files):
        return False
    if elapsed < sweep_interval():
        return True
    return layer is not None and _handing_off and hand_off_layer(layer)


def hand_off_layer(layer) -> bool:
    """:func:`hand_off` for a :class:`memdir.layer.layer.Layer` (its home found from where its
    directories are: ``<home>/_user``, ``<home>/projects/<key>``, the team layer's
    ``<home>/team/<key>/.memdir``). False for a layer of another kind (swept where it is)."""
    scope = layer.scope
    if scope == "user":
        home = layer.path.parent
    elif scope == "project" and layer.root is not None:
        home = layer.path.parent.parent
    elif scope == "team" and layer.root is not None:
        home = layer.meta.parent.parent.parent
    else:
        return False
    return hand_off(home, scope, layer.root, layer.meta)


def hand_off_if_large(layer_dir: Path, home: Path, scope: str, root: Path | None, meta: Path) -> bool:
    """For the context block (:func:`memdir.files.layout.index_is_fresh`'s ``on_due``): True when
    ``layer_dir`` holds more than :data:`SWEEP_ALWAYS_MAX` memory files — told by listing at most
    that many names, no file stat'ed — and its sweep was handed off (:func:`hand_off`); False when the
    caller sweeps (a small layer, or no sweeper could be started)."""
    count = 0
    try:
        with os.scandir(layer_dir) as listing:
            for item in listing:
                if is_memory_file_name(item.name):
                    count += 1
                    if count > SWEEP_ALWAYS_MAX:
                        break
    except OSError:
        return False
    return count > SWEEP_ALWAYS_MAX and hand_off(home, scope, root, meta)


def hand_off(home: Path, scope: str, root: Path | None, meta: Path) -> bool:
    """Start a detached sweeper of the ``scope`` layer of ``home`` (``root``: the project root of a
    project or team layer; ``meta``: the layer's ``.memdir``) unless one holds the layer's sweep lock
    or one was started within the interval; True when one runs or ran lately (the caller goes on
    without sweeping), False when none could be started (the caller sweeps). Never raises, never
    waits: one ``flock`` and one ``posix_spawn``."""
    key = os.fspath(meta)
    if time.monotonic() - _handed.get(key, float("-inf")) < sweep_interval():
        return True
    if not hasattr(os, "posix_spawn") or not sys.executable:
        return False
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = os.open(os.path.join(key, SWEEP_LOCK_FILE), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a sweeper holds it
            _handed[key] = time.monotonic()
            return True
        st = os.fstat(fd)
        if st.st_size and since(st.st_mtime_ns) < sweep_interval():
            _handed[key] = time.monotonic()  # one started lately (done, or failed): not again before the interval
            return True
        null = os.open(os.devnull, os.O_RDWR)
        try:
            os.set_inheritable(fd, True)
            argv = [sys.executable, *SWEEPER, "--lock-fd", str(fd), os.fspath(home), scope,
                    os.fspath(root) if root is not None else ""]
            actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                       (os.POSIX_SPAWN_DUP2, null, 2)]
            pid = os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
        finally:
            os.close(null)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{pid}\n".encode("ascii"), 0)  # its mtime: when the last sweeper started
    except OSError:
        return False
    finally:
        os.close(fd)  # the child's copy keeps the lock until it exits
    _handed[key] = time.monotonic()
    return True


def meta_of(layer_dir: str | os.PathLike, index_dir: str | os.PathLike | None = None) -> str:
    """A layer's ``.memdir`` (a string): in ``index_dir`` (the team layer's, in the home) or in ``layer_dir``."""
    return os.path.join(os.fspath(index_dir or layer_dir), META_DIR)


__all__ = ["SWEEPER", "SWEEP_ALWAYS_MAX", "hand_off", "hand_off_if_large", "hand_off_layer", "hand_sweeps_off", "since",
           "handing_off", "meta_of", "sweep_can_wait", "swept_always"]
