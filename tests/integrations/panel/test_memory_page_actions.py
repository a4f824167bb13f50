"""The memory page has the pin, mute and delete buttons the layer page has, under the same rules: each
carries the digest of the version the page shows (a memory changed since: 409, nothing changed; the
control, the page reloaded, is made), and CSRF, Origin and the token come before the version.
`memdir panel` runs as a real server (uvicorn, a subprocess); the other writer is the CLI, a subprocess;
one case is clicked in a real browser (Debian's Chromium through Playwright; without it that case skips
and says why, as tests/integrations/panel/test_browser.py)."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from tests.integrations.panel.test_browser import Panel as BrowserPanel  # noqa: E402
from tests.integrations.panel.test_browser import browser_page  # noqa: E402,F401 (a fixture)
from tests.integrations.panel.test_stale_page import (  # noqa: E402,F401
    STALE,
    actions,
    elsewhere,
    person,
    post,
    ref,
)

pytestmark = pytest.mark.slow  # a real server process


def page_button(panel, path: str, action: str) -> tuple[str, bytes]:
    """The URL and JSON body the memory page's ``action`` button posts, as the page's script sends them."""
    page = panel.request("GET", path)[2].decode()
    block = re.search(r'<p class="actions" id="memory-actions">(.*?)</p>', page, re.DOTALL).group(1)
    url, body = re.search(rf"data-post=\"([^\"]+/{action})\" data-body='([^']*)'", block).groups()
    return html.unescape(url), html.unescape(body).encode()


DONE = {"pin": "Pinned", "mute": "Muted"}  # the success line of each act (render: the act's own word)


@pytest.mark.parametrize("action, flag", [("pin", "pinned"), ("mute", "disabled")])
def test_pin_and_mute_on_the_memory_page_carry_its_version(panel, person, ref, action, flag):
    path = f"/layer/{ref}/m/db-port"
    url, body = page_button(panel, path, action)
    assert url == f"/api/layers/{ref}/memories/db-port/{action}"
    assert json.loads(body) == {"value": True, "expect_digest": person.read("db-port", "project", count=False).digest}
    elsewhere(person, "write", "db-port", "--body", "Moved again, to 6543.")
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, STALE)
    assert getattr(person.read("db-port", "project", count=False).record, flag) is False
    assert action not in actions(person)
    url, body = page_button(panel, path, action)  # control: the page reloaded
    code, reply = post(panel, url, body)
    assert (code, reply["text"]) == (200, f"{DONE[action]}: db-port (project)")  # the act done, as the CLI says it
    record = person.read("db-port", "project", count=False).record
    assert getattr(record, flag) is True and record.body == "Moved again, to 6543."
    undo = {"pin": "Unpin", "mute": "Unmute"}[action]  # the reloaded page offers the undo, with the new version
    url, body = page_button(panel, path, action)
    assert json.loads(body) == {"value": False, "expect_digest": person.read("db-port", "project", count=False).digest}
    assert f">{undo}</button>" in panel.request("GET", path)[2].decode()


def test_delete_on_the_memory_page_carries_its_version(panel, person, ref):
    url, body = page_button(panel, f"/layer/{ref}/m/db-port", "delete")
    _, other = page_button(panel, f"/layer/{ref}/m/ci-runner", "delete")
    assert json.loads(body) == {"expect_digest": person.read("db-port", "project", count=False).digest}
    elsewhere(person, "write", "db-port", "-d", "Dev PostgreSQL listens on 6543", "--body", "Moved to 6543.")
    code, reply = post(panel, url, body)
    assert (code, reply["error"]) == (409, STALE)
    assert person.read("db-port", "project", count=False).record.description == "Dev PostgreSQL listens on 6543"
    assert person.tombstones("project").tombstones == ()
    code, reply = post(panel, url.replace("db-port", "ci-runner"), other)  # control: a page left as it was
    assert (code, reply["text"].split(".")[0]) == (200, "Deleted memory: ci-runner (project)")
    assert [stone.name for stone in person.tombstones("project").tombstones] == ["ci-runner"]


def test_csrf_origin_and_token_come_before_the_version(panel, person, ref):
    url, body = page_button(panel, f"/layer/{ref}/m/db-port", "pin")
    refusals = [
        ({"Content-Type": "application/json"}, "missing or wrong CSRF token (X-CSRF-Token)"),
        ({**panel.json_headers(), "Origin": "http://evil.example"}, "Origin 'http://evil.example' is not this panel"),
        ({**panel.json_headers(), "X-Memdir-Token": "wrong"},
         "missing or wrong token: open the address `memdir panel` printed"),
    ]
    for headers, error in refusals:
        code, reply, _ = panel.request("POST", url, body, headers)
        assert (code, reply["error"]) == (403, error), headers
    assert person.read("db-port", "project", count=False).record.pinned is False
    own = {**panel.json_headers(), "Origin": f"http://127.0.0.1:{panel.port}", "Sec-Fetch-Site": "same-origin"}
    assert panel.request("POST", url, body, own)[0] == 200  # control: the panel's own page
    assert person.read("db-port", "project", count=False).record.pinned is True


@pytest.fixture
def browser_panel(person, isolated_home):
    running = BrowserPanel(isolated_home)
    yield running
    running.stop()


def test_delete_clicked_on_the_memory_page_in_a_browser(browser_panel, browser_page, person, ref):
    page, panel = browser_page, browser_panel
    page.goto(panel.url)  # the token goes into a cookie
    page.goto(f"{panel.base}/layer/{ref}/m/db-port")  # the browser accepts the confirmation (browser_page)
    elsewhere(person, "write", "db-port", "--body", "Moved again, to 6543.")
    page.locator("#memory-actions button", has_text="Delete").click()
    page.wait_for_selector("#message.error:not([hidden])")
    assert page.locator("#message").inner_text().startswith(STALE)
    assert person.tombstones("project").tombstones == ()
    page.reload()  # control: the page loaded again deletes this version
    page.locator("#memory-actions button", has_text="Delete").click()
    page.wait_for_selector("text=Deleted memory: db-port (project)")
    assert [stone.name for stone in person.tombstones("project").tombstones] == ["db-port"]
    assert "(deleted)" in page.locator("h1").inner_text()
