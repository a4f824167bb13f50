"""A person's approval is warned — never blocked — when the candidate's value matches another layer's
tombstone, or a teammate's; the warning reaches the decision's result and every surface that shows it:
the API, `memdir approve`, the panel's API (issue 24 §2). Each beside an approval that is not warned."""

from __future__ import annotations

import json

import pytest

from memdir.errors import TombstoneRefused

from memdir.paths import project_key
from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow  # real subprocesses, git

FACTS = {"deploys": "Staging deploys run from the release branch",
         "deploys-cli": "The nightly build publishes wheels to the internal index",
         "deploys-panel": "Feature flags live in LaunchDarkly under the app project"}


def _digest(person, name: str) -> str:
    return next(c.digest for c in person.review().candidates if c.name == name)


def _forget_in_user_layer(person, name: str, description: str) -> str:
    """A value the person forgets in the user layer: the tombstone's id."""
    person.write(name, description, "user", "b")
    return person.delete(name, "user").tombstone


def test_approving_a_value_another_layer_forgot_is_warned_on_the_api_the_cli_and_the_panel(
        mem, person, isolated_home, project):
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app

    for name, fact in FACTS.items():
        mem.write(name, fact, "project", "b", status="candidate")
        _forget_in_user_layer(person, f"old-{name}", fact)
    mem.write("lint", "Lint with ruff", "project", "b", status="candidate")
    stone = person.tombstones("user").tombstones[0].id
    decided = person.approve("deploys", digest=_digest(person, "deploys"))
    assert (decided.name, decided.approved) == ("deploys", True)
    assert decided.warnings == (
        f"written though it matches a forgotten value (the same value; tombstone {stone}, memory 'old-deploys', "
        f"deleted by human on {person.tombstones('user').tombstones[0].ts[:10]}), because it is a person's own "
        f"write and the tombstone is another layer's; `memdir tombstone lift {stone} --scope user` lifts the tombstone",)
    assert person.approve("lint", digest=_digest(person, "lint")).warnings == ()  # control: nothing forgotten
    cli = run_cli("--project", project, "approve", "deploys-cli")
    assert cli.returncode == 0 and "Approved deploys-cli → deploys-cli (project)" in cli.stdout
    assert "memdir: warning: written though it matches a forgotten value" in cli.stderr
    assert "memory 'old-deploys-cli'" in cli.stderr
    token, csrf, port = "test-token-0123456789", "test-csrf-0123456789", 8766
    with TestClient(create_app(isolated_home, token=token, csrf=csrf, port=port),
                    base_url=f"http://127.0.0.1:{port}") as client:
        client.cookies.set(f"memdir_panel_{port}", token)
        url = f"/api/layers/{project_key(project.resolve())}:project/memories/deploys-panel/approve"
        answer = client.post(url, content=json.dumps({"digest": _digest(person, "deploys-panel")}),
                             headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    assert answer.status_code == 200, answer.text
    assert answer.json()["text"] == "Approved deploys-panel → deploys-panel (project)"
    (warning,) = answer.json()["warnings"]
    assert warning.startswith("warning: written though it matches a forgotten value") and "old-deploys-panel" in warning


def test_approving_a_team_candidate_the_team_forgot_is_refused_naming_the_tombstone(tmp_path):
    # The team layer's own tombstone binds a person writing into the team layer (a teammate's "this is wrong");
    # in a personal layer it only warns (the test above).
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    agent.write("freeze", "Merge freeze in December", "project", "b", scope="team")
    agent.write("release", "Releases are tagged vX.Y.Z", "project", "b", scope="team")
    person.write("old-freeze", "Merge freeze in December", "project", "b", scope="team")
    forgot = person.delete("old-freeze", "team")
    with pytest.raises(TombstoneRefused) as refused:
        person.approve("freeze", "team", digest=_digest(person, "freeze"))
    assert f"tombstone {forgot.tombstone}, memory 'old-freeze', forgotten in the team layer" in str(refused.value)
    assert f"memdir tombstone lift {forgot.tombstone}" in str(refused.value)
    assert person.tombstones("team").tombstones[0].id == forgot.tombstone  # the one named is listed
    assert person.approve("release", "team", digest=_digest(person, "release")).warnings == ()  # control
