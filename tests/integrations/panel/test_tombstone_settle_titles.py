"""The panel says what `memdir tombstones` says, and names a memory as its pages do (leftovers):

* a team tombstone whose file left the repository unlifted (a hand `git rm`, a revert) stays in force here, and
  the CLI's listing gives the sentence that settles it (``TombstoneInfo.settle``:
  :func:`memdir.tombstones.stones.unlifted_note`); the panel's tombstones page left it out. A tombstone in force
  with its file (the control) has none.
* a change's success line named a hash-named memory by its ``m-…`` id alone, which the page never shows as a
  memory's name; it now adds the title, as the layer page's row and ``memdir list`` show it
  (``m-c3f8ff75a0 “部署流程”``). A memory named in plain words (the control) is named as before.

The real app (Starlette's test client) over a real git repository."""

from __future__ import annotations

import html
import json

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from memdir.integrations.panel.app import create_app
from memdir.paths import project_key
from memdir.tombstones.stones import unlifted_note
from tests.integrations.panel.test_browser import browser_page  # noqa: F401 (a fixture)
from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow  # real git

PORT = 8771
BASE = f"http://127.0.0.1:{PORT}"
TOKEN, CSRF = "test-token-settle-titles-0123", "test-csrf-settle-titles-0123"
HEADERS = {"Content-Type": "application/json", "X-CSRF-Token": CSRF}


@pytest.fixture
def panel(tmp_path):
    a, _ = shared_repository(tmp_path)
    person = a.memory()
    app = create_app(a.home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        yield a, person, client, project_key(a.root.resolve())


def test_the_tombstones_page_says_how_to_settle_a_team_tombstone_whose_file_left(panel):
    a, person, client, _key = panel
    person.write("deploy-day", "Deploys go out on Tuesday", "project", "We deploy on Tuesday.", scope="team")
    a.commit_all("team: deploy-day")
    person.forget("deploy-day", scope="team")
    a.commit_all("team: forget deploy-day")
    [stone] = person.tombstones("team").tombstones
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved.", scope="project")
    person.forget("db-port", scope="project")  # the control: in force with its file
    git(a.root, "rm", "-q", f".claude/memory/tombstones/{stone.id}.json")  # a hand `git rm`: no lift
    a.commit_all("drop a tombstone")

    [team] = person.tombstones("team").tombstones
    settle = unlifted_note(stone.id, "deploy-day", False)
    assert team.settle == settle  # what `memdir tombstones` prints under it
    page = html.unescape(client.get("/tombstones").text)
    assert page.count('<p class="settle">') == 1
    assert f'<p class="settle">{settle}</p>' in page
    [project] = person.tombstones("project").tombstones
    assert project.settle == "" and f'<tr data-id="{project.id}">' in page  # listed, with no such line


def test_a_change_s_success_line_names_a_hash_named_memory_by_its_title(panel):
    _, person, client, key = panel
    made = person.write("部署流程", "Deploys need two approvals", "project", "Then the pipeline runs.", scope="project")
    hashed = made.name
    assert hashed.startswith("m-")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved.", scope="project")
    ref = f"{key}:project"

    def post(name: str, action: str, body: dict) -> str:
        url = f"/api/layers/{ref}/memories/{name}" + (f"/{action}" if action != "edit" else "")
        reply = client.post(url, content=json.dumps(body), headers=HEADERS)
        assert reply.status_code == 200, reply.text
        return reply.json()["text"]

    assert post(hashed, "pin", {}) == f"Pinned: {hashed} “部署流程” (project)"
    assert post("db-port", "pin", {}) == "Pinned: db-port (project)"  # the control: its name says what it is
    assert post(hashed, "edit", {"description": "Deploys need three approvals"}) == \
        f"Memory updated: {hashed} “部署流程” (project, pinned)"
    assert post(hashed, "restore", {"version": 1}).startswith(f"Restored {hashed} “部署流程” to version 1 (project")
    assert post(hashed, "delete", {}).startswith(f"Deleted memory: {hashed} “部署流程” (project). ")
    assert post("db-port", "delete", {}).startswith("Deleted memory: db-port (project). ")


def test_the_message_a_click_shows_names_the_title_in_a_browser(browser_page, isolated_home, project):  # noqa: F811
    """The line the page's script shows after the reload (``#message``), clicked in Debian's Chromium."""
    from memdir import Memory
    from tests.integrations.panel.test_browser import Panel as BrowserPanel

    person = Memory.open(home=isolated_home, project=project, actor="human")
    hashed = person.write("部署流程", "Deploys need two approvals", "project", "Then the pipeline runs.",
                          scope="project").name
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved.", scope="project")
    ref = f"{project_key(project.resolve())}:project"
    running = BrowserPanel(isolated_home)
    try:
        page = browser_page
        page.goto(running.url)  # the token goes into a cookie
        page.goto(f"{running.base}/layer/{ref}/m/{hashed}")
        page.locator("#memory-actions button", has_text="Pin").click()
        page.wait_for_selector("#message:not([hidden])")
        assert page.locator("#message").inner_text() == f"Pinned: {hashed} “部署流程” (project)"
        page.goto(f"{running.base}/layer/{ref}/m/db-port")  # the control: a name in words, as before
        page.locator("#memory-actions button", has_text="Pin").click()
        page.wait_for_selector("text=Pinned: db-port (project)")
        assert page.locator("#message").inner_text() == "Pinned: db-port (project)"
    finally:
        running.stop()
