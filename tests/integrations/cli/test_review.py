"""`memdir review` shows a change's diff, a new memory's whole text and the digest; `approve --digest`
refuses a candidate that changed since; `dismiss` drops one with no tombstone (issue 24)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real subprocesses


def test_review_diff_digest_approve_and_dismiss_on_the_command_line(mem, person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    mem.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate")
    mem.write("lint", "Lint with ruff", "project", "ruff check.", status="candidate")
    shown = run_cli("--project", project, "review")
    assert shown.returncode == 0, shown.stderr
    assert "changes db-port (project); approving makes this diff:" in shown.stdout
    assert "    -description: Dev PostgreSQL listens on 5433\n    +description: Dev PostgreSQL listens on 6543\n" \
        in shown.stdout
    assert "new memory; approving adds it as shown:\n    description: Lint with ruff\n" in shown.stdout
    items = {c["name"]: c for c in json.loads(run_cli("--project", project, "review", "--json").stdout)["candidates"]}
    digest = items["db-port-candidate"]["digest"]
    assert f"digest {digest[:16]}: memdir approve db-port-candidate --scope project --digest {digest[:16]}" \
        in shown.stdout
    mem.write("db-port-candidate", "Dev PostgreSQL listens on 7000", "project", status="candidate")
    stale = run_cli("--project", project, "approve", "db-port-candidate", "--digest", digest[:16])
    assert stale.returncode == 1 and "changed since it was shown" in stale.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"
    fresh = json.loads(run_cli("--project", project, "review", "--json").stdout)["candidates"]
    now = next(c["digest"] for c in fresh if c["name"] == "db-port-candidate")
    ok = run_cli("--project", project, "approve", "db-port-candidate", "--digest", now[:16])  # control
    assert ok.returncode == 0 and "Approved db-port-candidate → db-port (project)" in ok.stdout
    dismissed = run_cli("--project", project, "dismiss", "lint")
    assert dismissed.returncode == 0 and "Dismissed lint (project); no tombstone" in dismissed.stdout
    assert run_cli("--project", project, "tombstones").stdout.strip() == "No tombstones."
    assert mem.write("lint", "Lint with ruff", "project", "ruff check.", status="candidate").operation == "dismissed"
