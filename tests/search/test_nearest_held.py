"""A short prompt whose nearest memory in meaning holds most of its words is that memory's (issue 28, recall29):
"the logger", "how should this project log?", "how long should your replies be for me?" scored 0.33–0.40, under the
agreed bar (:data:`~memdir.search.relevance.AGREED_THRESHOLD`), because a short prompt's words are few and the hybrid
model rates few words low. An agreed memory that is the nearest by more than
:data:`~memdir.search.relevance.NEAREST_LEAD` and holds :data:`~memdir.search.relevance.NEAREST_COVERAGE` of the
query's weight (:func:`~memdir.search.relevance.nearest_held`) is returned from
:data:`~memdir.search.relevance.NEAREST_THRESHOLD`. Controls: tied with another memory, holding less of the prompt,
sharing no content word, or with no vector, the bars are as before."""

from __future__ import annotations

from memdir.search import relevance
from memdir.search.relevance import (
    AGREED_THRESHOLD,
    NEAREST_COVERAGE,
    NEAREST_LEAD,
    NEAREST_THRESHOLD,
    THRESHOLD,
    Evidence,
    bar,
    nearest_held,
)


def _ev(**kw) -> Evidence:
    """The evidence of "how should this project log?" for the note on structlog (recall29's dump of the fit rows)."""
    base = {"coverage": 0.49, "head": 0.49, "mass": 0.9, "cosine": 0.851, "matched": ("log",), "shared": ("log",),
            "lead": 0.025, "gap": 0.061, "query": 1.92}
    base.update(kw)
    return Evidence(**base)


def test_the_constants():
    assert (NEAREST_THRESHOLD, NEAREST_LEAD, NEAREST_COVERAGE) == (0.3, 0.005, 0.4)


def test_the_nearest_memory_holding_most_of_a_short_prompt_has_the_nearest_bar():
    assert nearest_held(_ev()) and bar(_ev()) == NEAREST_THRESHOLD == 0.3
    assert relevance.returned(_ev(), 0.376)  # its score: under the agreed bar, returned now
    assert not relevance.returned(_ev(), 0.29)  # under this bar too


def test_controls_keep_the_bars_they_had():
    assert bar(_ev(lead=NEAREST_LEAD)) == AGREED_THRESHOLD  # tied with the nearest, not ahead of it: agreed only
    assert bar(_ev(lead=0.0)) == AGREED_THRESHOLD
    assert bar(_ev(coverage=0.39)) == AGREED_THRESHOLD  # holds less than NEAREST_COVERAGE of the prompt
    assert bar(_ev(shared=())) == THRESHOLD  # no content word shared: not agreed at all
    assert bar(_ev(lead=-0.02)) == THRESHOLD  # another memory nearer
    assert bar(_ev(cosine=None, lead=0.0)) == THRESHOLD  # no vector: the words alone decide
    assert bar(_ev(), min_score=0.7) == 0.7 and bar(_ev(), min_score=0.0) == 0.0  # a caller's own bar stands
    assert not relevance.returned(_ev(lead=0.0), 0.376) and relevance.returned(_ev(lead=0.0), 0.4)
