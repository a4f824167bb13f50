"""A question asking whom to reach, ranked by words alone (vectors off, or the prompt hook before its warm process
answers): the note whose head names the on-call concept and whose body says the verb ("page her via PagerDuty") is
recalled (break50b). Its body's "page" was read as a word met in passing (:func:`memdir.search.keywords.in_passing`:
the head holds none of the prompt), so "who should I page?" recalled nothing though ``memdir search`` listed the note
at 1.00; a head naming what the prompt asks for (:func:`memdir.search.concepts.whom`) is no passing mention.

Real SQLite and memory files; every "recalls nothing" beside a control in the same store."""

from __future__ import annotations

import pytest

from memdir import Memory


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("whomwords")
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", actor="human", search_vectors="off")
    mem.write("oncall", "Who is on call", "reference",
              "Maria Lopez is on call for payments this month; page her via PagerDuty 'payments-primary'.")
    mem.write("docs-site", "Docs site build", "project", "Each page of the docs site is built by mkdocs on merge.")
    mem.write("db-port", "Dev PostgreSQL port", "project", "The dev PostgreSQL listens on port 5433.")
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_question_asking_whom_to_page_recalls_the_on_call_note_by_words_alone(store):
    assert recalled(store, "who should I page?") == ["oncall"]  # was []
    assert recalled(store, "who do I page?") == ["oncall"]  # was []
    assert recalled(store, "who to page") == ["oncall"]  # was []
    assert recalled(store, "who should I page for payments?") == ["oncall"]  # control: a second word held


def test_page_in_another_shape_still_recalls_nothing(store):
    for prompt in ("page through the results", "the landing page is slow", "who wrote this page?"):
        assert recalled(store, prompt) == [], prompt
    assert recalled(store, "which port does the dev postgres listen on?") == ["db-port"]  # control: the store answers
