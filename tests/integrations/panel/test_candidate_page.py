"""The panel's memory page of a team candidate shows the candidate as review does — a change with the live
text, the proposed text and their diff; a new memory with its whole text — never only the live team memory
of its name (issue 24 §1)."""

from __future__ import annotations

import html

import pytest

pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from starlette.testclient import TestClient  # noqa: E402

from memdir.integrations.panel.app import create_app  # noqa: E402
from memdir.paths import project_key  # noqa: E402
from tests.teamgit import shared_repository  # noqa: E402

pytestmark = pytest.mark.slow  # real git

TOKEN, CSRF, PORT = "test-token-0123456789", "test-csrf-0123456789", 8767


def test_a_team_candidates_page_shows_the_candidate_with_its_diff_beside_the_live_memory(tmp_path):
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.", scope="team")
    person.write("lint", "Lint with ruff", "project", "ruff check.", scope="team")
    agent.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", scope="team")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.", scope="team")
    ref = f"{project_key(a.root.resolve())}:team"
    with TestClient(create_app(a.home, token=TOKEN, csrf=CSRF, port=PORT), base_url=f"http://127.0.0.1:{PORT}") as c:
        c.cookies.set(f"memdir_panel_{PORT}", TOKEN)
        change = c.get(f"/layer/{ref}/m/ci")
        new = c.get(f"/layer/{ref}/m/deploy-day")
        plain = c.get(f"/layer/{ref}/m/lint")
        missing = c.get(f"/layer/{ref}/m/no-such-memory")
        api_new = c.get(f"/api/layers/{ref}/memories/deploy-day")
    assert change.status_code == 200
    page = html.unescape(change.text)
    digest = next(x.digest for x in person.review().candidates if x.name == "ci")
    assert "A proposed change to this memory waits for review" in page
    assert f'data-change="change" data-digest="{digest}"' in page
    assert "-description: CI runs on GitHub Actions\n+description: CI runs on Buildkite" in page  # the diff
    assert '<pre class="proposed">description: CI runs on Buildkite\ntype: project\n\nPipeline in .buildkite.\n' in page
    assert f"/api/layers/{ref}/memories/ci/approve" in page and 'href="/review"' in page
    assert "<dd>CI runs on GitHub Actions</dd>" in page  # the live memory, still in force, below
    assert new.status_code == 200, new.text  # it answered NotFound: the team layer has no deploy-day yet
    page = html.unescape(new.text)
    assert "This candidate waits for review" in page and 'data-change="new"' in page
    assert "description: Deploys happen on Tuesdays\ntype: project\n\nNever on Fridays.\n" in page
    assert "(deleted)" not in page and "<h2>History</h2>" not in page
    # controls: a team memory with no candidate shows no review block; a name with nothing is not found
    assert plain.status_code == 200 and "waits for review" not in plain.text and "<dd>Lint with ruff</dd>" in plain.text
    assert missing.status_code == 404
    assert api_new.status_code == 404 and "a candidate waiting for review" in api_new.json()["error"]
