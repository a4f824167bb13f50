"""A decision on a candidate approved since the review showed it (a second tab, a second click) is the
stale-decision conflict, in the panel's words: before (break39) it was 400 "'x' is active, not a candidate;
see `memdir review`" — a command line in the browser — while the same race inside the lock was a 409.
Real server (`memdir panel`, a subprocess), raw HTTP; the CLI as a subprocess."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir import Memory
from memdir.paths import project_key
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # a real server process

DECIDED = "candidate 'indent' was already decided or changed meanwhile (approved, rejected or dismissed elsewhere)"


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.as_actor("agent").write("indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    return person


def test_a_second_decision_on_an_approved_candidate_is_a_conflict_in_the_panels_words(panel, person, project,
                                                                                      isolated_home):
    url = f"/api/layers/{project_key(project.resolve())}:project/memories/indent"
    (shown,) = person.review("project").candidates
    body = json.dumps({"digest": shown.digest}).encode()
    code, reply, _ = panel.request("POST", f"{url}/approve", body, panel.json_headers())  # control: the first one
    assert (code, reply["text"]) == (200, "Approved indent → indent (project)")
    for how in ("approve", "reject", "dismiss"):  # the same page's buttons, clicked again
        code, reply, _ = panel.request("POST", f"{url}/{how}", body, panel.json_headers())
        assert (code, reply) == (409, {"error": f"{DECIDED} (reload the review to see it as it is now)",
                                       "kind": "Conflict"}), how
    record = person.read("indent", "project", count=False).record
    assert (record.status, record.description, person.tombstones("project").tombstones) == (
        "active", "Indent with tabs", ())
    # The CLI with the digest says its own way to see it again; without one, what the name is now.
    cli = run_cli("--home", isolated_home, "--project", project, "approve", "indent", "--digest", shown.digest)
    assert (cli.returncode, cli.stderr.strip()) == (1, f"memdir: {DECIDED} (`memdir review` shows it as it is now)")
    cli = run_cli("--home", isolated_home, "--project", project, "approve", "indent")
    assert (cli.returncode, cli.stderr.strip()) == (1, "memdir: 'indent' is active, not a candidate; see `memdir review`")
