"""What recall already injected in a session: each body once per session (DESIGN §6, issue 28) — the
context block a session start gave (:func:`start_given`, :func:`record_start`) and which warnings the
session was already given (:func:`first_time`).

An agent harness keeps every prompt's additions in the conversation (Claude
Code keeps each ``<memory_recall>`` block), so a memory whose body was
injected earlier in the session is there already: recall gives it again only
when it changed, and otherwise at most a one-line pointer
(:func:`memdir.search.recall.recall_result`). A compaction replaces the
conversation by a summary, so after one (which event of which client says
so is one table: :data:`memdir.integrations.claude_code.dialects.RESTARTS`) the
session's record is cleared (:func:`clear`) and the bodies may come again.

* ``<home>/sessions/<16 hex of the session's key>.json`` —
  ``{"session": key, "shown": {"<scope>/<name>": "<digest of what was shown> <digest of its body>"},
  "said": ["<digest of a warning>", …], "start": "<16 hex of the project> <digest of the context block given>",
  "unread": {"<scope>/<name>": <givings>}}``
  (ASCII JSON; ``start`` only once a block was given and recorded; ``unread`` only while recall gave bodies that
  no read counted yet: :func:`take_unread`), replaced atomically; at most :data:`MAX_SHOWN`
  memories (shown, and unread) and :data:`MAX_SAID` warnings per session. The *key* (:func:`session_key`) is the 64 hex of
  SHA-256 of the session id's code points and the project's root (:func:`record_id`), never the id itself: any
  id a client sends — 3 MB long, a lone surrogate from JSON's ``"\\ud800"``, control characters — is recorded
  in 64 bytes and can be written; two different ids never share a record, nor one id in two projects (nor the
  warnings said of the home's index: :func:`memdir.search.stale.warn_stale` gives :func:`first_time` the project
  too). The body's digest is what a renamed memory is known
  by: its body is in the conversation under its old name (:meth:`Given.name_of`).
* Bounded: when a session's file is first made, files untouched for
  :data:`~memdir.prompt.sessionfiles.MAX_AGE_DAYS` days go, and the oldest beyond :data:`~memdir.prompt.sessionfiles.MAX_SESSIONS`.
  A file holds its key, :data:`MAX_SAID` digests and :data:`MAX_SHOWN` entries of a memory's
  ``<scope>/<name>`` and a 16-hex digest: about 50 KB at most for names memdir makes (≤ 64
  characters), so a directory about 3 MB; a new session (another id) starts with nothing recorded.
* One change at a time: a change (:func:`record`, :func:`record_start`, :func:`first_time`, :func:`clear`) reads, merges
  and replaces the record while it holds the lock of the directory it writes in
  (``sessions/.lock``: an ``flock``, the OS lock :mod:`filelock` takes on POSIX, taken here without
  importing it — its ≈ 45 ms import would almost double a prompt hook; :mod:`filelock` itself
  where there is no ``fcntl``). Concurrent hooks of one session (a client may run several at once)
  so lose no update. A lock not had within :data:`~memdir.prompt.sessionfiles.LOCK_WAIT` seconds (a hook stopped while holding
  it) leaves the record unchanged: the body is given again, the safe side.

* When the home cannot take it (read-only, full, or not made yet: a session's record never makes the home —
  its first write does — so a hook run in a new home, a start that gave the empty block or a prompt that
  recalled nothing, leaves no file there), the record is kept in the
  per-user runtime directory the warm socket uses (:func:`memdir.runtime.private_dir`,
  private, 0700): ``<runtime>/sessions/<16 hex of the home's real path>-<16 hex
  of the session's key>.json``, of the same form and bounds (and lock). Both places are
  read and cleared; a record the home can take again goes back to the home.

A session without an id records nothing (every prompt is its own). Recording
is best effort: when neither place can be written the record is lost, never
the recall block (the body is given again, which is safe).

This module is on the hot path: standard library only (os, fcntl; JSON through :mod:`memdir.text.json_c`, which
loads no :mod:`json` nor its :mod:`re`), its digest without OpenSSL (:func:`memdir.paths.sha256`). The digest of
what was shown is :func:`memdir.prompt.shown.digest` (imported here): ``memdir context`` and the session start
compute it without loading this module and the record's files.
"""

from __future__ import annotations

import os

from ..paths import sha256
from ..text import json_c
from .delivery import when_delivered
from .sessionfiles import HELD_SUFFIX, SESSIONS_DIR, locked, save, spare_dir, unlink
from .shown import digest

MAX_SHOWN = 500     # memories recorded per session; past it the oldest are forgotten (and may come again)
MAX_GIVINGS = 1000  # givings of one memory not yet counted as reads, kept per session (a bound, never met in use)
MAX_SAID = 32       # warnings recorded per session (first_time); past it the oldest may be said again


def session_key(session_id: str) -> str:
    """The key of session ``session_id`` in its record: 64 hex of SHA-256 of the id's code points
    (UTF-8, a lone surrogate as its own three bytes), whatever the id's length or characters; its first
    16 are the record's file name (for an id without lone surrogates, :func:`digest` of it)."""
    return sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def record_id(session_id: str, project: str | os.PathLike | None) -> str:
    """What a record is kept under (its :func:`session_key`): session ``session_id`` in ``project`` (its root, or
    None for none), ``"<id>\\0<root>"``. Two projects' sessions that share an id (a client's id reused, a
    conversation resumed from another project) never share what was shown, said or given; a project root holds
    no NUL, so the last one splits the two apart and no two pairs share a key."""
    return f"{session_id}\0{os.fspath(project) if project else ''}"


def _path(home: str | os.PathLike, session_id: str) -> str:
    return os.path.join(home, SESSIONS_DIR, session_key(session_id)[:16] + ".json")


def _spare(home: str | os.PathLike, session_id: str, create: bool = False) -> str | None:
    """Where the record of ``session_id`` goes when ``home`` cannot take it (the module docstring);
    None when this user has no private runtime directory (made when ``create``)."""
    directory = spare_dir(create)
    if directory is None:
        return None
    return os.path.join(directory, f"{digest(os.path.realpath(home))}-{session_key(session_id)[:16]}.json")


class _Record:
    """One session's record as read (:func:`_read`): ``shown``, ``said``, ``start`` and ``unread`` (the
    module docstring); ``found``: the file held this session's record."""

    __slots__ = ("found", "said", "shown", "start", "unread")

    def __init__(self, shown=None, said=None, start=None, unread=None, found=False):
        self.shown: dict[str, str] = shown or {}
        self.said: list[str] = said or []
        self.start: str | None = start
        self.unread: dict[str, int] = unread or {}
        self.found = found


def _read(path: str | None, session_id: str) -> _Record:
    """The record at ``path`` for ``session_id``; empty for another session's, a missing or an
    unreadable file."""
    if path is None:
        return _Record()
    try:
        with open(path, "rb") as handle:
            data = json_c.loads(handle.read().decode("utf-8", "replace"))
    except (OSError, ValueError):
        return _Record()
    if (not isinstance(data, dict) or data.get("session") != session_key(session_id)
            or not isinstance(data.get("shown"), dict)):
        return _Record()
    said = data.get("said") if isinstance(data.get("said"), list) else []
    start = data.get("start") if isinstance(data.get("start"), str) else None
    unread = data.get("unread") if isinstance(data.get("unread"), dict) else {}
    return _Record({k: v for k, v in data["shown"].items() if isinstance(k, str) and isinstance(v, str)},
                   [k for k in said if isinstance(k, str)], start,
                   {k: v for k, v in unread.items() if isinstance(k, str) and type(v) is int and v > 0}, True)


def _both(home: Path, session_id: str) -> _Record:
    """The home's record and the runtime directory's, merged (the latter winning). The runtime directory's
    is written from such a merge (:func:`_keep`), so when it holds the session's record its ``unread`` is the
    whole of it: a count taken (:func:`take_unread`) while the home could not be written stays taken."""
    home_record, spare = _read(_path(home, session_id), session_id), _read(_spare(home, session_id), session_id)
    return _Record({**home_record.shown, **spare.shown}, list(dict.fromkeys(home_record.said + spare.said)),
                   spare.start or home_record.start, spare.unread if spare.found else home_record.unread)


def shown(home: Path, session_id: str | None, project: str | os.PathLike | None) -> dict[str, str]:
    """``{"<scope>/<name>": digest}`` of what recall injected in session
    ``session_id`` in ``project`` (its root or None: :func:`record_id`; the home's record and the runtime
    directory's, the latter winning); ``{}`` for no id, a new session or unreadable files."""
    if not session_id:
        return {}
    return _both(home, record_id(session_id, project)).shown


class Given:
    """What recall injected in a session (:func:`given`): ``shown`` as :func:`shown` returns it (a plain
    class: the session start imports this module, and no ``dataclasses``)."""

    __slots__ = ("shown",)

    def __init__(self, shown: dict[str, str] | None = None) -> None:
        self.shown = shown or {}

    def name_of(self, scope: str, name: str, shown_digest: str, body_digest: str) -> str | None:
        """The name under which memory ``name`` of ``scope``, as it would be shown now (``shown_digest``:
        :func:`digest` of its heading and body; ``body_digest``: of its body alone), is in the session's
        conversation already: ``name`` when it was shown so; when ``name`` was never shown, another
        name of ``scope`` it was last shown under with that body (a memory renamed, its body
        unchanged: ``db-port`` of ``pg-port``); else None (never shown, or changed since: given again).
        Time linear in the record (at most :data:`MAX_SHOWN` entries)."""
        value = self.shown.get(f"{scope}/{name}")
        if value is not None:
            return name if value.split(" ")[0] == shown_digest else None
        prefix = f"{scope}/"
        for key, value in reversed(self.shown.items()):  # the latest showing first
            parts = value.split(" ")
            if len(parts) > 1 and parts[1] == body_digest and key.startswith(prefix):
                return key[len(prefix):]
        return None


def given(home: Path, session_id: str | None, project: str | os.PathLike | None) -> Given:
    """:class:`Given` of session ``session_id`` in ``project`` (:func:`shown`'s record); empty for no id."""
    return Given(shown(home, session_id, project))


def record(home: Path, session_id: str | None, items: dict[str, str | tuple[str, str]], *,
           project: str | os.PathLike | None, unread: bool = False) -> None:
    """Add ``items`` (``"<scope>/<name>"`` → :func:`digest` of what was shown, or ``(that digest, the
    digest of the body alone)``) to the record of session ``session_id`` in ``project`` (its root or None:
    :func:`record_id`): in the home, else (a read-only
    or full home) in the runtime directory, under the lock (the module docstring: concurrent calls lose
    no item). ``unread``: the bodies were given by recall, which counts no read, so each item's count of
    givings not yet counted as reads goes up by one (:func:`take_unread` takes them at the session's end;
    a memory the agent read through a tool was counted by that read). Nothing for no id or no items; never
    raises (a record that neither can take, or whose lock is not had within :data:`~memdir.prompt.sessionfiles.LOCK_WAIT`, is left as
    it was)."""
    if not session_id or not items:
        return
    when_delivered(lambda: _record(home, record_id(session_id, project), items, unread))


def _record(home: str | os.PathLike, session_id: str, items: dict[str, str | tuple[str, str]], unread: bool) -> None:
    with locked(home) as held:
        if not held:
            return
        now = _both(home, session_id)
        merged = now.shown
        for key in items:
            merged.pop(key, None)  # re-inserted last: the oldest are cut first
        merged.update({key: value if isinstance(value, str) else " ".join(value) for key, value in items.items()})
        if len(merged) > MAX_SHOWN:
            merged = dict(list(merged.items())[-MAX_SHOWN:])
        if unread:
            now.unread = _counted(now.unread, items)
        now.shown = merged
        _keep(home, session_id, now)


def _counted(unread: dict[str, int], keys) -> dict[str, int]:
    """``unread`` with one more giving of each of ``keys`` (re-inserted last), at most :data:`MAX_SHOWN`
    memories (the oldest go)."""
    out = dict(unread)
    for key in keys:
        out[key] = min(out.pop(key, 0) + 1, MAX_GIVINGS)
    return dict(list(out.items())[-MAX_SHOWN:]) if len(out) > MAX_SHOWN else out


def take_unread(home: str | os.PathLike, session_id: str | None,
                project: str | os.PathLike | None) -> dict[str, int]:
    """``{"<scope>/<name>": givings}``: the bodies recall gave in session ``session_id`` in ``project`` (its root
    or None: :func:`record_id`; another project's givings are not this one's to count) that no read counted
    yet (:func:`record` with ``unread``; kept through a compaction's :func:`clear`), removed from the record as
    they are returned — each giving is counted once, by whoever takes it (the session's end:
    :func:`memdir.operations.memories.count_given`). ``{}`` for no id, none, or a record whose lock is not had
    within :data:`~memdir.prompt.sessionfiles.LOCK_WAIT` (left for a later end). Never raises."""
    if not session_id:
        return {}
    session_id = record_id(session_id, project)
    with locked(home) as held:
        if not held:
            return {}
        now = _both(home, session_id)
        taken, now.unread = now.unread, {}
        if taken:
            _keep(home, session_id, now)
        return taken


def _project_tag(project: str | os.PathLike | None) -> str:
    """16 hex naming ``project`` (its root, or None for none) in a session's start record."""
    return session_key(os.fspath(project) if project else "")[:16]


def start_given(home: str | os.PathLike, session_id: str | None, project: str | os.PathLike | None) -> str | None:
    """The :func:`digest` of the context block a session start gave in session ``session_id`` in ``project``
    (its root or None) and recorded (:func:`record_start`), since the record was last cleared (a compaction,
    :func:`clear`); None for no id, none recorded, one recorded in another project (its conversation is not
    this one's: trial20), or an unreadable record. Never raises."""
    if not session_id:
        return None
    tag, _, block = (_both(home, record_id(session_id, project)).start or "").partition(" ")
    return block if block and tag == _project_tag(project) else None


def record_start(home: str | os.PathLike, session_id: str | None, block_digest: str,
                 project: str | os.PathLike | None) -> None:
    """Record ``block_digest`` (:func:`digest` of the context block just given to session ``session_id`` in
    ``project``, its root or None) as the one the session's conversation holds last, replacing the one before,
    of whichever project (bounded: one digest; the record keeps ``"<16 hex of the project> <digest>"``), as
    :func:`record` keeps items (in the home, else the runtime directory, under the lock). Called once the block
    was given: by the start itself, or by the prompt that gave a held one (:func:`take_start`). Nothing for no
    id; never raises."""
    if session_id:
        when_delivered(lambda: _record_start(home, record_id(session_id, project), f"{_project_tag(project)} {block_digest}"))


def _record_start(home: str | os.PathLike, session_id: str, start: str) -> None:
    with locked(home) as held:
        if held:
            now = _both(home, session_id)
            now.start = start
            _keep(home, session_id, now)


def _held_path(home: str | os.PathLike, session_id: str, project: str | os.PathLike | None) -> str:
    return os.path.join(home, SESSIONS_DIR, session_key(record_id(session_id, project))[:16] + HELD_SUFFIX)


def _held_spare(home: str | os.PathLike, session_id: str, project: str | os.PathLike | None,
                create: bool = False) -> str | None:
    """Where a held start text goes when the home cannot take it (read-only, not made yet): beside the record's
    :func:`_spare`; None without a runtime directory."""
    spare = _spare(home, record_id(session_id, project), create)
    return None if spare is None else spare[:-len(".json")] + HELD_SUFFIX


HELD_HEAD = b"memdir-held-start "  # then the digest to record once given (or "-") and a newline, then the text


def hold_start(home: str | os.PathLike, session_id: str | None, text: str,
               project: str | os.PathLike | None, block_digest: str | None = None) -> bool:
    """Keep ``text`` (what a session start of session ``session_id`` in ``project``, its root or None, gives) for
    the session's next prompt hook in that project to give (:func:`take_start`; a prompt in another project never
    takes it: projects never see each other's memories, break20), replacing any held before, with
    ``block_digest``: the block's digest to record as given (:func:`record_start`) when that prompt gives it, not
    before (trial20: a session that never prompted had its block recorded as given), or None for none to record:
    for a client that keeps the person's prompts on resume only when the start's text comes with a prompt
    (:data:`memdir.integrations.claude_code.dialects.START_AT_PROMPT`). False (nothing held: the start
    gives it itself) for no id or when neither place can be written. Never raises."""
    if not session_id:
        return False
    data = HELD_HEAD + (block_digest or "-").encode("ascii", "replace") + b"\n" + text.encode("utf-8", "replace")
    if save(_held_path(home, session_id, project), data):
        return True
    spare = _held_spare(home, session_id, project, create=True)  # a home not made yet, or read-only
    return spare is not None and save(spare, data)


def take_start(home: str | os.PathLike, session_id: str | None,
               project: str | os.PathLike | None) -> tuple[str, str | None]:
    """``(text, digest)``: the text :func:`hold_start` kept for session ``session_id`` in ``project`` (its root or
    None; one held in another project is not this one's), removed once the answer giving it is delivered (at once
    in the hook's own process: :func:`memdir.prompt.delivery.when_delivered`; given once), and the digest to
    record with :func:`record_start` once the prompt gave it (None: none); ``("", None)`` when none is held.
    Never raises."""
    if not session_id:
        return "", None
    for path in (_held_path(home, session_id, project), _held_spare(home, session_id, project)):
        try:
            with open(path, "rb") as handle:
                raw = handle.read()
            break
        except (OSError, TypeError):  # TypeError: no runtime directory (path None)
            continue
    else:
        return "", None
    when_delivered(lambda path=path, whole=raw: unlink(path, whole))  # once the answer is (memdir.prompt.delivery)
    block = None
    if raw.startswith(HELD_HEAD) and b"\n" in raw:
        head, _, raw = raw.partition(b"\n")
        block = head[len(HELD_HEAD):].decode("ascii", "replace")
    return raw.decode("utf-8", "replace"), (None if block in (None, "-", "") else block)


def first_time(home: Path, session_id: str | None, warning: str, project: str | os.PathLike | None = None) -> bool:
    """True when session ``session_id`` (in ``project``: :func:`record_id`; None: the session's warnings where it
    runs in no project) has not been given ``warning`` (a
    text naming one condition, e.g. why the search index cannot be written)
    yet, and records that it now is — in the home, else the runtime directory,
    as :func:`record`. Each hook is a process of its own: a condition met on
    every prompt is said once per session this way (again after a
    compaction, :func:`clear`). True for no id (nothing to remember it by)
    and when the record cannot be kept (better said twice than never).
    Never raises."""
    if not session_id:
        return True
    session_id, key = record_id(session_id, project), digest(warning)
    if key in _both(home, session_id).said:
        return False
    when_delivered(lambda: _said(home, session_id, key))  # said once the hook's answer is (memdir.prompt.delivery)
    return True


def _said(home: str | os.PathLike, session_id: str, key: str) -> None:
    with locked(home) as held:
        now = _both(home, session_id)
        if held and key not in now.said:
            now.said = (now.said + [key])[-MAX_SAID:]
            _keep(home, session_id, now)


def _keep(home: Path, session_id: str, now: _Record) -> None:
    """Replace the record of ``session_id`` by ``now``: in the home, else in the runtime directory (the module
    docstring); the runtime directory's copy goes once the home took it. Never raises."""
    record = {"session": session_key(session_id), "shown": now.shown, "said": now.said}
    if now.start is not None:
        record["start"] = now.start
    if now.unread:
        record["unread"] = now.unread
    data = json_c.dumps(record).encode("ascii")
    spare = _spare(home, session_id)
    if save(_path(home, session_id), data):
        if spare is not None:
            unlink(spare)  # merged into the home's record
        return
    spare = _spare(home, session_id, create=True)
    if spare is not None:
        save(spare, data)


def clear(home: Path, session_id: str | None, project: str | os.PathLike | None) -> None:
    """Forget what recall injected in session ``session_id`` in ``project`` (its root or None: :func:`record_id`;
    its conversation was compacted or cleared), the context block recorded given and the warnings said
    (:func:`first_time`'s, of the project and the project-less record alike), in both places; the
    givings not yet counted as reads (:func:`take_unread`) stay. Never raises."""
    if not session_id:
        return
    with locked(home, create=False) as held:  # unlocked when it cannot be had: a clear is never skipped
        for rid in dict.fromkeys((record_id(session_id, project), record_id(session_id, None))):
            unread = _both(home, rid).unread if held else {}
            unlink(_path(home, rid))
            spare = _spare(home, rid)
            if spare is not None:
                unlink(spare)
            if unread:
                _keep(home, rid, _Record(unread=unread))


__all__ = ["MAX_SAID", "MAX_SHOWN", "Given",
           "clear", "digest", "first_time", "given", "hold_start", "record", "record_id", "record_start", "session_key",
           "shown", "start_given", "take_start", "take_unread"]
