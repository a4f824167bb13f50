"""Why the warm search path is off for a home (``memdir doctor``, ``memory_status``): the reasons a
fresh prompt hook gets no cosines from a warm process (:mod:`memdir.search.warm`), one line each."""

from __future__ import annotations

import os
from pathlib import Path

from ..runtime import in_the_way, runtime_dir, socket_path
from .warm import LOG_FILE, has_index, has_used_vectors, request


def why_off(home: Path, settings) -> str | None:
    """Why a fresh prompt hook of ``home`` gets no cosines from a warm process, or None when one
    answers at :func:`socket_path` and runs prompt hooks. For ``memdir doctor``, a line for each
    reason: ``search_vectors = off``; no vectors extra; no Unix sockets or private socket directory
    (:func:`memdir.runtime.runtime_dir`); none listening — none can listen while a file that is not a
    socket sits at its path (:func:`memdir.runtime.in_the_way`: memdir never removes it), none can
    start in a home that cannot be written (:func:`memdir.files.fsio.unwritable`) or that has no search index yet
    (:func:`has_index`); an index that holds no vector (:func:`has_used_vectors`, else by the prompt hook's count:
    :func:`indexed`, vectors an older memdir stored before the mark) gets them, and a process, at the next session
    start (:func:`memdir.search.warm.launch_if_useful`),
    else the next hook starts one (with ``warm.log``'s last line: why the last one ended — its bind refused, said
    as such); a process
    that cannot load the model, or serves cosines but no hooks. Never raises."""
    from ..version import install_command
    from . import vectors
    from .tokenize import available

    setting = getattr(settings, "search_vectors", "auto")
    # Without the search extra there are no words to rank by either (newuser30: doctor said they ranked by words).
    words = ("recall and search rank by words alone" if available() else
             f"recall and search cannot run: the search extra is not installed either ({install_command('search')})")
    if setting == "off":
        return (f"the warm search process is off: search_vectors = off (set by MEMDIR_SEARCH_VECTORS or "
                f"settings); {words}")
    if not vectors.installed():
        return (f"the warm search process is off: search_vectors = {setting} but the vectors extra is not "
                f"installed ({install_command('vectors')}); {words}")
    directory, why = runtime_dir()
    if directory is None:
        return f"the warm search process is off: no socket directory ({why}); recall ranks by words alone"
    path = socket_path(home)
    # No layers: a warm server answers at once with its generation, without embedding anything.
    answer = request(home, {"query": "", "layers": [], "generation": -1})
    if answer is None and (refused := in_the_way(path)) is not None:
        return f"no warm search process listens for this home: {refused}; a fresh prompt hook recalls by words alone"
    if answer is None:
        from ..files.fsio import unwritable, writable_hint

        state = unwritable(home, f"the home {home}")
        if state:  # launch cannot open its log there: no hook starts one (issue 28 audit)
            return (f"no warm search process listens at {path}, and no session start or prompt hook can start one: "
                    f"{state} (the process keeps its log, {LOG_FILE}, and the index's vectors there); a fresh "
                    f"prompt hook recalls by words alone (to have one, {writable_hint(home)}, or run `memdir mcp`)")
        if not has_used_vectors(home) and not indexed(home):  # by the mark, else the prompt hook's count
            if not has_index(home):
                return (f"no warm search process listens at {path}: none starts until this home has a search index "
                        "(the first search or recall builds it, or `memdir reindex`); until then a fresh prompt hook "
                        "recalls by words alone")
            return (f"no warm search process listens at {path}: this home's index holds no vector yet; the next "
                    "session start builds them in the background and starts one (`memdir reindex` builds them now); "
                    "until then a fresh prompt hook recalls by words alone")
        last = _last_log_line(Path(home))  # why the last standalone one ended
        if last and "cannot listen at" in last:  # its bind was refused (memdir.search.warm.WarmServer._bind)
            return (f"no warm search process listens at {path}: the last one could not bind there (last line of "
                    f"{Path(home) / LOG_FILE}: {last}); a fresh prompt hook recalls by words alone")
        return (f"no warm search process listens at {path} now (a running `memdir mcp` serves it, or the one the next "
                "session start or prompt hook starts); until one does, a fresh prompt hook recalls by words alone"
                + (f"; last line of {Path(home) / LOG_FILE}: {last}" if last else ""))
    if answer.get("error") == "model not loaded":
        return (f"the warm search process at {path} cannot load the embedding model; a fresh prompt hook "
                f"recalls by words alone (see {Path(home) / LOG_FILE} or `memdir mcp`'s output)")
    if answer.get("hooks") is False:
        return (f"the warm search process at {path} gives cosines but does not run prompt hooks (started as "
                "`python -m memdir.search.warm`, or by an older memdir): each prompt hook still ranks in a fresh "
                "process of its own")
    return None


def indexed(home: Path) -> bool:
    """Whether ``home``'s search index (``index.sqlite``, opened read-only) holds a current vector, by the
    prompt hook's count (:func:`memdir.search.vectors.pending`, every layer's active memories: a vector of
    this model and size for the memory's present digest), which starts a warm process when it finds one
    (:mod:`memdir.search.dense`). Vectors an older memdir stored left no :data:`memdir.search.used.VECTORS_MARK`;
    finding one leaves it (:func:`memdir.search.used.note`), so the SessionStart hook's stat
    (:func:`has_used_vectors`) agrees from then on. False when there is no index or it cannot be read;
    never raises. Not for the hot path: it opens SQLite."""
    import sqlite3

    from . import vectors
    from .index import db_path
    from .used import note

    path = db_path(home)
    try:
        if not path.is_file():
            return False
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            found = vectors.pending(conn)[0] > 0
            if found:
                note(conn)
            return found
        finally:
            conn.close()
    except Exception:  # noqa: BLE001 - a damaged or locked index: doctor says what the mark says
        return False


def _last_log_line(home: Path) -> str | None:
    try:
        with open(home / LOG_FILE, "rb") as log:
            log.seek(max(0, os.path.getsize(home / LOG_FILE) - 4096))
            lines = log.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return None
    return lines[-1][:300] if lines else None


__all__ = ["indexed", "why_off"]
