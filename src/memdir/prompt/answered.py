"""A pending finding a memory's edit outside memdir answered (DESIGN §5, §7; newuser38).

A pending finding (:mod:`memdir.prompt.pending`) waits for the next session's agent to save what the person
said. When the memory it is about is then changed outside memdir — a person's editor; the layer's journal
records every such change as an ``external-edit`` once a sweep takes it up (:func:`memdir.layer.commit.sweep`)
— the change is the answer, and asking the agent to save the finding again would undo it (newuser38: the
person corrected ``db-port`` 5433 -> 5434 by hand, and every session start still asked to save "dev db is on
5433"). The one rule, :func:`answer`, reads the journaled bytes before and after such an edit journaled after
the finding was kept:

* **saved**: the memory after it holds the finding (:func:`~memdir.prompt.coverage.covers`) and the finding
  corrects nothing of it (:func:`~memdir.prompt.coverage.corrects`);
* **taken out**: a value the finding states (:func:`~memdir.prompt.coverage._values`: a number, a name) that
  the memory held before the edit is no longer in it, the memory sharing another content word with the finding.

The journal cannot tell a person's editor from ``git pull``, a checkout or a copy: each is an ``external-edit``
by ``human``. So the rule is the one safe for both: an edit answers a finding only when it saved the finding's
value or took that very value out of the memory that held it — never because the memory now holds some other
value (a pulled ``db-port`` of 5435 leaves a finding "dev db is on 5433" about a memory of 5432 waiting).

Nothing is deleted silently: an answered finding is no longer shown, and one line ``{"id", "text", "name", "seq", "ts", "reason", "at"}`` (``at``: when it was judged, epoch seconds) is appended to ``<layer>/.memdir/pending-answered.jsonl`` (one
``write``, O_APPEND, no layer lock, as the showings are; only while the finding is still kept, checked under the
file's shared ``flock``, which ``memdir review --drop all`` takes exclusively to clear the records, and a drop by
id to drop its findings: :func:`_record`, :func:`clear`, :func:`dropping`), which :func:`answered` reads for ``memdir review`` (the finding's text and the reason, after it left
``pending.json`` too: the next finding kept prunes what is no longer to show, as it prunes an expired one).

Cost (on the hooks' path only while a finding waits): each finding keeps the journal's size, last line's
digest and seq when it was kept (:func:`mark`), and each judging records in ``<layer>/.memdir/pending-judged.jsonl``
(:data:`JUDGED_FILE`, appended as the showings are) the mark every finding still to show was judged up to, so the
next one starts there (:func:`judged`): an ``external-edit`` of another memory is read once, not at every hook
until the finding leaves. The journal's bytes after the oldest finding's mark are searched for the action's name
(:func:`_mentions_edit`: no line parsed, no module imported); only when they name it are they parsed by the
journal's reader, once for all findings (:meth:`memdir.layer.journal.Journal.events_after`), never whole — but for a
finding kept by an older memdir (no mark) or a journal rewritten since (``memdir verify --repair``'s rechain): then
its events are read whole, once. Only an ``external-edit`` after a finding's mark reads version objects (two each).
A tail of other events longer than :data:`SETTLE_BYTES` is judged up to its end too, so a hook searches at most
about that many bytes however long the journal grows. The session start brings the project layer's index up to
date first (:func:`memdir.prompt.context.bring_up_to_date`), so an edit that moved the layer directory is journaled
before the findings are judged; one made in place is journaled at the next sweep (:mod:`memdir.files.sweeps`).
"""

from __future__ import annotations

import os
import time

from ..files.layout import JOURNAL_FILE, META_DIR

ANSWERED_FILE = "pending-answered.jsonl"
JUDGED_FILE = "pending-judged.jsonl"  # {"id", "journal": mark}: how far each finding was judged (unanswered)
SETTLE_BYTES = 1 << 16  # a tail of other events longer than this is judged once, then searched no more
# Seconds a hook recording an answer keeps opening the file again while drops rename new ones over it (_record): a
# count of three lost a kept finding's record in 4 of 7 runs of back-to-back drops beside four hooks (break48), each
# drop's exclusive flock taken before the hook's shared one three times running.
REOPEN_WAIT = 2.0
HAND_EDIT = "external-edit"  # memdir.layer.lasts.HAND_EDIT: the journal's action for a change made outside memdir


def _meta(layer_dir) -> str:
    return os.path.join(layer_dir, META_DIR)


def mark(layer_dir) -> list | None:
    """``[size, digest of its last line, its seq]`` of the layer's journal now (``[0, None, 0]``: none yet),
    kept in a finding as ``journal`` when it is kept (call with the layer lock held), so :func:`unanswered`
    reads only the events after it; None when the journal cannot be read."""
    from pathlib import Path

    from ..errors import StoreError
    from ..layer.journal import Journal

    journal = Journal(Path(_meta(layer_dir)))
    try:
        end = (journal.stat_key() or (0, 0))[0]
    except StoreError:
        return None
    last = journal.last_event() if end else None
    if end and last is None:
        return None  # a last line that is no event: no mark to read from
    return [end, journal.line_digest(end), last.seq if last else 0]


def answer(item_text: str, name: str, before: str | None, after: str) -> str | None:
    """Why an edit outside memdir of the memory ``name`` from the text ``before`` (None: the file was placed
    new) to ``after`` answers the finding ``item_text`` (see the module docstring), as a person reads it; None
    when it does not. Texts as :func:`memdir.prompt.coverage.memory_text` joins a memory's fields. Pure."""
    import re

    from . import coverage as words_of

    if words_of.saves(item_text, after):
        return f"{name} was edited outside memdir and now holds it"
    if not before:
        return None
    words = {w[:5] for w in re.findall(words_of._WORD, before.lower())}
    values = words_of._values(item_text) & words
    if not values or not (words_of._stems(item_text) & words_of._stems(before)) - values:
        return None  # the finding states no value the memory held, or shares nothing else with it
    gone = values - {w[:5] for w in re.findall(words_of._WORD, after.lower())}
    if not gone:
        return None
    said = list(dict.fromkeys(w for w in re.findall(r"[A-Za-z0-9]+", item_text) if w.lower()[:5] in gone))
    return (f"{name} was edited outside memdir and no longer holds {', '.join(said)}: saving the finding "
            "would undo that edit")


def records(layer_dir, name: str) -> list[dict]:
    """The JSON objects of the lines of the file ``name`` of the layer's meta directory, in file order: the one
    reader of the pending findings' JSON-lines files (the showings, :data:`ANSWERED_FILE`, :data:`JUDGED_FILE`, the
    drops: :mod:`memdir.prompt.pending`), each line appended whole by one ``write`` (:func:`_record`) and read
    without a lock, so a torn line (a write cut off, a full disk) or one that is no JSON object is skipped. ``[]``
    without the file; never raises."""
    try:
        with open(os.path.join(_meta(layer_dir), name), "rb") as handle:
            return _parsed(handle.read())
    except OSError:
        return []


def _parsed(raw: bytes) -> list[dict]:
    """The JSON objects of the lines of ``raw`` (:func:`records`)."""
    import json

    out = []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):  # a torn line; a hand-made one nested past the parser's depth
            continue
        if isinstance(entry, dict):
            out.append(entry)
    return out


def answered(layer_dir) -> dict[str, dict]:
    """Finding id → ``{"id", "text", "name", "seq", "ts", "reason", "at"}``: the findings of a layer an edit outside memdir
    answered, as :func:`unanswered` recorded them (a torn or foreign line is skipped: :func:`records`). Never raises."""
    return _answered(records(layer_dir, ANSWERED_FILE))


def _answered(entries: list[dict]) -> dict[str, dict]:
    """:func:`answered` of the records read: of several lines of an id, the first."""
    found: dict[str, dict] = {}
    for entry in entries:
        if isinstance(entry.get("id"), str) and isinstance(entry.get("reason"), str):
            found.setdefault(entry["id"], entry)
    return found


def unanswered(layer_dir, items: list[dict], kept=None) -> list[dict]:
    """``items`` (findings still to show, :func:`memdir.prompt.pending.active`) but those an edit outside
    memdir answered: recorded before (:func:`answered`), or answered by an ``external-edit`` journaled after the
    finding was judged last (:func:`answer`; recorded now, best effort). A layer or journal that cannot be read
    answers nothing. Reads the journal from the oldest finding's mark — the one it was judged up to
    (:func:`judged`), else the one it was kept with (:func:`mark`) — and records how far each finding still to
    show is judged now, so the next call reads only what was appended since (see the module docstring).
    ``kept``: a callable giving the ids of the findings kept now; an answer is recorded only for one of them
    (:func:`_record`: a concurrent ``memdir review --drop all`` does not get it back)."""
    done = answered(layer_dir) if os.path.exists(os.path.join(_meta(layer_dir), ANSWERED_FILE)) else {}
    items = [item for item in items if item["id"] not in done]
    if not items:
        return items
    marks = _marks(layer_dir, items)
    edits, marked, upto = _edits_after(layer_dir, items, marks)
    new = {}
    for item in items:
        for event, before, after in edits:
            if not _after(event, item, marks, marked):
                continue
            reason = answer(item["text"], event.name, before, after)
            if reason is not None:
                new[item["id"]] = {"id": item["id"], "text": item["text"], "name": event.name, "seq": event.seq,
                                   "ts": event.ts, "reason": reason, "at": time.time()}
                break
    if new:
        _record(layer_dir, ANSWERED_FILE, list(new.values()), kept)
    left = [item for item in items if item["id"] not in new]
    if upto is not None:  # every edit up to it judged: the next call starts there
        _record(layer_dir, JUDGED_FILE, [{"id": item["id"], "journal": upto} for item in left
                                         if marks[item["id"]] != upto])
    return left


def judged(layer_dir) -> dict[str, list]:
    """Finding id → the :func:`mark` of the journal it was last judged up to (every ``external-edit`` up to it
    answered nothing), as :func:`unanswered` recorded them in :data:`JUDGED_FILE`: of several lines of an id, the
    one of the highest seq (a torn or foreign line is skipped: :func:`records`). ``{}`` without the file; never raises."""
    found: dict[str, list] = {}
    for entry in records(layer_dir, JUDGED_FILE):
        if (isinstance(entry.get("id"), str) and _marked(entry.get("journal"))
                and (entry["id"] not in found or entry["journal"][2] >= found[entry["id"]][2])):
            found[entry["id"]] = entry["journal"]
    return found


def clear(layer_dir) -> list[dict]:
    """Remove the layer's answered records and judging marks (:data:`ANSWERED_FILE`, :data:`JUDGED_FILE`;
    ``memdir review --drop all``: call with the layer lock held, once the findings are dropped from
    ``pending.json``). Returns the records removed (:func:`answered`, oldest first), ``[]`` when there were none.
    The answered records are read and removed under the file's exclusive ``flock``: a hook recording an answer
    meanwhile (:func:`_record`, no layer lock) holds it shared while it checks that the finding is still kept, so
    its record is either among those returned or, judged before the drop and written after it, not written at
    all (it reads the findings already dropped). Raises :class:`~memdir.errors.StoreError` when the disk refuses."""
    from ..errors import StoreError

    path = os.path.join(_meta(layer_dir), ANSWERED_FILE)
    gone: list[dict] = []
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        fd = None
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    if fd is not None:
        try:
            _flock(fd, exclusive=True)  # waits for a hook between its check and its write (a few ms)
            with os.fdopen(os.dup(fd), "rb") as handle:
                gone = list(_answered(_parsed(handle.read())).values())
            os.unlink(path)
        except OSError as exc:
            raise StoreError(f"cannot remove {path}: {exc.strerror or exc}") from None
        finally:
            os.close(fd)
    try:
        os.unlink(os.path.join(_meta(layer_dir), JUDGED_FILE))  # a mark appended after it: forget_judged trims it
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot remove {os.path.join(_meta(layer_dir), JUDGED_FILE)}: "
                         f"{exc.strerror or exc}") from None
    return gone


def dropping(layer_dir, ids, change) -> None:
    """Run ``change()`` — the findings ``ids`` leaving ``pending.json`` (`memdir review --drop ID`: call with the
    layer lock held) — under the exclusive ``flock`` of the answered records (:data:`ANSWERED_FILE`), as
    :func:`clear` takes it for ``--drop all``, then take the records of ``ids`` out of that file, so `memdir review`
    lists those findings neither waiting nor answered (the person said "not this"). A hook recording an answer
    (:func:`_record`, no layer lock) checks that its finding is still kept and writes holding the lock shared: a
    record it wrote before the drop is taken out here, and one that checks after the drop finds those findings
    gone. The file is rewritten whole and renamed over the old one (:func:`memdir.files.fsio.atomic_write`, the
    lock still held), so a crash at any point leaves the old records or the new ones, never fewer; a hook that
    opened the old file while the drop held it writes to the new one (:func:`_record` opens again). Without the
    file no hook holds it: one that makes it checks after ``change()``. Raises what ``change()`` raises, and
    :class:`~memdir.errors.StoreError` when the disk refuses (the old records then stay whole)."""
    from ..errors import StoreError

    path = os.path.join(_meta(layer_dir), ANSWERED_FILE)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        change()
        return
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        _flock(fd, exclusive=True)  # waits for a hook between its check and its write (a few ms)
        change()
        with os.fdopen(os.dup(fd), "rb") as handle:
            raw = handle.read()
        entries, wanted = _parsed(raw), set(ids)
        left = [e for e in entries if e.get("id") not in wanted]
        if len(left) != len(entries):
            import json
            from pathlib import Path

            from ..files.fsio import atomic_write

            atomic_write(Path(path), "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in left).encode("utf-8"))
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _current(fd: int, path: str) -> bool:
    """Whether ``fd`` is still the file at ``path`` (not renamed over by :func:`dropping`, nor removed by
    :func:`clear`, since it was opened)."""
    try:
        mine, now = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)


def _flock(fd: int, *, exclusive: bool) -> None:
    """Take the ``flock`` of ``fd`` (closing it releases it); nothing where there is none (Windows: there the
    order of :func:`_record` and :func:`clear` alone keeps a dropped finding's answer out)."""
    try:
        import fcntl
    except ImportError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    except OSError:
        pass  # a file system without locks (ENOLCK): the order still holds, the race window is only wider


def _marks(layer_dir, items: list[dict]) -> dict[str, list | None]:
    """Item id → the mark its judging starts from: the one it was judged up to (:func:`judged`) when past the one
    it was kept with, else that one (None: an older memdir's finding, never judged)."""
    seen = judged(layer_dir) if os.path.exists(os.path.join(_meta(layer_dir), JUDGED_FILE)) else {}
    marks = {}
    for item in items:
        kept = item.get("journal") if _marked(item.get("journal")) else None
        later = seen.get(item["id"])
        marks[item["id"]] = later if later is not None and (kept is None or later[2] >= kept[2]) else kept
    return marks


def forget_judged(layer_dir, keep) -> None:
    """Keep in :data:`JUDGED_FILE` only the last mark of each finding id in ``keep`` (the file removed when none
    is left), by an atomic replace: call with the layer lock held, when findings are kept or dropped
    (:mod:`memdir.prompt.pending`). A line appended meanwhile by a hook (no lock) may be lost: that finding is
    judged again from its older mark (the safe side). Never raises."""
    path = os.path.join(_meta(layer_dir), JUDGED_FILE)
    if not os.path.exists(path):
        return
    import json

    from ..files.fsio import atomic_write

    keep = set(keep)
    lines = [json.dumps({"id": ident, "journal": mark}) + "\n" for ident, mark in judged(layer_dir).items()
             if ident in keep]
    from ..errors import MemdirError

    try:
        if lines:
            from pathlib import Path

            atomic_write(Path(path), "".join(lines).encode("utf-8"))
        else:
            os.unlink(path)
    except (OSError, MemdirError):  # a courtesy: a longer file only costs a read
        pass


def _after(event, item: dict, marks: dict, marked: bool) -> bool:
    """Whether ``event`` was journaled after ``item`` was last judged: past its mark's seq (``marked``: the events
    were read from the marks, :func:`_marks`), else after it was kept, by time."""
    if marked:
        return event.seq > marks[item["id"]][2]
    from ..files.memfile import parse_time

    when = parse_time(event.ts)
    return when is not None and when.timestamp() > float(item.get("ts") or 0)


def _marked(value) -> bool:
    """Whether ``value`` is a :func:`mark` as a finding keeps it."""
    return (isinstance(value, list) and len(value) == 3 and type(value[0]) is int and type(value[2]) is int
            and (value[1] is None or isinstance(value[1], str)))


def _edits_after(layer_dir, items: list[dict], marks: dict) -> tuple[list[tuple], bool, list | None]:
    """``(event, text before, text after)`` of each ``external-edit`` journaled after the oldest of ``items``
    was last judged (``[]`` when none, or the journal cannot be read), whether they were read from the items'
    marks (``marks``: :func:`_marks`; else from the whole journal: an item without one, or a journal rewritten
    since), and the :func:`mark` every edit up to which was read (None: none to record)."""
    every = all(marks[item["id"]] is not None for item in items)
    if every:
        start = min(marks[item["id"]][0] for item in items)
        mentions, searched = _mentions_edit(layer_dir, start)
        if not mentions:  # the common case: nothing to parse, and the journal's module is not even imported
            # a long tail of other events is searched once more, not at every call: judged up to its end
            return [], True, _settled(layer_dir, searched) if searched - start > SETTLE_BYTES else None
    from pathlib import Path

    from ..errors import MemdirError
    from ..layer.journal import Journal

    journal = Journal(Path(_meta(layer_dir)))
    upto = mark(layer_dir)  # taken before the read: every event up to it is read below (a later one: next time)
    events = None
    if every:
        end, last, _ = min((marks[item["id"]] for item in items), key=lambda m: m[0])
        # the events appended since the oldest mark: None when the journal is not the one marked, grown
        events = journal.events_after(end, last)
    marked = events is not None
    if events is None:  # no mark (an older memdir's finding), or the journal was rewritten since
        try:
            events = journal.events()
        except (MemdirError, OSError):
            return [], False, None
    oldest = min(items, key=lambda item: marks[item["id"]][2] if marked else float(item.get("ts") or 0))
    out = []
    for event in events:
        if event.action != HAND_EDIT or not event.name or not event.after or not _after(event, oldest, marks, marked):
            continue  # no version object read for an event before every finding
        after = _text(journal, event.name, event.after)
        if after is not None:
            out.append((event, _text(journal, event.name, event.before), after))
    return out, marked, upto


def _settled(layer_dir, searched: int) -> list | None:
    """The journal's :func:`mark` when it ends at byte ``searched`` (the bytes up to it were searched and name no
    edit), else None (an event appended since the search: judged at the next call)."""
    now = mark(layer_dir)
    return now if now is not None and now[0] == searched else None


def _mentions_edit(layer_dir, end: int) -> tuple[bool, int]:
    """Whether the layer journal's bytes after byte ``end`` (a finding's mark) name :data:`HAND_EDIT` at all, and
    the byte they were searched up to: a byte search, no line parsed — a filter before the journal's reader
    (:mod:`memdir.layer.journal`, whose import costs about as much as this module's hook path) parses the
    events, which then decide. True when the journal cannot be read so (the reader says what it can); a journal
    rewritten since the mark (``memdir verify --repair``'s rechain) may hide an edit from it, and its findings
    wait (the safe side)."""
    try:
        with open(os.path.join(_meta(layer_dir), JOURNAL_FILE), "rb") as handle:
            handle.seek(end)
            data = handle.read()
    except (OSError, ValueError):
        return True, end
    return HAND_EDIT.encode() in data, end + len(data)


def _text(journal, name: str, key: str | None) -> str | None:
    """The text of a memory's version ``key`` as the finding rules read a memory (its name, description and
    body: :func:`memdir.prompt.coverage.memory_text`); the bytes as they are when they do not parse; None for
    no version or a lost object."""
    if not key:
        return None
    from ..errors import MemdirError
    from ..files.memfile import MalformedMemory, parse
    from .coverage import memory_text

    try:
        data = journal.get_object(key).decode("utf-8", "replace")
    except (MemdirError, OSError):
        return None
    try:
        record = parse(data, name).record
    except (MalformedMemory, ValueError):
        return data
    return memory_text(record.name, record.description, record.body)


def _record(layer_dir, name: str, entries: list[dict], kept=None) -> None:
    """Append ``entries`` to the file ``name`` of the layer's meta directory (:data:`ANSWERED_FILE`,
    :data:`JUDGED_FILE`) with one ``write`` (O_APPEND, no layer lock); nothing for no entries; a read-only home
    records nothing (the next reader judges again). ``kept``: a callable giving the ids of the findings kept now
    (:func:`memdir.prompt.pending.active` reads ``pending.json``); then only the entries of those are written,
    checked after the file is opened and under its shared ``flock`` (the file opened again when a drop renamed a new
    one over it meanwhile: :func:`dropping`, for up to :data:`REOPEN_WAIT` seconds) — a finding judged answered before
    ``memdir review --drop all`` and recorded after it would otherwise come back as an answered record
    (:func:`clear` drops the findings first, then removes the file under its exclusive ``flock``)."""
    if not entries:
        return
    import json

    from ..files.fsio import append_lines, on_own_line

    def lines(chosen: list[dict]) -> bytes:
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in chosen).encode("utf-8")

    path = os.path.join(_meta(layer_dir), name)
    try:
        os.makedirs(_meta(layer_dir), exist_ok=True)
        if kept is None:
            append_lines(path, lines(entries))
            return
        # Opened before the check, checked under the lock: a drop or a clear holding it exclusively is done, and the
        # findings it dropped are no longer kept. One that renamed a new file over this one, or removed it, meanwhile:
        # opened again (a write to the old file would be lost with it), for up to REOPEN_WAIT seconds: a file
        # replaced all that while records nothing (the finding is judged again at the next hook).
        deadline = time.monotonic() + REOPEN_WAIT
        while True:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                _flock(fd, exclusive=False)
                if not _current(fd, path):
                    if time.monotonic() > deadline:
                        return
                    continue
                ids = kept()
                chosen = [e for e in entries if e["id"] in ids]
                if chosen:
                    os.write(fd, on_own_line(fd, lines(chosen)))
                return
            finally:
                os.close(fd)
    except OSError:
        pass


__all__ = ["ANSWERED_FILE", "JUDGED_FILE", "answer", "answered", "clear", "dropping", "forget_judged", "judged", "mark",
           "records", "unanswered"]
