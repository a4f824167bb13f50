"""The web panel's JSON API and pages through Starlette's ASGI test client:
every route, every refusal of panel_security (each beside a request that
passes), and edits treated exactly as `memdir write` treats them."""

from __future__ import annotations

import json
import re
import shutil

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from memdir import Memory  # noqa: E402
from memdir.integrations.panel.api import ROUTES, openapi  # noqa: E402
from memdir.integrations.panel.app import create_app  # noqa: E402
from memdir.paths import project_key  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.panel_store import build  # noqa: E402

PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"
TOKEN, CSRF = "test-token-0123456789", "test-csrf-0123456789"
JSON_HEADERS = {"Content-Type": "application/json", "X-CSRF-Token": CSRF}


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    return build(isolated_home, project, monkeypatch)


@pytest.fixture
def client(store, isolated_home):
    app = create_app(isolated_home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        c.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        yield c


@pytest.fixture
def ref(project):
    return f"{project_key(project.resolve())}:project"


def post(client, url, body=None, **kw):
    return client.post(url, content=json.dumps(body or {}), headers={**JSON_HEADERS, **kw.pop("headers", {})}, **kw)


def shown(client, name: str) -> dict:
    """The candidate ``name`` as ``/api/review`` shows it (its ``digest`` is what a decision carries)."""
    return next(i["candidate"] for i in client.get("/api/review").json()["candidates"] if i["candidate"]["name"] == name)


def decide(client, url: str, body: dict | None = None):
    """POST a decision (``…/NAME/approve|reject|dismiss``) with the digest review shows for NAME, as the panel does."""
    name = url.rsplit("/", 2)[-2]
    return post(client, url, {"digest": shown(client, name)["digest"], **(body or {})})


# ---------------------------------------------------------------- reading


@pytest.mark.slow
def test_layers_lists_the_user_and_the_project_layer_with_budget(client, project, ref):
    data = client.get("/api/layers").json()
    assert [(v["ref"], v["scope"], v["root"]) for v in data["layers"]] == [
        ("home:user", "user", None), (ref, "project", str(project.resolve()))]
    user, proj = data["layers"]
    assert (user["status"]["memories"], proj["status"]["memories"], proj["status"]["candidates"]) == (1, 5, 2)
    assert proj["context_budget"] == 4096 and 0 < proj["context_bytes"] <= 4096
    assert proj["budget_percent"] == round(100 * proj["context_bytes"] / 4096)
    assert data["unavailable"] == []
    page = client.get("/")
    assert page.status_code == 200 and f'href="/layer/{ref}"' in page.text and str(project.resolve()) in page.text


def test_every_project_of_the_home_is_a_layer_and_a_gone_root_is_reported(client, store, tmp_path, ref):
    other = tmp_path / "work" / "other"
    (other / ".git").mkdir(parents=True)
    Memory.open(home=store.home, project=other, actor="human").write("deploy", "Deploys go through Argo", "project")
    gone = tmp_path / "work" / "gone"
    (gone / ".git").mkdir(parents=True)
    Memory.open(home=store.home, project=gone, actor="human").write("old", "An old project fact", "project")
    shutil.rmtree(gone)
    data = client.get("/api/layers").json()
    other_ref = f"{project_key(other.resolve())}:project"
    assert sorted(v["ref"] for v in data["layers"]) == sorted(["home:user", ref, other_ref])
    assert [(u["root"], u["exists"]) for u in data["unavailable"]] == [(str(gone.resolve()), False)]
    assert [m["name"] for m in client.get(f"/api/layers/{other_ref}/memories").json()["memories"]] == ["deploy"]
    assert "Project layers whose root is gone" in client.get("/").text


def test_a_root_that_now_leads_to_another_layer_is_reported_not_mixed_up(client, store, tmp_path):
    sub = tmp_path / "plain" / "sub"
    sub.mkdir(parents=True)
    Memory.open(home=store.home, project=sub, actor="human").write("local", "A fact of the plain dir", "project")
    listed = client.get("/api/layers").json()
    assert f"{project_key(sub.resolve())}:project" in [v["ref"] for v in listed["layers"]]  # control
    (tmp_path / "plain" / ".git").mkdir()  # sub is now inside a git work tree: its root moves up
    listed = client.get("/api/layers").json()
    assert f"{project_key(sub.resolve())}:project" not in [v["ref"] for v in listed["layers"]]
    assert [(u["key"], u["root"]) for u in listed["unavailable"]] == [(project_key(sub.resolve()), str(sub.resolve()))]


def test_layers_page_reports_malformed_files_and_a_full_budget(client, store, ref):
    (store.session.layer("project").path / "broken.md").write_text("---\ndescription: &a d\n---\nbody\n",
                                                           encoding="utf-8")  # a YAML anchor: never read
    proj = client.get("/api/layers").json()["layers"][1]
    assert [m["path"].rsplit("/", 1)[1] for m in proj["status"]["malformed"]] == ["broken.md"]
    page = client.get("/").text
    assert "broken.md" in page and "1 file(s) that are not memories" in page
    assert "over 80 %" not in page  # control for the warning below
    for n in range(25):
        store.write(f"fact-{n}", f"Fact number {n} about the build " + "x" * 100, "project")
    page = client.get("/").text
    assert "over 80 %" in page and 'class="budget warn"' in page


def test_a_layer_lists_memories_in_index_order_with_states(client, store, ref):
    store.pin("ci-runner")
    store.mute("db-port")
    data = client.get(f"/api/layers/{ref}/memories").json()
    names = [m["name"] for m in data["memories"]]
    assert names[0] == "ci-runner" and set(names) == {
        "ci-runner", "db-port", "indent-style", "indent-style-candidate", "db-port-candidate"}
    states = {m["name"]: m["state"] for m in data["memories"]}
    assert states["db-port"] == "muted" and states["db-port-candidate"] == "candidate"
    page = client.get(f"/layer/{ref}").text
    assert page.index('data-name="ci-runner"') < page.index('data-name="indent-style"')
    assert "📌 pinned" in page


def test_a_layer_search_ranks_the_match_first(client, ref):
    listed = [m["name"] for m in client.get(f"/api/layers/{ref}/memories").json()["memories"]]
    assert listed.index("indent-style") < listed.index("db-port")  # control: index order puts feedback first
    data = client.get(f"/api/layers/{ref}/memories", params={"q": "PostgreSQL"}).json()
    found = [m["name"] for m in data["memories"]]
    assert data["error"] is None and data["query"] == "PostgreSQL" and found[0] == "db-port"
    assert set(found) <= set(listed)
    assert 'value="PostgreSQL"' in client.get(f"/layer/{ref}", params={"q": "PostgreSQL"}).text


def test_a_memory_its_history_versions_and_diff(client, store, ref):
    store.write("db-port", "Dev PostgreSQL listens on 5434", "project", "Moved again.")
    data = client.get(f"/api/layers/{ref}/memories/db-port").json()
    assert (data["name"], data["description"], data["reads"]) == ("db-port", "Dev PostgreSQL listens on 5434", 0)
    history = client.get(f"/api/layers/{ref}/memories/db-port/history").json()
    assert [(v["version"], v["actor"], v["action"]) for v in history["versions"]] == [
        (1, "agent", "create"), (2, "human", "update")]
    assert data["digest"] == history["versions"][-1]["digest"]
    v1 = client.get(f"/api/layers/{ref}/memories/db-port/versions/1").json()
    assert "Dev PostgreSQL listens on 5433" in v1["text"]
    diff = client.get(f"/api/layers/{ref}/memories/db-port/diff", params={"a": 1, "b": 2}).json()["diff"]
    assert "-description: Dev PostgreSQL listens on 5433" in diff and "+description: Dev PostgreSQL listens on 5434" in diff
    page = client.get(f"/layer/{ref}/m/db-port", params={"a": 1, "b": 2}).text
    assert "Diff v1 → v2" in page and "5433" in page
    assert "<small>(type: project; layer: project)</small>" in page  # the one label (memdir.vocabulary.kind_label)
    assert client.get(f"/api/layers/{ref}/memories/nope").status_code == 404
    assert store.read("db-port", count=False).record.reads == 0  # the panel's reads are not counted


def test_stored_markup_is_shown_as_text_never_run(client, store, ref):
    store.write("xss", 'Says <script>alert(1)</script> and <img src=x onerror=alert(2)>', "project",
                "<iframe src=//attacker.example></iframe>")
    for url in (f"/layer/{ref}", f"/layer/{ref}/m/xss", "/journal"):
        page = client.get(url)
        assert page.status_code == 200 and "<script>alert" not in page.text and "<img src=x" not in page.text
        assert "script-src" not in page.headers["content-security-policy"]  # default-src 'self' covers scripts
    page = client.get(f"/layer/{ref}/m/xss").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;iframe src=//attacker.example&gt;" in page
    assert page.count("<script") == 1  # control: the panel's own script tag is there


def test_review_shows_each_candidate_beside_its_target(client):
    items = {i["candidate"]["name"]: i for i in client.get("/api/review").json()["candidates"]}
    assert set(items) == {"indent-style-candidate", "db-port-candidate"}
    item = items["db-port-candidate"]["candidate"]
    assert (item["candidate_for"], item["change"], item["target"]) == ("db-port", "change", "db-port")
    assert "description: Dev PostgreSQL listens on 5433\n" in item["live"]
    assert "description: Dev PostgreSQL listens on 6543\n" in item["proposed"]
    assert "-description: Dev PostgreSQL listens on 5433\n+description: Dev PostgreSQL listens on 6543\n" in item["diff"]
    page = client.get("/review").text
    assert "Dev PostgreSQL listens on 5433" in page and "Dev PostgreSQL listens on 6543" in page


def test_journal_filters_and_links_versions(client, store, ref):
    store.write("db-port", "Dev PostgreSQL listens on 5434", "project", "Moved again.")
    entries = client.get("/api/journal", params={"actor": "human", "action": "update"}).json()["entries"]
    assert [(e["ref"], e["name"], e["version"]) for e in entries] == [(ref, "db-port", 2)]
    everything = client.get("/api/journal").json()
    assert {e["actor"] for e in everything["entries"]} >= {"agent", "human", "extracted"}
    users = client.get("/api/journal", params={"layer": "home:user"}).json()["entries"]
    assert [(e["name"], e["action"], e["version"]) for e in users] == [("editor", "create", 1)]
    page = client.get("/journal", params={"actor": "human"}).text
    assert f'href="/layer/{ref}/m/db-port?version=2"' in page and "indent-style" not in page


# ---------------------------------------------------------------- changing


@pytest.mark.slow
def test_edit_writes_through_the_gateway_and_memdir_read_sees_it(client, store, ref, isolated_home, project):
    digest = client.get(f"/api/layers/{ref}/memories/ci-runner").json()["digest"]
    r = post(client, f"/api/layers/{ref}/memories/ci-runner",
             {"description": "CI runs on GitHub-hosted runners", "body": "ubuntu-24.04", "importance": 9,
              "title": "CI runner", "valid_from": "2026-11-01T00:00:00Z", "expect_digest": digest})
    assert r.status_code == 200, r.text
    assert r.json()["text"] == "Memory updated: ci-runner (project)"
    shown = run_cli("--home", isolated_home, "--project", project, "read", "ci-runner")
    assert "CI runs on GitHub-hosted runners" in shown.stdout and "ubuntu-24.04" in shown.stdout
    record = store.read("ci-runner", count=False).record
    assert (record.importance, record.title, record.origin) == (9, "CI runner", "human")
    stale = post(client, f"/api/layers/{ref}/memories/ci-runner", {"body": "other", "expect_digest": digest})
    assert stale.status_code == 409 and stale.json()["kind"] == "Conflict"
    assert store.read("ci-runner", count=False).record.body == "ubuntu-24.04"


def test_a_rename_supersedes_the_old_name(client, store, ref):
    r = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host"})
    assert r.status_code == 200 and r.json()["result"]["name"] == "ci-host"
    everything = {m.name: m for m in store.list(include_all=True).memories}
    assert everything["ci-runner"].status == "superseded" and everything["ci-runner"].superseded_by == "ci-host"
    assert everything["ci-host"].description == "CI runs on the self-hosted runner"
    assert store.read("ci-host", count=False).record.body == "Label: self-hosted-x64."  # kept: no body given
    r = post(client, f"/api/layers/{ref}/memories/ci-host", {"description": "CI runs on runner pool B"})
    assert r.status_code == 200 and store.read("ci-host", count=False).record.body == "Label: self-hosted-x64."
    post(client, f"/api/layers/{ref}/memories/ci-host", {"body": "Pool B."})  # control: a body given replaces
    assert store.read("ci-host", count=False).record.body == "Pool B."


def test_a_renamed_twice_memory_names_its_live_end(client, store, ref):
    post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host"})
    post(client, f"/api/layers/{ref}/memories/ci-host", {"name": "ci-pool"})
    page = client.get(f"/layer/{ref}/m/ci-runner").text
    assert "<dd>superseded by ci-pool (via ci-host)</dd>" in page
    assert "<dd>superseded by ci-pool</dd>" in client.get(f"/layer/{ref}/m/ci-host").text  # control: direct
    read = client.get(f"/api/layers/{ref}/memories/ci-runner").json()
    assert read["successor"] == {"name": "ci-pool", "via": ["ci-host"], "state": "active", "tombstone": None}
    assert client.get(f"/api/layers/{ref}/memories/ci-pool").json()["successor"] is None


def test_journal_refuses_an_unknown_actor(client):
    r = client.get("/api/journal", params={"actor": "bogus"})
    assert r.status_code == 400 and r.json() == {
        "error": "actor must be one of human, agent, extracted, import (got 'bogus')", "kind": "InvalidInput"}
    assert client.get("/api/journal", params={"actor": "extracted"}).status_code == 200  # control


def test_pin_mute_delete_and_restore(client, store, ref):
    base = f"/api/layers/{ref}/memories"
    pinned = post(client, f"{base}/db-port/pin", {"value": True}).json()
    assert pinned["text"] == "Pinned: db-port (project)" and pinned["result"] == {
        "name": "db-port", "scope": "project", "flag": "pinned", "value": True, "changed": True}
    assert store.session.layer("project").path.joinpath("MEMORY.md").read_text().splitlines()[0].startswith("- [")
    assert "db-port" in store.session.layer("project").path.joinpath("MEMORY.md").read_text().splitlines()[0]
    assert "indent-style" in store.session.layer("project").path.joinpath("MEMORY.md").read_text()  # control
    assert post(client, f"{base}/indent-style/mute", {"value": True}).json()["result"]["value"] is True
    assert "indent-style" not in store.session.layer("project").path.joinpath("MEMORY.md").read_text()
    deleted = post(client, f"{base}/ci-runner/delete", {"reason": "wrong"}).json()
    assert deleted["result"]["tombstone"].startswith("t-")
    assert client.get(f"{base}/ci-runner").status_code == 404
    page = client.get(f"/layer/{ref}/m/ci-runner")  # a deleted memory's page still offers its history
    assert page.status_code == 200 and "(deleted)" in page.text
    refused = post(client, f"{base}/ci-runner/restore", {"version": 1})
    assert refused.status_code == 409 and refused.json()["kind"] == "TombstoneRefused"
    store.write("db-port", "Dev PostgreSQL listens on 5434", "project", "Moved again.")
    restored = post(client, f"{base}/db-port/restore", {"version": 1})
    assert restored.status_code == 200 and restored.json()["text"].startswith("Restored db-port to version 1")
    assert store.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"


def test_approve_reject_and_edit_then_approve(client, store, ref):
    base = f"/api/layers/{ref}/memories"
    approved = decide(client, f"{base}/indent-style-candidate/approve").json()
    assert approved["text"] == "Approved indent-style-candidate → indent-style (project)"
    assert store.read("indent-style", count=False).record.description == "Indent with 4 spaces, not tabs"
    rejected = decide(client, f"{base}/db-port-candidate/reject", {"reason": "still 5433"}).json()
    assert rejected["result"]["approved"] is False
    stones = client.get("/api/tombstones").json()["tombstones"]
    assert [(s["ref"], s["name"], s["reason"]) for s in stones] == [(ref, "db-port-candidate", "still 5433")]
    assert store.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"
    agent = store.as_actor("extracted")
    agent.write("ci-runner-candidate", "CI runs on runner pool B", "project", "Pool B.", status="candidate",
                extra={"candidate_for": "ci-runner"})
    edited = decide(client, f"{base}/ci-runner-candidate/approve",
                    {"edit": {"description": "CI runs on runner pool C", "body": "Pool C."}})
    assert edited.status_code == 200, edited.text
    assert store.read("ci-runner", count=False).record.description == "CI runs on runner pool C"
    assert "ci-runner-candidate" not in {m.name for m in store.list(include_all=True).memories}


def test_lift_a_tombstone_is_journaled_as_the_person(client, store, ref):
    store.delete("ci-runner")
    (stone,) = client.get("/api/tombstones").json()["tombstones"]
    r = post(client, f"/api/layers/{ref}/tombstones/{stone['id']}/lift", {"reason": "was right"})
    assert r.status_code == 200 and r.json()["text"].startswith(f"Lifted tombstone {stone['id']}")
    assert client.get("/api/tombstones").json()["tombstones"] == []
    (event,) = client.get("/api/journal", params={"action": "tombstone-lift"}).json()["entries"]
    assert (event["actor"], event["reason"], event["version"]) == ("human", "was right", None)
    assert "No tombstones." in client.get("/tombstones").text


def test_bad_bodies_are_clear_errors_and_change_nothing(client, store, ref):
    base = f"/api/layers/{ref}/memories/db-port"
    before = store.read("db-port", count=False).record
    for body, message in (({"colour": "red"}, "unknown field(s): colour"), ({"importance": "high"}, "importance must be"),
                          ({"importance": 11}, "importance must be an integer from 1 to 10")):
        r = post(client, base, body)
        assert r.status_code == 400 and message in r.json()["error"], r.text
    r = client.post(base, content=b"{not json", headers=JSON_HEADERS)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    assert store.read("db-port", count=False).record == before
    assert client.get("/api/layers/nope:project/memories").status_code == 404


# ---------------------------------------------------------------- the same as `memdir write`


def _cli_then_panel(tmp_path, project, monkeypatch, description, body):
    """The same edit of one memory: with `memdir write` in one home, through the
    panel's edit route in another. Returns (CLI run, panel response, panel home memory)."""
    homes = [tmp_path / "cli-home", tmp_path / "panel-home"]
    for home in homes:
        Memory.open(home=home, project=project, actor="human").write("api-key", "Where the API key lives", "project", "vault")
    cli = run_cli("--home", homes[0], "--project", project, "--json", "write", "api-key", "-d", description,
                  "-t", "project", "--body", body)
    app = create_app(homes[1], token=None, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE) as c:
        ref = f"{project_key(project.resolve())}:project"
        panel = post(c, f"/api/layers/{ref}/memories/api-key", {"description": description, "body": body})
    return cli, panel, homes


@pytest.mark.slow
def test_a_person_long_body_is_kept_whole_by_the_panel_as_by_memdir_write(tmp_path, project, monkeypatch):
    body = "0123456789" * 400  # 4000 characters: twice the 2000 limit of what a model writes
    cli, panel, homes = _cli_then_panel(tmp_path, project, monkeypatch, "Where the API key lives", body)
    assert cli.returncode == 0 and panel.status_code == 200
    by_cli, by_panel = json.loads(cli.stdout), panel.json()["result"]
    assert by_panel["warnings"] == by_cli["warnings"] == []  # a person's text is never cut (issue 25)
    own = ("digest", "replaced")  # each home's own file: its digest, and the version it replaced
    assert {k: v for k, v in by_panel.items() if k not in own} == {k: v for k, v in by_cli.items() if k not in own}
    assert by_panel["replaced"]["by"] == by_cli["replaced"]["by"] == "human"
    bodies = [Memory.open(home=h, project=project).read("api-key", count=False).record.body for h in homes]
    assert bodies[0] == bodies[1] == body


@pytest.mark.slow
def test_a_secret_is_redacted_as_by_memdir_write(tmp_path, project, monkeypatch):
    secret = "sk-proj-" + "a1B2c3D4e5" * 4
    cli, panel, homes = _cli_then_panel(tmp_path, project, monkeypatch, "The API key", f"key is {secret}")
    by_cli, by_panel = json.loads(cli.stdout), panel.json()["result"]
    assert by_panel["redactions"] == by_cli["redactions"] == 1
    assert by_panel["redaction_kinds"] == by_cli["redaction_kinds"]
    bodies = [Memory.open(home=h, project=project).read("api-key", count=False).record.body for h in homes]
    assert bodies[0] == bodies[1] and secret not in bodies[1] and bodies[1].startswith("key is ")


@pytest.mark.slow
def test_a_tombstoned_value_is_refused_as_by_memdir_write(tmp_path, project, monkeypatch):
    for home in (tmp_path / "cli-home", tmp_path / "panel-home"):
        mem = Memory.open(home=home, project=project, actor="human")
        mem.write("old-host", "Old host is box-9.example.org", "project", "")
        mem.forget("old-host")
    cli, panel, homes = _cli_then_panel(tmp_path, project, monkeypatch, "Old host is box-9.example.org", "")
    assert cli.returncode == 1 and panel.status_code == 409
    by_cli, (stone,) = json.loads(cli.stdout), Memory.open(home=homes[1], project=project).tombstones().tombstones
    assert by_cli["kind"] == panel.json()["kind"] == "TombstoneRefused"
    # one refusal, each interface's way to lift it (tests/integrations/panel/test_restore_forgotten_words.py)
    assert by_cli["error"].endswith(f"A person can lift it with `memdir tombstone lift {stone.id} --scope project`")
    assert panel.json()["error"] == by_cli["error"].replace(
        f"`memdir tombstone lift {stone.id} --scope project`",
        f"the Lift button of {stone.id} on the Tombstones page (/tombstones)")
    control = json.loads(_cli_then_panel(tmp_path / "x", project, monkeypatch, "New host is box-10", "")[1].text)
    assert control["result"]["operation"] == "updated"  # control: a value not forgotten is written


# ---------------------------------------------------------------- 403


@pytest.mark.slow
@pytest.mark.parametrize("headers, why", [
    ({"Host": "attacker.example"}, "is not a loopback name"),
    ({"Host": f"attacker.example:{PORT}"}, "is not a loopback name"),
    ({"Origin": "https://attacker.example"}, "is not this panel"),
    ({"Origin": "http://127.0.0.1:9999"}, "is not this panel"),
    ({"Origin": "null"}, "is not this panel"),
    ({"Sec-Fetch-Site": "cross-site"}, "another site"),
])
def test_foreign_host_origin_or_site_gets_403(client, headers, why):
    for path in ("/api/layers", "/"):
        r = client.get(path, headers=headers)
        assert r.status_code == 403 and why in r.json()["error"]
    ok = client.get("/api/layers", headers={"Origin": f"http://127.0.0.1:{PORT}", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 200  # control: the panel's own origin


def test_a_missing_or_wrong_token_gets_403_and_the_token_url_sets_a_cookie(store, isolated_home):
    app = create_app(isolated_home, token=TOKEN, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        for path in ("/", "/api/layers", "/review", "/static/panel.js", "/api/openapi.json"):
            assert c.get(path).status_code == 403
        assert c.get("/api/layers", headers={"X-Memdir-Token": "wrong"}).status_code == 403
        assert c.get("/?token=wrong").status_code == 403
        assert c.get("/api/layers", headers={"X-Memdir-Token": TOKEN}).status_code == 200  # a script's header
        first = c.get("/journal?token=" + TOKEN + "&actor=human")
        assert first.status_code == 303 and first.headers["location"] == "/journal?actor=human"
        assert first.headers["set-cookie"] == f"memdir_panel_{PORT}={TOKEN}; Path=/; HttpOnly; SameSite=Strict"
        assert c.get("/journal?actor=human").status_code == 200  # the cookie now carries the token


def test_mutations_need_json_and_the_csrf_token(client, store, ref):
    url = f"/api/layers/{ref}/memories/db-port/pin"
    form = client.post(url, data={"value": "true"}, headers={"X-CSRF-Token": CSRF})
    assert form.status_code == 403 and "JSON" in form.json()["error"]
    text = client.post(url, content=b'{"value": true}', headers={"Content-Type": "text/plain", "X-CSRF-Token": CSRF})
    assert text.status_code == 403
    no_csrf = client.post(url, content=b'{"value": true}', headers={"Content-Type": "application/json"})
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["error"]
    wrong = post(client, url, {"value": True}, headers={"X-CSRF-Token": "nope"})
    assert wrong.status_code == 403
    assert store.read("db-port", count=False).record.pinned is False
    assert post(client, url, {"value": True}).status_code == 200  # control
    assert store.read("db-port", count=False).record.pinned is True


def test_no_token_mode_keeps_every_other_check(store, isolated_home, ref):
    app = create_app(isolated_home, token=None, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE) as c:
        assert c.get("/api/layers").status_code == 200
        assert c.get("/api/layers", headers={"Host": "attacker.example"}).status_code == 403
        assert c.post(f"/api/layers/{ref}/memories/db-port/pin", data={"value": "true"}).status_code == 403


# ---------------------------------------------------------------- the schema


def test_openapi_documents_every_route(client):
    schema = client.get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    documented = {(m.upper(), p) for p, ops in schema["paths"].items() for m in ops}
    assert documented == {(method, path) for method, path, *_ in ROUTES}
    write = schema["components"]["schemas"]["WriteResult"]["properties"]
    assert write["warnings"] == {"type": "array", "items": {"type": "string"}}
    assert write["digest"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}  # 3.1: JSON Schema, no nullable
    assert '"nullable"' not in json.dumps(schema)
    edit = schema["paths"]["/api/layers/{ref}/memories/{name}"]["post"]
    assert set(edit["requestBody"]["content"]["application/json"]["schema"]["properties"]) >= {
        "name", "title", "description", "type", "body", "importance", "valid_from", "valid_until"}
    refs = json.dumps(schema).count('"$ref": "#/components/schemas/')
    missing = [r for r in json.dumps(schema).split('"$ref": "#/components/schemas/')[1:]
               if r.split('"')[0] not in schema["components"]["schemas"]]
    assert refs > 10 and missing == []
    assert openapi() == schema


# ---------------------------------------------------------------- what the sessions say, not the panel


def test_the_layers_are_whatever_the_sessions_have(store, isolated_home, ref):
    app = create_app(isolated_home, token=None, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE) as c:
        assert [v["ref"] for v in c.get("/api/layers").json()["layers"]] == ["home:user", ref]  # control
    (isolated_home / "config.toml").write_text("enable_user_scope = false\n", encoding="utf-8")
    app = create_app(isolated_home, token=None, csrf=CSRF, port=PORT)
    with TestClient(app, base_url=BASE) as c:
        assert [v["ref"] for v in c.get("/api/layers").json()["layers"]] == [ref]
        missing = c.get("/api/layers/home:user/memories")
        assert missing.status_code == 404 and "no layer 'user' in session 'home'" in missing.json()["error"]


def test_without_the_panel_extra_the_error_names_it(isolated_home, monkeypatch):
    import sys

    from memdir.errors import MissingExtra
    from memdir.version import install_command

    monkeypatch.setitem(sys.modules, "jinja2", None)  # as if not installed
    # the command for how this memdir was installed (an editable clone: pip install -e '<clone>[panel]')
    with pytest.raises(MissingExtra, match=re.escape(install_command("panel"))):
        create_app(isolated_home, token=TOKEN)
    monkeypatch.delitem(sys.modules, "jinja2")
    assert create_app(isolated_home, token=TOKEN) is not None  # control
