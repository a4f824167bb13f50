"""Query windows: a long prompt's dense evidence for a memory is the better of its whole cosine and its best window's.

A task prompt ("add a log line when the payment webhook fails") carries many words about the task, and they dilute
its cosine to a memory that bears on one part of it (structlog for logging). So a prompt of more than
:data:`WORDS` content words is also embedded in windows of :data:`WORDS` consecutive content words (function words
left out), every :data:`STRIDE`-th one, at most :data:`MAX_WINDOWS`, in the same batch as the whole prompt
(:func:`query_vectors`), and a memory's cosine is the largest of the whole's and the windows' (:func:`similarities`);
the gap, lead and every rule over cosines read that. A shorter query (an explicit ``memdir search "database
port"``, a CJK prompt written without spaces) has no window and keeps its cosines exactly.

Chosen on the fit data only (evals/recall/windows.py, 2026-12-03): recall over prompts + tasks + near + gaps, 2-fold
as ``run.py --split fit`` prints, hits / false recalls of fold 0 (95 needing, 64 not) and fold 1 (86, 72), with
today's coefficients: whole 72 / 19, 64 / 9 → these windows 73 / 18, 66 / 9; both models refitted on the other fold
57 / 7 → 59 / 7 (fold 1), 65 / 14 → 67 / 13 (fold 0). Every window (stride 1) or at most three: 73 / 20, 66 / 9.
Cost: 214 of the 317 fit prompts have windows (2.0 on average, at most 4); with them the query's embedding took
about 1.5× its CPU (median 97 → 145 ms on a machine at load 6 on 2 cores). Recall's only: a search (CLI, MCP
``memory_search``, the API, with or without ``min_score``) embeds its query alone
(:func:`memdir.search.ranking.ranked`'s ``windows``): no explicit-search figure gained (the planted facts at 1,000
notes: bm25 46, ties 50, hybrid 50 of 50 first either way), and LoCoMo's questions lost (hybrid R@5/R@10
60.4/70.5 → 57.2/66.0 with windows).

Tried, not kept (2026-12-05 recall23, pooled fit data of every fit set, ``[hits, needing, false recalls, needing
none]``): each clause of a long prompt (split at sentence and clause punctuation and at "and", "but", "when",
"because", …; two content words or more) embedded as a window beside these: fold 0 [111, 145, 20, 114] →
[110, 145, 20, 114] ("where do compiled wheels end up after a CI run?" went to the CI runner note), fold 1
[102, 136, 18, 121] unchanged (one task found, "the api feels sluggish since tuesday, …" lost).
"""

from __future__ import annotations

import re

WORDS = 3  # content words per window
STRIDE = 2  # every second window: as good on the fit data as every one (see the module docstring), half the cost
MAX_WINDOWS = 4  # at most this many windows per prompt (evenly spread over it): bounds the prompt hook's cost
_WORD = re.compile(r"[\w'./-]+")


def content_words(text: str) -> list[str]:
    """The words of ``text`` (runs of letters, digits, ``'``, ``.``, ``/``, ``-``) that are not function words
    (:data:`memdir.text.words.FUNCTION_WORDS`, compared lower-cased without a trailing ``.`` or ``,``). Pure."""
    from ..text.words import FUNCTION_WORDS

    return [word for word in _WORD.findall(text) if word.lower().strip(".,") not in FUNCTION_WORDS]


def windows(text: str) -> list[str]:
    """The windows of ``text`` (a query as :func:`memdir.search.vectors.query_text` gives it) that are embedded
    beside it: runs of :data:`WORDS` consecutive content words (:func:`content_words`), every :data:`STRIDE`-th
    from the first, at most :data:`MAX_WINDOWS` (evenly spread, the first and last kept); ``[]`` when ``text``
    has :data:`WORDS` content words or fewer. Pure."""
    words = content_words(text)
    if len(words) <= WORDS:
        return []
    found = [" ".join(words[i:i + WORDS]) for i in range(0, len(words) - WORDS + 1, STRIDE)]
    if len(found) > MAX_WINDOWS:
        found = [found[round(j * (len(found) - 1) / (MAX_WINDOWS - 1))] for j in range(MAX_WINDOWS)]
    return found


def query_vectors(query: str, with_windows: bool = True):
    """The embeddings (e5's ``query:`` prefix, L2-normalized) of :func:`memdir.search.vectors.query_text` of
    ``query`` and (``with_windows``) of its :func:`windows`, in one batch: shape ``(1 + windows, 384)`` float32,
    row 0 the whole query's (what ties and passages read). Raises what the embedding engine raises."""
    import numpy as np

    from . import vectors

    text = vectors.query_text(query)
    parts = windows(text) if with_windows else []
    if not parts:  # the whole query alone, as before
        return np.asarray(vectors.query_vector(text), dtype=np.float32)[None, :]
    return np.asarray(vectors.embed([text, *parts], query=True), dtype=np.float32)


def similarities(conn, home, query_vecs, layers: list[str], allowed=None) -> dict[int, float]:
    """``{doc id: cosine}`` as :func:`memdir.search.similarity.similarities` gives for one vector, each the largest
    over the rows of ``query_vecs`` (shape ``(n, 384)``, from :func:`query_vectors`; a ``(384,)`` vector is one
    row). Never embeds."""
    from . import similarity

    if getattr(query_vecs, "ndim", 1) == 1:
        return similarity.similarities(conn, home, query_vecs, layers, allowed)
    best = similarity.similarities(conn, home, query_vecs[0], layers, allowed)
    for row in query_vecs[1:]:
        for i, cosine in similarity.similarities(conn, home, row, layers, allowed).items():
            if cosine > best.get(i, cosine):
                best[i] = cosine
    return best


__all__ = ["MAX_WINDOWS", "STRIDE", "WORDS", "content_words", "query_vectors", "similarities", "windows"]
