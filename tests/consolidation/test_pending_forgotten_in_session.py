"""A memory the agent saved and then deleted in the same session is not kept as a pending finding by that session's
end (newuser38, the real Gemini CLI's SessionEnd; Claude Code's and Codex's session ends run the same consolidation):
the forget would have dropped the finding had it been pending then (:func:`memdir.prompt.pending.forgotten_by`), and
the tombstone alone refuses only the value as written, not the person's own words. Controls: deleting another memory
in the session leaves the finding pending, and so does a forget made before the person said it."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memdir import Memory
from memdir.prompt import pending
from tests.consolidation.test_consolidate import cc_transcript

SAID = "Please remember: when deploying to staging the corporate VPN has to be up."
VPN = ("deploy-vpn", "Staging deploys need the corporate VPN", "Run make deploy-staging only with the VPN up.")
LUNCH = ("team-lunch", "Team lunch is on Fridays at noon", "In the cafeteria.")


def _session(tmp_path, agent, deleted: str, *, said_after: bool = True) -> tuple[list[str], tuple[str, ...]]:
    """The person says :data:`SAID`; the agent writes :data:`LUNCH` (and :data:`VPN` when it deletes that) and
    deletes ``deleted`` (``said_after`` False: a minute before the session's first turn); the session's end is
    consolidated with the agent extractor. Returns the pending findings' texts after it and the run's notes."""
    for name, description, body in (VPN, LUNCH) if deleted == VPN[0] else (LUNCH,):
        agent.call_tool("memory_write", {"name": name, "description": description, "type": "project", "body": body})
    assert f"Deleted memory: {deleted} (project)" in agent.call_tool("memory_delete", {"name": deleted})
    at = agent.session.layer("project").tombstones()[0].ts
    at = datetime.fromisoformat(at)
    first = -30 if said_after else 90
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", SAID, stamp(first)), ("assistant", "Done.", stamp(120)))
    report = agent.consolidate(path, mode="always", extractor="agent")
    return [item["text"] for item in pending.load(agent.session.layer_path("project"))], report.notes


@pytest.mark.slow
def test_a_memory_deleted_in_the_session_is_not_kept_as_a_pending_finding(tmp_path, isolated_home, project):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    kept, notes = _session(tmp_path, agent, VPN[0])
    assert kept == []  # before: [SAID]
    assert [n for n in notes if n.startswith("pending finding not kept")] == [(
        f"pending finding not kept ({SAID[:60]}): memory 'deploy-vpn' holding it was forgotten during the session "
        f"({agent.session.layer('project').tombstones()[0].id})")]


@pytest.mark.slow
def test_deleting_another_memory_in_the_session_keeps_the_finding(tmp_path, isolated_home, project):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _session(tmp_path, agent, LUNCH[0])[0] == [SAID]  # control: nothing saved or forgotten holds it


@pytest.mark.slow
def test_a_forget_before_the_person_said_it_keeps_the_finding(tmp_path, isolated_home, project):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _session(tmp_path, agent, VPN[0], said_after=False)[0] == [SAID]  # control: said again after the forget
