"""What a tester's trial of the web panel found, each kind as a test beside
its control: renames that overwrote or demoted a memory or dropped its
settings, fields that could not be cleared, a candidate's ``supersedes``
acting before review, an OpenAPI document that did not match the replies
(checked here against real replies with jsonschema), 500s where a 4xx is
due, the token redirect, body size, strict ``Host`` parsing, layer-scoped
tombstone lifts, capped reasons, and stored text shown by the store's rule."""

from __future__ import annotations

import json
import socket

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (the test extra) is not installed")

from memdir.errors import Conflict  # noqa: E402
from memdir.integrations.panel.api import ROUTES, openapi  # noqa: E402
from memdir.integrations.panel.security import MAX_BODY  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.integrations.panel.test_api import (  # noqa: E402,F401
    BASE,
    PORT,
    TOKEN,
    client,
    decide,
    post,
    ref,
    shown,
    store,
)

M = "/api/layers/{ref}/memories/{name}"
from tests.integrations.panel.test_browser import Panel  # noqa: E402


def _record(store, name):
    return store.read(name, "project", count=False).record


def _digest(client, ref, name):
    return client.get(f"/api/layers/{ref}/memories/{name}").json()["digest"]


# ---------------------------------------------------------------- 1-3: rename


def test_rename_onto_an_existing_memory_is_409_and_changes_nothing(client, store, ref):
    store.write("api-url", "The API is at https://api.internal", "reference", "v2", pinned=True)
    before = _record(store, "api-url")
    r = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "api-url",
                                                               "expect_digest": _digest(client, ref, "ci-runner")})
    assert r.status_code == 409 and "a memory called 'api-url' exists" in r.json()["error"]
    assert _record(store, "api-url") == before and _record(store, "ci-runner").status == "active"
    with pytest.raises(Conflict, match="a memory called 'api-url' exists"):  # the store's rule, any writer
        store.write("api-url", "x", "project", rename_from="ci-runner")
    ok = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host"})  # control: a free name
    assert ok.status_code == 200 and ok.json()["text"] == "Memory renamed: ci-host (project)"


def test_a_rename_checks_the_digest_of_the_version_edited(client, store, ref):
    digest = _digest(client, ref, "ci-runner")
    stale = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host", "expect_digest": "stale"})
    assert stale.status_code == 409 and "'ci-runner' changed since this page was loaded" in stale.json()["error"]
    assert stale.json()["current"]["digest"] == digest  # the version there is now, offered
    assert [m.name for m in store.list("project", include_all=True).memories if m.name == "ci-host"] == []
    ok = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host", "expect_digest": digest})
    assert ok.status_code == 200 and _record(store, "ci-runner").superseded_by == "ci-host"


def test_a_candidate_is_not_renamed_onto_an_active_memory(client, store, ref, isolated_home):
    index = lambda: next((isolated_home / "projects").glob("*/MEMORY.md")).read_text(encoding="utf-8")  # noqa: E731
    assert "indent-style.md" in index()
    url = f"/api/layers/{ref}/memories/db-port-candidate"
    for reply in (post(client, url, {"name": "indent-style"}),
                  decide(client, url + "/approve", {"edit": {"name": "indent-style"}})):
        assert reply.status_code == 409 and "a memory called 'indent-style' exists" in reply.json()["error"]
    assert _record(store, "indent-style").status == "active" and "indent-style.md" in index()
    moved = post(client, url, {"name": "db-port-proposal"})  # control: a free name; it stays a candidate
    assert moved.status_code == 200 and moved.json()["result"]["status"] == "candidate"
    approved = decide(client, f"/api/layers/{ref}/memories/db-port-proposal/approve")
    assert approved.status_code == 200 and _record(store, "db-port").description == "Dev PostgreSQL listens on 6543"


def test_a_rename_keeps_every_setting_not_given(client, store, ref):
    # a title a person set apart from the name (one spelled as the old name, "CI runner", is that name's and
    # gives way to the new name's: tests/gateway/test_rename_title.py)
    store.write("ci-runner", "CI runs on the self-hosted runner", "project", "Label: self-hosted-x64.",
                title="Self-hosted runner", pinned=True, disabled=True, importance=9,
                valid_from="2026-01-01T00:00:00Z", valid_until="2030-01-01T00:00:00Z")
    old = _record(store, "ci-runner")
    r = post(client, f"/api/layers/{ref}/memories/ci-runner", {"name": "ci-host", "body": "Label: x64-2."})
    assert r.status_code == 200, r.text
    new = _record(store, "ci-host")
    assert (new.title, new.pinned, new.disabled, new.importance, new.valid_from, new.valid_until, new.body) == (
        "Self-hosted runner", True, True, 9, old.valid_from, old.valid_until, "Label: x64-2.")
    assert _record(store, "ci-runner").status == "superseded" and new.supersedes == "ci-runner"


# ---------------------------------------------------------------- 4: clearing


@pytest.mark.slow
def test_an_emptied_field_is_cleared_and_a_missing_one_kept(client, store, ref, isolated_home, project):
    store.write("ci-runner", "CI runs on the self-hosted runner", "project", "x", title="CI runner", importance=9,
                valid_from="2026-01-01T00:00:00Z", valid_until="2030-01-01T00:00:00Z")
    url = f"/api/layers/{ref}/memories/ci-runner"
    kept = post(client, url, {"title": None, "importance": None, "valid_from": None, "valid_until": None})
    assert kept.json()["result"]["operation"] == "unchanged"  # control: null keeps
    assert _record(store, "ci-runner").importance == 9
    r = post(client, url, {"title": "", "importance": "", "valid_from": "", "valid_until": ""})
    assert r.status_code == 200 and r.json()["result"]["operation"] == "updated"
    rec = _record(store, "ci-runner")
    assert (rec.title, rec.importance, rec.valid_from, rec.valid_until) == (None, None, None, None)
    bad = post(client, url, {"importance": "nine"})
    assert bad.status_code == 400 and 'importance must be an integer (or "" to clear it)' in bad.json()["error"]
    cli = ("--home", isolated_home, "--project", project)
    run_cli(*cli, "write", "ci-runner", "-t", "project", "-d", "CI runs on the self-hosted runner", "--title", "T",
            "--importance", "3")
    assert (_record(store, "ci-runner").title, _record(store, "ci-runner").importance) == ("T", 3)
    done = run_cli(*cli, "write", "ci-runner", "-t", "project", "-d", "CI runs on the self-hosted runner",
                   "--title", "", "--clear", "importance")
    assert done.returncode == 0, done.stderr
    assert (_record(store, "ci-runner").title, _record(store, "ci-runner").importance) == (None, None)


# ---------------------------------------------------------------- 5: a candidate's supersedes


@pytest.mark.slow
def test_a_candidates_supersedes_takes_effect_on_approval_only(client, store, ref, isolated_home, project):
    cli = ("--home", isolated_home, "--project", project)
    made = run_cli(*cli, "write", "db-port2", "-t", "project", "-d", "Dev PostgreSQL listens on 7000", "--candidate",
                   "--supersedes", "db-port")
    assert made.returncode == 0, made.stderr
    assert _record(store, "db-port").status == "active"  # not retired before review
    item = shown(client, "db-port2")
    assert (item["change"], item["target"]) == ("replace", "db-port")
    page = client.get("/review").text
    assert "Would replace (approving retires it)" in page and "Nothing to replace" not in page.split("db-port2")[1]
    assert decide(client, f"/api/layers/{ref}/memories/db-port2/reject").status_code == 200
    kept = _record(store, "db-port")
    assert (kept.status, kept.superseded_by) == ("active", None)
    run_cli(*cli, "write", "db-port3", "-t", "project", "-d", "Dev PostgreSQL listens on 7001", "--candidate",
            "--supersedes", "db-port")
    assert decide(client, f"/api/layers/{ref}/memories/db-port3/approve").status_code == 200  # control
    retired = _record(store, "db-port")
    assert (retired.status, retired.superseded_by) == ("superseded", "db-port3")


# ---------------------------------------------------------------- 6: the OpenAPI document matches the replies


def _check(schema, route_schema, data):
    jsonschema.Draft202012Validator({**route_schema, "components": schema["components"]}).validate(data)


def test_every_reply_matches_its_openapi_schema(client, store, ref):
    schema = client.get("/api/openapi.json").json()
    assert schema == openapi() and '"nullable"' not in json.dumps(schema)
    ok = {(m, p): s for m, p, _h, _t, _b, s, _q in ROUTES}
    m = f"/api/layers/{ref}/memories"
    store.delete("ci-runner", "project")
    stone = client.get("/api/tombstones").json()["tombstones"][0]["id"]
    gets = {"/api/layers": "/api/layers", "/api/layers/{ref}/memories": m + "?q=port",
            "/api/layers/{ref}/memories/{name}": m + "/db-port", "/api/layers/{ref}/memories/{name}/history":
            m + "/db-port/history", "/api/layers/{ref}/memories/{name}/versions/{version}": m + "/db-port/versions/1",
            "/api/layers/{ref}/memories/{name}/diff": m + "/db-port/diff?a=1&b=1", "/api/review": "/api/review",
            "/api/tombstones": "/api/tombstones", "/api/journal": "/api/journal?limit=5"}
    assert set(gets) == {p for (method, p) in ok if method == "GET"}
    for path, url in gets.items():
        reply = client.get(url)
        assert reply.status_code == 200, (url, reply.text)
        _check(schema, ok[("GET", path)], reply.json())
    store.as_actor("agent").write("ci-pool", "CI runs on pool B", "project", "Pool B.", status="candidate")
    posts = [("", m + "/db-port", {"description": "Dev PostgreSQL listens on 5434"}),
             ("/pin", m + "/db-port/pin", {}), ("/mute", m + "/db-port/mute", {}),
             ("/restore", m + "/db-port/restore", {"version": 1}),
             ("/approve", m + "/db-port-candidate/approve", {}),
             ("/reject", m + "/indent-style-candidate/reject", {}),
             ("/dismiss", m + "/ci-pool/dismiss", {}),
             ("/delete", m + "/db-port/delete", {})]
    assert {suffix for suffix, _u, _b in posts} == {p[len(M):] for (method, p) in ok if method == "POST"
                                                    and p.startswith(M)}
    for suffix, url, body in posts:
        reply = (decide if suffix in ("/approve", "/reject", "/dismiss") else post)(client, url, body)
        assert reply.status_code == 200, (url, reply.text)
        _check(schema, ok[("POST", "/api/layers/{ref}/memories/{name}" + suffix)], reply.json())
    lift = post(client, f"/api/layers/{ref}/tombstones/{stone}/lift", {})  # ci-runner's, of the project layer
    assert lift.status_code == 200, lift.text
    _check(schema, ok[("POST", "/api/layers/{ref}/tombstones/{id}/lift")], lift.json())
    with pytest.raises(jsonschema.ValidationError):  # control: a reply of another shape fails
        _check(schema, ok[("GET", "/api/layers")], {"layers": 5, "unavailable": []})
    params = {p: [q["name"] for q in op["get"]["parameters"] if q["in"] == "query"]
              for p, op in schema["paths"].items() if "get" in op}
    assert params["/api/journal"] == ["layer", "actor", "action", "name", "limit", "all"]
    assert params["/api/layers/{ref}/memories/{name}/diff"] == ["a", "b"]
    assert params["/api/layers/{ref}/memories"] == ["q"] and params["/api/review"] == []


# ---------------------------------------------------------------- 7-9: 4xx, not 500; redirect; size


def test_bad_requests_get_4xx_not_500(client, ref):
    assert client.get(f"/api/layers/{ref}/memories/db-port/versions/1").status_code == 200  # control
    for version in ("0", "-1", "99"):
        reply = client.get(f"/api/layers/{ref}/memories/db-port/versions/{version}")
        assert reply.status_code == 404 and "has no version" in reply.json()["error"], version
    assert client.get(f"/layer/{ref}/m/db-port?version=0").status_code == 404
    deep = client.post(f"/api/layers/{ref}/memories/db-port/pin", content="[" * 100000,
                       headers={"Content-Type": "application/json", "X-CSRF-Token": "test-csrf-0123456789"})
    assert deep.status_code == 400 and "nests too deeply" in deep.json()["error"]


@pytest.mark.slow
def test_panel_with_a_file_as_home_fails_up_front(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    done = run_cli("--home", afile, "panel")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"memdir: the memdir home '{afile}' (--home) is not a directory; "
                                                "give a directory (it is created when missing)"]


def _raw_get(port: int, target: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data.decode("latin-1")


@pytest.mark.slow
def test_the_token_redirect_stays_on_the_panel_and_survives_crlf(store, isolated_home):
    running = Panel(isolated_home)
    try:
        token, port = running.url.split("token=")[1], int(running.base.rsplit(":", 1)[1])
        head = _raw_get(port, f"/layer/x?token={token}&a=1").split("\r\n\r\n")[0].lower()
        assert head.startswith("http/1.1 303") and "\r\nlocation: /layer/x?a=1\r\n" in head  # control
        head = _raw_get(port, f"//attacker.example/x?token={token}").split("\r\n\r\n")[0].lower()
        assert head.startswith("http/1.1 303") and "\r\nlocation: /attacker.example/x\r\n" in head
        head = _raw_get(port, f"/%0d%0aSet-Cookie:%20x=1?token={token}").split("\r\n\r\n")[0].lower()
        assert head.startswith("http/1.1 303") and "\r\nlocation: /%0d%0aset-cookie:%20x=1\r\n" in head
        assert "\r\nset-cookie: x=1" not in head
    finally:
        stderr = running.stop()
    assert "Traceback" not in stderr


def test_a_body_over_the_limit_is_413(client, ref):
    url = f"/api/layers/{ref}/memories/db-port/pin"
    headers = {"Content-Type": "application/json", "X-CSRF-Token": "test-csrf-0123456789"}
    assert client.post(url, content=b"{}" + b" " * 1000, headers=headers).status_code == 200  # control
    big = client.post(url, content=b"{}" + b" " * MAX_BODY, headers=headers)
    assert big.status_code == 413 and big.json()["kind"] == "TooLarge"
    chunked = client.post(url, content=iter([b"{}"] + [b" " * 65536] * (MAX_BODY // 65536 + 1)), headers=headers)
    assert chunked.status_code == 413


# ---------------------------------------------------------------- 10: strict checks, scoped lifts, the CLI


@pytest.mark.slow
@pytest.mark.parametrize("host", [f"127.0.0.1:{PORT}@attacker.example", "[::1", f"localhost:{PORT}:80",
                                  f"127.0.0.1:{PORT}.attacker.example"])
def test_a_loose_host_is_refused(client, host):
    assert client.get("/api/layers").status_code == 200  # control
    for good in (f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}"):
        assert client.get("/api/layers", headers={"Host": good}).status_code == 200, good
    reply = client.get("/api/layers", headers={"Host": host})
    assert reply.status_code == 403 and "is not a loopback name" in reply.json()["error"]


@pytest.mark.slow
def test_a_repeated_origin_or_fetch_site_header_is_refused(client):
    good = f"http://127.0.0.1:{PORT}"
    assert client.get("/api/layers", headers=[("Origin", good)]).status_code == 200  # control
    for name, values in (("Origin", ("https://attacker.example", good)), ("Sec-Fetch-Site", ("cross-site", "none"))):
        reply = client.get("/api/layers", headers=[(name, v) for v in values])
        assert reply.status_code == 403 and f"more than once: {name.lower()}" in reply.json()["error"]


def test_a_lift_lifts_a_tombstone_of_the_urls_layer_only(client, store, ref):
    store.delete("editor", "user")
    stone = store.tombstones("user").tombstones[0].id
    wrong = post(client, f"/api/layers/{ref}/tombstones/{stone}/lift", {})
    assert wrong.status_code == 404 and wrong.json()["error"] == f"no tombstone {stone!r} in the project layer"
    assert "--project" not in wrong.json()["error"]
    assert [s.id for s in store.tombstones("user").tombstones] == [stone]
    right = post(client, f"/api/layers/home:user/tombstones/{stone}/lift", {"reason": "r" * 5000})
    assert right.status_code == 200 and store.tombstones("user").tombstones == ()
    event = store.journal("user", action="tombstone-lift").entries[0]
    assert event.reason == "r" * 160  # cut to the one-line field limit


def test_a_short_lift_reason_is_kept_whole(client, store):
    store.delete("editor", "user")
    stone = store.tombstones("user").tombstones[0].id
    lifted = post(client, f"/api/layers/home:user/tombstones/{stone}/lift", {"reason": "typo\u202e fixed"})
    assert lifted.status_code == 200
    assert store.journal("user", action="tombstone-lift").entries[0].reason == "typo fixed"


def test_panel_help_offers_no_project_and_the_favicon_is_empty(client, isolated_home):
    shown = run_cli("panel", "--help")
    assert shown.returncode == 0 and "--port" in shown.stdout and "--project" not in shown.stdout
    refused = run_cli("--home", isolated_home, "panel", "--project", isolated_home)
    assert refused.returncode == 2 and "--project does not apply to the panel" in refused.stderr
    icon = client.get("/favicon.ico")
    assert icon.status_code == 204 and icon.content == b""


# ---------------------------------------------------------------- 11: stored text by the store's rule


def test_pages_show_titles_and_text_without_bidi_overrides(client, store, ref, isolated_home):
    layer_dir = next((isolated_home / "projects").glob("*/db-port.md")).parent
    path = layer_dir / "db-port.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("description:", "title: \"Port\u202eevil\"\ndescription:", 1), encoding="utf-8")
    layer_page = client.get(f"/layer/{ref}").text
    memory_page = client.get(f"/layer/{ref}/m/db-port").text
    for page in (layer_page, memory_page):
        assert "Portevil" in page and "\u202e" not in page  # the title shown, its override dropped


# ---------------------------------------------------------------- memdir journal: the panel's journal on the CLI


@pytest.mark.slow
def test_memdir_journal_lists_what_the_panel_journal_shows(client, store, isolated_home, project):
    cli = ("--home", isolated_home, "--project", project)
    panel = [(e["seq"], e["action"], e["name"]) for e in client.get("/api/journal?layer=home:user").json()["entries"]]
    shown = run_cli(*cli, "--json", "journal", "--scope", "user")
    assert shown.returncode == 0, shown.stderr
    assert [(e["seq"], e["action"], e["name"]) for e in json.loads(shown.stdout)["entries"]] == panel
    assert panel == [(1, "create", "editor")]
    text = run_cli(*cli, "journal", "--scope", "user").stdout
    assert " user " in text and "create" in text and "editor v1" in text
    none = run_cli(*cli, "journal", "--scope", "user", "--action", "delete").stdout  # a filter that matches nothing
    assert none.strip() == "No journal events."
