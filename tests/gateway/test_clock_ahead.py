"""A clock set far ahead (a machine booted at 2099-01-01: a bad real-time clock, a VM's) and set right since
dates no later change in its future. The journal's clock holds to its last event against a clock set back
(tests/gateway/test_clock_back.py, where a clock ten days ahead and set right is still held to: the control
here), and a change's ``updated`` never goes before the memory's past; before break27 both held to a stamp
of 2099 for good: after one write at 2099, every later event of the layer, every memory's ``updated`` and
every tombstone said 2099-01-01T00:00:00, so the history lost its times and no memory written since ever
aged (prune, staleness and the index read a future time as now). The CLI runs as a real subprocess whose
clock is set (tests/gateway/test_clock_back.py's ``_cli_at``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memdir import Memory
from memdir.layer.journal import AHEAD_BOUND
from tests.gateway.test_clock_back import FIRST, _cli_at, _times

pytestmark = pytest.mark.slow  # real subprocesses

BOGUS = datetime(2099, 1, 1, tzinfo=timezone.utc)


def _ok(at, project, *args):
    done = _cli_at(at, "--project", project, *args)
    assert done.returncode == 0, done.stderr


def _stamps(isolated_home, project) -> list[tuple[str, str, datetime]]:
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    return [(e.action, e.name, datetime.fromisoformat(e.ts)) for e in layer.journal.events()]


def test_a_clock_set_years_ahead_and_set_right_dates_no_later_change_in_its_future(isolated_home, project):
    # control: a clock ten days ahead, set right since, is held to (a clock set back: the journal stays in order)
    ahead = FIRST + timedelta(days=10)
    _ok(ahead, project, "write", "ci", "-d", "CI runs on every push", "-t", "project")
    _ok(FIRST, project, "write", "lint", "-d", "Lint runs before the tests", "-t", "project")
    assert _stamps(isolated_home, project)[-1] == ("create", "lint", ahead)
    assert _times(isolated_home, project, "lint") == (ahead, ahead)

    _ok(BOGUS, project, "write", "deploy-day", "-d", "deploys go out on Tuesday", "-t", "project")
    assert _times(isolated_home, project, "deploy-day") == (BOGUS, BOGUS)  # what the clock said then is kept
    right = ahead + timedelta(hours=2)  # the clock set right: after every time but the bogus one
    _ok(right, project, "write", "deploy-day", "-d", "deploys go out on Thursday")
    _ok(right, project, "write", "editor", "-d", "Prefers tabs", "-t", "project")
    _ok(right, project, "delete", "editor")
    assert _stamps(isolated_home, project)[2:] == [
        ("create", "deploy-day", BOGUS),
        ("update", "deploy-day", right),  # before: 2099-01-01 for each of these
        ("create", "editor", right),
        ("delete", "editor", right)]
    # the memory written at 2099 is dated by the change: made no later than changed, and no longer in 2099
    assert _times(isolated_home, project, "deploy-day") == (right, right)
    assert _times(isolated_home, project, "ci") == (ahead, ahead)  # the others are as they were
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    [stone] = layer.tombstone_file.all()
    assert datetime.fromisoformat(stone.ts) == right  # before: forgotten on 2099-01-01
    # what memdir believed a day after the clock was set right: every change made by then, read past the 2099 one
    believed = Memory.open(home=isolated_home, project=project).list(as_of=right + timedelta(days=1))
    assert [(m.name, m.description) for m in believed.memories] == [
        ("ci", "CI runs on every push"), ("deploy-day", "deploys go out on Thursday"),
        ("lint", "Lint runs before the tests")]  # (editor: created and deleted by then)


def test_a_stamp_within_the_bound_ahead_is_held_to_and_one_past_it_is_not(isolated_home, project):
    near = FIRST + AHEAD_BOUND - timedelta(hours=1)  # the edge of what is read as a clock set back
    _ok(near, project, "write", "ci", "-d", "CI runs on every push", "-t", "project")
    _ok(FIRST, project, "write", "lint", "-d", "Lint runs before the tests", "-t", "project")
    assert _stamps(isolated_home, project)[-1] == ("create", "lint", near)
    assert _times(isolated_home, project, "lint") == (near, near)
    far = near + AHEAD_BOUND + timedelta(hours=2)
    _ok(far, project, "write", "deploy-day", "-d", "deploys go out on Tuesday", "-t", "project")
    back = near + timedelta(hours=1)  # the bound and an hour before the last event: past the bound
    _ok(back, project, "write", "editor", "-d", "Prefers tabs", "-t", "project")
    assert _stamps(isolated_home, project)[-1] == ("create", "editor", back)
    assert _times(isolated_home, project, "editor") == (back, back)
