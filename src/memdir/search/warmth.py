"""Why the warm search path is off for a home (``memdir doctor``, ``memory_status``): the reasons a
fresh prompt hook gets no cosines from a warm process (:mod:`memdir.search.warm`), one line each."""

from __future__ import annotations

import os
from pathlib import Path

from ..runtime import in_the_way, runtime_dir, socket_path
from .warm import HOOK_TIMEOUT, LOG_FILE, has_index, has_used_vectors, listening, look

PROBE_TIMEOUT = 1.0  # seconds doctor waits for a listening warm process's answer: past it, the process is busy
STATUS_TIMEOUT = 0.25  # seconds `memdir status` waits for it: a glance (an idle one answers in a few ms), not a check
STATES = ("none", "busy", "other code", "unloaded", "loading", "failed", "ready")


def probe(home: Path, timeout: float | None = None) -> dict:
    """The state of the warm process of ``home``, looked at without changing it — no model load started, its idle
    time not reset, an older one not replaced (a ``{"probe": true}`` request naming no code:
    :meth:`memdir.search.warm.server.WarmServer.state`): ``{"state": one of STATES, "loading_for": seconds or None,
    "hooks": bool or None}``. ``none``: nothing accepts on its socket; ``busy``: something accepts but no answer came
    within ``timeout`` s (:data:`PROBE_TIMEOUT`; it is answering a prompt hook, or wedged), or it left a hook
    unanswered moments ago (:func:`memdir.runtime.stalled`); ``other code``: it runs another memdir than this
    process (``memdir.version.code_identity``); else the server's own: ``unloaded`` (no load begun: the first
    request that needs the model starts it), ``loading`` (``loading_for``: seconds since it began), ``failed``,
    ``ready``. The rule of the warm state: ``memdir doctor`` and ``memory_status`` only say it (:func:`why_off`).
    A connect and one exchange; never raises."""
    from ..version import code_identity

    if not listening(home):
        return {"state": "none", "loading_for": None, "hooks": None}
    answer = look(home, PROBE_TIMEOUT if timeout is None else timeout)
    if answer is None:
        return {"state": "busy" if listening(home) else "none", "loading_for": None, "hooks": None}
    state = answer.get("state")
    if answer.get("code") != code_identity() or state not in STATES:  # an older one answers a probe "bad request"
        state = "other code"
    since = answer.get("loading_for")
    return {"state": state, "loading_for": since if isinstance(since, (int, float)) else None,
            "hooks": answer.get("hooks") if isinstance(answer.get("hooks"), bool) else None}


def socket_dir() -> dict:
    """Where the warm process's socket lives and why: ``{"directory": str or None, "passed": [str, ...]}`` —
    the directory :func:`memdir.runtime.runtime_dir` names (None: none, the warm path is off) and why each one
    before it was passed over, in order (``["XDG_RUNTIME_DIR is not set", "/tmp/memdir-1000 belongs to another
    user (uid 0)"]``; ``[]`` when the first is used: :func:`memdir.runtime.chosen`). Makes nothing; never raises.
    ``memdir status`` and ``memdir doctor`` say it."""
    from ..runtime import chosen

    directory, why = runtime_dir()
    if directory is None and why == "this platform has no Unix sockets":
        return {"directory": None, "passed": [why]}
    directory, passed = chosen()
    return {"directory": directory, "passed": passed}


def why_off(home: Path, settings, found: dict | None = None) -> str | None:
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
    as such); one listening (:func:`probe`, which starts nothing) but busy past :data:`PROBE_TIMEOUT`, running
    another memdir, still loading the model (for how long), that cannot load it, or that serves cosines but no
    hooks. None for one ready, or listening with no load begun (its first prompt hook loads the model). ``found``: a
    :func:`probe` of ``home`` the caller made already (``memdir doctor`` shows it too), else one is made. Never raises."""
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
    found = probe(home) if found is None else found
    state = found["state"]
    if state == "none" and (refused := in_the_way(path)) is not None:
        return f"no warm search process listens for this home: {refused}; a fresh prompt hook recalls by words alone"
    if state == "none":
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
    if state == "busy":
        return (f"a warm search process listens at {path} but did not answer within {PROBE_TIMEOUT:g} s (busy "
                f"answering a prompt hook, or stuck); a prompt hook waits at most {HOOK_TIMEOUT:g} s for it, then "
                "recalls by words alone")
    if state == "other code":
        return (f"the warm search process at {path} runs another memdir than this one (started before an upgrade or "
                "an edit of its code); the next prompt hook replaces it and recalls by words alone meanwhile")
    if state == "loading":
        return (f"the warm search process at {path} listens and is still loading the embedding model (for "
                f"{found['loading_for']:.0f} s); until it has, a prompt hook recalls by words alone")
    if state == "failed":
        return (f"the warm search process at {path} cannot load the embedding model; a fresh prompt hook "
                f"recalls by words alone (see {Path(home) / LOG_FILE} or `memdir mcp`'s output)")
    if found["hooks"] is False:
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


__all__ = ["PROBE_TIMEOUT", "STATES", "STATUS_TIMEOUT", "indexed", "probe", "why_off"]
