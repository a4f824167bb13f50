"""A value deleted or forgotten is no longer asked for by ``<memory_pending>`` (newuser36, the real Claude Code:
after `memdir forget deploy-vpn`, `memdir context` and every prompt's recall still quoted "staging deploys need
the VPN" and asked the agent to save it with memory_write; its tombstone refuses only the value as written, so
the agent's own words would have brought it back). Control: a finding about another fact stays pending."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.prompt import pending
from tests.conftest import run_cli

SAID = "Remember: dev postgres is on 5433, staging deploys need the VPN, and I prefer pnpm."
OTHER = "Remember that the API key rotates every 90 days."


def _store(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("deploy-vpn", "Staging deploys need the corporate VPN", "project",
                 "Run `make deploy-staging` only with the VPN up; otherwise it hangs at the ssh step.")
    person.write("lunch", "Team lunch is on Fridays at noon", "project", "In the cafeteria; the staging team joins.")
    layer = person.session.layer("project")
    with layer.locked():
        pending.add(layer.path, [("remember", SAID), ("remember", OTHER)], "s1")
    assert "staging deploys need the VPN" in _context(project)  # before: the finding is shown
    return person, layer


def _context(project) -> str:
    """What `memdir context` prints in ``project`` (the session start's block, the findings after it)."""
    done = run_cli("context", "--project", project)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("how", ["forget", "delete", "agent-tool"])
def test_a_forgotten_value_leaves_the_pending_findings(isolated_home, project, how):
    person, layer = _store(isolated_home, project)
    if how == "agent-tool":
        agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
        assert "deploy-vpn" in agent.call_tool("memory_delete", {"name": "deploy-vpn"})
    else:
        getattr(person, how)("deploy-vpn")
    assert [item["text"] for item in pending.load(layer.path)] == [OTHER]  # control: the other fact stays
    shown = _context(project)
    assert "VPN" not in shown and "API key rotates every 90 days" in shown


def test_deleting_another_memory_leaves_the_findings(isolated_home, project):
    """Control: a memory the findings do not hold (lunch shares "staging" with SAID) drops neither."""
    person, layer = _store(isolated_home, project)
    person.forget("lunch")
    assert [item["text"] for item in pending.load(layer.path)] == [SAID, OTHER]
