"""Edit-then-approve of team candidates through the panel's API, as the page sends it: the form starts
from what approving writes, a field the person did not touch is not cleared, a field they emptied is, and
a partial edit keeps the candidate's other fields (a new user's trial of issue 24)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from memdir.integrations.panel.app import create_app  # noqa: E402
from memdir.integrations.panel.home import PanelHome  # noqa: E402
from memdir.integrations.panel.views import review  # noqa: E402
from memdir.settings import Settings  # noqa: E402
from tests.teamgit import shared_repository  # noqa: E402

pytestmark = pytest.mark.slow

PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
TOKEN, CSRF = "test-token-team-edit-0123", "test-csrf-team-edit-0123"
HEADERS = {"Content-Type": "application/json", "X-CSRF-Token": CSRF}


@pytest.fixture
def team(tmp_path):
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team", importance=6,
                 title="CI")
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    app = create_app(a.home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        yield a, person, client


def _shown(client, name):
    return next(i for i in client.get("/api/review").json()["candidates"] if i["candidate"]["name"] == name)


def _approve(client, name, edit):
    item = _shown(client, name)
    url = f"/api/layers/{item['ref']}/memories/{name}/approve"
    return client.post(url, content=json.dumps({"edit": edit, "digest": item["candidate"]["digest"]}), headers=HEADERS)


def test_the_form_starts_from_what_approving_writes(team):
    a, person, client = team
    items = {item.candidate.name: item for item in review(PanelHome(a.home, Settings()))}
    change, new = items["ci"].record, items["deploy-day"].record
    assert (change.name, change.importance, change.title, change.description) == ("ci", 6, "CI", "CI runs on Buildkite")
    assert "importance: 6" in items["ci"].candidate.proposed  # the form shows what review shows
    assert (new.name, new.importance, new.title) == ("deploy-day", None, None)  # control: nothing to prefill
    page = client.get("/review").text
    assert 'name="importance" type="number" min="1" max="10" value="6"' in page


def test_edit_then_approve_a_team_change_with_the_whole_form(team):
    a, person, client = team
    form = {"name": "ci", "title": "CI", "description": "CI runs on Buildkite agents", "type": "project",
            "importance": 6, "body": "Pipeline in .buildkite/pipeline.yml."}
    r = _approve(client, "ci", form)
    assert r.status_code == 200, r.text
    record = person.read("ci", "team", count=False).record
    assert (record.description, record.importance, record.title, record.body) == (
        "CI runs on Buildkite agents", 6, "CI", "Pipeline in .buildkite/pipeline.yml.")


def test_a_field_the_person_empties_is_cleared_in_what_is_approved(team):
    a, person, client = team
    r = _approve(client, "ci", {"title": "", "importance": ""})
    assert r.status_code == 200, r.text
    record = person.read("ci", "team", count=False).record
    assert (record.title, record.importance, record.description) == (None, None, "CI runs on Buildkite")


def test_a_partial_edit_of_a_new_team_candidate_keeps_its_other_fields(team):
    a, person, client = team
    r = _approve(client, "deploy-day", {"body": "Never on Fridays, nor before a holiday."})
    assert r.status_code == 200, r.text
    record = person.read("deploy-day", "team", count=False).record
    assert (record.description, record.body) == ("Deploys happen on Tuesdays", "Never on Fridays, nor before a holiday.")
    r = _approve(client, "ci", {"body": "Only the body."})  # a change: the proposal's description stays
    assert r.status_code == 200, r.text
    record = person.read("ci", "team", count=False).record
    assert (record.description, record.body, record.importance) == ("CI runs on Buildkite", "Only the body.", 6)


def test_an_agent_still_cannot_clear_a_team_field_by_proposal(team):
    a, person, client = team
    from memdir import MemoryChange
    from memdir.errors import Refused

    agent = a.memory(actor="agent")
    with pytest.raises(Refused, match="a candidate cannot propose it"):
        agent.apply(MemoryChange("ci", clear=("title",)), "team")
    assert _approve(client, "ci", {"title": ""}).status_code == 200  # control: the person's edit clears it
    assert person.read("ci", "team", count=False).record.title is None
