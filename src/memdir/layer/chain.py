"""A layer's journal checked whole, line by line along its hash chain (DESIGN §5).

:class:`memdir.layer.journal.Journal` appends and reads the journal as the
layer's writers and readers need it (the last line, the heads, the events
after a point); this module reads every line to say whether the chain holds:

* :func:`verify` — ``memdir verify``: line syntax, seq order, each line's
  ``prev`` the digest of the line before, every referenced object present
  with the digest it is stored under; the first failure.
* :func:`damaged` — every line a reader of the past (history) must not take
  as it reads, with the memory it names when that can still be read.

Neither raises for bad data; neither takes the layer lock (they only read).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..files.fsio import digest, read_bytes
from .journal import Event, Journal


@dataclass(frozen=True)
class ChainCheck:
    """Outcome of a chain check: ``ok``, events checked, first bad seq and why."""

    ok: bool
    events: int
    bad_seq: int | None = None
    bad_line: int | None = None
    error: str | None = None


def damaged(journal: Journal) -> list[tuple[int, str | None, str]]:
    """The lines of ``journal`` a reader of the past must not take as they read (history): ``(line
    number, the memory name read from it or None, why)`` — a line that is no event (cut, garbled: a
    whole ``"name"`` may still be read from it), or one changed after it was written or followed by a
    line since removed (the next line's ``prev`` is not its digest; its name may be what changed: None).
    A torn last line is not counted (the next write repairs it). Never raises."""
    out, before = [], None
    for number, raw in enumerate((read_bytes(journal.path) or b"").split(b"\n")[:-1], start=1):
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


def verify(journal: Journal) -> ChainCheck:
    """Check ``journal``'s line syntax, seq order, the hash chain and every referenced object's
    digest. Returns the first failure (a :class:`ChainCheck` with ``ok`` False, the seq and line
    number where it is and why); never raises for bad data."""
    data = read_bytes(journal.path)
    if data is None:
        return ChainCheck(True, 0)
    prev = None
    count = 0
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        return ChainCheck(False, count, None, len(lines), "torn last line (no newline)")
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
    return ChainCheck(True, count)
