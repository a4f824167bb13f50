"""A forgotten fact may not come back as a memory's title (break33): the index shows a title in the link's
place (``- [The production database is pg-main-01](db-host.md) — Database host``), so a title restating a
tombstoned description is refused as the description would be, on every path."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import TombstoneRefused
from memdir.tombstones.match import make, match

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
