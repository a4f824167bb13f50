"""A prompt read as keywords is not complete in a memory that holds its one content word only in passing (in its body,
its head holding none of the prompt) while another memory is nearer the prompt in meaning (issue 28, recall22:
"the last question" recalled the note on database tests, whose body says "last";
:func:`memdir.search.keywords.in_passing`). Controls: the same word and store with that memory nearest in meaning is
recalled; an explicit search still lists it."""

from __future__ import annotations

from memdir.search import relevance

from .densestub import dense_as, notes_store

NOTES = [
    ("no-mocks-db", "Integration tests hit a real database",
     "We got burned last quarter when mocked tests passed and the prod migration failed."),
    ("terse-answers", "Keep answers short", "The user wants short replies: no recap at the end of an answer."),
]


def test_a_keyword_met_in_passing_while_another_memory_is_nearer_is_not_recalled(isolated_home, project,
                                                                                  monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    cosines = dense_as(monkeypatch, mem, {"no-mocks-db": 0.80, "terse-answers": 0.84})
    assert mem.recall_result("the last thing").memories == ()
    assert "no-mocks-db" in [h.name for h in mem.search("the last thing")]  # an explicit search lists it
    cosines[cosines.ids["no-mocks-db"]] = 0.88  # control: the same word, the memory now the nearest in meaning
    assert [m.name for m in mem.recall_result("the last thing").memories] == ["no-mocks-db"]


def test_a_keyword_the_head_holds_is_complete_whatever_is_nearer(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, {"no-mocks-db": 0.80, "terse-answers": 0.84})
    (hit,) = [h for h in mem.search("integration database", min_score=relevance.THRESHOLD)]
    assert hit.name == "no-mocks-db"
    assert [m.name for m in mem.recall_result("the integration database").memories] == ["no-mocks-db"]
