"""``memdir journal`` lists events in journal order: one layer's by ``seq``, newest first, the layers merged by
time (:func:`memdir.operations.maintenance.journal`). Before cut27 it sorted by ``ts`` alone, so an event a clock
set ahead dated 2099 stayed listed first for good, above every change made after it. The CLI runs as a real
subprocess whose clock is set (tests/gateway/test_clock_back.py's ``_cli_at``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memdir import Memory
from tests.gateway.test_clock_back import FIRST, _cli_at

pytestmark = pytest.mark.slow  # real subprocesses

BOGUS = datetime(2099, 1, 1, tzinfo=timezone.utc)


def _ok(at, project, *args):
    done = _cli_at(at, "--project", project, *args)
    assert done.returncode == 0, done.stderr
    return done


def test_changes_made_after_an_event_dated_2099_are_listed_before_it(isolated_home, project):
    _ok(FIRST, project, "write", "ci", "-d", "CI runs on every push", "-t", "project")
    _ok(BOGUS, project, "write", "deploy-day", "-d", "deploys go out on Tuesday", "-t", "project")
    right = FIRST + timedelta(hours=2)  # the clock set right
    _ok(right, project, "write", "deploy-day", "-d", "deploys go out on Thursday")
    _ok(right + timedelta(minutes=1), project, "write", "editor", "-d", "Prefers tabs", "-t", "project")
    _ok(right - timedelta(hours=1), project, "write", "shell", "-d", "Uses zsh", "-t", "user", "--scope", "user")

    shown = Memory.open(home=isolated_home, project=project).journal()
    assert [(e.scope, e.seq, e.action, e.name) for e in shown.entries] == [
        ("project", 4, "create", "editor"),  # made after the 2099 one: listed before it (before: after it)
        ("project", 3, "update", "deploy-day"),
        ("project", 2, "create", "deploy-day"),  # the 2099 one is still listed, with its own time
        ("user", 1, "create", "shell"),  # another layer's, merged by time
        ("project", 1, "create", "ci")]
    assert shown.entries[2].ts.startswith("2099-01-01T00:00:00")
    assert shown.total == 5

    out = _ok(right, project, "journal").stdout.splitlines()
    named = [(name, "2099" in line) for line in out for name in ("editor", "deploy-day", "shell", "ci")
             if f" {name}" in line]
    assert named == [("editor", False), ("deploy-day", False), ("deploy-day", True), ("shell", False),
                     ("ci", False)]  # the CLI lists the same order, the 2099 line with its own time
