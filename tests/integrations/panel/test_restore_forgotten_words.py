"""Restoring a forgotten memory in the panel is refused with the panel's way to lift the tombstone — its Lift
button on the Tombstones page — where it named the command line's ``memdir tombstone lift`` beside that button
(hostile testers, tools40). One refusal (:func:`memdir.tombstones.refusals.refusal`), each interface's words: the
CLI still names its command. Starlette's test client; the CLI as a subprocess."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from memdir import Memory
from memdir.integrations.panel.app import create_app
from memdir.paths import project_key
from tests.conftest import run_cli

PORT = 8766
TOKEN, CSRF = "test-token-0123456789", "test-csrf-0123456789"
HEADERS = {"Content-Type": "application/json", "X-CSRF-Token": CSRF}


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("ci-runner", "CI runs on the self-hosted runner ci-7", "project", "Labels: linux, x64.")
    person.delete("ci-runner", reason="retired")
    return person


@pytest.fixture
def client(person, isolated_home):
    with TestClient(create_app(isolated_home, token=TOKEN, csrf=CSRF, port=PORT),
                    base_url=f"http://127.0.0.1:{PORT}", follow_redirects=False) as c:
        c.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        yield c


def test_the_panels_refusal_names_its_lift_button_and_the_clis_its_command(client, person, project, isolated_home):
    ref = f"{project_key(project.resolve())}:project"
    (stone,) = person.tombstones("project").tombstones
    day = stone.ts[:10]
    forgotten = (f"refused: this matches a forgotten value (the same value; tombstone {stone.id}, memory 'ci-runner', "
                 f"deleted by human on {day}: retired). A person can lift it with ")
    url = f"/api/layers/{ref}/memories/ci-runner/restore"
    refused = client.post(url, content=json.dumps({"version": 1}), headers=HEADERS)
    assert (refused.status_code, refused.json()) == (409, {
        "error": forgotten + f"the Lift button of {stone.id} on the Tombstones page (/tombstones)",
        "kind": "TombstoneRefused"})
    page = client.get("/tombstones")  # the button it names is there
    assert page.status_code == 200 and f'data-post="/api/layers/{ref}/tombstones/{stone.id}/lift"' in page.text
    # Control: the CLI's refusal of the same restore names the command line's way.
    cli = run_cli("--home", isolated_home, "--project", project, "restore", "ci-runner", "--version", "1")
    assert (cli.returncode, cli.stderr.strip()) == (
        1, f"memdir: {forgotten}`memdir tombstone lift {stone.id} --scope project`")
    # Control: the button lifts it, and the same restore goes through.
    lifted = client.post(f"/api/layers/{ref}/tombstones/{stone.id}/lift", content=json.dumps({"reason": "back"}),
                         headers=HEADERS)
    assert lifted.status_code == 200
    restored = client.post(url, content=json.dumps({"version": 1}), headers=HEADERS)
    assert restored.status_code == 200 and restored.json()["text"].startswith("Restored ci-runner to version 1")


def test_another_refusal_keeps_its_text(client, project):
    """Control: an error that is no tombstone's is passed as it is."""
    ref = f"{project_key(project.resolve())}:project"
    missing = client.get(f"/api/layers/{ref}/memories/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"].startswith(
        'memory not found: "nothing-here" in the project layer')


def test_a_superseded_memory_holding_the_forgotten_value_says_the_panels_way_back(client, person, project):
    """db-port renamed to pg-port, pg-port forgotten: restoring db-port's version is refused by that tombstone,
    told why (db-port holds the value) in the panel's words — its Lift button, and that reactivating is the
    command line's (the panel has none) — and with neither the tools' argument nor a CLI lift command (tools41)."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved in November.")
    person.write("pg-port", rename_from="db-port")
    stone = person.forget("pg-port").tombstone
    ref = f"{project_key(project.resolve())}:project"
    refused = client.post(f"/api/layers/{ref}/memories/db-port/restore", content=json.dumps({"version": 1}),
                          headers=HEADERS)
    error = refused.json()["error"]
    assert refused.status_code == 409 and error.endswith(
        f"the Lift button of {stone} on the Tombstones page (/tombstones), then reactivate 'db-port': 'db-port' was "
        "superseded by 'pg-port', which was deleted and its value forgotten, and 'db-port' holds that value too; "
        "the panel does not reactivate a memory: run `memdir write db-port --reactivate`"), error
    assert "memory_write" not in error and "tombstone lift" not in error
