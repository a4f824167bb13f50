"""The memory page shows a team memory's git commits, each with a Restore button carrying the page's digest
(left28 item 5). Before, the page showed only memdir's own versions: restoring ``{"commit": ID}`` was for API
callers alone. `memdir panel` runs as a real server (uvicorn, a subprocess) clicked in a real browser (Debian's
Chromium through Playwright; without it the browser case skips and says why, as test_browser.py); the other
writer is the CLI, a subprocess. A page left stale is refused (409) and changes nothing; the control, the page
reloaded, restores the commit."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.paths import project_key  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.integrations.panel.test_browser import Panel, browser_page  # noqa: E402,F401 (browser_page: a fixture)
from tests.teamgit import git, shared_repository  # noqa: E402

pytestmark = pytest.mark.slow  # a real server process, real git

STALE = ("memory 'ci' changed since this page was loaded; nothing was changed. "
         "Look at the current version, then try again.")


@pytest.fixture
def team(tmp_path):
    """Clone A with team memory ``ci`` in two commits (GitHub Actions, then Jenkins), its panel running."""
    a, _ = shared_repository(tmp_path)
    person = a.memory()
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team")
    a.commit_all("ci runs on GitHub Actions")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    person.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile.", scope="team")
    a.commit_all("move ci to Jenkins")
    second = git(a.root, "rev-parse", "HEAD").stdout.strip()
    running = Panel(a.home)
    yield a, person, running, f"/layer/{project_key(a.root.resolve())}:team/m/ci", (second, first)
    running.stop()


def _elsewhere(a, *args: str) -> None:
    done = run_cli("--home", a.home, "--project", a.root, *args)
    assert done.returncode == 0, done.stderr


def test_the_memory_page_lists_the_commits_with_a_restore_carrying_its_digest(team):
    import urllib.request

    _, person, panel, path, commits = team
    request = urllib.request.Request(panel.base + path, headers={"X-Memdir-Token": panel.url.split("token=")[1]})
    with urllib.request.urlopen(request, timeout=30) as reply:
        page = reply.read().decode()
    rows = re.findall(r'<tr data-commit="([0-9a-f]+)">(.*?)</tr>', page, re.DOTALL)
    assert [commit for commit, _ in rows] == list(commits)  # newest first; the README's commit holds no ci.md
    assert "move ci to Jenkins" in rows[0][1] and "ci runs on GitHub Actions" in rows[1][1]
    post, body = re.search(r"data-post=\"([^\"]+)\" data-body='([^']*)'", rows[1][1]).groups()
    assert html.unescape(post) == path.replace("/layer/", "/api/layers/").replace("/m/", "/memories/") + "/restore"
    assert json.loads(html.unescape(body)) == {"commit": commits[1],
                                               "expect_digest": person.read("ci", "team", count=False).digest}


def test_a_project_memory_page_has_no_commits_section(team):
    """Control: git's commits are the team layer's history; a personal memory's page shows none."""
    import urllib.request

    a, person, panel, _, _ = team
    person.write("local-note", "A personal note", "project", "Mine.")
    personal = f"/layer/{project_key(a.root.resolve())}:project/m/local-note"
    request = urllib.request.Request(panel.base + personal, headers={"X-Memdir-Token": panel.url.split("token=")[1]})
    with urllib.request.urlopen(request, timeout=30) as reply:
        page = reply.read().decode()
    assert "<h2>History</h2>" in page and 'id="commits"' not in page


def test_restore_a_commit_clicked_in_a_browser_is_refused_on_a_stale_page_and_made_on_a_fresh_one(
        team, browser_page):
    a, person, panel, path, commits = team
    page = browser_page
    page.goto(panel.url)  # the token goes into a cookie
    page.goto(panel.base + path)
    assert page.locator("#commits tbody tr").count() == 2
    _elsewhere(a, "write", "ci", "--scope", "team", "-d", "CI runs on Drone", "--body", "Drone file.")
    page.locator(f'#commits tr[data-commit="{commits[1]}"] button', has_text="Restore").click()
    page.wait_for_selector("#message.error:not([hidden])")
    assert page.locator("#message").inner_text().startswith(STALE)
    assert "CI runs on Drone" in (a.team_dir / "ci.md").read_text()  # nothing changed
    page.reload()  # control: the page loaded again restores the commit
    page.locator(f'#commits tr[data-commit="{commits[1]}"] button', has_text="Restore").click()
    page.wait_for_selector(f"text=Restored ci as of git commit {commits[1][:12]}")
    assert person.read("ci", "team", count=False).record.body == "Workflow ci.yml."
    assert "CI runs on GitHub Actions" in (a.team_dir / "ci.md").read_text()
