"""A time with no UTC instant (break36): ``0001-01-01T00:00:00+14:00`` is
year 0 in UTC, ``9999-12-31T23:59:59-05:00`` year 10000. A hand-edited file
holding one raised OverflowError out of list, search and doctor (every reader
turns times into UTC days), and the same text as a ``--valid-from`` argument
raised it out of the CLI. Such a time reads as one that does not read: the
memory is listed and searched without it, an argument is refused by name."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memdir.files.memfile import parse_time
from tests.conftest import run_cli

NO_UTC = ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-05:00"]


@pytest.mark.parametrize("text", NO_UTC)
def test_a_time_without_a_utc_instant_reads_as_none(text):
    assert parse_time(text) is None
    assert parse_time(datetime.fromisoformat(text)) is None
    # Control: the edges that do have a UTC instant still read, to the second.
    assert parse_time("0001-01-01T00:00:00Z") == datetime(1, 1, 1, tzinfo=UTC)
    assert parse_time("9999-12-31T23:59:59Z") == datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def _hand_written(home, project, text):
    run_cli("--project", project, "write", "db-port", "-d", "Dev database listens on 5433", "-t", "project",
            "--body", "moved from 5432")
    layer = next((home / "projects").iterdir())
    (layer / "when.md").write_text(
        "---\nname: when\ndescription: deploy window opens on Fridays\ntype: project\n"
        f"created: {text}\nupdated: {text}\nvalid_from: {text}\n---\nFriday after the standup.\n", encoding="utf-8")


@pytest.mark.parametrize("text", NO_UTC)
def test_a_hand_edited_file_with_such_a_time_breaks_no_reader(isolated_home, project, text):
    _hand_written(isolated_home, project, text)
    listed = run_cli("--project", project, "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        "- db-port (type: project; layer: project) — Dev database listens on 5433",
        "- when (type: project; layer: project) — deploy window opens on Fridays"]
    found = run_cli("--project", project, "search", "deploy window")
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[1].startswith("- when (type: project; layer: project) relevance ")
    context = run_cli("--project", project, "context")
    assert context.returncode == 0, context.stderr
    assert "- [when](when.md) — deploy window opens on Fridays" in context.stdout
    doctor = run_cli("--project", project, "doctor")
    assert "Traceback" not in doctor.stderr and doctor.stdout.rstrip().endswith("ok"), doctor.stdout + doctor.stderr


@pytest.mark.parametrize("flag", ["--valid-from", "--valid-until"])
def test_such_a_time_as_an_argument_is_refused_by_name(project, flag):
    refused = run_cli("--project", project, "write", "vt", "-d", "valid test", "-t", "project", flag, NO_UTC[0])
    assert refused.returncode == 1
    assert refused.stderr.strip() == f"memdir: {flag}: the year must be from 1000 to 9998 (got '{NO_UTC[0]}')"
    kept = run_cli("--project", project, "write", "vt", "-d", "valid test", "-t", "project", flag, "2026-01-05")
    assert kept.returncode == 0, kept.stderr
