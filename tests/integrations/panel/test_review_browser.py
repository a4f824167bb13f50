"""The panel's review in a real browser (Debian's Chromium driven by Playwright) for a team change, a
team creation and a personal change: each shown as what approving it does, approved or dismissed, and a
proposal changed after the page was shown refused (issue 24)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from tests.integrations.panel.test_browser import Panel, browser_page  # noqa: E402,F401
from tests.teamgit import shared_repository  # noqa: E402

pytestmark = pytest.mark.slow


def _section(page, name):
    return page.locator(f'section.candidate[data-name="{name}"]')


def _decide(page, name, button):
    page.goto(page.url)
    _section(page, name).locator(f"p.actions button:text-is('{button}')").click()
    page.wait_for_selector(f'section.candidate[data-name="{name}"]', state="detached")


def test_review_in_the_browser_shows_and_applies_exactly_what_was_shown(tmp_path, browser_page):  # noqa: F811
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team")
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.", scope="project")
    agent.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate")
    agent.write("lint", "Lint with ruff", "project", "ruff check.", status="candidate")
    panel = Panel(a.home)
    page = browser_page
    try:
        page.goto(panel.url)
        page.goto(f"{panel.base}/review")
        team_change, creation = _section(page, "ci"), _section(page, "deploy-day")
        assert team_change.get_attribute("data-change") == "change"
        assert "GitHub Actions" in team_change.locator("pre.live").inner_text()
        assert "Buildkite" in team_change.locator("pre.proposed").inner_text()
        assert "GitHub Actions" not in team_change.locator("pre.proposed").inner_text()
        assert "+description: CI runs on Buildkite" in team_change.locator("pre.diff").inner_text()
        assert "New memory" not in team_change.inner_text()
        assert creation.get_attribute("data-change") == "new"
        assert "Never on Fridays." in creation.locator("pre.proposed").inner_text()
        personal = _section(page, "db-port-candidate")
        assert "-description: Dev PostgreSQL listens on 5433" in personal.locator("pre.diff").inner_text()
        # The agent changes its team proposal after the page was shown: Approve is refused, nothing written.
        agent.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile.", scope="team")
        team_change.locator("p.actions button:text-is('Approve')").click()
        page.wait_for_selector("#message.error")
        assert "changed since it was shown" in page.locator("#message").inner_text()
        assert "GitHub Actions" in (a.team_dir / "ci.md").read_text()
        page.reload()
        assert "Jenkins" in _section(page, "ci").locator("pre.proposed").inner_text()
        _decide(page, "ci", "Approve")  # control: what is shown now
        assert "CI runs on Jenkins" in (a.team_dir / "ci.md").read_text()
        _decide(page, "deploy-day", "Dismiss")
        assert not (a.team_dir / "deploy-day.md").exists() and person.tombstones().tombstones == ()
        again = agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
        assert again.operation == "dismissed"
        _decide(page, "db-port-candidate", "Approve")
        assert person.read("db-port", "project", count=False).record.description == "Dev PostgreSQL listens on 6543"
        _decide(page, "lint", "Dismiss")
        assert [c.name for c in person.review().candidates] == []
        assert person.tombstones().tombstones == ()
    finally:
        panel.stop()


def test_edit_then_approve_of_team_candidates_in_the_browser(tmp_path, browser_page):  # noqa: F811
    """The form starts from what approving writes (importance 6 from the live memory); fields the person
    left alone are not cleared, for a team change and a team creation alike (a new user's trial)."""
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team", importance=6)
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    panel = Panel(a.home)
    page = browser_page
    try:
        page.goto(panel.url)
        page.goto(f"{panel.base}/review")
        for name, body in (("ci", "Pipeline in .buildkite/pipeline.yml."), ("deploy-day", "Never on a Friday.")):
            section = _section(page, name)
            section.locator("details summary:text-is('Edit, then approve')").click()
            form = section.locator("form.edit")
            assert form.locator('input[name="importance"]').input_value() == ("6" if name == "ci" else "")
            form.locator('textarea[name="body"]').fill(body)
            form.locator("button[type=submit]").click()
            page.wait_for_selector(f'section.candidate[data-name="{name}"]', state="detached")
        ci = person.read("ci", "team", count=False).record
        assert (ci.description, ci.body, ci.importance) == ("CI runs on Buildkite", "Pipeline in .buildkite/pipeline.yml.", 6)
        day = person.read("deploy-day", "team", count=False).record
        assert (day.description, day.body, day.importance) == ("Deploys happen on Tuesdays", "Never on a Friday.", None)
        assert person.review().candidates == ()
    finally:
        panel.stop()
