"""A refused write's hint lifts the tombstone that refused it (vers22).

Since ``memdir tombstone lift ID --scope SCOPE`` exists, an id held by two layers (one value forgotten in each:
its id follows from the value) is refused without ``--scope``; the hint a refusal printed was the bare
``memdir tombstone lift ID``, so a person who ran it as told got a second refusal. Now the hint names the scope of
the layer whose tombstone refused the write; run as printed, it lifts that tombstone alone (control: the other
layer's stays, and still refuses its layer's write)."""

from __future__ import annotations

import json
import re
import shlex

from memdir import Memory
from tests.conftest import run_cli

FORGOTTEN, BODY = "Dev PostgreSQL listens on 5433", "Moved off 5432 in November."


def _stones(project) -> list[tuple[str, str]]:
    listed = run_cli("tombstones", "--json", "--project", project)
    assert listed.returncode == 0, listed.stderr
    return sorted((s["id"], s["scope"]) for s in json.loads(listed.stdout)["tombstones"])


def _write(project, scope: str):
    return run_cli("write", "db-port", "--description", FORGOTTEN, "--body", BODY, "--type", "project",
                   "--scope", scope, "--project", project)


def _hint(text: str) -> str:
    return re.search(r"`(memdir tombstone lift [^`]*)`", text).group(1)


def test_the_hint_names_the_refusing_layer_and_lifts_that_tombstone_alone(person, project, isolated_home):
    for scope in ("project", "user"):
        person.write("db-port", FORGOTTEN, "project", BODY, scope=scope)
        person.forget("db-port", scope=scope)
    [stone] = {sid for sid, _ in _stones(project)}
    assert _stones(project) == [(stone, "project"), (stone, "user")]

    refused = _write(project, "project")  # a person's write: its own layer's tombstone refuses it
    assert refused.returncode == 1 and "forgotten value" in refused.stderr
    assert _hint(refused.stderr) == f"memdir tombstone lift {stone} --scope project"  # was: no --scope

    lifted = run_cli(*shlex.split(_hint(refused.stderr))[1:], "--project", project)  # run as printed
    assert lifted.returncode == 0, lifted.stderr
    assert _stones(project) == [(stone, "user")]  # control: the user layer's tombstone stays
    assert _write(project, "project").returncode == 0  # the value is back where it was lifted

    refused = _write(project, "user")  # control: the user layer still refuses, and names its own scope
    assert refused.returncode == 1 and _hint(refused.stderr) == f"memdir tombstone lift {stone} --scope user"


def test_a_tombstone_of_another_layer_names_that_layer(person, project, isolated_home):
    """The agent is refused by another layer's tombstone too (the session's guard): the hint names that layer."""
    person.write("db-port", FORGOTTEN, "project", BODY, scope="user")
    person.forget("db-port", scope="user")
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    text = agent.call_tool("memory_write", {"name": "db-port", "type": "project", "scope": "project",
                                            "description": FORGOTTEN, "body": BODY})
    [(stone, scope)] = _stones(project)
    assert scope == "user" and text.startswith("Error: refused:")
    assert _hint(text) == f"memdir tombstone lift {stone} --scope user"  # the user layer's, not the project's
    lifted = run_cli(*shlex.split(_hint(text))[1:], "--project", project)
    assert lifted.returncode == 0 and _stones(project) == [], lifted.stderr
    assert agent.call_tool("memory_write", {"name": "db-port", "type": "project", "scope": "project",
                                            "description": FORGOTTEN, "body": BODY}).startswith("Memory created")
