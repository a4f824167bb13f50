"""An index row's words as a search's evidence reads them, kept while the index stays as it is (:mod:`memdir.search.memo`).

Every query reads each of its candidates (≈ 100 rows at 1,000 notes) the same way: the row's indexed head and body
(``fts``) and its text as written (``docs``: identifiers, a y-word's family). None of that changes with the query,
so a :class:`Row` holds it once per index generation: the head's tokens, and the body as its distinct words
(sorted) with where each occurs, which :func:`memdir.search.reading.read_places` reads as the query's terms by
binary search instead of a pass over the body per term (:func:`memdir.search.reading.read_body`, what it gives
exactly). A body not single-spaced (:func:`memdir.search.reading.single_spaced`) is kept as it is and read so.

Memory: at most :data:`ROWS_KEPT` rows; a row keeps its text as written and ≈ 12 bytes per body token (its
distinct words, interned, and their positions as 4-byte integers): ≈ 5 KB for a 280-token note of 1.6 KB.
"""

from __future__ import annotations

import sys
from array import array

from . import memo
from .reading import BodyTerms, Prefixes, read_body, read_places, single_spaced

ROWS_KEPT = 2048  # rows; a query reads ≈ 50–150 (≈ 10 MB at 4.9 KB a row)


class Row:
    """One row's words: ``head`` (the indexed name, title and description as
    tokens), ``raw`` (title, description and body as written, ``""`` when
    none), ``called`` (its name as written), and its indexed body (:meth:`read`)."""

    __slots__ = ("head", "raw", "called", "_words", "_starts", "_places", "_text")

    def __init__(self, name, title, description, body, raw, called):
        intern = sys.intern
        self.head = tuple(intern(w) for w in f"{name} {title or ''} {description}".split())
        self.raw, self.called = raw or "", called
        text = body or ""
        self._text = None if single_spaced(text) else text
        at: dict[str, list[int]] = {}
        if self._text is None and text:
            for i, word in enumerate(text.split(" ")):
                at.setdefault(word, []).append(i)
        self._words = tuple(intern(w) for w in sorted(at))
        self._starts, self._places = array("I"), array("I")
        for word in self._words:
            self._starts.append(len(self._places))
            self._places.extend(at[word])
        self._starts.append(len(self._places))

    def body(self) -> str:
        """The indexed body, as ``fts`` holds it."""
        if self._text is not None:
            return self._text
        tokens = [""] * len(self._places)
        for i, word in enumerate(self._words):
            for p in self._places[self._starts[i]:self._starts[i + 1]]:
                tokens[p] = word
        return " ".join(tokens)

    def read(self, prefixes: Prefixes) -> BodyTerms:
        """The body read as the query's terms of ``prefixes``: what :func:`memdir.search.reading.read_body` gives."""
        if self._text is not None:
            return read_body(self._text, prefixes)
        return BodyTerms(read_places(self._words, self._starts, self._places, prefixes), self.body, prefixes)

    def size(self) -> int:
        """Bytes this row keeps (its strings counted whole; interned words are shared between rows)."""
        own = sys.getsizeof
        return (own(self.head) + own(self.raw) + own(self._words) + own(self._starts) + own(self._places)
                + (own(self._text) if self._text is not None else 0) + own(self))


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
