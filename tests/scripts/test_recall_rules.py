"""evals/recall/neg.py's mirror of the relevance bar (``bar_without``, what ``neg.py rules`` audits each rule with,
rec16): with nothing left out it is :func:`memdir.search.relevance.bar` at the threshold; each rule or exemption
named leaves exactly that rule out, and a constant given replaces today's. Evidence records from the evaluation's
store, no vectors, no recall."""

from __future__ import annotations

import importlib.util
import math
import sys

import pytest

from memdir.search import relevance
from memdir.search.relevance import Evidence
from tests.search.evalstore import EVALS

# "the kafka consumer group keeps rebalancing…" and the note on pull-request size (a thin share of a long prompt)
THIN = {"coverage": 0.055, "head": 0.055, "mass": 1.55, "cosine": 0.852, "matched": ("keep",), "gap": 0.038,
        "lead": 0.007, "missing": 4.18, "query": 4.23, "shared": ("keep",)}
# "how do I crop an image to a square with Pillow?" and the note on the image worker (a general question)
GENERAL = {"coverage": 0.432, "head": 0.432, "mass": 2.266, "cosine": 0.866, "matched": ("imag", "pillow"),
           "gap": 0.080, "lead": 0.032, "missing": 2.514, "query": 3.044, "shared": ("imag", "pillow"), "near": 0.432,
           "held": 1.0, "general": True}
# a memory in another script, nearest of all and of its own, sharing no word
CROSSED = {"coverage": 0.0, "head": 0.0, "mass": 0.0, "cosine": 0.84, "matched": (), "gap": 0.05, "lead": 0.01,
           "missing": 3.2, "query": 3.2, "kin": (0.06, 0.02)}
# a memory tied with the nearest (lead −0.01) holding a third of the prompt's weight
TIED = {"coverage": 0.33, "head": 0.2, "mass": 1.8, "cosine": 0.86, "matched": ("bucket",), "gap": 0.05,
        "lead": -0.01, "missing": 2.0, "query": 2.6, "shared": ("bucket",)}


@pytest.fixture(scope="module")
def neg():
    patch = pytest.MonkeyPatch()
    patch.syspath_prepend(str(EVALS))  # neg.py imports its sibling common.py by that name
    patch.delitem(sys.modules, "common", raising=False)
    spec = importlib.util.spec_from_file_location("recall_eval_neg", EVALS / "neg.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    patch.undo()  # sys.path and sys.modules["common"] as they were


CASES = {"thin": Evidence(**THIN), "thin stating": Evidence(**{**THIN, "held": 1.0}),
         "general": Evidence(**GENERAL), "general holding most": Evidence(**{**GENERAL, "coverage": 0.614}),
         "compared": Evidence(**{**GENERAL, "general": False, "compared": True, "held": 0.5}),
         "compared stating": Evidence(**{**GENERAL, "general": False, "compared": True}),
         "crossed": Evidence(**CROSSED), "crossed second": Evidence(**{**CROSSED, "lead": -0.01}),
         "tied": Evidence(**TIED), "behind": Evidence(**{**TIED, "lead": -0.03}),
         "no vector": Evidence(**{**TIED, "cosine": None}),
         "defines": Evidence(**{**GENERAL, "coverage": 0.614, "defines": True}),
         "general crossing": Evidence(**{**GENERAL, **CROSSED, "general": True})}


def test_the_mirror_with_nothing_left_out_is_the_bar(neg):
    bar = neg.bar_without()
    got = {name: bar(ev) for name, ev in CASES.items()}
    assert got == {name: relevance.bar(ev) for name, ev in CASES.items()}
    assert got == {"thin": math.inf, "thin stating": 0.5, "general": math.inf, "general holding most": 0.3,
                   "compared": math.inf, "compared stating": 0.3, "crossed": 0.1, "crossed second": 0.4,
                   "tied": 0.4, "behind": 0.5, "no vector": 0.5, "defines": math.inf, "general crossing": math.inf}


def test_a_rule_left_out_changes_its_own_cases_only(neg):
    full = neg.bar_without()
    expected = {"thin": {"thin": 0.5}, "compared": {"compared": 0.3},  # nearest, holding 0.43 (nearest_held)
                "general": {"general": 0.3, "defines": 0.3, "general crossing": 0.1}, "defines": {"defines": 0.3},
                "general-cov": {"general holding most": math.inf}, "crossed": {"crossed": 0.4},
                "tie": {"tied": 0.5}, "kin": {"crossed second": 0.5}, "agreed": {"general holding most": 0.5, "compared stating": 0.5, "tied": 0.5},
                "thin-stated": {"thin stating": math.inf}, "compared-stated": {"compared stating": math.inf},
                "nearest": {"general holding most": 0.4, "compared stating": 0.4}}
    for rule, changed in expected.items():
        bar = neg.bar_without(frozenset([rule]))
        moved = {name: bar(ev) for name, ev in CASES.items() if bar(ev) != full(ev)}
        assert moved == changed, rule  # and every other case as the bar has it (the control)
    assert set(expected) <= set(neg.RULES)


def test_a_constant_given_replaces_todays(neg):
    assert neg.bar_without(threshold=0.6)(CASES["behind"]) == 0.6
    assert neg.bar_without(threshold=0.6)(CASES["tied"]) == 0.4  # the agreed bar is its own constant
    assert neg.bar_without(agreed=0.3)(CASES["tied"]) == 0.3
    assert neg.bar_without(thin_coverage=0.05)(CASES["thin"]) == 0.5  # 0.055 is no longer thin
    assert neg.bar_without(thin_coverage=0.06)(CASES["thin"]) == math.inf
    assert set(neg.today()) == set(neg.GRID) and neg.today()["threshold"] == relevance.THRESHOLD


def _candidate(name, score, bar, cosine, gap, lead, kind="project"):
    return {"name": name, "type": kind, "score": score, "bar": bar, "body": True,
            "ev": {"cosine": cosine, "gap": gap, "lead": lead}}


def test_rec17_variants_return_a_nearest_candidate_under_its_bar_only_when_their_test_holds(neg):
    # rec17's families (margin, pointing, modal, spread) read on a dump: the nearest memory under its bar at 0.3,
    # a second at 0.1, a third with no vector, a fourth the bar refuses (inf) though its score is high
    def row(prompt):
        return {"prompt": prompt, "expect": [], "cands": [
            _candidate("near", 0.3, 0.5, 0.86, 0.02, 0.02, "feedback"),
            _candidate("second", 0.1, 0.5, 0.84, 0.04, -0.02),
            _candidate("words", 0.2, 0.5, None, 0.0, 0.0), _candidate("refused", 0.45, math.inf, 0.85, 0.05, 0.0)]}
    mine, general = row("how long should your replies be for me?"), row("how long should replies be?")
    neg.spread([mine, general])
    assert (mine["s1"], mine["s2"]) == (0.45, 0.3)  # the scores of every candidate, the refused one's too
    cos = [0.86, 0.84, 0.85]
    sd = (sum((c - sum(cos) / 3) ** 2 for c in cos) / 3) ** 0.5
    assert mine["cands"][0]["z"] == pytest.approx(0.02 / sd) == pytest.approx(2.449, abs=1e-3)
    assert mine["cands"][2]["z"] == -9.0  # no vector: never spread out
    variants = neg.variants()
    pointing, modal = variants["pointing 0.2 0.0"], variants["modal 0.2 0.0"]
    assert neg.chosen(mine, pointing) == ["near"]  # "me": the asker's own
    assert neg.chosen(general, pointing) == []  # the control: no pointing word, nothing returned
    assert neg.chosen(general, modal) == ["near"]  # "should" and a feedback memory
    assert neg.chosen(general, variants["modal 0.35 0.0"]) == []  # under its floor
    assert neg.chosen(mine, variants["margin 0.2 0.0 1.5"]) == []  # not the prompt's best: the refused one scores more
    assert neg.chosen(mine, variants["spread 0.2 0.0 1.5"]) == ["near"]
    assert neg.chosen(mine, variants["spread 0.2 0.0 4"]) == []
