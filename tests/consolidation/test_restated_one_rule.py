"""One "already says it" rule on every path (rev49c): the rules extractor's 90% word share and the agent extractor's
80% share stood beside :func:`memdir.consolidation.restating.saved_by`; both now ask it (the rules extractor turns
what a memory says into an update of it, reported ``unchanged``; the run leaves such an agent finding out), and the
workspace's AGENTS.md/CLAUDE.md is read by :func:`~memdir.consolidation.restating.in_workspace`. A negation built of
the memory's words ("the staging deploy no longer needs the VPN") is a change on both extractors; the restatement
("remember that the staging deploy needs the VPN") is unchanged (the controls, in the same store). A ``supersede``
and a feedback memory's **Why:** lines are read against restatement too."""

from __future__ import annotations

import json

from memdir import Memory
from memdir.consolidation.extractors.agent import AgentExtractor
from memdir.consolidation.extractors.rules import RulesExtractor
from memdir.consolidation.proposals import ExistingMemory, ExtractionContext
from memdir.consolidation.restating import in_workspace, said_by_any
from memdir.consolidation.transcripts import Transcript, Turn
from tests.consolidation.test_llm import llm_mem, server  # noqa: F401  (fixtures)
from tests.consolidation.test_retraction import _pending_texts

SAYS = "The staging deploy needs the VPN"
NEGATION = "the staging deploy no longer needs the VPN"
RESTATED = "remember that the staging deploy needs the VPN"


def _said(text: str) -> str:
    return f"USER: {text}\nASSISTANT: Noted.\n"


def _transcript(text: str) -> Transcript:
    return Transcript((Turn("user", text), Turn("assistant", "Noted.")), "text", "digest")


MEMORY = ExistingMemory(scope="project", name="staging-vpn", type="project", description=SAYS, origin="agent",
                        status="active", body="")


def test_the_rule_on_the_extractors_own_inputs():
    assert said_by_any([MEMORY], RESTATED) is MEMORY
    assert said_by_any([MEMORY], NEGATION) is None  # made of its words, and negates it
    workspace = "# Notes\n\nThe staging deploy needs the VPN.\n"
    assert in_workspace(RESTATED, workspace) and not in_workspace(NEGATION, workspace)
    context = ExtractionContext(existing=(MEMORY,))
    rules = RulesExtractor().extract(_transcript("Remember: " + NEGATION + "."), context)
    assert [(p.action, p.target, p.description) for p in rules.proposals] == [
        ("update", "staging-vpn", "The staging deploy no longer needs the VPN.")]
    agent = AgentExtractor().extract(_transcript("Remember: " + NEGATION + "."),
                                     ExtractionContext(existing=(MEMORY,), workspace_text=workspace))
    assert [text for _, text, _ in agent.pending] == ["Remember: the staging deploy no longer needs the VPN."]
    agent = AgentExtractor().extract(_transcript(RESTATED), ExtractionContext(workspace_text=workspace))
    said = RESTATED[:1].upper() + RESTATED[1:]
    assert agent.pending == [] and agent.notes == [f"turn 1: already in AGENTS.md/CLAUDE.md: {said}"]  # control


def test_rules_a_negation_is_a_change_and_the_restatement_unchanged(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project)  # the agent wrote it, as in a session
    mem.write("staging-vpn", SAYS, "project", "")
    report = mem.consolidate(_said(RESTATED), extractor="rules")
    assert [(o.result, o.name, o.detail) for o in report.outcomes] == [
        ("unchanged", "staging-vpn", "'staging-vpn' already says it: nothing new")]
    report = mem.consolidate(_said(NEGATION[:1].upper() + NEGATION[1:] + ". Remember that."), extractor="rules")
    assert [(o.result, o.name) for o in report.outcomes] == [("candidate", "staging-vpn-candidate")]
    assert mem.read("staging-vpn-candidate", count=False).record.description == \
        "The staging deploy no longer needs the VPN."
    assert mem.read("staging-vpn", count=False).record.description == SAYS


def test_agent_a_negation_is_kept_pending_and_the_restatement_not(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("staging-vpn", SAYS, "project", "")
    report = mem.consolidate(_said(RESTATED), extractor="agent")
    assert report.pending == () and _pending_texts(isolated_home, project) == []
    assert "pending finding not kept (Remember that the staging deploy needs the VPN): memory 'staging-vpn' " \
           "(project) holds it" in report.notes
    report = mem.consolidate(_said("Remember: " + NEGATION + "."), extractor="agent")
    assert report.pending == ("Remember: the staging deploy no longer needs the VPN.",)
    assert _pending_texts(isolated_home, project) == ["Remember: the staging deploy no longer needs the VPN."]


# ---------------------------------------------------------------- a feedback memory's Why lines


RULE = "Always run pytest -q before pushing"


def test_rules_a_feedback_restated_is_unchanged_its_why_line_said(isolated_home, project):
    """The rules extractor's update of a feedback memory carries "**Why:** the user stated this on <day> …": it was
    a line the memory did not say, so the restatement became a candidate. Control, same store: a new flag is one."""
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("pytest-before-push", RULE, "feedback",
              "**Why:** the user stated this on 2026-11-02 as how they want the work done.\n"
              "**How to apply:** follow it whenever this applies; ask before departing from it.")
    report = mem.consolidate(_said(RULE + "."), extractor="rules")
    assert [(o.result, o.name) for o in report.outcomes] == [("unchanged", "pytest-before-push")]
    report = mem.consolidate(_said("Always run pytest -q -x before pushing."), extractor="rules")
    assert [(o.result, o.name) for o in report.outcomes] == [("candidate", "pytest-before-push-candidate")]


def test_a_feedback_without_a_why_line_is_not_restated_by_one(isolated_home, project):
    """Control: a memory that gives no reason gains one from a proposal's **Why:** line (not a restatement)."""
    from memdir.consolidation.proposals import Proposal
    from memdir.consolidation.restating import restated

    mem = Memory.open(home=isolated_home, project=project)
    mem.write("pytest-before-push", RULE, "feedback", "")
    record = mem.read("pytest-before-push", count=False).record
    why = "**Why:** CI is slow and a red build blocks the team."
    assert not restated(record, Proposal(action="update", target="pytest-before-push", type="feedback",
                                         description=RULE, body=why))
    mem.write("pytest-before-push", RULE, "feedback", "**Why:** the team asked for it.")
    record = mem.read("pytest-before-push", count=False).record
    assert restated(record, Proposal(action="update", target="pytest-before-push", type="feedback", description=RULE,
                                     body="**Why:** the user stated this on 2026-12-07 as how they want the work "
                                          "done."))


# ---------------------------------------------------------------- supersede


def test_llm_a_supersede_restating_its_target_is_unchanged(llm_mem, server):  # noqa: F811
    agent = llm_mem.as_actor("agent")
    agent.write("staging-vpn", SAYS, "project", "")
    server.replies.append(json.dumps({"proposals": [
        {"action": "supersede", "target": "staging-vpn", "name": "staging-vpn-2", "description": SAYS + "."}]}))
    report = llm_mem.consolidate([{"role": "user", "content": RESTATED}])
    assert [(o.result, o.name) for o in report.outcomes] == [("unchanged", "staging-vpn")]
    server.replies.append(json.dumps({"proposals": [  # control, same store: a negation is proposed for review
        {"action": "supersede", "target": "staging-vpn", "name": "staging-vpn-2",
         "description": "The staging deploy no longer needs the VPN."}]}))
    report = llm_mem.consolidate([{"role": "user", "content": "Remember: " + NEGATION}])
    assert [(o.result, o.name) for o in report.outcomes] == [("candidate", "staging-vpn-candidate")]
