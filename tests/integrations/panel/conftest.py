"""The panel's fixtures shared by its test files: ``panel``, a real panel server process over the home a
test's ``person`` fixture (defined by each file: the memories that test starts from) has written."""

from __future__ import annotations

import pytest

from tests.integrations.panel.test_hostile_http import Panel


@pytest.fixture
def panel(person, isolated_home):
    """A running :class:`Panel` on ``isolated_home``, started after ``person`` wrote its memories; stopped after."""
    running = Panel(isolated_home)
    yield running
    running.stop()
