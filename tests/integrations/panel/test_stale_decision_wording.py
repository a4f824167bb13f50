"""A decision on a candidate that changed since it was shown is refused in the adapter's own words: the
CLI names `memdir review`, the panel says to reload the review; the operation's text names neither."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import Conflict
from tests.conftest import run_cli


@pytest.mark.slow
def test_each_adapter_says_how_to_see_the_candidate_again(isolated_home, project):
    pytest.importorskip("starlette", reason="the panel extra is not installed")
    from memdir.integrations.panel.home import PanelHome
    from memdir.integrations.panel.views import decide
    from memdir.paths import project_key
    from memdir.settings import Settings

    person = Memory.open(home=isolated_home, project=project, actor="human")
    agent = person.as_actor("agent")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project")
    agent.write("db-port", "Dev PostgreSQL listens on 6543", "project", status="candidate")
    (shown,) = person.review().candidates
    agent.write("db-port", "Dev PostgreSQL listens on 7654", "project", status="candidate")  # changed since
    with pytest.raises(Conflict) as raised:
        person.approve(shown.name, "project", digest=shown.digest)
    assert "changed since it was shown" in str(raised.value)
    assert "memdir review" not in str(raised.value) and "reload" not in str(raised.value)
    cli = run_cli("--home", isolated_home, "--project", project, "approve", shown.name, "--digest", shown.digest)
    assert cli.returncode == 1 and "`memdir review` shows it as it is now" in cli.stderr, cli.stderr
    ref = f"{project_key(project.resolve())}:project"
    with pytest.raises(Conflict) as panel:
        decide(PanelHome(isolated_home, Settings()), ref, shown.name, "approve", {"digest": shown.digest})
    assert "reload the review to see it as it is now" in str(panel.value)
    assert "memdir" not in str(panel.value).split("shown", 1)[1]  # no CLI command in the browser
    (now,) = person.review().candidates  # control: the candidate as it is now is approved
    decide(PanelHome(isolated_home, Settings()), ref, now.name, "approve", {"digest": now.digest})
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 7654"
