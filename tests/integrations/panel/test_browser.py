"""The web panel for real: `memdir panel` as a subprocess on 127.0.0.1, then
Debian's Chromium driven by Playwright through a person's flows (see two
layers, edit, pin, approve, reject, restore, lift), a screenshot of each page
in the test's temp dir. Set UPDATE_PANEL_SCREENSHOT=1 to refresh docs/panel-layers.png.

Chromium is never downloaded (no `playwright install`): `make test` installs
Debian's package with apt when it can; without it the browser tests skip and
say why. The server tests need no browser."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.paths import project_key  # noqa: E402
from tests.conftest import REPO, interrupt, run_cli  # noqa: E402
from tests.panel_store import build  # noqa: E402

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class Panel:
    """`memdir panel` in a subprocess: its printed address, stderr, and the process."""

    def __init__(self, home, *extra):
        self.proc = subprocess.Popen([sys.executable, "-m", "memdir.cli", "--home", str(home), "panel", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        deadline, line = time.monotonic() + 60, ""
        while time.monotonic() < deadline and not line:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if ready:
                line = self.proc.stdout.readline()
            elif self.proc.poll() is not None:
                break
        assert line.startswith("memdir panel: http://127.0.0.1:"), (line, self.proc.poll())
        self.url = line.split(": ", 1)[1].strip()
        self.base = self.url.split("/?")[0].rstrip("/")

    def stop(self) -> str:
        interrupt(self.proc)
        return self.proc.stderr.read()


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    return build(isolated_home, project, monkeypatch)


@pytest.fixture
def panel(store, isolated_home):
    running = Panel(isolated_home)
    yield running
    running.stop()


def _get(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


# ---------------------------------------------------------------- the server, no browser


def test_memdir_panel_serves_on_loopback_with_a_token(panel):
    token = panel.url.split("token=")[1]
    assert len(token) >= 40
    assert _get(panel.base + "/api/layers")[0] == 403
    status, body = _get(panel.base + "/api/layers", {"X-Memdir-Token": token})
    assert status == 200 and '"ref": "home:user"' in body.replace('":"', '": "')
    assert _get(panel.base.replace("127.0.0.1", "localhost") + "/api/layers", {"X-Memdir-Token": token})[0] == 200
    assert _get(panel.base + "/api/layers", {"X-Memdir-Token": token, "Host": "attacker.example"})[0] == 403


def test_no_token_warns_and_still_checks_the_host(store, isolated_home):
    running = Panel(isolated_home, "--no-token")
    try:
        assert "token=" not in running.url
        assert _get(running.base + "/api/layers")[0] == 200
        assert _get(running.base + "/api/layers", {"Host": "attacker.example"})[0] == 403
    finally:
        stderr = running.stop()
    assert "warning: --no-token" in stderr


def test_a_bad_port_is_a_usage_error_and_a_taken_one_a_clear_error(panel, isolated_home):
    result = run_cli("panel", "--port", "70000")
    assert result.returncode == 2 and "--port must be from 0 to 65535" in result.stderr
    taken = panel.base.rsplit(":", 1)[1]
    result = run_cli("--home", isolated_home, "--json", "panel", "--port", taken)
    assert result.returncode == 1 and f"cannot listen on 127.0.0.1:{taken}" in result.stderr
    assert json.loads(result.stdout)["kind"] == "InvalidInput"


def test_json_prints_the_address_port_and_token(store, isolated_home):
    proc = subprocess.Popen([sys.executable, "-m", "memdir.cli", "--home", str(isolated_home), "--json", "panel"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        info = json.loads(proc.stdout.readline())
        assert info["url"] == f"http://127.0.0.1:{info['port']}/?token={info['token']}"
        assert _get(info["url"].split("?")[0] + "api/layers", {"X-Memdir-Token": info["token"]})[0] == 200
    finally:
        interrupt(proc)


# ---------------------------------------------------------------- the browser


@pytest.fixture
def browser_page(tmp_path):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"Debian's Chromium is not at {CHROMIUM}: `make test` installs it with apt "
                    "(apt-get install -y chromium) when apt is available and it runs as root")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.accept())  # the confirmations of delete/reject/restore/lift
            yield page
        finally:
            context.close()


def _memory_line(store, name: str) -> str:
    return run_cli("--home", store.home, "--project", store.project_root, "read", name).stdout


def test_a_person_reviews_corrects_and_audits_in_the_browser(panel, browser_page, store, tmp_path):
    page, shots = browser_page, tmp_path / "screenshots"
    shots.mkdir()
    ref = f"{project_key(store.project_root)}:project"

    # Layers: the user layer and the project layer, with the project's root.
    page.goto(panel.url)
    assert page.url == panel.base + "/"  # the token went into a cookie, out of the address bar
    assert page.locator("#layers tbody tr[data-ref]").count() == 2
    assert page.locator(f'tr[data-ref="{ref}"]').inner_text().count(str(store.project_root)) == 1
    page.screenshot(path=str(shots / "layers.png"), full_page=True)
    if os.environ.get("UPDATE_PANEL_SCREENSHOT") == "1":
        shutil.copy(shots / "layers.png", REPO / "docs" / "panel-layers.png")

    # A layer: pin ci-runner; it leads MEMORY.md.
    page.click(f'a[href="/layer/{ref}"]')
    page.screenshot(path=str(shots / "layer.png"), full_page=True)
    rows = page.locator("#memories tbody tr[data-name]")
    page.fill("[data-filter]", "postgres")
    assert [r.get_attribute("data-name") for r in rows.all() if r.is_visible()] == ["db-port", "db-port-candidate"]
    page.select_option("[data-filter-state]", "candidate")
    assert [r.get_attribute("data-name") for r in rows.all() if r.is_visible()] == ["db-port-candidate"]
    page.fill("[data-filter]", "")
    page.select_option("[data-filter-state]", "")
    assert len([r for r in rows.all() if r.is_visible()]) == 5
    index = store.session.layer("project").path / "MEMORY.md"
    assert "ci-runner" not in index.read_text().splitlines()[0]  # control
    page.locator('tr[data-name="ci-runner"] button', has_text="Pin").click()
    page.wait_for_selector('tr[data-name="ci-runner"] >> text=Unpin')
    assert "ci-runner" in index.read_text(encoding="utf-8").splitlines()[0]
    assert page.locator("#message").inner_text() == "Pinned: ci-runner (project)"

    # A memory: edit db-port; `memdir read` shows the change.
    page.goto(f"{panel.base}/layer/{ref}/m/db-port")
    page.fill('form.edit input[name="description"]', "Dev PostgreSQL listens on 5434")
    page.fill('form.edit textarea[name="body"]', "Moved to 5434 for the new cluster.")
    page.click('form.edit button[type="submit"]')
    page.wait_for_selector("text=Memory updated: db-port (project)")
    assert "Dev PostgreSQL listens on 5434" in _memory_line(store, "db-port")
    page.screenshot(path=str(shots / "memory.png"), full_page=True)

    # Errors show inline and change nothing: the memory changed since the page was read (a write from a
    # terminal; `memdir read` above changed nothing, issue 24), then a tombstoned value.
    assert run_cli("--home", store.home, "--project", store.project_root, "write", "db-port", "--body",
                   "Moved to 5434 for the new cluster (confirmed).").returncode == 0
    store.write("old-host", "Old host is box-9.example.org", "project")
    store.forget("old-host")
    error = page.locator("form.edit [data-error]")
    page.fill('form.edit input[name="description"]', "Dev PostgreSQL listens on 5435")
    page.click('form.edit button[type="submit"]')
    page.wait_for_selector("form.edit [data-error]:not([hidden])")
    assert error.inner_text() == ("memory 'db-port' changed since this page was loaded; nothing was changed. "
                                  "Look at the current version, then try again.\n"
                                  "Now: Dev PostgreSQL listens on 5434 Show the current version")
    assert page.input_value('form.edit input[name="description"]') == "Dev PostgreSQL listens on 5435"  # kept
    page.reload()
    page.fill('form.edit input[name="description"]', "Old host is box-9.example.org")
    page.click('form.edit button[type="submit"]')
    page.wait_for_selector("form.edit [data-error]:not([hidden])")
    assert "tombstone" in error.inner_text()
    assert "Dev PostgreSQL listens on 5434" in _memory_line(store, "db-port")

    # History: a diff, then restore version 1.
    page.goto(f"{panel.base}/layer/{ref}/m/db-port?a=1&b=2")
    assert page.locator("pre.diff .del", has_text="5433").count() >= 1
    page.screenshot(path=str(shots / "history.png"), full_page=True)
    page.locator('tr[data-version="1"] button', has_text="Restore").click()
    page.wait_for_selector("text=Restored db-port to version 1")
    assert "Dev PostgreSQL listens on 5433" in _memory_line(store, "db-port")

    # Review: approve one candidate, reject the other.
    page.goto(f"{panel.base}/review")
    assert page.locator("section.candidate").count() == 2
    page.screenshot(path=str(shots / "review.png"), full_page=True)
    page.locator('section[data-name="indent-style-candidate"] p.actions button', has_text="Approve").click()
    page.wait_for_selector("text=Approved indent-style-candidate → indent-style (project)")
    page.locator('section[data-name="db-port-candidate"] p.actions button', has_text="Reject").click()
    page.wait_for_selector("text=No candidates waiting for review.")
    assert "Indent with 4 spaces, not tabs" in _memory_line(store, "indent-style")
    assert "Dev PostgreSQL listens on 5433" in _memory_line(store, "db-port")

    # Tombstones: the rejected value and the forgotten host; lift the rejected one.
    page.goto(f"{panel.base}/tombstones")
    assert page.locator("#tombstones tbody tr[data-id]").count() == 2
    page.screenshot(path=str(shots / "tombstones.png"), full_page=True)
    page.locator("#tombstones tr", has_text="db-port-candidate").locator("button", has_text="Lift").click()
    page.wait_for_selector("text=its value may be written again")
    assert [s.name for s in store.tombstones().tombstones] == ["old-host"]

    # Journal: the person's actions, each linking to the version it produced.
    page.goto(f"{panel.base}/journal?actor=human")
    assert page.locator("#journal", has_text="tombstone-lift").count() == 1
    page.screenshot(path=str(shots / "journal.png"), full_page=True)
    page.click(f'a[href="/layer/{ref}/m/db-port?version=2"]')
    assert "Dev PostgreSQL listens on 5434" in page.locator("pre.version").inner_text()

    assert sorted(p.name for p in shots.iterdir()) == [
        "history.png", "journal.png", "layer.png", "layers.png", "memory.png", "review.png", "tombstones.png"]
    assert all(p.stat().st_size > 5000 for p in shots.iterdir())


def test_a_rename_in_the_edit_form_takes_the_new_names_title(panel, browser_page, store):
    """The form sends only what the person changed: a rename whose title field was left as shown takes
    the new name's title (the form sent the old title back as given, and ``로그-정책`` stayed titled
    ``로그-규칙``, found by no read of its name); a title the person typed is kept (the control)."""
    page, ref = browser_page, f"{project_key(store.project_root)}:project"
    store.write("로그-규칙", "Log retention rule", "project", "로그는 30일 동안 보관한다.")
    store.write("Café-notes", "Notes on coffee", "project", "Espresso, no sugar.")
    page.goto(panel.url)  # the token goes into a cookie
    page.goto(f"{panel.base}/layer/{ref}/m/m-ba33f3db12")
    assert page.input_value('form.edit input[name="title"]') == "로그-규칙"
    page.fill('form.edit input[name="name"]', "로그-정책")
    page.click('form.edit button[type="submit"]')
    # the success line names the hash-named memory with its (new) title, as its listing row does
    page.wait_for_selector("text=Memory renamed: m-94121b80ff “로그-정책” (project)")
    assert "title: 로그-정책" in _memory_line(store, "로그-정책").splitlines()
    page.goto(f"{panel.base}/layer/{ref}/m/cafe-notes")
    page.fill('form.edit input[name="name"]', "Thé-notes")
    page.fill('form.edit input[name="title"]', "Tea and coffee")
    page.click('form.edit button[type="submit"]')
    page.wait_for_selector("text=Memory renamed: the-notes (project)")
    assert "title: Tea and coffee" in _memory_line(store, "Thé-notes").splitlines()


def test_an_error_page_shows_a_quoted_script_as_text(panel, browser_page, store):
    """An error page quoting ``<script>`` (a layer named so in the address) shows it as text, runs nothing (no
    dialog opens) and holds no element of it; a plain error page shows its words (control, same browser)."""
    page, ref = browser_page, f"{project_key(store.project_root)}:project"
    opened: list[str] = []
    page.on("dialog", lambda dialog: opened.append(dialog.message))
    page.goto(panel.url)  # the token goes into a cookie
    page.goto(f"{panel.base}/layer/%3Cscript%3Ealert(1)%3Cb%3E:project")  # no "/": one segment of the path
    assert page.locator("main script").count() == page.locator("main b").count() == 0 and opened == []
    assert page.inner_text("p.error").startswith("no project layer '<script>alert(1)<b>'")
    page.goto(f"{panel.base}/layer/{ref}/m/nothing-here")
    assert (page.inner_text("h1"), page.inner_text("p.error")[:53]) == (
        "NotFound", 'memory not found: "nothing-here" in the project layer')
