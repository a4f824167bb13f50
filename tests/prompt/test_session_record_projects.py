"""A session's record is one project's (:func:`memdir.prompt.recalled.record_id`): two projects' sessions that share
an id never share what recall gave, nor its reads still to count.

Before, the record was keyed by the session id alone: a prompt in project B, under the id a session in project A
used, got only "given earlier in this session" for B's own ``db-port`` (its body never in B's conversation), and
B's session end counted A's givings as reads of B's ``db-port``. Real hooks in this process (``hooks.run``), real
files, a real index and a real session record."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.prompt import recalled
from tests.integrations.claude_code.test_recall_counts_reads import (
    BODY,
    _event,
    _prompt,
    _usage,
)

POINTER = "given earlier in this session, unchanged: db-port"


@pytest.fixture
def two(isolated_home, project, tmp_path):
    """Two projects holding the same ``db-port`` memory (the same body), as two clones of one repository would."""
    other = tmp_path / "work" / "other"
    (other / ".git").mkdir(parents=True)
    for root in (project, other):
        Memory.open(home=isolated_home, project=root).write("db-port", "Dev PostgreSQL listens on 5433", "project",
                                                             BODY)
    return project, other


def test_the_same_session_id_in_another_project_is_given_that_projects_body(two):
    a, b = two
    assert BODY in _prompt(a, "shared-id")
    again = _prompt(a, "shared-id")  # control: the same session in the same project gets the pointer
    assert BODY not in again and POINTER in again
    in_b = _prompt(b, "shared-id")  # before: the pointer (A's record), B's body never given
    assert BODY in in_b and POINTER not in in_b
    again = _prompt(b, "shared-id")  # B's own record now holds it
    assert BODY not in again and POINTER in again


def test_a_session_end_counts_only_its_own_projects_givings(two, isolated_home):
    a, b = two
    for _ in range(2):
        _prompt(a, "shared-id")
    _prompt(b, "shared-id")
    assert recalled.take_unread(isolated_home, "shared-id", None) == {}  # none recorded without a project
    assert _event(b, "SessionEnd", "shared-id").startswith("skip")
    assert _usage(b)["db-port"][0] == 1  # before: 2 (A's giving counted as B's too), and A's never
    assert _usage(a) == {}  # A's session has not ended: its giving waits for its own end
    _event(a, "SessionEnd", "shared-id")
    assert _usage(a)["db-port"][0] == 1  # control: A's end counts A's giving, once
    assert _usage(b)["db-port"][0] == 1


def test_record_ids_are_distinct_per_project():
    ids = {recalled.record_id(sid, root) for sid in ("s", "s\0/p", "s\0") for root in (None, "/p", "/q")}
    assert len(ids) == 9  # a root holds no NUL: no id/root pair shares a key with another
    assert recalled.record_id("s", "/p") == "s\0/p" and recalled.record_id("s", None) == "s\0"
