"""An index row's words as a search's evidence reads them, kept while the index stays as it is (:mod:`memdir.search.memo`).

Every query reads each of its candidates (≈ 100 rows at 1,000 notes) the same way: the row's indexed head and body
(``fts``) and its text as written (``docs``: identifiers, a y-word's family). None of that changes with the query,
so a :class:`Row` holds it once per index generation: the head's tokens, and the body as its distinct words
(sorted) with where each occurs, which :func:`memdir.search.reading.read_places` reads as the query's terms by
binary search instead of a pass over the body per term (:func:`memdir.search.reading.read_body`, what it gives
exactly) from its second reading on (the first reads the body as it is: its positions cost ≈ 4 readings). A body
not single-spaced (:func:`memdir.search.reading.single_spaced`) is kept as it is and read so.

Memory: at most :data:`ROWS_KEPT` rows; a row keeps its text as written and ≈ 12 bytes per body token (its
distinct words, interned, and their positions as 4-byte integers): ≈ 5 KB for a 280-token note of 1.6 KB.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left

from . import memo
from .reading import BodyTerms, Prefixes, read_body, read_places, single_spaced
from .versions import RANGE_MARK, VERSION_JOIN

ROWS_KEPT = 2048  # rows; a query reads ≈ 50–150 (≈ 10 MB at 4.9 KB a row)


class Row:
    """One row's words: ``head`` (the indexed name, title and description as
    tokens), ``raw`` (title, description and body as written, ``""`` when
    none), ``called`` (its name as written), and its indexed body (:meth:`read`:
    as it is the first time, by its words' positions from the second on)."""

    __slots__ = ("head", "raw", "called", "_text", "_places", "_read", "_numbers")

    def __init__(self, name, title, description, body, raw, called):
        self.head = tuple(sys.intern(w) for w in f"{name} {title or ''} {description}".split())
        self.raw, self.called = raw or "", called
        self._text = body or ""  # None once its positions are kept (a single-spaced body)
        self._places: tuple | None = None  # (distinct words sorted, starts, positions): :func:`_positions`
        self._read = False
        self._numbers: frozenset[str] | None = None  # its dotted numbers' terms: :meth:`numbers`

    def body(self) -> str:
        """The indexed body, as ``fts`` holds it."""
        text, places = self._text, self._places  # in this order: a thread keeping the positions sets them first
        if text is not None:
            return text
        words, starts, positions = places
        tokens = [""] * len(positions)
        for i, word in enumerate(words):
            for p in positions[starts[i]:starts[i + 1]]:
                tokens[p] = word
        return " ".join(tokens)

    def numbers(self) -> frozenset[str]:
        """The terms of the dotted numbers the row's head and body hold (those joined by
        :data:`memdir.search.versions.VERSION_JOIN`: ``10⋅0``, ``10⋅0⋅0⋅12``) and its networks' and version ranges'
        (:data:`memdir.search.versions.RANGE_MARK`: ``10.0.0.1/24``, ``^18.17.0``), read once per row: what a query's
        number may clash with (:func:`memdir.search.versions.clashes`). Empty for a row holding none."""
        if self._numbers is None:
            text, places = self._text, self._places  # in this order, as :meth:`body`
            words = (text.split() if VERSION_JOIN in text or RANGE_MARK in text else ()) if text is not None \
                else places[0]
            self._numbers = frozenset(w for w in (*self.head, *words) if VERSION_JOIN in w or w[:1] == RANGE_MARK)
        return self._numbers

    def read(self, prefixes: Prefixes) -> BodyTerms:
        """The body read as the query's terms of ``prefixes``: what :func:`memdir.search.reading.read_body` gives
        (it, the first time: a row read once costs no more than before)."""
        text, places = self._text, self._places
        if places is None:
            if not self._read or not single_spaced(text):
                self._read = True
                return read_body(text, prefixes)
            places = self._places = _positions(text)
            self._text = None
        return BodyTerms(read_places(*places, prefixes), self.body, prefixes)

    def size(self) -> int:
        """Bytes this row keeps (its strings counted whole; interned words are shared between rows)."""
        own = sys.getsizeof
        kept = (own(self._text) if self._text is not None else 0) + sum(own(part) for part in self._places or ())
        numbers = own(self._numbers) if self._numbers is not None else 0
        return own(self.head) + own(self.raw) + kept + numbers + own(self)


def _positions(text: str) -> tuple[tuple[str, ...], array, array]:
    """``(words, starts, positions)`` of a single-spaced ``text``: its distinct words sorted (interned), and the
    positions of ``words[i]`` as ``positions[starts[i]:starts[i + 1]]``, ascending."""
    tokens = text.split(" ") if text else []
    order = sorted(range(len(tokens)), key=tokens.__getitem__)  # stable: a word's positions ascending
    ordered = [tokens[i] for i in order]
    words = sorted(set(tokens))
    starts = array("I", [bisect_left(ordered, w) for w in words])
    starts.append(len(ordered))
    return tuple(sys.intern(w) for w in words), starts, array("I", order)


def rows(conn, ids: list[int]) -> dict[int, Row]:
    """``{row id: Row}`` for each of ``ids`` that has an ``fts`` and a ``docs`` row (in the caller's transaction),
    kept per connection and index generation (:class:`memdir.search.memo.Kept`)."""
    if not ids:
        return {}
    return _KEPT.many(conn, memo.generation(conn), ids, lambda missing: _read(conn, missing))


def _read(conn, ids: list[int]) -> dict[int, Row]:
    marks = ",".join("?" * len(ids))
    return {rowid: Row(name, title, description, body, raw, called) for rowid, name, title, description, body, raw,
            called in conn.execute(
                "SELECT f.rowid, f.name, f.title, f.description, f.body,"
                " coalesce(d.title, '') || ' ' || d.description || ' ' || coalesce(d.body, ''), d.name"
                f" FROM fts f JOIN docs d ON d.id = f.rowid WHERE f.rowid IN ({marks})", ids)}


_KEPT = memo.Kept(ROWS_KEPT)


def kept_bytes() -> int:
    """Bytes the kept rows hold now (:meth:`Row.size` summed; a benchmark's report)."""
    return sum(row.size() for row in _KEPT.values())


__all__ = ["ROWS_KEPT", "Row", "kept_bytes", "rows"]
