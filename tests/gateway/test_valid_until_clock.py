"""A supersede ends the old memory's valid time at the journal's clock (Journal.clock: now, never before
the journal's last event), the time the change is journaled at: with a clock set back the old memory's
``valid_until`` is never before the memory began, nor before the journal's own record of the supersede,
and the successor's ``valid_from`` is the same edge. A CLI process whose clock is set, as in
test_clock_back; the control is a clock that moved forward, taken as it says."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memdir import Memory
from memdir.files.memfile import parse
from tests.gateway.test_clock_back import _cli_at

pytestmark = pytest.mark.slow  # real subprocesses

FIRST = datetime(2026, 11, 20, 16, 3, 11, tzinfo=UTC)


def _record(isolated_home, project, name):
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    return parse((layer.path / f"{name}.md").read_text(encoding="utf-8"), name).record


def _supersede_at(isolated_home, project, at):
    assert _cli_at(FIRST, "--project", project, "write", "db-port", "-d", "Postgres on 5432").returncode == 0
    later = FIRST + timedelta(days=1)
    assert _cli_at(later, "--project", project, "write", "ci-host", "-d", "CI runs on ci-1").returncode == 0
    done = _cli_at(at, "--project", project, "write", "db-port-new", "-d", "Postgres on 5433",
                   "--supersedes", "db-port")
    assert done.returncode == 0, done.stderr
    journal = Memory.open(home=isolated_home, project=project).session.layer("project").journal
    retired = next(e for e in reversed(journal.events()) if e.action == "supersede")
    return _record(isolated_home, project, "db-port"), _record(isolated_home, project, "db-port-new"), retired, later


def test_a_supersede_with_the_clock_set_back_ends_at_the_journals_time(isolated_home, project):
    old, new, retired, later = _supersede_at(isolated_home, project, FIRST - timedelta(days=3))
    # before: valid_until 2026-11-17T16:03:11Z, three days before db-port was created
    assert old.status == "superseded" and old.valid_until == later
    assert new.valid_from == later and new.created == later
    assert retired.ts.startswith("2026-11-21T16:03:11")  # the journal says the same moment


def test_control_a_clock_moved_forward_is_taken_as_it_says(isolated_home, project):
    at = FIRST + timedelta(days=2, hours=3)
    old, new, retired, _ = _supersede_at(isolated_home, project, at)
    assert old.valid_until == at and new.valid_from == at
    assert retired.ts.startswith("2026-11-22T19:03:11")
