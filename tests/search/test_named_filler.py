"""A filler word in a noun's place names a thing (issue 28): "go" is filler in "ok go ahead" and "tenacity, go" but a
language's name in "the go indentation", and the note "Go code keeps gofmt's tabs" answers that prompt
(:func:`memdir.search.weighing.named_fillers`, kept as a content word by :func:`memdir.search.ranking.ranked` where the
store holds it, and embedded by :func:`memdir.search.vectors.query_text`). Controls: the same word as filler, in the
same store, still moves nothing."""

from __future__ import annotations

import pytest

from memdir.search.tokenize import query_tokens
from memdir.search.weighing import named_fillers

from .densestub import dense_as, notes_store


@pytest.mark.parametrize(("prompt", "named"), [
    ("the go indentation", {"go"}),
    ("how do I handle errors in go", {"go"}),  # last, after a preposition
    ("our go services keep crashing", {"go"}),
    ("let's go with the go version", {"go"}),  # the second "go" names it, so the prompt is about it
    ("the work queue is stuck", {"work"}),
    ("ok go ahead", set()),
    ("tenacity, go", set()),
    ("go fix the indentation", set()),  # an imperative
    ("cut a new release", set()),  # an adjective modifies the noun after it
    ("ready to go", set()),
])
def test_a_filler_word_names_a_thing_only_in_a_noun_s_place(prompt, named):
    assert named_fillers(query_tokens(prompt)) == named


def test_a_filler_word_in_a_noun_s_place_is_embedded():
    from memdir.search.vectors import query_text

    assert query_text("the go indentation") == "the go indentation"
    assert query_text("go fix the indentation") == "fix the indentation"  # control: filler, not embedded


NOTES = [
    ("tabs-go", "Go code keeps gofmt's tabs; never reindent with spaces",
     "Go files are formatted by gofmt with tabs. Run gofmt -w before committing Go changes."),
    ("retry-lib", "Use tenacity for retries",
     "Retries use the tenacity library with wait_exponential(max=30); never hand-roll sleep loops."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
]


def test_the_language_named_by_a_filler_word_recalls_its_note(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    cosines = dense_as(monkeypatch, mem, {"tabs-go": 0.86, "retry-lib": 0.80, "pr-size": 0.81})
    assert [m.name for m in mem.recall_result("the go indentation").memories] == ["tabs-go"]
    # controls in the same store: "go" as filler beside a note's word, and alone with other filler
    for name in ("tabs-go", "pr-size"):
        cosines[cosines.ids[name]] = 0.80
    cosines[cosines.ids["retry-lib"]] = 0.86
    assert [m.name for m in mem.recall_result("tenacity, go").memories] == ["retry-lib"]
    cosines[cosines.ids["retry-lib"]] = 0.80
    assert mem.recall_result("ok go ahead").memories == ()
