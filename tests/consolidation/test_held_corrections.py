"""A proposal that a memory written during the session "covers" is not made again (trial23) — unless it
corrects that memory: it turns around what the memory says (a negation the memory does not make of the
same words) or gives a value the memory does not hold (a number, a name). Such a correction, made of the
saved memory's own words, is proposed (a candidate for review); a restatement of it is still held
(the control)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memdir import Memory
from memdir.consolidation.proposals import Proposal
from tests.consolidation.test_consolidate import Proposer, cc_transcript


MEMORIES = {
    "deploy-day": ("Deploys go out on Tuesday", "We do not deploy on Mondays; deploys go out on Tuesday."),
    "db-port": ("Dev PostgreSQL listens on 5433", "Moved from the default port."),
    "indent-style": ("Indent Python with 4 spaces, never tabs", "**Why:** the linter."),
    "backup-cadence": ("Backups run weekly", "Kept for 30 days."),
}


@pytest.mark.parametrize("target, said, result", [
    ("deploy-day", "Deploys not on Tuesday, on Thursday", "candidate"),  # negation: before "unchanged"
    ("deploy-day", "Deploys moved from Tuesday to Thursday", "candidate"),  # a changed value: before "unchanged"
    ("db-port", "Dev PostgreSQL listens on 6543", "candidate"),  # a changed number: before "unchanged"
    ("deploy-day", "Remember that we deploy on Tuesday.", "unchanged"),  # control: what was saved, said again
    ("db-port", "Remember: dev PostgreSQL listens on 5433", "unchanged"),  # control
    # the README's quick start (real clients): a one-digit value the memory holds, and "I", are no new value
    ("indent-style", "I prefer 4 spaces to tabs.", "unchanged"),
    ("indent-style", "I prefer 2 spaces to tabs.", "candidate"),  # control: a value it does not hold
    # left25: a value in lower case, beside a word both say: before "unchanged"
    ("backup-cadence", "Backups run daily", "candidate"),
    ("backup-cadence", "Remember: backups run weekly.", "unchanged"),  # control: said again
])
def test_a_correction_of_a_memory_saved_during_the_session_is_still_proposed(
        tmp_path, isolated_home, project, target, said, result):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for name, (description, body) in MEMORIES.items():
        agent.write(name, description, "project", body)
    written = agent.read(target).record.updated
    at = lambda seconds: (written + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # noqa: E731
    path = cc_transcript(tmp_path / "t.jsonl", ("user", said, at(-5)), ("assistant", "Saved.", at(5)))
    report = agent.consolidate(path, mode="always", extractor=Proposer(
        Proposal("update", target=target, description=said, evidence=said)))
    assert [(o.result, o.target) for o in report.outcomes] == [(result, target)], report.outcomes
    if result == "unchanged":
        assert "written during the session" in report.outcomes[0].detail and agent.review().candidates == ()
    else:
        assert [c.name for c in agent.review().candidates] == [f"{target}-candidate"]
        assert agent.read(f"{target}-candidate").record.description == said
