"""Shared setup of the Claude Code hook tests: ``store``, the two memories a prompt's recall is checked against
(a file that needs another store defines its own), and the texts the tests assert on."""

from __future__ import annotations

import pytest

BODY = "Moved from 5432 on 2026-11-02 because the system cluster took it."  # db-port's body
STYLE = "The linter enforces tabs in every file."  # style's body
PROMPT = "which port does the dev postgresql listen on?"  # recalls db-port, not style


@pytest.fixture
def store(mem):
    """``mem`` (the agent's facade on the test's home and project) after writing two memories: the project memory
    db-port ("Dev PostgreSQL listens on 5433", :data:`BODY`) and the feedback memory style ("Indent with tabs",
    :data:`STYLE`)."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY)
    mem.write("style", "Indent with tabs", "feedback", STYLE)
    return mem
