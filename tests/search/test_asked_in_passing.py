"""A question read as its keywords is not complete in a note mentioning them in passing, with no cosine (recall31).

Before: with vectors off, "what editor should I use?" recalled the note on Go's tabs (0.978), complete because its
body says "editor"; with vectors on the question's keywords are complete only in a memory standing out of the store
in meaning (:data:`memdir.search.relevance.ASKED_GAP`), and with none the head must hold some of them
(:func:`memdir.search.keywords.in_passing`, ``asked``)."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.keywords import in_passing

from .densestub import notes_store

NOTES = [
    ("tabs-go", "Go code is indented with tabs", "Set your editor to insert tabs in Go files; gofmt enforces it on save."),
    ("release-tagging", "Releases are cut by pushing a vX.Y.Z tag",
     "Push a tag vX.Y.Z on main; CI builds the wheel and publishes it to PyPI."),
    ("pg-port", "Dev PostgreSQL listens on port 5433, not 5432",
     "The local dev database runs in docker compose on port 5433."),
]


def _ev(**changes) -> relevance.Evidence:
    base = relevance.Evidence(coverage=1.0, head=0.0, mass=1.5, cosine=None, matched=("editor",), complete=1.0,
                              shared=("editor",), near=1.0, held=1.0)
    return relevance.replaced(base, **changes)


def test_in_passing_with_no_cosine_when_asked():
    assert in_passing(_ev(), asked=True) is True
    assert in_passing(_ev(), asked=False) is False  # control: keywords typed as such ("editor") stay complete
    assert in_passing(_ev(head=0.4), asked=True) is False  # control: the head holds some of it
    assert in_passing(_ev(complete=0.0), asked=True) is False  # nothing to take back


@pytest.mark.parametrize("prompt", ["what editor should I use?", "which editor?"])
def test_a_question_is_no_keyword_met_in_a_body(isolated_home, project, prompt):
    mem = notes_store(isolated_home, project, NOTES)  # vectors off: no cosine
    assert mem.recall_result(prompt).memories == ()
    # Controls in the same store: the word typed alone, and a question whose word the note's head holds.
    assert [m.name for m in mem.recall_result("editor").memories] == ["tabs-go"]
    found = mem.recall_result("how do I release?").memories
    assert [m.name for m in found] == ["release-tagging"] and found[0].score >= 0.99
    assert [m.name for m in mem.recall_result("how are go files indented?").memories] == ["tabs-go"]
