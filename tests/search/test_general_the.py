""""the" in a question naming a thing of its own points into that thing, not at the project (issue 28, recall32).

"how do I resize an image with Pillow while keeping the aspect ratio?" asks what anyone could look up; its "the" is
the image's aspect ratio, not one of the project's things, so it asks in general
(:func:`memdir.search.general.asks_in_general`) and the note on the image worker's Pillow incident, nearest in
meaning, is no answer. Controls: a question whose "the" names nothing of its own ("how do I stop the thumbnail worker
from dying on huge uploads?") is the project's and recalls the note in the same store and meaning; a question
pointing with another word ("our") stays the project's."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.general import asks_in_general

from .densestub import dense_as, notes_store


@pytest.mark.parametrize(("query", "general"), [
    ("how do I resize an image with Pillow while keeping the aspect ratio?", True),
    ("what's the keyboard shortcut in Linear to create an issue?", True),
    ("how do I pretty-print JSON on the command line with jq?", True),  # JSON: a name-shaped word
    ("how do I stop the thumbnail worker from dying on huge uploads?", False),  # "the" naming nothing of its own
    ("how do I deploy the api to staging?", False),
    ("what's left for the next sprint?", False),
    ("what is the hostname of the staging Redis for billing", False),  # "the" before the thing named: the project's
    ("how do I resize our images with Pillow?", False),  # "our" points, whatever the question names
    ("how do I resize an image with Pillow?", True),  # no pointing word at all: as before
    ("Wie skaliere ich das Bild mit Pillow?", False),  # German: das is an article before every noun, left as it was
])
def test_the_points_only_when_the_question_names_nothing(query, general):
    assert asks_in_general(query) is general


NOTES = [
    ("oom-worker", "The image worker was OOM-killed by Pillow decompression of huge PNGs",
     ("Incident 2026-10-02: the thumbnail worker died repeatedly with exit code 137. Cause: users uploaded "
      "20000x20000 PNGs; Pillow decoded them fully in memory. Fix: Image.MAX_IMAGE_PIXELS = 50_000_000 and a size "
      "check before decoding; the worker memory limit stays at 2 GiB.")),  # evals/recall/memories/oom-worker.md
    ("pr-size", "Keep pull requests under about 400 changed lines",
     "Split large changes into stacked pull requests of at most ~400 lines each."),
    ("pg-port", "Dev PostgreSQL listens on port 5433, not 5432",
     "The local dev database runs in docker compose on port 5433."),
]


def test_a_tool_question_with_the_recalls_nothing_beside_a_project_one(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    # The evaluation's standing of the note for the Pillow question: the nearest, lead 0.034, gap about 0.07.
    dense_as(monkeypatch, mem, {"oom-worker": 0.875, "pr-size": 0.841, "pg-port": 0.806})
    general = "how do I resize an image with Pillow while keeping the aspect ratio?"
    assert mem.recall_result(general).memories == ()
    assert mem.search(general, min_score=relevance.THRESHOLD) == []
    # controls in the same store and meaning: "the" naming nothing of its own, and a question pointing with "our"
    assert [m.name for m in mem.recall_result("how do I stop the thumbnail worker from dying on huge uploads?")
            .memories] == ["oom-worker"]
    assert [m.name for m in mem.recall_result("how do I keep our image worker from dying with Pillow?")
            .memories] == ["oom-worker"]
