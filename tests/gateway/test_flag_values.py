"""Pin and mute take True or False only (break24): the flag's value is checked by the gateway as a
write's ``pinned``/``disabled`` are, so the text ``"false"`` never pins a memory, ``None`` never
journals an unpin of a memory that was not pinned; the panel reads ``{"value": null}`` as its other
fields' null, "not given", which pins (it unpinned)."""

from __future__ import annotations

import json

import pytest

from memdir import InvalidInput
from memdir.files.memfile import parse


def _events(mem) -> list[str]:
    return [e.action for e in mem.session.layer("project").journal.events()]


def test_a_flag_value_that_is_not_a_boolean_is_refused_and_changes_nothing(person):
    person.write("db-port", "Dev DB on port 5433", "project", "Moved from 5432.")
    path = person.session.layer("project").path / "db-port.md"
    before, events = path.read_bytes(), _events(person)
    for call, value in ((person.pin, "false"), (person.pin, None), (person.pin, 1), (person.mute, "yes"),
                        (person.mute, 0)):
        with pytest.raises(InvalidInput, match=rf"^the (pin|mute) value must be True or False \(got {value!r}\)$"):
            call("db-port", value)
    assert path.read_bytes() == before and _events(person) == events  # no file change, no journal line
    assert parse(before.decode(), "db-port").record.pinned is False
    result = person.pin("db-port", True)  # control: a boolean pins, once
    assert (result.value, result.changed) == (True, True)
    assert parse(path.read_text(), "db-port").record.pinned is True and _events(person)[-1] == "pin"
    assert person.pin("db-port", False).value is False and parse(path.read_text(), "db-port").record.pinned is False


def test_the_panels_null_flag_value_is_not_given_and_pins(isolated_home, project, person):
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app
    from memdir.paths import project_key

    person.write("db-port", "Dev DB on port 5433", "project", "Moved from 5432.")
    path = person.session.layer("project").path / "db-port.md"
    url = f"/api/layers/{project_key(project.resolve())}:project/memories/db-port/pin"
    headers = {"Content-Type": "application/json", "X-CSRF-Token": "csrf"}
    with TestClient(create_app(isolated_home, token=None, csrf="csrf", port=8765),
                    base_url="http://127.0.0.1:8765") as client:
        refused = client.post(url, content=json.dumps({"value": "false"}), headers=headers)
        assert refused.status_code == 400 and refused.json()["error"] == "value must be a bool or true/false"
        pinned = client.post(url, content=json.dumps({"value": None}), headers=headers)
        assert pinned.status_code == 200 and pinned.json()["result"]["value"] is True
        assert parse(path.read_text(), "db-port").record.pinned is True and _events(person)[-1] == "pin"
        unpinned = client.post(url, content=json.dumps({"value": False}), headers=headers)  # control
        assert unpinned.status_code == 200 and unpinned.json()["result"]["value"] is False
    assert parse(path.read_text(), "db-port").record.pinned is False and _events(person)[-1] == "unpin"
