"""A tombstone's id follows from the value it forgets (:func:`memdir.tombstones.match.make`), so the same value
forgotten in two layers gives two tombstones under one id. ``memdir tombstone lift ID`` lifted the first layer's
found (the user layer's) and left the one the person meant — the project's, whose refusal named that command —
in force: a lift of one person's decision that touched another. Now, without ``--scope``, it refuses, naming the
scopes and the command of each; with ``--scope`` it lifts that layer's alone. Within one layer, copies of the id
(a ``tombstones.json`` merged by a sync from two machines) are the same fact and all go."""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.operations.test_held_back import BODY, FORGOTTEN, KEPT


def _stones(project) -> list[tuple[str, str, str]]:
    listed = run_cli("tombstones", "--json", "--project", project)
    assert listed.returncode == 0, listed.stderr
    return sorted((s["id"], s["name"], s["scope"]) for s in json.loads(listed.stdout)["tombstones"])


def _write(project, scope: str) -> str:
    done = run_cli("write", "db-port", "--description", FORGOTTEN, "--body", BODY, "--type", "project",
                   "--scope", scope, "--project", project)
    return "refused" if done.returncode != 0 and "forgotten value" in done.stderr else done.stdout + done.stderr


def test_a_value_forgotten_in_two_layers_is_lifted_in_the_one_named(person, project):
    for scope in ("project", "user"):
        person.write("db-port", FORGOTTEN, "project", BODY, scope=scope)
        person.forget("db-port", scope=scope)
    person.write("ci", KEPT, "project", scope="project")
    person.forget("ci", scope="project")  # control: an id held by one layer lifts without a scope
    stones = _stones(project)
    [stone] = {s[0] for s in stones if s[1] == "db-port"}
    [ci] = [s[0] for s in stones if s[1] == "ci"]
    assert [s for s in stones if s[0] == stone] == [(stone, "db-port", "project"), (stone, "db-port", "user")]

    done = run_cli("tombstone", "lift", stone, "--project", project)
    assert done.returncode != 0
    assert (f"tombstone {stone} is in the user and the project layers" in done.stderr
            and f"`memdir tombstone lift {stone} --scope project`" in done.stderr
            and f"`memdir tombstone lift {stone} --scope user`" in done.stderr), done.stderr
    assert _stones(project) == stones  # nothing lifted
    assert _write(project, "project") == "refused" and _write(project, "user") == "refused"

    done = run_cli("tombstone", "lift", stone, "--scope", "project", "--project", project)
    assert done.returncode == 0, done.stderr
    assert _stones(project) == sorted([(ci, "ci", "project"), (stone, "db-port", "user")])  # the user's stays
    assert _write(project, "user") == "refused"
    assert _write(project, "project").startswith("Memory created: db-port") and person.read("db-port", scope="project")

    done = run_cli("tombstone", "lift", ci, "--project", project)
    assert done.returncode == 0, done.stderr
    assert _stones(project) == [(stone, "db-port", "user")]


def test_copies_of_one_tombstone_in_one_layer_are_one_fact(person, project):
    """tombstones.json with its entry twice (two machines forgot the same value; a sync merged the lists): one lift
    removes both, and the value may be written again; ci's tombstone (control) stays."""
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.forget("db-port", scope="project")
    person.write("ci", KEPT, "project", scope="project")
    person.forget("ci", scope="project")
    path = person.session.layer("project").meta / "tombstones.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = data["tombstones"] if isinstance(data, dict) else data
    twin = dict(next(e for e in entries if e["name"] == "db-port"), actor="agent", ts="2026-11-30T10:00:00.000000Z")
    entries.append(twin)
    path.write_text(json.dumps(data), encoding="utf-8")
    stones = _stones(project)
    assert [s[1] for s in stones].count("db-port") == 2
    done = run_cli("tombstone", "lift", twin["id"], "--project", project)
    assert done.returncode == 0, done.stderr
    assert [s[1] for s in _stones(project)] == ["ci"]
    assert _write(project, "project").startswith("Memory created: db-port")
