"""Shared helpers of the search tests: a search's results as (name, score) pairs, and the check of a
table of (query, the memory it finds first, a memory it must not find) cases."""

from __future__ import annotations

from memdir.search.relevance import THRESHOLD


def top(mem, query: str) -> list[tuple[str, float]]:
    """``mem.search(query)`` as ``[(name, score rounded to 2 places), …]``, best first."""
    return [(hit.name, round(hit.score, 2)) for hit in mem.search(query)]


def assert_cases(mem, cases) -> None:
    """Each ``(query, name, other)``: ``name`` comes first at 0.9 or more (the must-appear control) and
    ``other`` is absent or listed below :data:`memdir.search.relevance.THRESHOLD`."""
    for query, name, other in cases:
        found = top(mem, query)
        assert found[:1] and found[0][0] == name and found[0][1] >= 0.9, (query, found)
        assert dict(found).get(other, 0) < THRESHOLD, (query, found)
