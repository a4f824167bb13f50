"""Two edges of the general-question rule (:mod:`memdir.search.general`), issue 28 (recall22):

* a question on a *default* asks what a tool does when nobody set it ("what's the default port of MySQL?", "how many
  approvals does a pull request need on GitHub by default?"): what anyone could look up, so a note on the project's
  own port or pull-request size is no answer to it, though "the" stands before "default";
* a German "wie" with a modal of what is allowed or expected ("Wie groß darf ein Pull Request sein?") asks for a
  convention, as "how should I" does in English: the project's note on it answers.

Each with a control in the same store: the project's own port, and a German how-to on a tool a note names."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.general import asks_in_general

from .densestub import nearest_store


@pytest.mark.parametrize("query", [
    "what's the default port of MySQL?", "how many approvals does a pull request need on GitHub by default?",
    "which shell does Ubuntu use by default?", "Welcher Port ist bei MySQL voreingestellt?",
])
def test_a_question_on_a_default_asks_in_general(query):
    assert asks_in_general(query)


@pytest.mark.parametrize("query", [
    "my local database won't accept connections on the default port",  # no question
    "what is our default port?", "what port does postgres use by default here?",  # pointing at the project's
    "Wie groß darf ein Pull Request sein?", "Wie soll ich Branches benennen?", "Wie lang sollte ein Commit sein?",
])
def test_a_default_of_the_project_or_a_german_norm_question_does_not(query):
    assert not asks_in_general(query)


@pytest.mark.parametrize("query", [
    "Wie groß dürfen Pull Requests sein?", "Wie lange müssen Logs aufbewahrt werden?",
    "WIE GROSS DÜRFEN PULL REQUESTS SEIN?",
])
def test_a_german_norm_question_with_an_umlaut_modal_does_not_ask_in_general(query):
    """newuser34: the question is folded before the modal is looked for, so "dürfen" and "müssen" (folded "durfen",
    "mussen") never matched and these read as how-tos, while "darf" and "muss" did not."""
    assert not asks_in_general(query)
    assert asks_in_general(query.replace("dürfen", "werden").replace("DÜRFEN", "WERDEN")
                           .replace("müssen", "werden"))  # control: the same question with no modal


def test_german_how_to_without_a_modal_still_asks_in_general():
    assert asks_in_general("Wie sortiere ich eine Liste in Python absteigend?")
    assert asks_in_general("Wie groß ist ein Pull Request?")  # how big one is, not how big one may be


NOTES = [
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
    ("oom-worker", "The image worker was OOM-killed by Pillow decompression of huge PNGs",
     "Pillow decoded 20000x20000 PNGs fully; Image.MAX_IMAGE_PIXELS = 50_000_000 fixed it."),
]


def _store(isolated_home, project, monkeypatch, nearest: str):
    """:data:`NOTES`, the words read for real, ``nearest`` the memory nearest the query in meaning (0.87; the rest
    0.80: it stands out of the crowd as a paraphrase would)."""
    return nearest_store(isolated_home, project, monkeypatch, NOTES, nearest, 0.87)


def test_the_default_port_of_another_database_is_not_the_note_on_the_projects_port(isolated_home, project,
                                                                                   monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, "pg-port")
    assert mem.recall_result("what's the default port of MySQL?").memories == ()
    assert mem.search("what's the default port of MySQL?", min_score=relevance.THRESHOLD) == []
    # control: the same store and meaning, a question on the project's own database
    assert [m.name for m in mem.recall_result("which port does the dev database use?").memories] == ["pg-port"]


def test_how_big_a_pull_request_may_be_is_the_note_on_their_size(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, "pr-size")
    assert [m.name for m in mem.recall_result("Wie groß darf ein Pull Request sein?").memories] == ["pr-size"]
    assert [m.name for m in mem.recall_result("Wie groß dürfen Pull Requests sein?").memories] == ["pr-size"]
    # control: the same store and meaning, a German how-to on what a pull request is asks in general: nothing
    assert mem.recall_result("Wie erstelle ich einen Pull Request auf GitHub?").memories == ()
