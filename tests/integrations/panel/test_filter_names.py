"""The layer page's filter finds a memory by the name the CLI prints, also when the row shows its title
(newuser34: `grosse-grenze`, as `memdir list` names it, filtered the row titled größe-grenze out)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir import Memory
from memdir.paths import project_key
from tests.integrations.panel import test_browser as browser

browser_page = browser.browser_page  # the browser fixture, shared with the panel's other browser tests

pytestmark = pytest.mark.slow


def test_the_filter_finds_a_memory_by_its_name_and_by_its_title(isolated_home, project, browser_page):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("größe-grenze", "Uploads are limited to 10 MB", "project")
    korean = mem.write("배포-절차", "스테이징 배포는 VPN 연결이 필요합니다", "project").name
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project")
    panel = browser.Panel(isolated_home)
    try:
        page = browser_page
        page.goto(panel.url)
        page.goto(f"{panel.base}/layer/{project_key(project)}:project")
        rows = page.locator("#memories tbody tr[data-name]")

        def visible(text: str) -> list[str]:
            page.fill("[data-filter]", text)
            return [r.get_attribute("data-name") for r in rows.all() if r.is_visible()]

        assert sorted(visible("")) == sorted(["db-port", "grosse-grenze", korean])  # control: every row
        assert visible("grosse-grenze") == ["grosse-grenze"]  # the name `memdir list` prints
        assert visible("größe") == ["grosse-grenze"]  # the title the row shows still finds it
        assert visible(korean) == [korean]
        assert visible("배포") == [korean]
        assert visible("no-such-memory") == []
    finally:
        panel.stop()
