"""A vague request the agent answered with a memory in the same session is not pending at the next start
(left28 item 3). "Remember the search service facts" → the agent wrote ``search-service``; before, the
session's end kept the request as pending anyway: half its content words were in the memory
(``covers``), but "service facts" beside "service runs" read as a correction (``corrects``). Now a vague
request (a request word or "facts"/"stuff", at most three topic words, no value) is covered by a memory written
during the session whose name, title or description names its whole topic (``coverage.requested``); a write of
another topic, or of part of it, does not cover it, and a request that states values is judged as before."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memdir import Memory
from memdir.prompt import coverage, pending
from tests.consolidation.test_consolidate import cc_transcript

REQUEST = "Remember the search service facts."
WRITTEN = ("search-service", "Search service runs Elasticsearch 8 on port 9200",
           "Behind nginx on search.internal; the index is rebuilt nightly at 02:00 UTC.")


def _session(tmp_path, agent, said: str, *writes) -> list[str]:
    """A session in which the person says ``said`` and the agent then writes ``writes`` (name, description, body);
    its end consolidated with the agent extractor. Returns the pending findings' texts after it."""
    for name, description, body in writes:
        agent.call_tool("memory_write", {"name": name, "description": description, "type": "project", "body": body})
    at = agent.read(writes[-1][0], count=False).record.updated
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", said, stamp(-30)), ("assistant", "Saved.", stamp(5)))
    agent.consolidate(path, mode="always", extractor="agent")
    return [item["text"] for item in pending.load(agent.session.layer_path("project"))]


@pytest.mark.slow
def test_a_vague_request_answered_in_the_session_is_not_pending(tmp_path, isolated_home, project):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert coverage.covers(REQUEST, " ".join(WRITTEN)) and coverage.corrects(REQUEST, " ".join(WRITTEN))  # the cause
    assert _session(tmp_path, agent, REQUEST, WRITTEN) == []  # before: ["Remember the search service facts."]


@pytest.mark.slow
@pytest.mark.parametrize("written", [
    ("deploy-steps", "Deploys go through the ops runbook", "Ask in #ops first."),  # another topic
    ("auth-service", "Auth service tokens live 15 minutes", "Refresh before expiry."),  # part of the topic
])
def test_a_write_of_another_topic_leaves_the_request_pending(tmp_path, isolated_home, project, written):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _session(tmp_path, agent, REQUEST, written) == [REQUEST]  # control: still asked for


@pytest.mark.slow
def test_a_finding_that_states_a_value_is_judged_as_before(tmp_path, isolated_home, project):
    """A correction made of the written memory's words is no vague request: it stays pending (control)."""
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    said = "Remember the search service runs on port 9300 now."
    assert coverage.request_topic(said) == frozenset()
    assert _session(tmp_path, agent, said, WRITTEN) == [said]


def test_a_later_write_naming_the_topic_ends_a_pending_request(isolated_home, project):
    """The same rule for a write in a later session (``expire_covered``): the head names the topic."""
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    layer = agent.session.layer("project")
    with layer.locked():
        pending.add(layer.path, [("remember", REQUEST)], "s1")
    agent.write("auth-service", "Auth service tokens live 15 minutes", "project", "Refresh before expiry.")
    assert [i["text"] for i in pending.load(layer.path)] == [REQUEST]  # control: another topic leaves it
    agent.write(*WRITTEN[:2], "project", WRITTEN[2])
    assert pending.load(layer.path) == []
