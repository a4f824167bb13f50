"""What a search derives from the index's rows alone, kept while the index stays as it is (its generation).

Some of a query's work reads the same rows the same way for every query that asks it: which memories write a
y-word's family (:func:`memdir.search.terms.y_writers`: a prefix query over the whole store, then each row's text
read in Python), whether one memory's text continues a y-word's start (:func:`memdir.search.ranking`'s evidence).
Their answer changes only when a row does, and every change to ``docs`` (a sync, a repair, a vector) bumps the
index's ``meta`` ``generation`` in the same transaction; a rebuilt index is a new connection. So a :class:`Kept`
answers from what it computed under the same connection and generation, and forgets everything when either
moves. Only how it is computed changes, never what: the value is the computation's own.
"""

from __future__ import annotations

import threading


def generation(conn) -> int | None:
    """The index's generation as ``conn`` reads it now (in the caller's transaction); None when it has none."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return None if row is None else row[0]


class Kept:
    """At most ``size`` values by key, computed under one connection and
    generation: :meth:`get` gives the kept value of ``key`` when ``conn`` is
    the connection and ``generation`` the generation they were computed
    under, else ``compute()``'s (kept; the oldest dropped past ``size``).
    A new connection or generation forgets every kept value. Thread-safe;
    ``compute`` runs outside the lock (two threads may both compute a value:
    the same one)."""

    def __init__(self, size: int):
        self._size = size
        self._lock = threading.Lock()
        self._basis: tuple[object, int | None] | None = None
        self._values: dict = {}

    def get(self, conn, generation: int | None, key, compute):
        with self._lock:
            basis = self._basis
            if basis is not None and basis[0] is conn and basis[1] == generation and key in self._values:
                return self._values[key]
        value = compute()
        if generation is None:  # an index without a generation: nothing tells a change, nothing is kept
            return value
        with self._lock:
            basis = self._basis
            if basis is None or basis[0] is not conn or basis[1] != generation:
                self._basis, self._values = (conn, generation), {}
            while len(self._values) >= self._size:
                self._values.pop(next(iter(self._values)))
            self._values[key] = value
        return value

    def many(self, conn, generation: int | None, keys: list, compute) -> dict:
        """``{key: value}`` for each of ``keys`` that has a value, as :meth:`get` gives them one by one, the values
        not kept computed together: ``compute(missing keys)`` gives a dict (a key it leaves out has no value, and
        nothing is kept for it). In the order of ``keys``."""
        with self._lock:
            basis = self._basis
            values = self._values if basis is not None and basis[0] is conn and basis[1] == generation else {}
            have = {key: values[key] for key in keys if key in values}
        missing = [key for key in keys if key not in have]
        if not missing:
            return have
        computed = compute(missing)
        if generation is not None:
            with self._lock:
                basis = self._basis
                if basis is None or basis[0] is not conn or basis[1] != generation:
                    self._basis, self._values = (conn, generation), {}
                for key, value in computed.items():
                    while len(self._values) >= self._size:
                        self._values.pop(next(iter(self._values)))
                    self._values[key] = value
        return {key: have[key] if key in have else computed[key] for key in keys if key in have or key in computed}

    def values(self) -> list:
        """The values kept now (a report of their size)."""
        with self._lock:
            return list(self._values.values())

    def clear(self) -> None:
        """Forget every kept value (tests, a benchmark's fresh pass)."""
        with self._lock:
            self._basis, self._values = None, {}


__all__ = ["Kept", "generation"]
