"""A memory written in another script than the prompt that is still the nearest to it in meaning, of all memories
and of its own script's, is returned from :data:`memdir.search.relevance.CROSSED_THRESHOLD` (issue 28: task
prompts in one language about a memory in another, sharing no word with it: "hardcode the Korean label for the
signup button" and the Korean note on translation files). :func:`memdir.search.relevance.bar` decides it for
search, MCP and recall alike; :func:`memdir.search.ranking.ranked` takes it."""

from __future__ import annotations

import math

import pytest

from memdir import Memory
from memdir.search import ranking, relevance
from memdir.search.relevance import Evidence

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors


def _ev(**kw) -> Evidence:
    base = dict(coverage=0.0, head=0.0, mass=0.0, cosine=0.82, matched=(), gap=0.05, lead=0.02, missing=2.5,
                query=2.5, kin=(0.045, 0.02))
    base.update(kw)
    return Evidence(**base)


def test_another_scripts_memory_nearest_of_all_and_of_its_own_has_the_crossed_bar():
    assert relevance.crossed(_ev())
    assert relevance.bar(_ev()) == relevance.CROSSED_THRESHOLD == 0.1
    # another memory is nearer among all, or tied with it: not crossed; within KIN_TIE of it, the kin-near bar
    assert not relevance.crossed(_ev(lead=-0.004)) and not relevance.crossed(_ev(lead=0.0))
    assert relevance.bar(_ev(lead=-0.004)) == relevance.bar(_ev(lead=0.0)) == relevance.AGREED_THRESHOLD
    assert relevance.bar(_ev(lead=-0.04)) == relevance.THRESHOLD  # further behind than KIN_TIE: no bar lowered
    assert relevance.bar(_ev(kin=(0.0, -0.01))) == relevance.THRESHOLD  # not the nearest of its own script
    assert relevance.bar(_ev(kin=None)) == relevance.THRESHOLD  # the prompt's own script: no word shared, no bar
    assert relevance.bar(_ev(cosine=None, kin=None)) == relevance.THRESHOLD  # no vector
    assert relevance.bar(_ev(), min_score=0.3) == 0.3  # a caller asking for its own bar gets it
    assert relevance.bar(_ev(compared=True)) == math.inf  # a comparison still asks in general


NOTES = [
    ("staging-deploy", "Staging deploys", "Deploy to staging with make deploy-staging; it lives at staging.internal."),
    ("release-tagging", "Releases", "Tag vX.Y.Z on main and the release workflow publishes to PyPI."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
    ("signup-tests", "Signup form tests", "The signup form is covered by tests/e2e/signup.spec.ts; run them headless."),
    ("ko-translation", "앱 문구 번역은 번역 파일에만 추가한다", "사용자에게 보이는 문구는 모두 locales/ko.json에 키로 추가한다. 코드에 하드코딩하지 않는다."),
    ("ko-onboarding", "신규 입사자 개발 환경 세팅은 setup.sh 하나로 끝난다", "신규 입사자는 ./scripts/setup.sh만 실행하면 된다."),
    ("ko-release", "배포는 화요일에만 한다", "운영 배포는 화요일 오후에만 한다. 금요일 배포는 금지."),
]
PROMPT = "hardcode the Korean label for the signup button"


def _store(isolated_home, project, monkeypatch, table: dict[str, float]) -> Memory:
    """The :data:`NOTES` with the dense side as ``table`` (name → cosine; the words read for real)."""
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, table)
    return mem


ENGLISH = {"staging-deploy": 0.80, "release-tagging": 0.805, "pr-size": 0.81, "signup-tests": 0.812}


def _hit(mem, name):
    (hit,) = [h for h in ranking.ranked(mem.session, PROMPT, pool=12, min_score=0.0)[0] if h.memory.name == name]
    return hit


def test_the_korean_note_nearest_of_all_is_recalled_and_searched_its_kin_not(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, {**ENGLISH, "ko-translation": 0.826, "ko-onboarding": 0.80,
                                                       "ko-release": 0.795})
    hit = _hit(mem, "ko-translation")
    assert hit.evidence.shared == () and hit.evidence.lead == pytest.approx(0.826 - 0.812)
    assert hit.evidence.kin == pytest.approx((0.026, 0.026))
    assert relevance.CROSSED_THRESHOLD <= hit.score < relevance.THRESHOLD  # recalled by the crossed bar alone
    assert [m.name for m in mem.recall_result(PROMPT).memories] == ["ko-translation"]  # not the other Korean ones
    assert [h.name for h in mem.search(PROMPT, min_score=relevance.THRESHOLD)] == ["ko-translation"]


def test_the_korean_note_second_of_all_is_not_recalled(isolated_home, project, monkeypatch):
    """The same note, the nearest of the Korean ones but behind an English note: no bar lowered."""
    mem = _store(isolated_home, project, monkeypatch, {**ENGLISH, "signup-tests": 0.83, "ko-translation": 0.826,
                                                       "ko-onboarding": 0.80, "ko-release": 0.795})
    hit = _hit(mem, "ko-translation")
    assert hit.evidence.lead < 0 < hit.evidence.kin[1] and not relevance.crossed(hit.evidence)
    assert "ko-translation" not in [m.name for m in mem.recall_result(PROMPT).memories]
    assert "ko-translation" not in [h.name for h in mem.search(PROMPT, min_score=relevance.THRESHOLD)]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_a_task_in_another_language_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, the recall evaluation's store and fit prompts of
    ``gaps.jsonl``: a task in English about a Korean note, in Japanese about an English one, both sharing no word
    with it; a chat prompt recalling nothing and a German general question recalling nothing (controls)."""
    recalled = cli_recaller(tmp_path)

    assert "ko-translation" in recalled("hardcode the Korean label for the signup button")
    assert "redis-sessions" in recalled("ユーザーのセッションの有効期限を延ばして")
    assert recalled("looks good, ship it") == []
    assert recalled("Wie sortiere ich eine Liste in Python absteigend?") == []
