"""``memdir team resolve NAME`` without a side shows both sides of each conflicting field and how to choose,
changing nothing (real git in temp dirs: two clones of a bare repository; DESIGN §11)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.operations.test_team_merge import BODY, _diverge, clones  # noqa: F401 — a fixture
from tests.teamgit import git

A_SIDE, B_SIDE = "Dev PostgreSQL listens on 5434 since December", "Dev PostgreSQL listens on 6543 in the container"


def _cli(b, *args):
    return run_cli(*args, "--project", b.root, env={"MEMDIR_HOME": str(b.home)})


@pytest.mark.slow
def test_resolve_without_a_side_shows_both_values_and_changes_nothing(clones):  # noqa: F811
    a, b = clones
    assert _diverge(a, b, {"description": A_SIDE}, {"description": B_SIDE}).returncode != 0
    path = b.team_dir / "db-port.md"
    conflicted = path.read_bytes()
    shown = _cli(b, "team", "resolve", "db-port")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        (f"db-port: unresolved merge conflict in {path} — held back from the agent until you choose; nothing was "
         "changed."),
        "  description:",
        f"    ours (this clone):           {B_SIDE!r}",
        f"    theirs (the side merged in): {A_SIDE!r}",
        ("Choose: memdir team resolve db-port --field description=ours|theirs (per field; repeat it for each), "
         "or --ours|--theirs (every hunk).")]
    assert path.read_bytes() == conflicted  # nothing changed
    as_json = json.loads(_cli(b, "--json", "team", "resolve", "db-port").stdout)
    assert as_json["hunks"] == [{"field": "description", "ours": B_SIDE, "theirs": A_SIDE}]
    assert as_json["name"] == "db-port" and as_json["error"] == ""
    status = _cli(b, "team", "status")
    assert ("— held back from the agent until settled: `memdir team resolve db-port` shows both sides; add --field "
            "FIELD=ours|theirs, or --ours|--theirs, to keep one") in status.stdout
    doctor = _cli(b, "doctor")
    assert (f"  malformed: {path}: unresolved merge conflict — held back from the agent: `memdir team resolve "
            "db-port` shows both sides and settles it") in doctor.stdout.splitlines()
    # The control: with a side chosen, resolve settles it.
    done = _cli(b, "team", "resolve", "db-port", "--field", "description=theirs")
    assert done.returncode == 0 and "kept theirs of description" in done.stdout
    assert f"description: {A_SIDE}\n" in path.read_text() and b"<<<<<<<" not in path.read_bytes()
    assert "unresolved merge conflict" not in _cli(b, "doctor").stdout
    gone = _cli(b, "team", "resolve", "db-port")
    assert gone.returncode == 1 and "no unresolved merge conflict for 'db-port'" in gone.stderr


@pytest.mark.slow
def test_without_the_driver_the_updated_line_s_two_values_are_shown(clones):  # noqa: F811
    a, b = clones
    git(b.root, "config", "--local", "--remove-section", "merge.memdir")  # git merges line by line
    pulled = _diverge(a, b, {"description": A_SIDE}, {"body": BODY.replace("Ask in #infra", "Ask in #platform")})
    assert pulled.returncode != 0
    ours = git(b.root, "show", "HEAD:.claude/memory/db-port.md").stdout
    theirs = git(b.root, "show", "MERGE_HEAD:.claude/memory/db-port.md").stdout
    stamp = {side: next(line[len("updated: "):] for line in text.splitlines() if line.startswith("updated: "))
             for side, text in (("ours", ours), ("theirs", theirs))}
    assert stamp["ours"] != stamp["theirs"]
    hunks = json.loads(_cli(b, "--json", "team", "resolve", "db-port").stdout)["hunks"]
    assert hunks == [{"field": "updated", "ours": stamp["ours"], "theirs": stamp["theirs"]}]
    shown = _cli(b, "team", "resolve", "db-port").stdout
    assert shown.splitlines()[-1] == ("Choose: memdir team resolve db-port --field updated=ours|theirs (per field; "
                                      "repeat it for each), or --ours|--theirs (every hunk).")


def test_team_help_says_resolve_alone_shows_both_sides():
    helped = run_cli("team", "resolve", "--help")
    assert helped.returncode == 0
    text = " ".join(helped.stdout.split())
    assert "resolve NAME shows both sides of a memory's merge conflict" in text
    assert "(alone: show both sides of each conflicting field; nothing is changed)" in text
    assert "--field FIELD=SIDE" in text  # the control: how to choose is still there
