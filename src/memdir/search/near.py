"""The sentence pass of an explicit search: memories holding the query's words together (FTS5 ``NEAR``).

BM25 cannot tell the one sentence of a long note that states a fact from
notes holding the same common words far apart (at 10,000 notes of one
domain every word of "the qa ClickHouse instance for payments" is in most
notes, and FTS5 floors their IDF). :func:`rows` asks the index for the
memories holding every content term of the query close together, the
closest first: with one other token among them, then a few (:data:`GAPS`),
then within a sentence (:data:`~memdir.search.relevance.NEAR_TOKENS`);
:mod:`memdir.search.ranking` puts them at the head of its candidates.
"""

from __future__ import annotations

from collections.abc import Callable

from . import relevance, weighing
from .tokenize import fts_query

# Other tokens allowed among the query's content terms in the passes before the sentence-wide one: one ("the
# sandbox Kafka for ledger"), then a few ("connections from ledger to the sandbox Kafka"). At 10,000 notes of one
# domain a sentence-wide window holds the words by chance in hundreds, which FTS5 orders by BM25, blind to distance.
GAPS = (1, 4)


def window(phrases: list[str], gap: int) -> int:
    """The FTS5 ``NEAR`` distance that lets ``gap`` other tokens lie among
    ``phrases`` (quoted FTS5 phrases, one per term). FTS5 counts every token
    between the first phrase and the last, the query's own included, so a
    query of many terms — an identifier is three (``MongoDB`` → ``mongodb
    mongo db``) — needs the inner phrases' tokens added: six one-token terms
    side by side are 4 tokens apart before any other word comes between them."""
    tokens = sum(len(p.split()) for p in phrases)
    return gap + max(0, tokens - 2)


def rows(conn, terms: list[str], limit: int, field_weights: str, visible: Callable[[list], list],
         compounds: dict[str, tuple[str, str]] | None = None,
         counts: dict[str, int] | None = None, starts: dict[str, str] | None = None) -> list[tuple[int, float]]:
    """Up to ``limit`` rows, as ``(row id, bm25)`` best first (``field_weights``
    the bm25() arguments), that ``visible`` keeps (it takes and returns such
    a list) and that hold every content term of the query close together:
    those with at most ``GAPS[0]`` other tokens among the terms
    (:func:`window`) first, then those with at most ``GAPS[1]``, then those
    within :data:`~memdir.search.relevance.NEAR_TOKENS` tokens, each pass
    ordered by BM25 and run only while fewer than ``limit`` rows are found
    (each NEAR query reads every term's positions again: at 10,000 notes a
    leave-one-out fallback made a search several times slower). ``[]``
    for fewer than two content terms. A compound term of the query
    (``compounds``) is also looked for as its two words (a second NEAR query,
    with the phrase in the term's place). A term no memory holds (``counts``:
    document frequencies) is left out: no sentence can hold it, and the
    sentence holding the rest may answer (``hostname`` where the note says
    "reachable at"). ``starts``: the terms matching the words they begin
    (:func:`memdir.search.tokenize.fts_query`)."""
    if counts is not None:
        terms = [t for t in terms if counts.get(t, 0) or (compounds and t in compounds)]
    strong = [t for t in terms if t not in weighing.soft_terms(terms)]
    content = [t for t in strong if not weighing.is_generic(t)] or strong
    if len(content) < 2:
        return []
    variants = [[fts_query([t], starts=starts) for t in content]]
    if compounds and any(t in compounds for t in content):
        variants.append([f'"{" ".join(compounds[t])}"' if t in compounds else variants[0][i]
                         for i, t in enumerate(content)])
    out: list[tuple[int, float]] = []
    for gap in (*GAPS, None):  # the words side by side first, then a little apart, then within a sentence
        ranked: list[tuple[int, float]] = []
        for phrases in variants:
            distance = relevance.NEAR_TOKENS if gap is None else window(phrases, gap)
            match = f"NEAR({' '.join(phrases)}, {distance})"
            ranked += conn.execute(f"SELECT rowid, -bm25(fts, {field_weights}) AS rel FROM fts WHERE fts MATCH ?"
                                   f" ORDER BY rel DESC LIMIT ?", (match, 4 * limit)).fetchall()
        if len(variants) > 1:
            best: dict[int, float] = {}
            for rowid, rel in ranked:
                best[rowid] = max(rel, best.get(rowid, rel))
            ranked = sorted(best.items(), key=lambda row: -row[1])
        have = {rowid for rowid, _ in out}
        out += visible([row for row in ranked if row[0] not in have])[:limit - len(out)] if ranked else []
        if len(out) >= limit:
            break
    return out


__all__ = ["GAPS", "rows", "window"]
