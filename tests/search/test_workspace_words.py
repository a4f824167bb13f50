"""Naming the workspace is no word of what a prompt asks about (issue 28: false recall; recall31).

Before: "what does this project do?" recalled every memory whose name begins ``project-`` (Claude Code names its
project memories so) as complete — ``project`` was the prompt's one content word and their heads held it — and "how
do we cut a release of this project?" scored the release note 0.509 with vectors off (missed in the evaluation's
store), the note not holding ``project``; now 0.999.
Every memory of a project layer is about the workspace; "this project", "the repo", "our codebase" say nothing of
which one a prompt asks for (:func:`memdir.search.keywords.workspace_at`), as a task frame does not."""

from __future__ import annotations

import pytest

from memdir.search.keywords import frame_terms, unframed, workspace_at
from memdir.search.tokenize import query_terms, query_tokens

from .densestub import notes_store

NOTES = [
    ("project-sprint-status", "Sprint status of the project: checkout rewrite half done",
     "The checkout rewrite is half done; the coupon service is next. Demo on Friday."),
    ("release-tagging", "Releases are cut by pushing a vX.Y.Z tag",
     "To cut a release, push a tag vX.Y.Z on main; CI builds the wheel and publishes it to PyPI."),
    ("pg-port", "Dev PostgreSQL listens on port 5433, not 5432",
     "The local dev database runs in docker compose on port 5433."),
]


@pytest.mark.parametrize(("prompt", "at"), [
    ("what does this project do?", [2, 3]),
    ("how do we cut a release of this repo?", [7, 8]),  # "repo" is read as repositori
    ("add the httpx dependency to the project", [5, 6]),
    ("how should I log in our codebase?", [5, 6]),
    ("write an integration test for the order repository", []),  # a thing named "order repository"
    ("verify the bugs go to the Linear project", []),  # the Linear project: a thing of that name
    ("how do bigger projects organise their fixtures?", []),
])
def test_the_workspace_named(prompt, at):
    assert workspace_at(query_tokens(prompt)) == at


def test_the_workspace_is_no_term_of_the_prompt():
    prompt = "how do we cut a release of this project?"
    assert frame_terms(prompt, query_terms(prompt)) == ["cut", "releas"]
    assert unframed(query_tokens(prompt)) == ["how", "do", "we", "cut", "a", "releas", "of"]
    # Control: a project's name in a thing's name keeps its word.
    other = "verify the bugs go to the Linear project"
    assert "project" in frame_terms(other, query_terms(other))
    # Nothing but the workspace: the terms as they are.
    assert frame_terms("this project", query_terms("this project")) == ["project"]


def test_naming_the_workspace_recalls_no_memory_by_that_word(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)  # vectors off: words alone
    assert mem.recall_result("what does this project do?").memories == ()
    # Control in the same store: the question's own words recall their note, the workspace named or not.
    found = mem.recall_result("how do we cut a release of this project?").memories
    assert [m.name for m in found] == ["release-tagging"] and found[0].score >= 0.99  # 0.509 before
    assert [m.name for m in mem.recall_result("sprint status").memories] == ["project-sprint-status"]
