"""The edit form shows a memory's valid times as the store does (UTC, ``Z``): a hand-written
``valid_from: 2026-11-30T12:00:00+02:00`` showed as ``2026-11-30T12:00:00Z`` — two hours off under a ``Z``
— and a time with microseconds lost them (break39: the template formatted with strftime, keeping the
offset's clock and dropping the fraction). A person who moved the date a day earlier in the form wrote a time
two hours later than they read. Real server (`memdir panel`), raw HTTP, then Chromium."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir import Memory
from memdir.files.memfile import format_time
from memdir.paths import project_key
from tests.integrations.panel.test_browser import browser_page  # noqa: F401  (a fixture)

pytestmark = pytest.mark.slow  # a real server process


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.",
                 valid_until="2027-01-01T08:30:00.250000Z")  # control: UTC already, with a fraction
    folder = person.session.layer("project").path
    (folder / "maint.md").write_text("---\nname: maint\ndescription: Maintenance window on Fridays\ntype: project\n"
                                     "valid_from: 2026-11-30T12:00:00+02:00\n---\nFridays 18:00-20:00.\n")
    return person


def _form_times(panel, page: str) -> dict:
    code, _, body = panel.request("GET", page)
    assert code == 200
    return {k: html.unescape(v) for k, v in re.findall(r'<input name="(valid_\w+)" value="([^"]*)"', body.decode())}


def test_the_form_shows_valid_times_in_utc_as_the_api_does(panel, person, project):
    ref = f"{project_key(project.resolve())}:project"
    assert _form_times(panel, f"/layer/{ref}/m/maint") == {"valid_from": "2026-11-30T10:00:00Z", "valid_until": ""}
    code, reply, _ = panel.request("GET", f"/api/layers/{ref}/memories/maint")
    assert (code, reply["valid_from"]) == (200, "2026-11-30T10:00:00Z")  # the same instant, said alike
    # Control: a UTC time is shown as it is, its fraction kept (format_time's form, as the API gives it).
    assert _form_times(panel, f"/layer/{ref}/m/db-port") == {"valid_from": "", "valid_until": "2027-01-01T08:30:00.250000Z"}
    assert panel.request("GET", f"/api/layers/{ref}/memories/db-port")[1]["valid_until"] == "2027-01-01T08:30:00.250000Z"


def test_moving_the_shown_date_a_day_earlier_moves_the_instant_a_day_earlier(panel, person, project, browser_page):  # noqa: F811
    page = browser_page
    ref = f"{project_key(project.resolve())}:project"
    page.goto(f"http://127.0.0.1:{panel.port}/?token={panel.token}")
    page.goto(f"http://127.0.0.1:{panel.port}/layer/{ref}/m/maint")
    shown = page.input_value("input[name=valid_from]")
    assert shown == "2026-11-30T10:00:00Z"
    page.fill("input[name=valid_from]", shown.replace("2026-11-30", "2026-11-29"))
    page.click("form.edit button[type=submit]")
    page.wait_for_selector("text=Memory updated: maint (project)")
    record = person.read("maint", "project", count=False).record
    assert format_time(record.valid_from) == "2026-11-29T10:00:00Z"
    assert record.body == "Fridays 18:00-20:00."  # control: what the person did not touch is kept
