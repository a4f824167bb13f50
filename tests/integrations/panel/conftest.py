"""The panel's fixtures shared by its test files: ``panel``, a real panel server process over the home a
test's ``person`` fixture (the memories that test starts from: the root conftest's bare person, or a file's own)
has written, and ``db_port``, the person most of them start from (one project memory, db-port)."""

from __future__ import annotations

import pytest

from memdir import Memory
from tests.integrations.panel.test_hostile_http import Panel


@pytest.fixture
def db_port(isolated_home, project) -> Memory:
    """A person (actor ``human``) on ``isolated_home`` and ``project`` who has written one project memory:
    db-port, "Dev PostgreSQL listens on 5433", body "Moved on 2026-11-02.". A file whose panel starts from it
    says so with ``person`` returning it (or building on it)."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    return person


@pytest.fixture
def panel(person, isolated_home):
    """A running :class:`Panel` on ``isolated_home``, started after ``person`` wrote its memories; stopped after."""
    running = Panel(isolated_home)
    yield running
    running.stop()
