"""The journal's hash chain: checked whole, and as the next change relies on it (DESIGN §1.3, §5: history stays
trustworthy).

Each journal line's ``prev`` is the digest of the line before it (:mod:`memdir.layer.journal`, which
appends and reads the journal as writers and readers need it). A line changed, cut or garbled by hand
breaks the chain there, and what the journal then says is no longer what memdir recorded: a memory's
name edited in its ``create`` line (``db-port`` → ``db-porx``) made the journal's heads name a memory
that never was and miss the one that is, so the next sweep journaled a false ``external-delete`` of the
one and a ``create`` of the other over its history.

* :func:`verify` — ``memdir verify``: line syntax, seq order, each line's ``prev`` the digest of the
  line before, every referenced object present with the digest it is stored under; the first failure.
* :func:`damaged`: the lines a reader of the past must not take as they read (history names them).
* :func:`broken`: why no change may be journaled onto this journal now — every transaction asks it
  before it changes anything, and refuses (nothing written, no file touched) with the damaged line
  named and the two ways out. Cheap when the journal is as the last change left it (its size and
  mtime are the anchored ones): then nothing is read.
* :func:`rechain`: the way out when there is no backup (``memdir verify --repair``): the journal is kept
  whole in ``journal.damaged`` (nothing of it lost), its lines chained again as they read now (a
  line that is no event left out, the sequence numbered again), and a ``rechain`` event records which
  lines and where the kept copy lies.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace

from ..errors import StoreError
from ..files.fsio import NOFOLLOW, digest, read_bytes
from ..files.layout import DAMAGED_FILE
from .journal import Event, Journal, iso_micro, now_utc


@dataclass(frozen=True)
class ChainCheck:
    """Outcome of a chain check: ``ok``, events checked, first bad seq and why."""

    ok: bool
    events: int
    bad_seq: int | None = None
    bad_line: int | None = None
    error: str | None = None


def damaged(journal: Journal) -> list[tuple[int, str | None, str]]:
    """The lines a reader of the past must not take as they read (history): ``(line number, the memory
    name read from it or None, why)`` — a line that is no event (cut, garbled: a whole ``"name"`` may
    still be read from it), or one changed after it was written or followed by a line since removed
    (the next line's ``prev`` is not its digest; its name may be what changed: None). A torn last
    line is not counted (the next write repairs it). Reads the whole journal; never raises."""
    out, before = [], None
    try:
        data = read_bytes(journal.path) or b""
    except (StoreError, OSError):
        return out
    for number, raw in enumerate(data.split(b"\n")[:-1], start=1):
        try:
            event = Event.from_json(json.loads(raw))
        except (ValueError, KeyError, TypeError):
            found, before = re.search(rb'"name":"([a-z0-9-]+)"', raw), None  # the next line's prev: unknown
            out.append((number, found and found.group(1).decode(), "is no event (cut or garbled)"))
            continue
        if before is not None and event.prev != digest(before):
            out.append((number - 1, None, "was changed after it was written, or a line after it removed"))
        elif number == 1 and event.prev is not None:
            out.append((1, None, "follows lines since removed"))
        before = raw
    return out


def _as_anchored(journal: Journal) -> bool:
    """Whether the journal is as the last anchored change left it: its size and mtime (ns) the anchor's."""
    try:
        head, key = journal.anchored(), journal.stat_key()
    except StoreError:
        return False
    return key is None or (head is not None and head.get("size") == key[0] and head.get("mtime") == key[1])


def broken(journal: Journal) -> str | None:
    """Why no change may be journaled onto ``journal`` now (one sentence: the first damaged line, how
    many more, and what to do), or None when its chain holds. The whole journal is read only when it is
    not as the last anchored change left it (a hand edit, a restore, an older memdir's anchor); a journal
    found sound is not read again in this process until it changes. Never raises."""
    key = journal.stat_key() if journal.path.exists() else None
    if key is None or _as_anchored(journal) or getattr(journal, "chain_held_at", None) == key:
        return None
    found = damaged(journal)
    if not found:
        journal.chain_held_at = key
        return None
    number, _name, why = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (f"line {number} of the journal {why}{more}: what it says of the memories is not what memdir recorded, "
            f"so no change is journaled onto it; restore {journal.path} from a backup, or run `memdir verify "
            f"--repair` to keep it whole in {journal.dir / DAMAGED_FILE} and chain its lines again as they read now")


def refusal(journal: Journal) -> str | None:
    """Why no change may be journaled onto ``journal`` now, as the whole error message (ending "nothing was
    changed"), or None: it lost its anchored head (:meth:`Journal.check_anchor`: the files are never journaled
    as hand edits over a headless journal; the ``memdir verify --repair`` hint when :func:`repairable`), its
    lines were changed by hand (:func:`broken`: false deletes, lost history), or its anchor cannot be written
    (:meth:`Journal.anchor_refusal`). Every transaction asks it under the layer lock, after
    :meth:`Journal.repair`. Never raises for bad data."""
    if tampered := journal.check_anchor():
        remedy = "; `memdir verify --repair` keeps it and chains it again" if repairable(journal) else ""
        return f"{journal.path}: {tampered}; nothing was changed (see `memdir verify`{remedy})"
    if damage := broken(journal):
        return f"{journal.path}: {damage}; nothing was changed"
    if unanchored := journal.anchor_refusal():
        return f"{unanchored}; nothing was changed"
    return None


def head_edited(journal: Journal) -> bool:
    """Whether the journal's last line is where the anchor says its head ends but is not the line
    anchored (edited by hand after it was written). Never raises."""
    try:
        head, key = journal.anchored(), journal.stat_key()
    except StoreError:
        return False
    return bool(head and key and head["seq"] and key[0] == head["size"]
                and journal.line_digest(key[0]) not in (None, head["hash"]))


def repairable(journal: Journal) -> bool:
    """Whether :func:`rechain` may accept the journal as it reads: it still ends at its anchored head
    (or has none, or only that head was edited: :func:`head_edited`) — never a journal whose last lines
    were removed, missing or emptied, whose loss chaining it again would hide. Never raises."""
    if head_edited(journal):
        return True
    try:
        head, key = journal.anchored(), journal.stat_key()
    except StoreError:
        return False
    if not head or not head["seq"]:
        return key is not None
    return key is not None and journal.line_digest(key[0]) == head["hash"]


def rechain(journal: Journal) -> Event | None:
    """Chain a damaged journal's lines again (:func:`damaged`, or its anchored head edited:
    :func:`head_edited`), keeping it whole first: its bytes appended to ``journal.damaged`` (fsynced),
    then the journal rewritten atomically with each event as it reads now, ``seq`` numbered again and
    ``prev`` the digest of the line before, a line that is no event left out, ending with a ``rechain`` event
    by ``human`` (in the same write) naming the damaged and left-out line numbers and the kept copy's byte range
    (``kept_from``, ``kept_bytes``); then the anchor. Returns that event, or None when nothing was
    damaged or the journal is not :func:`repairable`. Call under the layer lock, after :meth:`Journal.repair` (a torn tail cut). Raises
    :class:`StoreError` (nothing changed when the copy cannot be kept)."""
    found = damaged(journal)
    if not (found or head_edited(journal)) or not repairable(journal):
        return None
    data = read_bytes(journal.path) or b""
    kept = journal.dir / DAMAGED_FILE
    try:
        fd = os.open(kept, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o600)
        try:
            start = os.fstat(fd).st_size
            if os.write(fd, data) != len(data):
                raise OSError(f"short write to {kept}")
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(f"cannot keep the damaged journal in {kept}: {getattr(exc, 'strerror', None) or exc}; "
                         "nothing was changed") from None
    lines, prev, left_out = [], None, []
    for number, raw in enumerate(data.split(b"\n")[:-1], start=1):
        try:
            event = Event.from_json(json.loads(raw))
        except (ValueError, KeyError, TypeError):
            left_out.append(number)
            continue
        line = replace(event, seq=len(lines) + 1, prev=prev).to_line()
        lines.append(line)
        prev = digest(line)
    event = Event(len(lines) + 1, iso_micro(now_utc()), "human", "rechain", None, None, None, None, None, prev, {
        "damaged": sorted({number for number, _, _ in found}) or [len(data.split(b"\n")) - 1],
        "left_out": left_out, "kept": DAMAGED_FILE, "kept_from": start, "kept_bytes": len(data)})
    # one atomic write with its own line: never a journal chained again that does not say so (a full disk)
    journal.replace_whole(b"".join(line + b"\n" for line in (*lines, event.to_line())))
    journal.anchor()
    return event


def verify(journal: Journal) -> ChainCheck:
    """Check ``journal``'s line syntax, seq order, the hash chain and every referenced object's
    digest. Returns the first failure (a :class:`ChainCheck` with ``ok`` False, the seq and line
    number where it is and why): a torn last line (a writer killed mid-line, which the next write cuts) once the
    whole lines before it are checked, with their count. Never raises for bad data."""
    data = read_bytes(journal.path)
    if data is None:
        return ChainCheck(True, 0)
    prev = None
    count = 0
    lines = data.split(b"\n")
    torn = lines.pop() != b""  # what follows the last newline: b"" for a whole journal, else a line cut mid-write
    for number, raw in enumerate(lines, start=1):
        try:
            obj = json.loads(raw)
            event = Event.from_json(obj)
        except (ValueError, KeyError, TypeError) as exc:
            return ChainCheck(False, count, None, number, f"line {number} is not a valid event: {exc}")
        if event.seq != count + 1:
            return ChainCheck(False, count, event.seq, number,
                              f"event seq {event.seq} out of order (expected {count + 1})")
        if event.prev != prev:
            return ChainCheck(False, count, event.seq, number,
                              f"event seq {event.seq}: prev hash does not match the line before")
        for key in (event.before, event.after):
            if key is None:
                continue
            blob = read_bytes(journal.objects / key)
            if blob is None:
                return ChainCheck(False, count, event.seq, number,
                                  f"event seq {event.seq}: object {key[:12]} is missing")
            if digest(blob) != key:
                return ChainCheck(False, count, event.seq, number,
                                  f"event seq {event.seq}: object {key[:12]} is corrupt")
        prev = digest(raw)
        count += 1
    if torn:  # after the whole lines are checked: their count, and a failure among them first (before: "0 events")
        return ChainCheck(False, count, None, len(lines) + 1, "torn last line (no newline)")
    return ChainCheck(True, count)


__all__ = ["ChainCheck", "broken", "damaged", "head_edited", "rechain", "refusal", "repairable", "verify"]
