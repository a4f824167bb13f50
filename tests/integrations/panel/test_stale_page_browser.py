"""The Delete button of a layer page loaded before another process changed the memory, clicked in a
real browser (Debian's Chromium driven by Playwright, `memdir panel` as a subprocess): nothing is
deleted, the page says the memory changed since it was loaded and links the current version; the
control is the same button once the page is reloaded, which deletes. Chromium is never downloaded;
without it the test skips and says why (as tests/integrations/panel/test_browser.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.paths import project_key  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.integrations.panel.test_browser import Panel, browser_page  # noqa: E402,F401 (a fixture)
from tests.integrations.panel.test_stale_page import person  # noqa: E402,F401 (a fixture)

pytestmark = pytest.mark.slow  # a real server and a real browser


@pytest.fixture
def panel(person, isolated_home):
    running = Panel(isolated_home)
    yield running
    running.stop()


def test_delete_clicked_on_a_stale_layer_page_deletes_nothing_and_offers_the_current_version(
        panel, browser_page, person):
    page, ref = browser_page, f"{project_key(person.project_root)}:project"
    page.goto(panel.url)  # the token goes into a cookie
    page.goto(f"{panel.base}/layer/{ref}")
    delete = page.locator('tr[data-name="db-port"] button', has_text="Delete")
    assert delete.is_visible()
    changed = run_cli("--home", person.home, "--project", person.project_root, "write", "db-port",
                      "-d", "Dev PostgreSQL listens on 6543", "--body", "Moved to 6543.")  # another process
    assert changed.returncode == 0, changed.stderr

    delete.click()
    page.wait_for_selector("#message.error:not([hidden])")
    assert page.locator("#message").inner_text() == (
        "memory 'db-port' changed since this page was loaded; nothing was changed. Look at the current version, "
        "then try again.\nNow: Dev PostgreSQL listens on 6543 Show the current version")
    record = person.read("db-port", "project", count=False).record
    assert (record.description, record.body) == ("Dev PostgreSQL listens on 6543", "Moved to 6543.")
    assert person.tombstones("project").tombstones == ()
    assert delete.is_enabled()  # the page stays as it was, the button usable again

    page.locator("#message a", has_text="Show the current version").click()  # the version offered
    page.wait_for_url(f"{panel.base}/layer/{ref}/m/db-port")
    assert "Dev PostgreSQL listens on 6543" in page.locator("dl.meta").inner_text()

    page.goto(f"{panel.base}/layer/{ref}")  # control: the page loaded again shows, and deletes, this version
    page.locator('tr[data-name="db-port"] button', has_text="Delete").click()
    page.wait_for_selector("text=Deleted memory: db-port (project)")
    assert [stone.name for stone in person.tombstones("project").tombstones] == ["db-port"]
    assert page.locator('tr[data-name="db-port"]').count() == 0
    assert page.locator('tr[data-name="ci-runner"]').count() == 1
