"""A change asked from a page loaded before another process changed the memory acts on nothing.

`memdir panel` runs as a real server (uvicorn, a subprocess); each test reads a page over HTTP as the
browser does, takes the body a button (or the edit form) would send — with the digest of the version
the page shows — then a second process (`memdir write`/`delete`, a real CLI subprocess) changes the
memory, and the button's body is posted: 409, the memory as the other process left it, the current
version offered. The control in each: the same action with the digest the page shows once reloaded
(the one the 409 offered) is made. Last, the CSRF and Origin rules still come first."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir import Memory  # noqa: E402
from memdir.paths import project_key  # noqa: E402
from tests.conftest import run_cli  # noqa: E402

pytestmark = pytest.mark.slow  # a real server process

STALE = ("memory 'db-port' changed since this page was loaded; nothing was changed. "
         "Look at the current version, then try again.")


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    person.write("ci-runner", "CI runs on the self-hosted runner", "project", "Label: self-hosted-x64.")
    return person


@pytest.fixture
def ref(project):
    return f"{project_key(project.resolve())}:project"


def button(panel, path: str, row: str, action: str) -> tuple[str, bytes]:
    """The URL and JSON body the ``action`` button of the row ``row`` (``data-name`` or ``data-version``)
    of the page at ``path`` posts, as the page's script sends them."""
    page = panel.request("GET", path)[2].decode()
    tr = re.search(rf'<tr data-(?:name|version)="{re.escape(row)}"[^>]*>(.*?)</tr>', page, re.DOTALL).group(1)
    url, body = re.search(rf"data-post=\"([^\"]+/{action})\" data-body='([^']*)'", tr).groups()
    return html.unescape(url), html.unescape(body).encode()


def post(panel, url: str, body: bytes):
    code, reply, _ = panel.request("POST", url, body, panel.json_headers())
    return code, reply


def elsewhere(person, *args: str) -> None:
    """Another process changes the store: the CLI, as a subprocess."""
    result = run_cli("--home", person.home, "--project", person.project_root, *args)
    assert result.returncode == 0, result.stderr


def actions(person, name: str = "db-port") -> list[str]:
    return [event.action for event in person.journal("project", name=name).entries]


def test_delete_from_a_stale_layer_page_is_refused_and_the_current_version_offered(panel, person, ref):
    url, body = button(panel, f"/layer/{ref}", "db-port", "delete")
    shown = person.read("db-port", "project", count=False).digest
    assert json.loads(body) == {"expect_digest": shown}  # the page carries the version it shows
    elsewhere(person, "write", "db-port", "-d", "Dev PostgreSQL listens on 6543", "--body", "Moved to 6543.")
    now = person.read("db-port", "project", count=False)
    code, reply = post(panel, url, body)
    assert (code, reply["kind"], reply["error"]) == (409, "Conflict", STALE)
    assert reply["current"]["digest"] == now.digest != shown
    assert reply["current"]["memory"]["description"] == "Dev PostgreSQL listens on 6543"
    assert reply["current"]["url"] == f"/layer/{ref}/m/db-port"
    assert person.read("db-port", "project", count=False).record.description == "Dev PostgreSQL listens on 6543"
    assert person.tombstones("project").tombstones == () and "delete" not in actions(person)
    url, body = button(panel, f"/layer/{ref}", "db-port", "delete")  # control: the page reloaded
    assert json.loads(body) == {"expect_digest": reply["current"]["digest"]}
    code, reply = post(panel, url, body)
    assert (code, reply["text"].split(".")[0]) == (200, "Deleted memory: db-port (project)")
    assert [s.name for s in person.tombstones("project").tombstones] == ["db-port"]


def test_a_memory_deleted_since_the_page_was_loaded_is_said_so(panel, person, ref):
    url, body = button(panel, f"/layer/{ref}", "db-port", "delete")
    ci_url, ci_body = button(panel, f"/layer/{ref}", "ci-runner", "delete")
    elsewhere(person, "delete", "db-port")
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, ("memory 'db-port' was deleted since this page was loaded; nothing was "
                                            "changed. Its history can restore it."))
    assert reply["current"] == {"name": "db-port", "digest": None, "url": f"/layer/{ref}/m/db-port", "memory": None}
    assert actions(person).count("delete") == 1  # the other process's only
    code, reply = post(panel, ci_url, ci_body)  # control: the same page's button of a memory left as shown
    assert code == 200 and reply["result"]["name"] == "ci-runner"


DONE = {"pin": "Pinned", "mute": "Muted"}  # the success line of each act (render: the act's own word)


@pytest.mark.parametrize("action, flag", [("pin", "pinned"), ("mute", "disabled")])
def test_pin_and_mute_from_a_stale_layer_page_are_refused(panel, person, ref, action, flag):
    url, body = button(panel, f"/layer/{ref}", "db-port", action)
    assert json.loads(body) == {"value": True, "expect_digest": person.read("db-port", "project", count=False).digest}
    elsewhere(person, "write", "db-port", "--body", "Moved again, to 6543.")
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, STALE)
    assert reply["current"]["memory"]["body"] == "Moved again, to 6543." and reply["current"]["memory"][flag] is False
    assert getattr(person.read("db-port", "project", count=False).record, flag) is False
    assert action not in actions(person)
    url, body = button(panel, f"/layer/{ref}", "db-port", action)  # control: reloaded
    code, reply = post(panel, url, body)
    assert (code, reply["text"]) == (200, f"{DONE[action]}: db-port (project)")  # the act done, as the CLI says it
    assert getattr(person.read("db-port", "project", count=False).record, flag) is True
    record = person.read("db-port", "project", count=False).record
    assert record.body == "Moved again, to 6543."  # the other process's text, kept


def test_restore_from_a_stale_memory_page_is_refused(panel, person, ref):
    elsewhere(person, "write", "db-port", "--body", "Moved to 5434.")  # version 2; the page offers v1
    url, body = button(panel, f"/layer/{ref}/m/db-port", "1", "restore")
    assert json.loads(body) == {"version": 1, "expect_digest": person.read("db-port", "project", count=False).digest}
    elsewhere(person, "write", "db-port", "--body", "Moved to 5435, the new cluster.")  # version 3
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, STALE)
    assert reply["current"]["memory"]["body"] == "Moved to 5435, the new cluster."
    assert person.read("db-port", "project", count=False).record.body == "Moved to 5435, the new cluster."
    assert "restore" not in actions(person)
    url, body = button(panel, f"/layer/{ref}/m/db-port", "1", "restore")  # control: reloaded
    code, reply = post(panel, url, body)
    assert (code, reply["text"]) == (200, "Restored db-port to version 1 (project, updated).")
    assert person.read("db-port", "project", count=False).record.body == "Moved on 2026-11-02."


def test_restore_from_a_deleted_memory_page_is_refused_once_it_was_written_again(panel, person, ref):
    elsewhere(person, "delete", "ci-runner")
    person.lift_tombstone(person.tombstones("project").tombstones[0].id, scope="project")  # v1 may come back
    url, body = button(panel, f"/layer/{ref}/m/ci-runner", "1", "restore")
    assert json.loads(body) == {"version": 1, "expect_digest": ""}  # the page shows it deleted
    elsewhere(person, "write", "ci-runner", "-d", "CI runs on runner pool B", "--body", "Pool B.")
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, STALE.replace("db-port", "ci-runner"))
    assert reply["current"]["memory"]["description"] == "CI runs on runner pool B"
    assert person.read("ci-runner", "project", count=False).record.description == "CI runs on runner pool B"
    assert "restore" not in actions(person, "ci-runner")
    url, body = button(panel, f"/layer/{ref}/m/ci-runner", "1", "restore")  # control: reloaded, it is live
    assert json.loads(body) == {"version": 1, "expect_digest": reply["current"]["digest"]}
    code, reply = post(panel, url, body)
    assert (code, reply["text"]) == (200, "Restored ci-runner to version 1 (project, updated).")
    assert person.read("ci-runner", "project", count=False).record.description == "CI runs on the self-hosted runner"


def test_an_edit_from_a_stale_memory_page_is_refused(panel, person, ref):
    page = panel.request("GET", f"/layer/{ref}/m/db-port")[2].decode()
    shown = re.search(r'name="expect_digest" value="([0-9a-f]{64})"', page).group(1)
    url = f"/api/layers/{ref}/memories/db-port"
    elsewhere(person, "write", "db-port", "--body", "Moved again, to 6543.")
    code, reply = post(panel, url, json.dumps({"description": "Dev PostgreSQL listens on 5434",
                                              "expect_digest": shown}).encode())
    assert (code, reply["error"]) == (409, STALE)
    assert reply["current"]["memory"]["body"] == "Moved again, to 6543."
    record = person.read("db-port", "project", count=False).record
    assert (record.description, record.body) == ("Dev PostgreSQL listens on 5433", "Moved again, to 6543.")
    code, reply = post(panel, url, json.dumps({"description": "Dev PostgreSQL listens on 5434",  # control
                                              "expect_digest": reply["current"]["digest"]}).encode())
    assert (code, reply["text"]) == (200, "Memory updated: db-port (project)")
    assert person.read("db-port", "project", count=False).record.body == "Moved again, to 6543."


def test_csrf_and_origin_still_come_before_the_version(panel, person, ref):
    url, stale = button(panel, f"/layer/{ref}", "db-port", "pin")
    elsewhere(person, "write", "db-port", "--body", "Moved again, to 6543.")
    _, fresh = button(panel, f"/layer/{ref}", "db-port", "pin")
    refusals = [
        ({"Content-Type": "application/json"}, "missing or wrong CSRF token (X-CSRF-Token)"),
        ({**panel.json_headers(), "Origin": "http://evil.example"}, "Origin 'http://evil.example' is not this panel"),
        ({**panel.json_headers(), "Sec-Fetch-Site": "cross-site"}, "a request from another site"),
        ({**panel.json_headers(), "X-Memdir-Token": "wrong"},
         "missing or wrong token: open the address `memdir panel` printed"),
    ]
    for headers, error in refusals:
        for body in (stale, fresh):  # neither a stale page's body nor a current one gets past them
            code, reply, _ = panel.request("POST", url, body, headers)
            assert (code, reply["error"], "current" in reply) == (403, error, False), headers
    assert person.read("db-port", "project", count=False).record.pinned is False
    same_origin = {**panel.json_headers(), "Origin": f"http://127.0.0.1:{panel.port}", "Sec-Fetch-Site": "same-origin"}
    assert panel.request("POST", url, stale, same_origin)[0] == 409  # controls: the panel's own page
    assert panel.request("POST", url, fresh, same_origin)[0] == 200
    assert person.read("db-port", "project", count=False).record.pinned is True
