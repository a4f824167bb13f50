"""A clock set back (a laptop's, a VM restored from a snapshot) never dates a change before the memory's
past: ``updated`` is never before ``created`` nor the previous ``updated`` (the rule of
:meth:`memdir.layer.transaction.Transaction.apply`). The CLI runs as a real subprocess whose clock —
the time source the gateway and the journal read — is set to a given moment; an import keeps the dates
it carries (the rule's exception), and a clock that moved forward is taken as it is (the controls)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone

import pytest

from memdir import Memory
from memdir.files.memfile import parse
from memdir.gateway import changes
from memdir.gateway.fields import MemoryChange

pytestmark = pytest.mark.slow  # real subprocesses

AT = textwrap.dedent("""
    import sys
    from datetime import datetime
    import memdir.gateway.changes as changes, memdir.layer.journal as journal
    at = datetime.fromisoformat(sys.argv[1])
    changes.now_utc = journal.now_utc = lambda: at  # the clock of this process, set
    from memdir.integrations.cli.main import main
    sys.exit(main(sys.argv[2:]))
""")

FIRST = datetime(2026, 11, 20, 16, 3, 11, tzinfo=timezone.utc)


def _cli_at(at: datetime, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", AT, at.isoformat(), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def _times(isolated_home, project, name) -> tuple[datetime, datetime]:
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    record = parse((layer.path / f"{name}.md").read_text(encoding="utf-8"), name).record
    return record.created, record.updated


def _seed(isolated_home, project):
    done = _cli_at(FIRST, "--project", project, "write", "deploy-day", "-d", "deploys go out on Tuesday",
                   "-t", "project")
    assert done.returncode == 0, done.stderr
    assert _times(isolated_home, project, "deploy-day") == (FIRST, FIRST)


def test_an_update_with_the_clock_set_back_is_not_dated_before_the_memory_was(isolated_home, project):
    _seed(isolated_home, project)
    back = FIRST - timedelta(days=3)
    done = _cli_at(back, "--project", project, "write", "deploy-day", "-d", "deploys go out on Thursday")
    assert done.returncode == 0, done.stderr
    assert _times(isolated_home, project, "deploy-day") == (FIRST, FIRST)  # before: updated 3 days before created
    assert "Thursday" in Memory.open(home=isolated_home, project=project).read("deploy-day").record.description
    done = _cli_at(back, "--project", project, "pin", "deploy-day")  # a flag's change is stamped the same way
    assert done.returncode == 0, done.stderr
    assert _times(isolated_home, project, "deploy-day") == (FIRST, FIRST)
    # control: a clock that moved forward dates the change as it says
    later = FIRST + timedelta(hours=5)
    done = _cli_at(later, "--project", project, "write", "deploy-day", "-d", "deploys go out on Friday")
    assert done.returncode == 0, done.stderr
    assert _times(isolated_home, project, "deploy-day") == (FIRST, later)


def test_a_later_update_never_goes_before_the_previous_one(isolated_home, project):
    _seed(isolated_home, project)
    later = FIRST + timedelta(days=2)
    assert _cli_at(later, "--project", project, "write", "deploy-day", "-d", "deploys on Wednesday").returncode == 0
    between = FIRST + timedelta(days=1)  # after created, before the previous update: the clock went back a day
    done = _cli_at(between, "--project", project, "write", "deploy-day", "-d", "deploys on Monday")
    assert done.returncode == 0, done.stderr
    assert _times(isolated_home, project, "deploy-day") == (FIRST, later)  # before: (FIRST, between)


def test_an_import_keeps_the_dates_it_carries_even_before_the_memory_s(isolated_home, project):
    _seed(isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project, actor="import")
    old = FIRST - timedelta(days=30)
    layer = mem.session.layer("project")
    changes.write(layer, MemoryChange("deploy-day", "deploys went out on Monday then"), actor="import",
                  times=(old, old))
    assert _times(isolated_home, project, "deploy-day") == (old, old)  # an export comes back as it was
    assert mem.read("deploy-day").record.description == "deploys went out on Monday then"


def test_a_delete_with_the_clock_set_back_journals_and_tombstones_no_earlier_than_the_last_event(
        isolated_home, project):
    """left25, item 6: the rule covered ``updated`` only; the journal's events (and the history read from them)
    and a delete's tombstone were dated by the clock as it was, before what they follow."""
    ahead = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=10)  # a clock ahead, set right since
    done = _cli_at(ahead, "--project", project, "write", "deploy-day", "-d", "deploys go out on Tuesday", "-t", "project")
    assert done.returncode == 0, done.stderr
    back = ahead - timedelta(days=10)
    done = _cli_at(back, "--project", project, "delete", "deploy-day")
    assert done.returncode == 0, done.stderr
    layer = Memory.open(home=isolated_home, project=project).session.layer("project")
    created, deleted = [e for e in layer.journal.events() if e.name == "deploy-day"]
    assert (created.action, deleted.action) == ("create", "delete")
    stamp = datetime.fromisoformat
    assert stamp(created.ts) == ahead
    assert stamp(deleted.ts) == ahead  # before: 10 days before the create
    [stone] = layer.tombstone_file.all()
    assert stamp(stone.ts) == ahead  # before: the clock's time, before the memory was made
    # control: a clock that moved forward is taken as it is
    later = ahead + timedelta(hours=1)
    done = _cli_at(later, "--project", project, "write", "ci", "-d", "CI runs on every push", "-t", "project")
    assert done.returncode == 0, done.stderr
    assert stamp(layer.journal.events()[-1].ts) == later
