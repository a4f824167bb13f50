"""What search hands on: a candidate row (:class:`IndexedMemory`), a scored candidate (:class:`Hit`) and the result a
caller sees (:class:`SearchResult`, whose ``snippet`` is the passage holding the query's words: :func:`snippet`).

:mod:`memdir.search.ranking` finds and scores candidates; the shapes they take, and how a result's snippet is cut,
live here so that ties, recall and the adapters share one declaration.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy
from dataclasses import dataclass, field

from . import relevance
from .passage import located
from .why import why

SNIPPET_CHARS = 160


@dataclass(frozen=True)
class SearchResult:
    """One hit: ``snippet`` ≤ :data:`SNIPPET_CHARS` characters of the body from the passage holding the
    query's words (:func:`snippet`), empty for a memory whose body is empty or only its description again; ``score`` the calibrated relevance in
    [0, 1] (:mod:`memdir.search.relevance`); ``why`` what it rests on:
    ``terms`` (query terms found in the head or best passage) and ``cosine``
    (dense similarity, or None without a vector)."""

    name: str
    scope: str
    type: str
    description: str
    snippet: str
    score: float
    title: str | None = None
    pinned: bool = False
    why: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Its fields by name, as :func:`dataclasses.asdict` gives them (``why`` copied), without asdict's walk
        over every field (≈ 0.25 ms of a 5-hit search: :func:`memdir.search.ranking.search` sizes each as JSON)."""
        return {"name": self.name, "scope": self.scope, "type": self.type, "description": self.description,
                "snippet": self.snippet, "score": self.score, "title": self.title, "pinned": self.pinned,
                "why": _copied(self.why)}


_PLAIN = (str, int, float, bool, type(None))


def _copied(value):
    """``value`` as :func:`dataclasses.asdict` copies a field that is no dataclass: dicts, lists and tuples rebuilt
    (their type kept), plain values as they are, anything else deep-copied."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, dict):
        return type(value)((_copied(k), _copied(v)) for k, v in value.items())
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple, built from its fields
        return type(value)(*(_copied(v) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(_copied(v) for v in value)
    return deepcopy(value)


@dataclass(frozen=True, slots=True)
class IndexedMemory:
    """A memory as the index's ``docs`` table holds it (:mod:`memdir.search.index`):
    its row ``id`` and ``layer`` key, ``name``, ``type``, ``title`` (or
    None), ``description``, ``body``, ``pinned`` (0 or 1), ``updated``
    (Unix seconds, or None), and ``bm25``, its lexical relevance to the
    query (higher is better; 0.0 for a memory found by its vector alone).
    The one declaration of a candidate's columns: the SQL selects them in
    this order (:data:`_COLUMNS`)."""

    id: int
    layer: str
    name: str
    type: str
    title: str | None
    description: str
    body: str
    pinned: int
    updated: float | None
    bm25: float


@dataclass(frozen=True)
class Hit:
    """A scored candidate: the ``memory`` (:class:`IndexedMemory`), its ``score``
    (calibrated relevance in [0, 1], what search and recall show), its
    :class:`~memdir.search.relevance.Evidence`, and ``rank``: what its place
    rests on when that is not ``score`` (a memory stating the query is
    placed by the lexical model: :func:`memdir.search.ties.lexical_first`)."""

    memory: IndexedMemory
    score: float
    evidence: relevance.Evidence
    rank: float | None = None

    @property
    def order(self) -> float:
        """What the hit is ordered by: ``rank`` when set, else ``score``."""
        return self.score if self.rank is None else self.rank

    def why(self, words: dict[str, str] | None = None) -> dict:
        """:func:`memdir.search.why.why` of the hit's evidence."""
        return why(self.evidence, words)


def snippet(text: str, terms: Iterable[str], limit: int = SNIPPET_CHARS) -> str:
    """At most ``limit`` characters of ``text`` (whitespace collapsed) from
    the start of the sentence of the passage holding the most of ``terms``
    (:func:`memdir.search.passage.located`; the start when none occurs); ``…`` marks cuts."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    found = located(flat, list(terms))
    start = found[0] if found and found[1] > limit - 2 else 0
    end = min(len(flat), start + limit - 2)
    start = max(0, min(start, end - (limit - 2)))
    piece = flat[start:end]
    return ("…" if start > 0 else "") + piece + ("…" if end < len(flat) else "")
