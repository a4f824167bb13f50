"""Pending findings (what the person said that the next session's agent is asked to save) are counted by
`memdir status` and named by `memdir doctor`, in text and --json, by one rule: the findings a session start
still shows (memdir.prompt.pending.waiting), so one shown in two sessions is no longer counted. In --json each
finding reads as `memdir review --json` lists it (import42: status listed bare strings, review objects): one
shape, made by memdir.operations.findings.project_findings."""

from __future__ import annotations

import json

from memdir import Memory
from tests.conftest import run_cli

SAID = "Remember: the staging database is reset every Monday at 06:00 UTC."


def cli(project, *args):
    result = run_cli("--project", project, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def project_layer(out: str) -> dict:
    return next(layer for layer in json.loads(out)["layers"] if layer["scope"] == "project")


def test_status_and_doctor_count_and_name_the_pending_findings(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project")
    # control: nothing pending yet, nothing said
    assert project_layer(cli(project, "status", "--json"))["pending"] == []
    assert "pending finding" not in cli(project, "status") and "pending finding" not in cli(project, "doctor")
    report = person.consolidate([{"role": "user", "content": SAID}], extractor="agent")
    assert report.pending == (SAID,)

    status = cli(project, "status")
    line = next(x for x in status.splitlines() if x.startswith("project: 1 memory"))
    assert line == "project: 1 memory (1 in the index, 1 in the context block, 0 candidates, 0 tombstones, " \
                   "1 pending finding)"
    listed = project_layer(cli(project, "status", "--json"))["pending"]
    reviewed = json.loads(cli(project, "review", "--json"))["findings"]
    assert listed == reviewed and [f["text"] for f in listed] == [SAID]  # the review's objects, whole
    assert set(listed[0]) == {"id", "text", "said", "rule", "shown", "forgotten"} and len(listed[0]["id"]) == 12
    assert listed[0]["forgotten"] == ""  # no tombstone it restates (newuser46: the mark and its lift, else empty)
    doctor = cli(project, "doctor")
    assert ("  1 pending finding for the next session's agent to save (said at the end of an earlier session, "
            f"nothing saved yet):\n    “{SAID}”") in doctor
    assert doctor.splitlines()[-1] == "ok"  # said, not a problem
    assert project_layer(cli(project, "doctor", "--json"))["pending"] == reviewed
    user = next(layer for layer in json.loads(cli(project, "status", "--json"))["layers"] if layer["scope"] == "user")
    assert user["pending"] == []  # findings are kept per project

    for session in ("a", "b"):  # shown at two session starts: expired, as the block says
        assert SAID in Memory.open(home=isolated_home, project=project, session=session).pending()
    assert project_layer(cli(project, "status", "--json"))["pending"] == []
    assert "pending finding" not in cli(project, "status")
