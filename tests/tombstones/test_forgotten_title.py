"""A forgotten fact may not come back as a memory's title (break33): the index shows a title in the link's
place (``- [The production database is pg-main-01](db-host.md) — Database host``), so a title restating a
tombstoned description is refused as the description would be, on every path."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.consolidation.proposals import Proposal
from memdir.errors import TombstoneRefused
from memdir.tombstones.match import make, match
from tests.scripted import Scripted

FACT = "The production database is pg-main-01"


@pytest.fixture
def forgot(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("prod-db", FACT, "project", "Hosts the billing schema.")
    person.forget("prod-db", reason="wrong host")
    return person, Memory.open(home=isolated_home, project=project, actor="agent")


def test_the_rule_reads_a_title_as_a_description():
    stone = make("prod-db", FACT, "Hosts the billing schema.", "human", None)
    assert match([stone], "Database host", "x", title=FACT) == (stone, "the forgotten fact restated in the title")
    assert match([stone], "Database host", "x", title="pg-main-01 is the production database") == (
        stone, "the forgotten fact reworded in the title")
    assert match([stone], "Database host", "x", title="Production database") is None  # control: another title
    assert match([stone], "Database host", "x") is None


def test_an_agent_cannot_carry_the_forgotten_fact_in_a_title(forgot):
    person, agent = forgot
    with pytest.raises(TombstoneRefused) as refused:
        agent.write("db-host", "Database host", "project", "See the runbook.", title=FACT)
    assert refused.value.why == "the forgotten fact restated in the title"
    agent.write("db-notes", "Database host", "project", "See the runbook.", title="Database notes")  # control
    with pytest.raises(TombstoneRefused):  # an update that sets the title
        agent.write("db-notes", title="pg-main-01 is the production database")
    block = person.context()
    assert "- [Database notes](db-notes.md) — Database host" in block
    assert "pg-main-01" not in block


def test_a_person_s_title_in_the_same_layer_is_refused_too(forgot):
    person, _ = forgot
    with pytest.raises(TombstoneRefused):
        person.write("db-host", "Database host", "project", "See the runbook.", title=FACT)
    assert person.write("db-host", "Database host", "project", "See the runbook.",
                        title="Test database host").operation == "created"  # control


def test_consolidation_refuses_a_title_restating_it_in_a_dry_run_as_in_a_real_one(forgot):
    person, _ = forgot
    extractor = Scripted(Proposal("create", name="db-host", description="Database host", body="x", title=FACT),
                         Proposal("create", name="db-notes", description="Database host", body="x",
                                  title="Database notes"))
    chat = [{"role": "user", "content": "Remember the database host."}]
    dry = person.consolidate(chat, extractor=extractor, mode="always", dry_run=True)
    real = person.consolidate(chat, extractor=extractor, mode="always")
    assert [o.result for o in dry.outcomes] == ["refused-tombstone", "would-create"]
    assert [o.result for o in real.outcomes] == ["refused-tombstone", "created"]  # control: the other title
    assert "the forgotten fact restated in the title" in real.outcomes[0].detail
