"""A memory written in another script than the prompt, the nearest of its script's and within
:data:`memdir.search.relevance.KIN_TIE` of the nearest of all, is returned from
:data:`memdir.search.relevance.AGREED_THRESHOLD` (:func:`memdir.search.relevance.kin_near`; issue 28: an English task
whose memory is written in Chinese, "when the SMS verification fails, log the user's phone number…" and the Chinese
note against logging phone numbers, 0.026 behind the nearest English note, score 0.49). Chosen by pooled 2-fold
cross-validation on the fit data (evals/recall/kin.py)."""

from __future__ import annotations

import math

import pytest

from memdir.search import concepts, ranking, relevance
from memdir.search.relevance import Evidence
from memdir.search.tokenize import query_terms

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors
from .test_script_kin import ENGLISH, NOTES


def _ev(**kw) -> Evidence:
    base = dict(coverage=0.0, head=0.0, mass=0.0, cosine=0.80, matched=(), gap=0.02, lead=-0.02, missing=2.5,
                query=2.5, kin=(0.02, 0.017))
    base.update(kw)
    return Evidence(**base)


def test_the_nearest_of_its_script_near_the_nearest_of_all_has_the_agreed_bar():
    assert relevance.KIN_TIE == 0.03
    assert relevance.kin_near(_ev()) and not relevance.crossed(_ev()) and not relevance.agreed(_ev())
    assert relevance.bar(_ev()) == relevance.AGREED_THRESHOLD == 0.4
    assert relevance.bar(_ev(lead=-0.029)) == relevance.AGREED_THRESHOLD
    assert relevance.bar(_ev(lead=-0.031)) == relevance.THRESHOLD  # further behind the nearest of all than KIN_TIE
    assert relevance.bar(_ev(kin=(0.0, -0.004))) == relevance.THRESHOLD  # not the nearest of its own script
    assert relevance.bar(_ev(kin=None)) == relevance.THRESHOLD  # the prompt's own script: agreed() decides
    assert relevance.bar(_ev(cosine=None)) == relevance.THRESHOLD  # no vector
    assert relevance.bar(_ev(lead=0.01)) == relevance.CROSSED_THRESHOLD  # the nearest of all: the stronger case
    assert relevance.bar(_ev(), min_score=0.3) == 0.3  # a caller asking for its own bar gets it
    assert relevance.bar(_ev(general=True, defines=True, shared=("log",))) == math.inf  # the general rule first


PROMPT = "when the SMS verification fails, log the user's phone number so support can look it up"
LOWER = {name: cosine - 0.02 for name, cosine in ENGLISH.items()}  # the English notes, the nearest (merge-freeze) 0.829


def _recalled(mem) -> list[str]:
    return [m.name for m in mem.recall_result(PROMPT).memories]


def test_the_chinese_note_near_the_nearest_english_one_is_recalled_its_kin_not(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    cosines = dense_as(monkeypatch, mem, {**LOWER, "zh-deploy": 0.785, "zh-logging": 0.802, "zh-cache": 0.78})
    (hit,) = [h for h in ranking.ranked(mem.session, PROMPT, pool=12, min_score=0.0)[0]
              if h.memory.name == "zh-logging"]
    assert hit.evidence.lead == pytest.approx(0.802 - 0.829)  # its name's "log" is all the words it shares:
    assert hit.evidence.shared == ("log",) and not relevance.agreed(hit.evidence)  # too little for agreed()
    assert hit.evidence.kin == pytest.approx((0.017, 0.017))
    assert relevance.AGREED_THRESHOLD <= hit.score < relevance.THRESHOLD  # recalled by the kin-near bar alone
    assert _recalled(mem) == ["zh-logging"]  # not the other Chinese notes, nor the English ones
    assert [h.name for h in mem.search(PROMPT, min_score=relevance.THRESHOLD)] == ["zh-logging"]  # search: the same

    cosines[cosines.ids["zh-logging"]] = 0.797  # control: 0.032 behind the nearest English note, beyond KIN_TIE
    (hit,) = [h for h in ranking.ranked(mem.session, PROMPT, pool=12, min_score=0.0)[0]
              if h.memory.name == "zh-logging"]
    assert hit.evidence.kin[1] > 0 and not relevance.kin_near(hit.evidence) and hit.score < relevance.THRESHOLD
    # the kin-near bar no longer carries it; the prompt's "phone number" is its head's 手机号 (search.concepts): words do
    assert _recalled(mem) == ["zh-logging"]
    assert concepts.stand_ins(concepts.asked(query_terms(PROMPT)), set(query_terms("手机号"))) >= {"phone", "number"}


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_english_tasks_on_chinese_notes(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, the recall evaluation's store and two fit prompts
    (probe.jsonl, gaps.jsonl) whose memory is a Chinese note that was 4th and 14th of 45 by cosine and the first of
    the Chinese ones; a chat prompt recalling nothing and the other Chinese notes left out (controls)."""
    recalled = cli_recaller(tmp_path)

    assert recalled(PROMPT) == ["zh-logging"]
    mug = recalled("change the price of the blue mug and make sure the product page shows it")
    assert "zh-cache" in mug and "zh-deploy" not in mug and "zh-logging" not in mug
    assert recalled("thanks, that's all for now") == []
