"""A general question naming a particular thing asks about that thing (issue 28, recall22): "how do I read
environment variables in Node.js?" is not the note on Docker env files, however near in meaning and in its other
words, when the note holds nothing of Node.js (:func:`memdir.search.general.named_terms`,
:func:`~memdir.search.general.lacks_named`, applied by :func:`memdir.search.relevance.bar` as to a question defining
a kind). Controls: the same question naming what the note holds is answered; a particular question is not general."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.general import lacks_named, named_terms

from .densestub import dense_as, notes_store


@pytest.mark.parametrize(("query", "named"), [
    ("how can I verify a Stripe webhook signature in Node.js?", [{"stripe", "webhook"}, {"node", "nodejs"}]),
    ("how do I save timestamps in a PostgreSQL database?", [{"postgresql", "postgr", "sql", "databas"}]),  # a kind
    ("how do I write a multi-stage Dockerfile?", [{"dockerfil"}]),  # a name with no noun after it: the name alone
    ("how do I release version 2.0 to PyPI with a tag?", [{"py", "pi", "pypi"}]),  # a version number names nothing
    ("How do I add a Python dependency? Then what.", [{"python", "depend"}]),  # a sentence's first word is no name
    ("Wie füge ich eine Abhängigkeit mit uv hinzu?", []),  # German capitalises nouns: only name-shaped words count
    ("Wie prüfe ich einen HEALTHCHECK im Dockerfile?", [{"healthcheck"}]),
])
def test_the_things_a_question_names(query, named):
    assert sorted(map(sorted, named_terms(query))) == sorted(map(sorted, named))


def test_a_memory_lacks_a_named_thing_when_it_holds_none_of_its_terms():
    named = named_terms("how can I verify a Stripe webhook signature in Node.js?")
    assert lacks_named(named, {"stripe", "webhook", "signatur"})
    assert not lacks_named(named, {"stripe", "node", "webhook"})  # control: holds something of each
    assert not lacks_named((), {"webhook"})  # a question naming nothing


NOTES = [
    ("docker-env", "Docker env files: no quotes, no export",
     ("Read environment variables from .env with docker compose: values are taken literally, so write KEY=value "
      "without quotes and without export.")),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
]


def test_a_general_question_on_a_thing_the_note_does_not_hold_recalls_nothing(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, {"docker-env": 0.87, "pr-size": 0.80})
    general = "how do I read environment variables in Node.js?"
    assert mem.recall_result(general).memories == ()
    assert mem.search(general, min_score=relevance.THRESHOLD) == []
    # controls in the same store and meaning: naming what the note holds, and asking about the project's own
    assert [m.name for m in mem.recall_result("how do I read environment variables in Docker?").memories] == [
        "docker-env"]
    assert [m.name for m in mem.recall_result("how do I read our environment variables in Node.js?").memories] == [
        "docker-env"]


UTC_NOTES = [
    ("timezone-utc", "Store timestamps in UTC; convert only at the edge",
     ("All datetimes in the database and logs are timezone-aware UTC. Why: a report job double-counted a day when "
      "the server moved to Europe/Berlin for daylight saving. How to apply: use datetime.now(timezone.utc); convert "
      "to the user's zone in the template only.")),  # the evaluation's note (evals/recall/memories/timezone-utc.md)
    ("pg-port", "Dev PostgreSQL listens on 5433", "docker compose maps postgres to 5433 on the dev machine."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
]


def test_a_name_before_a_noun_the_note_holds_names_a_kind_of_it(isolated_home, project, monkeypatch):
    """A question naming a database by its product ("a PostgreSQL database") asks about storing in a database: the
    note on storing timestamps in UTC in the database answers it, though it never says PostgreSQL; the same question
    on a thing named alone ("in Node.js") is still not that note's."""
    mem = notes_store(isolated_home, project, UTC_NOTES)
    cosines = dense_as(monkeypatch, mem, {"timezone-utc": 0.878, "pg-port": 0.854, "pr-size": 0.80})
    assert [m.name for m in mem.recall_result("how do I save timestamps in a PostgreSQL database?").memories] == [
        "timezone-utc"]
    # control in the same store: a named thing standing alone that no note holds anything of
    cosines[cosines.ids["timezone-utc"]] = 0.88
    assert mem.recall_result("how do I save timestamps in Node.js?").memories == ()
