"""The team layer through the panel: a restore from a git commit and the team page's rows carry the digest
of the version the page showed, as every other change does (tests/integrations/panel/test_stale_page.py):
a memory changed since is refused (409) and left as the other writer left it; the control, with the
digest now there, is made."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from memdir.integrations.panel.app import create_app  # noqa: E402
from memdir.paths import project_key  # noqa: E402
from tests.teamgit import git, shared_repository  # noqa: E402

pytestmark = pytest.mark.slow  # real git, two clones

PORT = 8767
BASE = f"http://127.0.0.1:{PORT}"
TOKEN, CSRF = "test-token-team-page-0123", "test-csrf-team-page-0123"
HEADERS = {"Content-Type": "application/json", "X-CSRF-Token": CSRF}


@pytest.fixture
def team(tmp_path):
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team")
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")  # a candidate
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    app = create_app(a.home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        yield a, person, client, f"{project_key(a.root.resolve())}:team"


def rows(page: str) -> list[tuple[str, str, str]]:
    """(name, state, the row's actions HTML) of each row of a layer page."""
    return re.findall(r'<tr data-name="([^"]+)" data-state="([^"]+)">.*?<td class="actions">(.*?)</td>', page, re.DOTALL)


def test_a_restore_from_a_commit_the_page_saw_is_refused_once_the_memory_changed(team):
    a, person, client, ref = team
    a.commit_all("ci runs on GitHub Actions")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    person.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile.", scope="team")
    seen = person.read("ci", "team", count=False).digest
    person.write("ci", "CI runs on Drone", "project", "Drone file.", scope="team")  # another writer, after the page
    url = f"/api/layers/{ref}/memories/ci/restore"
    refused = client.post(url, content=json.dumps({"commit": first, "expect_digest": seen}), headers=HEADERS)
    assert refused.status_code == 409
    assert "CI runs on Drone" in (a.team_dir / "ci.md").read_text()
    now = person.read("ci", "team", count=False).digest
    made = client.post(url, content=json.dumps({"commit": first, "expect_digest": now}), headers=HEADERS)
    assert made.status_code == 200, made.text
    assert made.json()["result"]["commit"] == first
    assert "CI runs on GitHub Actions" in (a.team_dir / "ci.md").read_text()
    both = client.post(url, content=json.dumps({"commit": first, "version": 1}), headers=HEADERS)
    assert (both.status_code, both.json()["error"]) == (400, "give a version or a commit, not both")


def test_the_team_page_rows_carry_their_own_digest_and_a_stale_button_is_refused(team):
    a, person, client, ref = team
    page = client.get(f"/layer/{ref}").text
    found = {(name, state): actions for name, state, actions in rows(page)}
    assert sorted(found) == [("ci", "active"), ("ci", "candidate"), ("deploy-day", "candidate")]
    live = person.read("ci", "team", count=False).digest
    pin = re.search(r"data-post=\"([^\"]+/pin)\" data-body='([^']*)'", found["ci", "active"]).groups()
    url, body = html.unescape(pin[0]), json.loads(html.unescape(pin[1]))
    assert body == {"expect_digest": live, "value": True}  # the team memory's own version, not the candidate's null
    # the candidates' rows lead to their review; no pin, mute or delete that would act on the team memory
    listed = {(m["name"], m["state"]): m["file_digest"] for m in client.get(f"/api/layers/{ref}/memories").json()["memories"]}
    home = a.memory()
    for name in ("ci", "deploy-day"):
        own = home.candidate(name, "team").digest
        assert listed[name, "candidate"] == own and own != listed.get((name, "active"))
        assert "data-post" not in found[name, "candidate"]
        assert f'href="/layer/{ref}/m/{name}" data-digest="{own}">Review</a>' in found[name, "candidate"]
    assert listed["ci", "active"] == live
    person.write("ci", "CI runs on Drone", "project", "Drone file.", scope="team")  # another writer, after the page
    stale = client.post(url, content=json.dumps(body), headers=HEADERS)
    assert stale.status_code == 409
    assert person.read("ci", "team", count=False).record.pinned is False
    now = person.read("ci", "team", count=False).digest
    made = client.post(url, content=json.dumps({**body, "expect_digest": now}), headers=HEADERS)
    assert made.status_code == 200, made.text
    assert person.read("ci", "team", count=False).record.pinned is True
