"""The experiment evals/recall/expansion.py (query expansion by the blind coding thesaurus; not part of memdir:
evals/recall/thesaurus.py found no gain under pooled 2-fold CV): a prompt's term is substituted, at a lower weight,
in a memory holding one of its neighbours; never matched, never complete; memdir's ranking is untouched until
``install`` and again after its undo."""

from __future__ import annotations

import math
import sys

import pytest

from memdir import Memory
from memdir.search import ranking
from memdir.search.relevance import Evidence, score
from memdir.search.tokenize import query_terms
from tests.search.evalstore import EVALS


@pytest.fixture(scope="module")
def expansion():
    patch = pytest.MonkeyPatch()
    patch.syspath_prepend(str(EVALS))  # expansion.py imports its sibling thesaurus_groups.py by that name
    for name in ("expansion", "thesaurus_groups"):
        patch.delitem(sys.modules, name, raising=False)
    import expansion as module

    yield module
    patch.undo()


NOTES = [
    ("pg-port", "Dev database port", "Dev PostgreSQL listens on 5433, not the default."),
    ("python-installs", "Python installs", "Use uv for Python installs, never pip."),
    ("standup", "Standup time", "The team standup is at 9:30 every weekday."),
]


def _store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    return mem


def _found(mem, prompt: str) -> dict[str, float]:
    return {h.memory.name: round(h.score, 4) for h in ranking.ranked(mem.session, prompt, pool=12, min_score=0.0)[0]}


def test_neighbours_are_read_as_query_terms_both_ways(expansion):
    table = expansion.neighbours()
    (uv,), (pip,), (manager,) = query_terms("uv"), query_terms("pip"), query_terms("package")
    assert pip in table[uv] and uv in table[pip] and uv in table[manager]
    assert uv not in table[uv]  # a term is no neighbour of itself
    assert query_terms("weekday")[0] not in table  # a word of no group: no entry (control: uv above has one)


def test_a_substituted_term_raises_coverage_but_never_completes_or_matches(expansion):
    ev = Evidence(coverage=0.25, head=0.0, mass=0.6931, cosine=None, matched=("dev",), query=1.6094, complete=0.0)
    wide = expansion.widened(ev, {"packag": 2.0}, 0.5)  # whole 4, matched 1, 1.0 of 2 added: coverage 0.5
    assert round(wide.coverage, 3) == 0.5 and round(wide.missing, 3) == round(math.log1p(2.0), 3)
    assert wide.matched == ("dev",) and wide.complete == 0.0 and wide.held == 0.0 and wide.shared == ()
    assert score(wide) > score(ev)
    assert expansion.widened(ev, {}) is ev  # nothing substituted: the same evidence
    full = expansion.widened(ev, {"packag": 9.0}, 0.9)  # more than is missing: coverage capped at 1
    assert full.coverage == 1.0 and full.missing == 0.0


def test_ranking_is_memdirs_until_installed_and_after_undo(isolated_home, project, expansion):
    mem = _store(isolated_home, project)
    prompt = "which package manager should I use for a new dependency?"
    off = _found(mem, prompt)
    undo = expansion.install()
    try:
        on = _found(mem, prompt)
    finally:
        undo()
    assert off == {"python-installs": 0.0067}  # "use" alone (a generic word) shared
    assert on == {"python-installs": 0.0885}  # uv / pip stand in for package and dependency, at half their weight
    assert "standup" not in on and "pg-port" not in on  # no neighbour of the prompt's terms held: not a candidate
    assert _found(mem, prompt) == off  # undone: memdir's own ranking again
