"""Findings an edit outside memdir answered (memdir.prompt.answered) are counted by `memdir status` (text and
--json) beside those still pending, and `memdir review --drop all` clears their records too, saying so; a drop
by id leaves them listed."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.prompt import answered, pending
from tests.conftest import run_cli

SAID = "Use uv not pip here, dev db is on 5433, and I use neovim."
OTHER = "Remember: the staging deploy needs the VPN."
THIRD = "Remember that we deploy only on Tuesdays."

pytestmark = pytest.mark.slow  # the CLI as a real subprocess, several times a test


def cli(project, *args) -> str:
    done = run_cli("--project", project, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def project_layer(out: str) -> dict:
    return next(layer for layer in json.loads(out)["layers"] if layer["scope"] == "project")


def texts(layer: dict) -> tuple[list[str], list[str]]:
    """The texts of a status layer's pending and answered findings (each an object, as review lists it)."""
    return [f["text"] for f in layer["pending"]], [f["text"] for f in layer["answered"]]


@pytest.fixture
def answered_one(isolated_home, project):
    """Three findings of which the first was answered by a hand edit of db-port (5433 -> 5434)."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    said = (SAID, OTHER, THIRD)
    assert person.consolidate([{"role": "user", "content": s} for s in said], extractor="agent").pending == said
    layer = person.session.layer("project")
    # control: before the edit, three pending, none answered
    assert texts(project_layer(cli(project, "status", "--json"))) == ([SAID, OTHER, THIRD], [])
    path = layer.path / "db-port.md"
    path.write_text(path.read_text().replace("5433", "5434"))
    assert person.history("db-port").versions[-1].action == "external-edit"  # taken up: journaled
    ids = {i["text"]: i["id"] for i in pending.load(layer.path)}
    return person, layer, ids


def test_status_counts_the_answered_findings_beside_the_pending_ones(project, answered_one):
    status = cli(project, "status")
    line = next(x for x in status.splitlines() if x.startswith("project: 1 memory"))
    assert line == ("project: 1 memory (1 in the index, 1 in the context block, 0 candidates, 0 tombstones, "
                    "2 pending findings, 1 finding answered by an edit outside memdir)")
    layer = project_layer(cli(project, "status", "--json"))
    assert texts(layer) == ([OTHER, THIRD], [SAID])
    reviewed = json.loads(cli(project, "review", "--json"))  # one shape: status lists what review lists
    assert (layer["pending"], layer["answered"]) == (reviewed["findings"], reviewed["answered_findings"])
    assert set(layer["answered"][0]) == {"id", "text", "name", "seq", "ts", "reason"}
    assert layer["answered"][0]["name"] == "db-port"
    user = next(x for x in json.loads(cli(project, "status", "--json"))["layers"] if x["scope"] == "user")
    assert user["answered"] == []  # findings are kept per project


def test_drop_all_clears_the_answered_records_and_says_so(project, answered_one):
    _, layer, ids = answered_one
    cli(project, "status")  # a reader judges: the answer is recorded
    assert list(answered.answered(layer.path)) == [ids[SAID]]

    # control: a drop by id leaves the answered record listed
    assert cli(project, "review", "--drop", ids[OTHER]).startswith("Dropped 1 pending finding(s)")
    review = cli(project, "review")
    assert "Findings answered by an edit outside memdir (1)" in review and f"“{SAID}”" in review
    assert texts(project_layer(cli(project, "status", "--json")))[1] == [SAID]

    out = cli(project, "review", "--drop", "all")
    assert out == ("Dropped 1 pending finding(s), 0 left; no session will offer them again, nor keep the same words "
                   f"said again (the newest {pending.MAX_DROPPED} drops are remembered):\n"
                   f"  {ids[THIRD]}  “{THIRD}”\n"
                   "Cleared the records of 1 finding(s) answered by an edit outside memdir; `memdir review` no "
                   f"longer lists them:\n  {ids[SAID]}  “{SAID}”\n")
    assert cli(project, "review") == "No candidates waiting for review.\n"
    assert texts(project_layer(cli(project, "status", "--json"))) == ([], [])
    assert pending.load(layer.path) == [] and answered.answered(layer.path) == {}
    assert not (layer.path / ".memdir" / answered.ANSWERED_FILE).exists()
    assert cli(project, "review", "--drop", "all") == "No pending findings to drop.\n"  # nothing left to clear


def test_drop_all_with_only_answered_records_clears_them(project, answered_one):
    person, _, ids = answered_one
    cli(project, "review", "--drop", ids[OTHER], "--drop", ids[THIRD])
    assert [f.text for f in person.findings().answered] == [SAID]  # control: listed before
    gone = person.drop_findings(["all"])
    assert (gone.dropped, gone.left, [(f.id, f.text, f.name) for f in gone.cleared]) == (
        (), 0, [(ids[SAID], SAID, "db-port")])
    assert person.findings().answered == () and person.findings().findings == ()


def test_doctor_says_the_answered_findings_as_status_counts_them(project, answered_one):
    doctor = cli(project, "doctor")
    assert ("  1 finding answered by an edit outside memdir, no longer offered to the agent (memdir review says why):\n"
            f"    “{SAID}”\n") in doctor
    assert "  2 pending findings for the next session's agent to save" in doctor  # control: the others still wait
    layer = project_layer(cli(project, "doctor", "--json"))  # findings as review --json gives them (import42)
    assert ([f["text"] for f in layer["pending"]], [f["text"] for f in layer["answered"]]) == ([OTHER, THIRD], [SAID])
    cli(project, "review", "--drop", "all")
    assert "answered by an edit outside memdir" not in cli(project, "doctor")  # cleared: said nowhere
