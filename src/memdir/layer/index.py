"""``MEMORY.md``: the one-line-per-memory index of a layer (DESIGN §6, seed §A5).

Pure functions of the records and the current time: which memories are
visible, their order, each line's text, and the next moment the rendered text
could change (so a cached index knows when it has gone out of date).

Line: ``- [<title or name>](<name>.md)[<PIN_MARK>][ (auto-extracted)] — <description>`` (the link: the
memory's file, :func:`link`, when a person named it otherwise),
every line break in values collapsed to a space and control and bidi
characters dropped (:func:`memdir.text.printable.one_line`), lines joined
with ``\\n`` plus a final
``\\n``, no heading. Order: pinned first, then importance × 0.995^days since
last read/update, then name — days counted as UTC calendar days
(:func:`calendar_days`), so every score steps at one moment, midnight UTC, and
the text holds all day: with a step at each memory's own hour, 10,000 memories
re-ordered the index every few seconds.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import Iterable, NamedTuple

from ..files.memfile import MemoryRecord, name_of_file
from ..text.printable import LINE_BYTES, clipped, is_clean_line
from ..text.printable import one_line as _flat
from ..vocabulary import PIN_MARK

DAY = timedelta(days=1)
DECAY = 0.995
_MAX_DEADLINE = datetime.max.replace(tzinfo=None)


class _Spliced:
    """What :meth:`IndexBuilder.render_changed` returns for a builder restored from an outline: the
    text is the outlined file with :meth:`IndexBuilder.edits` applied, never joined in memory."""

    def __repr__(self) -> str:
        return "SPLICED"


SPLICED = _Spliced()


def _anchor(record: MemoryRecord) -> datetime | None:
    """The later of a memory's last read and its update (else its creation): DESIGN §4's "days since last
    read/update". Before left29 a read hid any later update: a memory read once, then edited by hand, ranked by
    the old read's age, under notes written that day."""
    touched = [moment for moment in (record.last_read, record.updated or record.created) if moment is not None]
    return max(touched) if touched else None


def read_as_now(moment, now):
    """``moment`` (a memory's ``updated``, ``created`` or ``last_read``: a datetime, or Unix seconds as the
    search index keeps it), or ``now`` when it is after ``now`` (a clock set ahead where it was written, a
    hand edit): a memory is never more recent than one written this moment. The one rule of a time in the
    future — the index's order (:func:`calendar_days`), prune (:func:`whole_days`), staleness, and search's
    ties and its updated since/until filters (:func:`memdir.search.ties.order_key`,
    :mod:`memdir.search.filters`)."""
    return min(moment, now)


def whole_days(since: datetime, now: datetime) -> int:
    """Whole days from ``since`` (:func:`read_as_now`) to ``now``, never negative."""
    return math.floor((now - read_as_now(since, now)).total_seconds() / 86400)


def _utc_day(moment: datetime):
    return (moment if moment.tzinfo is None else moment.astimezone(timezone.utc)).date()


def calendar_days(since: datetime, now: datetime) -> int:
    """UTC calendar days from ``since``'s date (:func:`read_as_now`) to ``now``'s, never negative (times
    without a zone are UTC)."""
    return max(0, (_utc_day(now) - _utc_day(read_as_now(since, now))).days)


def next_midnight(now: datetime) -> datetime:
    """The first UTC midnight after ``now`` (in ``now``'s zone awareness)."""
    day = datetime.combine(_utc_day(now) + DAY, datetime.min.time())
    return day if now.tzinfo is None else day.replace(tzinfo=timezone.utc)


def score(record: MemoryRecord, now: datetime) -> float:
    """importance × 0.995^days since the last read or update (the later; else creation), in UTC calendar days."""
    anchor = _anchor(record)
    if anchor is None:
        return float(record.effective_importance)
    return record.effective_importance * DECAY ** calendar_days(anchor, now)


def is_stale(record: MemoryRecord, stale_after_days: int, now: datetime) -> bool:
    """Unread, unpinned and not updated for more than ``stale_after_days`` days
    (seed §A5: strictly greater; 0 disables; files without times never go stale)."""
    if stale_after_days <= 0 or record.pinned or record.reads > 0:
        return False
    updated = record.updated or record.created
    if updated is None:
        return False
    return (now - updated).total_seconds() > stale_after_days * 86400


def is_current(record: MemoryRecord, now: datetime) -> bool:
    """Active and inside its valid time (``valid_from`` ≤ now < ``valid_until``)."""
    if record.status != "active":
        return False
    if record.valid_until is not None and record.valid_until <= now:
        return False
    if record.valid_from is not None and record.valid_from > now:
        return False
    return True


def is_visible(record: MemoryRecord, now: datetime, stale_after_days: int = 0) -> bool:
    """In the index: current, not muted, not stale."""
    return is_current(record, now) and not record.disabled and not is_stale(record, stale_after_days, now)


def state_of(record: MemoryRecord, now: datetime, stale_after_days: int = 0) -> str:
    """Where a memory stands: its status when not active (candidate,
    superseded), else expired | not-yet-valid | muted | stale | active."""
    if record.status != "active":
        return record.status
    if not is_current(record, now):
        return "expired" if record.valid_until and record.valid_until <= now else "not-yet-valid"
    if record.disabled:
        return "muted"
    if is_stale(record, stale_after_days, now):
        return "stale"
    return "active"


def ordered(records: Iterable[MemoryRecord], now: datetime) -> list[MemoryRecord]:
    """Pinned first, then score descending, then name ascending."""
    return sorted(records, key=lambda r: (not r.pinned, -score(r, now), r.name))


def one_line(text: str) -> str:
    """``text`` on one line (:func:`memdir.text.printable.one_line`): every
    line break collapsed, no control or bidi character."""
    return _flat(text)


def index_line(record: MemoryRecord) -> str:
    """The index line of one memory: its title and its description each at most
    :data:`~memdir.text.printable.LINE_BYTES` UTF-8 bytes (:func:`~memdir.text.printable.clipped`,
    as ``memdir list`` shows a description), so a hand-placed file with a 3,600-character
    description is one line of the usual length, not a line that fills the context block."""
    # Backslashes first, then brackets: a title ending in "\\" cannot unescape the link's "]".
    title = clipped(one_line(record.display_title)).replace("\\", "\\\\").replace("]", "\\]")
    marks = (PIN_MARK if record.pinned else "") + (" (auto-extracted)" if record.origin == "extracted" else "")
    return f"- [{title}]({link(record)}){marks} — {clipped(one_line(record.description), LINE_BYTES)}"


_BARE = frozenset("()<>\\")  # a file name holding one of these or a space is linked in angle brackets (CommonMark)


def link(record: MemoryRecord) -> str:
    """The link target of a memory's index line: its file's name, ``<name>.md``, or the name of the file a
    person placed under another stem (``project_Foo_Bar.md``; :attr:`MemoryRecord.file_stem`), so the link
    opens the file that is there. A file name with a space, a parenthesis, ``<``, ``>`` or ``\\`` goes in
    angle brackets (``<Upper.Case name.md>``), as CommonMark reads a destination holding them; one that is
    not one clean line (a line break, a control character) cannot be linked on a line, and its memory's
    name stands in."""
    stem = record.file_stem
    if not stem or not is_clean_line(stem):
        return f"{record.name}.md"
    if not any(char in _BARE or char.isspace() for char in stem):
        return f"{stem}.md"
    return "<" + stem.replace("\\", "\\\\").replace("<", "\\<").replace(">", "\\>") + ".md>"


def _links_to(line: str, name: str) -> bool:
    """Whether index ``line`` links memory ``name``: ``(<name>.md)``, or a hand-named file of that name
    (:func:`link`: ``(project_Foo_Bar.md)``, ``(<Upper.Case name.md>)``). False when unsure (a title holding
    an escaped ``]`` before ``(``): the caller then renders every line again, the safe way."""
    if f"]({name}.md)" in line:
        return True
    at = line.find("](")
    if at < 0:
        return False
    rest = line[at + 2:]
    if rest.startswith("<"):
        end = rest.find(">)")
        target = rest[1:end].replace("\\<", "<").replace("\\>", ">").replace("\\\\", "\\")
    else:
        end = rest.find(")")
        target = rest[:end]
    return end > 0 and name_of_file(target) == name


def render_index(records: Iterable[MemoryRecord], now: datetime, stale_after_days: int = 0) -> str:
    """The whole ``MEMORY.md`` text; ``""`` when nothing is visible. ``records``: :class:`MemoryRecord`
    or :class:`Facts` (a memory's line then its ``line``), mixed at will."""
    visible = [r for r in records if is_visible(r, now, stale_after_days)]
    if not visible:
        return ""
    return "\n".join(_line(r) for r in ordered(visible, now)) + "\n"


def next_change(records: Iterable[MemoryRecord], now: datetime, stale_after_days: int = 0) -> datetime | None:
    """The earliest moment after ``now`` at which :func:`render_index` could
    give other text: the next midnight UTC (when any memory's score has a
    time), a valid-time edge, or a memory turning stale. None when nothing
    will ever change."""
    best: datetime | None = None

    def consider(moment: datetime | None) -> None:
        nonlocal best
        if moment is not None and moment > now and (best is None or moment < best):
            best = moment

    midnight = None
    for record in records:
        if midnight is None and _anchor(record) is not None:  # every score steps at midnight UTC
            midnight = next_midnight(now)
            consider(midnight)
        consider(record.valid_until)
        consider(record.valid_from)
        if stale_after_days > 0 and not record.pinned and record.reads == 0:
            updated = record.updated or record.created
            if updated is not None:
                consider(updated + DAY * stale_after_days + timedelta(microseconds=1))
    return best


class Facts(NamedTuple):
    """What a memory's place in the index depends on — whether it is shown, its order, the next moment
    either changes — and its line: a record's fields of those names (so :func:`score`,
    :func:`is_visible` and :func:`next_change` take either) and :func:`index_line`; and the rest of
    what a listing shows of it (type, description, title, origin, succession, ``candidate_for``: the
    text of that frontmatter key, None when it is not text; the body's size). A layer keeps them per memory
    (:mod:`memdir.layer.manifest`), so a new day re-orders ``MEMORY.md``, and ``list`` and ``status``
    answer, without reading the files (issue 28 §7)."""

    name: str
    pinned: bool
    effective_importance: float
    last_read: datetime | None
    updated: datetime | None
    created: datetime | None
    reads: int
    status: str
    disabled: bool
    valid_from: datetime | None
    valid_until: datetime | None
    line: str
    type: str = "reference"
    description: str = ""
    title: str | None = None
    origin: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    candidate_for: str | None = None
    body_bytes: int = 0  # the body's size in UTF-8 bytes (the memory tool's directory view)

    @classmethod
    def of(cls, record, line: str | None = None) -> "Facts":
        """The facts of ``record`` (a :class:`MemoryRecord` or Facts); ``line``: its index line when known."""
        if isinstance(record, Facts):
            return record
        candidate_for = dict(record.extra).get("candidate_for")
        return cls(record.name, record.pinned, record.effective_importance, record.last_read, record.updated,
                   record.created, record.reads, record.status, record.disabled, record.valid_from,
                   record.valid_until, line if line is not None else index_line(record), record.type,
                   record.description, record.title, record.origin, record.supersedes, record.superseded_by,
                   candidate_for if isinstance(candidate_for, str) else None, len(record.body.encode("utf-8")))


def _line(record) -> str:
    return record.line if isinstance(record, Facts) else index_line(record)


class IndexBuilder:
    """Incremental :func:`render_index` for one layer.

    Re-rendering 10,000 lines on every write would cost more than the write.
    Between two moments at which any memory's visibility or whole-day score
    can change (:func:`next_change`), the order of unchanged records is fixed,
    so only the records that changed (compared by identity: the scan reuses
    record objects of unchanged files) are re-keyed and moved. Past that
    moment everything is rebuilt. The output always equals
    ``render_index(records, now, stale_after_days)``.
    """

    def __init__(self, stale_after_days: int = 0):
        self.stale_after_days = stale_after_days
        self._records: dict[str, MemoryRecord] = {}
        self._keys: dict[str, tuple] = {}
        self._order: list[tuple] = []
        self._ordered_lines: list[str] = []  # the index lines, parallel to _order
        self._lines: dict[str, str] = {}
        self._deadline: datetime | None = None
        self._built = False
        self._partial = False  # restored from saved keys: the records of unchanged lines are not at hand
        self._gone: set[str] = set()  # after a restore: memories removed since
        self._rekeyed = False  # every key changed since keys() last told them
        self._edits: list[tuple[int, str | None]] | None = None  # line edits since edits() (None: rebuilt)
        self._source = None  # restored from an outline: the unchanged lines are in its file (_ordered_lines None)

    def _key(self, record: MemoryRecord, now: datetime) -> tuple | None:
        if not is_visible(record, now, self.stale_after_days):
            return None
        return (not record.pinned, -score(record, now), record.name)

    def _rebuild(self, records: dict[str, MemoryRecord], now: datetime) -> None:
        self._partial = False
        self._records = dict(records)
        self._keys = {}
        self._lines = {}
        for name, record in records.items():
            key = self._key(record, now)
            if key is not None:
                self._keys[name] = key
                self._lines[name] = _line(record)
        self._order = sorted(self._keys.values())
        self._ordered_lines = [self._lines[key[2]] for key in self._order]
        self._source = None
        self._deadline = next_change(records.values(), now, self.stale_after_days)
        self._built = True
        self._rekeyed = True
        self._edits = None

    @property
    def built(self) -> bool:
        """True once a full render has been done (so :meth:`render_changed` may be used)."""
        return self._built

    def restore(self, keys: dict[str, tuple], text, deadline: datetime | None) -> bool:
        """Take up the state a render left (:meth:`keys`, the ``MEMORY.md`` it wrote — its ``text``, or
        its :class:`memdir.files.outline.Outline`: then no line is read but the first and the last, and
        :meth:`render_changed` returns :data:`SPLICED` —, its :attr:`deadline`) without the records, so
        :meth:`render_changed` moves only the lines of the memories that changed — until the deadline,
        past which :meth:`reorder` orders them again from the memories' :class:`Facts`. False (nothing
        taken) when the text does not have one line per key, in key order. Raises ValueError
        (:class:`memdir.files.outline.OutlineMismatch`) when the outline's file changed."""
        order = list(keys.values())  # in key order already when they come from the manifest
        if any(a > b for a, b in zip(order, order[1:3])) or (len(order) > 1 and order[-2] > order[-1]):
            order.sort()
        if isinstance(text, str):
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            count, first, last = len(lines), (lines[0] if lines else ""), (lines[-1] if lines else "")
        else:  # an outline: the first and last lines only
            lines, count = None, text.count
            first, last = (text.line(0), text.line(count - 1)) if count == len(order) and count else ("", "")
        if count != len(order) or (order and not (_links_to(first, order[0][2]) and _links_to(last, order[-1][2]))):
            return False  # the caller checked the text is the one written with these keys (its stat key)
        self._records, self._keys, self._order, self._ordered_lines = {}, dict(keys), order, lines
        self._lines = {key[2]: line for key, line in zip(order, lines)} if lines is not None else {}
        self._source = None if lines is not None else text
        self._deadline, self._built, self._partial, self._gone = deadline, True, True, set()
        self._rekeyed, self._edits = False, []
        return True

    def reorder(self, facts: dict[str, Facts], now: datetime) -> str:
        """After :meth:`restore`: the text with every line ordered again at ``now`` from ``facts``
        (name → :class:`Facts` of every memory of the layer; the records changed since the restore
        stand over ``facts``), as a full render of their records would give. The builder stays one
        without the records (:attr:`partial`)."""
        records = {**facts, **{n: r for n, r in self._records.items() if not isinstance(r, Facts)}}
        for name in self._gone:
            records.pop(name, None)
        self._rebuild(records, now)
        self._partial, self._gone = True, set()
        return self._text()

    def keys(self, names=None) -> dict[str, tuple | None]:
        """The sort key of each line (name → ``(not pinned, -score, name)``), of ``names`` only
        when given (None: not in the index), for :meth:`restore`."""
        if names is None:
            return dict(self._keys)
        return {name: self._keys.get(name) for name in names}

    def rekeyed(self) -> bool:
        """Whether every line was ordered again since this was last asked (then :meth:`keys` and
        :meth:`facts` of every memory are to be kept, not only of those changed); clears it."""
        was, self._rekeyed = self._rekeyed, False
        return was

    def facts(self, names=None) -> dict[str, Facts | None]:
        """The :class:`Facts` of every memory at hand (``names`` only when given; None: gone), for
        :meth:`restore`. After a restore only those changed since are at hand."""
        records = self._records
        chosen = records.keys() if names is None else names
        return {name: (Facts.of(records[name], self._lines.get(name)) if name in records else None)
                for name in chosen}

    @property
    def partial(self) -> bool:
        """True after :meth:`restore`, until a full render: only :meth:`render_changed` may be used."""
        return self._partial

    def render(self, records: dict[str, MemoryRecord], now: datetime) -> str:
        """The ``MEMORY.md`` text for ``records`` (name → record) at ``now``."""
        if not self._built or self._partial or (self._deadline is not None and now >= self._deadline):
            self._rebuild(records, now)
            return self._text()
        old = self._records
        changes = {n: r for n, r in records.items() if old.get(n) is not r}
        changes.update((n, None) for n in old.keys() - records.keys())
        return self.render_changed(changes, now)

    def render_changed(self, changes: dict[str, MemoryRecord | None], now: datetime) -> str | None:
        """The text after only ``changes`` (name → new record, None = gone)
        since the last render; the other records are the ones last seen.
        None when restored (:meth:`restore`) and past the deadline: the
        caller orders the lines again (:meth:`reorder`, the changes kept) or
        renders every record (:meth:`render`). :data:`SPLICED` when restored
        from an outline: the caller writes :meth:`edits` into its file
        (:func:`memdir.files.splice.splice_index`), then :meth:`spliced`."""
        import bisect

        records = self._records
        if self._partial and self._deadline is not None and now >= self._deadline:
            for name, record in changes.items():  # kept for reorder(), which the caller does now
                if record is None:
                    records.pop(name, None)
                    self._gone.add(name)
                else:
                    records[name] = record
                    self._gone.discard(name)
            return None
        for name, record in changes.items():
            if record is None:
                records.pop(name, None)
                if self._partial:
                    self._gone.add(name)
            else:
                records[name] = record
                self._gone.discard(name)
        if not self._built or (self._deadline is not None and now >= self._deadline):
            self._rebuild(records, now)
            return self._text()
        for name in changes:
            key = self._keys.pop(name, None)
            if key is not None:
                at = bisect.bisect_left(self._order, key)
                del self._order[at]
                if self._ordered_lines is not None:
                    del self._ordered_lines[at]
                self._lines.pop(name, None)
                if self._edits is not None:
                    self._edits.append((at, None))
        for name, record in changes.items():
            if record is None:
                continue
            key = self._key(record, now)
            if key is not None:
                self._keys[name] = key
                line = self._lines[name] = _line(record)
                at = bisect.bisect_left(self._order, key)
                self._order.insert(at, key)
                if self._ordered_lines is not None:
                    self._ordered_lines.insert(at, line)
                if self._edits is not None:
                    self._edits.append((at, line))
            moment = next_change([record], now, self.stale_after_days)
            if moment is not None and (self._deadline is None or moment < self._deadline):
                self._deadline = moment
        return self._text()

    def edits(self) -> tuple[list[str] | None, list[tuple[int, str | None]] | None]:
        """``(lines, edits)``: the index's lines now (as :meth:`render` joins them; the caller does
        not change them; None when restored from an outline: :attr:`source`) and the line edits since
        this was last asked, in order — ``(at, None)``: line ``at`` removed, ``(at, line)``: ``line``
        inserted at ``at`` — or None when every line may have changed since (a full render). Clears
        the edits (so ask once per text written)."""
        edits, self._edits = self._edits, []
        return self._ordered_lines, edits

    @property
    def source(self):
        """The :class:`memdir.files.outline.Outline` of the file holding the lines :meth:`edits` are
        told against, when restored from one (else None)."""
        return self._source

    def spliced(self, outline) -> None:
        """The edits told were written: ``outline`` (of the new file) is the source of the next ones."""
        self._source = outline

    def _text(self):
        if self._ordered_lines is None:
            return SPLICED
        return "\n".join(self._ordered_lines) + "\n" if self._ordered_lines else ""

    @property
    def deadline(self) -> datetime | None:
        """The next moment the text could change without any file changing."""
        return self._deadline
