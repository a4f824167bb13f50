"""A few memories with no vector yet are measured in meaning on the spot (:mod:`memdir.search.unembedded`; issue 28:
the first recall right after a write missed "Deploys go out on Fridays only" for "Can I deploy the release on a
Tuesday?" until the background embedder had run). Real embedder; the background embedder is kept from starting, so
nothing has a vector."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import unembedded, vectors, warmanswer
from memdir.search.sync import sync

from .evalstore import needs_vectors

NOTES = [("deploy-day", "Deploys go out on Fridays only",
          "Deploys to production go out on Fridays only, after the release review."),
         ("db-port", "Dev PostgreSQL listens on 5433", "Use port 5433 for the local dev database.")]
PROMPT = "Can I deploy the release on a Tuesday?"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A home with vectors on holding :data:`NOTES`, none embedded; the embedder's starts are recorded."""
    scheduled: list = []
    monkeypatch.setattr("memdir.search.embedder.schedule", scheduled.append)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=project, search_vectors="on", actor="human")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    return mem, scheduled


def _pending(mem) -> tuple[int, int]:
    return vectors.pending(sync(mem.session.home, mem.session.layers(None)), None)


@pytest.mark.slow
@needs_vectors
def test_a_memory_just_written_is_recalled_by_meaning_before_its_vector_is_built(fresh):
    mem, scheduled = fresh
    assert _pending(mem) == (0, 2)
    recalled = mem.recall_result(PROMPT)
    assert [m.name for m in recalled.memories] == ["deploy-day"] and recalled.memories[0].score >= 0.9
    assert mem.recall_result("what's the weather like today?").memories == ()  # control: nothing padded in
    assert _pending(mem) == (0, 2)  # nothing written: the background embedder builds the index's own
    assert scheduled and scheduled[0] == mem.session.home


@pytest.mark.slow
@needs_vectors
def test_more_waiting_than_inline_max_are_left_to_the_background(fresh, monkeypatch):
    mem, _scheduled = fresh
    monkeypatch.setattr(unembedded, "INLINE_MAX", 1)  # two wait: words alone, no cosine
    [alone] = mem.recall_result(PROMPT).memories  # deploy-day leads by words (0.46, recall46's word lead)
    assert (alone.name, alone.why["cosine"]) == ("deploy-day", None)
    monkeypatch.setattr(unembedded, "INLINE_MAX", 2)
    [embedded] = mem.recall_result(PROMPT).memories  # both embedded inline: its cosine read
    assert embedded.name == "deploy-day" and embedded.why["cosine"] is not None


@pytest.mark.slow
@needs_vectors
def test_a_warm_process_answers_the_cosines_of_memories_with_no_vector(fresh):
    """The prompt hook's path: the warm process's answer holds the two memories' cosines, deploy-day's the higher."""
    mem, _scheduled = fresh
    conn = sync(mem.session.home, mem.session.layers(None))
    layers = sorted({row[0] for row in conn.execute("SELECT layer FROM docs")})
    ids = {name: i for i, name in conn.execute("SELECT id, name FROM docs")}
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    answer = warmanswer.cosines_answer(mem.session.home, {"query": PROMPT, "layers": layers,
                                                          "generation": generation, "passages": True})
    cosines = dict(zip(answer["ids"], answer["cosines"]))
    assert set(cosines) == {ids["deploy-day"], ids["db-port"]}
    assert cosines[ids["deploy-day"]] > cosines[ids["db-port"]] + 0.05
    assert [p[1] for p in answer["passages"]] == [0, 0]  # each one's head
