"""A memory alone in its store (the only one holding a vector) is measured beside an imagined second memory at
:data:`memdir.search.relevance.SOLO_COSINE` (:func:`memdir.search.relevance.standing`; issue 28, "a memory that is
not found is a memory lost"): with nothing to lead nor a crowd to stand out of its gap and lead were 0, and a new
user's first memory was missed for 30 of 128 fit prompts needing it (evals/recall/small.py). Chosen on the fit rows
of every set in stores of 1–10 memories (evals/recall/tiny.py, recall26)."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import ranking, relevance

from .densestub import dense_as, notes_store
from .evalstore import needs_vectors

DEPLOY = ("deploy-day", "Deploys go out on Fridays only",
          "Deploys to production go out on Fridays only, after the release review.")
PARAPHRASE = "when am I allowed to push changes live to production?"  # one word shared ("production")
UNWORDED = "what day can my changes reach users?"  # the memory answers it in none of its words


def test_one_cosine_stands_beside_an_imagined_second_memory():
    assert relevance.SOLO_COSINE == 0.78
    median, top = relevance.standing([0.835])
    assert median == pytest.approx((0.835 + 0.78) / 2) and top == pytest.approx((0.835, 0.78))
    median, top = relevance.standing([0.77])  # below the imagined one: behind it
    assert median == pytest.approx((0.77 + 0.78) / 2) and top == pytest.approx((0.78, 0.77))
    assert relevance.standing([0.84, 0.80]) == (pytest.approx(0.82), (0.84, 0.80))  # two real ones: none imagined
    assert relevance.standing([0.84, 0.80, 0.81]) == (0.81, (0.84, 0.80 + 0.01))
    with pytest.raises(ValueError):
        relevance.standing([])


def test_a_lone_memory_near_the_prompt_is_recalled_a_far_one_not(isolated_home, project, monkeypatch):
    # The prompt's words do not carry the memory (its lexical score is under 0.1; no concept of the memory's head is
    # named otherwise): the cosine beside the imagined second memory decides.
    mem = notes_store(isolated_home, project, [DEPLOY])
    cosines = dense_as(monkeypatch, mem, {"deploy-day": 0.824})
    (hit,) = ranking.ranked(mem.session, UNWORDED, pool=12, min_score=0.0)[0]
    assert hit.evidence.lead == pytest.approx(0.824 - 0.78) and hit.evidence.gap == pytest.approx(0.022)
    assert relevance.lexical(hit.evidence) < 0.1
    assert [m.name for m in mem.recall_result(UNWORDED).memories] == ["deploy-day"]

    cosines[cosines.ids["deploy-day"]] = 0.803  # control: as near as an unrelated prompt ("what's the weather like")
    assert ranking.ranked(mem.session, UNWORDED, pool=12, min_score=0.0)[0][0].score < relevance.THRESHOLD
    assert mem.recall_result(UNWORDED).memories == ()
    assert [h.name for h in mem.search(UNWORDED, min_score=relevance.THRESHOLD)] == []
    # at that cosine the paraphrase is still the memory's: "push live to production" is its head's "Deploys"
    # (memdir.search.concepts), and an unrelated prompt recalls nothing
    assert [m.name for m in mem.recall_result(PARAPHRASE).memories] == ["deploy-day"]
    assert mem.recall_result("what's the weather like today?").memories == ()


def test_beside_a_real_second_memory_the_imagined_one_is_not_used(isolated_home, project, monkeypatch):
    other = ("db-port", "Dev PostgreSQL listens on 5433", "Use port 5433 for the local dev database.")
    mem = notes_store(isolated_home, project, [DEPLOY, other])
    dense_as(monkeypatch, mem, {"deploy-day": 0.824, "db-port": 0.815})
    hits = {h.memory.name: h for h in ranking.ranked(mem.session, PARAPHRASE, pool=12, min_score=0.0)[0]}
    assert hits["deploy-day"].evidence.lead == pytest.approx(0.009)  # over db-port, not over SOLO_COSINE
    assert hits["db-port"].evidence.lead == pytest.approx(-0.009)


@pytest.mark.slow
@needs_vectors
def test_real_vectors_a_new_users_one_memory_is_recalled_for_a_paraphrase(tmp_path):
    """The real embedder, a fresh home holding one memory, embedded: the paraphrase recalls it (relevance 0.22,
    cosine 0.824, gap and lead 0 before), chat and an unrelated task recall nothing (controls)."""
    from memdir.search.sync import prepare

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=project, search_vectors="on", actor="human")
    mem.write(DEPLOY[0], DEPLOY[1], "project", DEPLOY[2])
    prepare(mem.session)
    result = mem.recall_result(PARAPHRASE)
    assert [m.name for m in result.memories] == ["deploy-day"] and result.memories[0].score >= relevance.THRESHOLD
    assert [m.name for m in mem.recall_result("Can I deploy the release on a Tuesday?").memories] == ["deploy-day"]
    assert mem.recall_result("what's the weather like today?").memories == ()
    assert mem.recall_result("thanks, that works").memories == ()
    assert mem.recall_result("fix the typo in the header").memories == ()
