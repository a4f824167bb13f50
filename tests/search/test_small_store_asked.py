"""A question read as its keywords in a store of one or two memories (trial23, issue 28 item 2).

A question's keywords complete only a memory standing out of the store's noise floor in meaning
(:data:`memdir.search.relevance.ASKED_GAP` above the query's median cosine). In a store of one memory the median is
that memory's own cosine, so nothing ever stood out: "When do we deploy?" recalled the one memory saying when deploys
go out while it had no vector, and nothing once it was embedded (search scored it 0.995 all along). The floor is
read only over :data:`memdir.search.relevance.CROWD` memories with a vector.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import relevance
from memdir.search.sync import prepare

from .densestub import dense_as
from .evalstore import needs_vectors

DEPLOY = ("deploy-day", "Deploys happen on Fridays only", "Production deploys go out on Fridays only; other days are frozen.")


def _names(mem: Memory, prompt: str) -> list[str]:
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_question_on_the_one_memory_of_a_store_recalls_it(isolated_home, project, monkeypatch):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write(*DEPLOY[:2], "project", DEPLOY[2])
    dense_as(monkeypatch, mem, {"deploy-day": 0.87})  # its own cosine is the median: gap 0
    assert _names(mem, "When do we deploy?") == ["deploy-day"]
    # control: a question on what it does not hold, as near as an unrelated prompt is (0.80: alone in its store the
    # memory is measured beside an imagined second at relevance.SOLO_COSINE, so its cosine counts, recall26)
    dense_as(monkeypatch, mem, {"deploy-day": 0.80})
    assert _names(mem, "When is the office party?") == []


def test_with_a_crowd_the_question_still_needs_a_memory_standing_out(isolated_home, project, monkeypatch):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write(*DEPLOY[:2], "project", DEPLOY[2])
    for name in ("ci-runner", "pr-size"):
        mem.write(name, f"Note on {name}", "project", "Changed lines stay under 400; the runner is ci-box-2.")
    assert relevance.CROWD == 3
    dense_as(monkeypatch, mem, {"deploy-day": 0.80, "ci-runner": 0.80, "pr-size": 0.80})  # in the crowd
    assert _names(mem, "When do we deploy?") == []
    dense_as(monkeypatch, mem, {"deploy-day": 0.86, "ci-runner": 0.80, "pr-size": 0.80})  # control: it stands out
    assert _names(mem, "When do we deploy?") == ["deploy-day"]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_the_one_memory_is_recalled_before_and_after_it_is_embedded(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    mem.write(*DEPLOY[:2], "project", DEPLOY[2])
    assert _names(mem, "When do we deploy?") == ["deploy-day"]
    prepare(mem.session)  # embedded in the foreground
    assert mem.search("When do we deploy?")[0].why["cosine"] is not None
    assert _names(mem, "When do we deploy?") == ["deploy-day"]
    assert _names(mem, "When is the office party?") == []  # control
