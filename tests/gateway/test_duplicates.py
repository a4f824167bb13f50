"""An exact duplicate — the same description and body under another name, in any layer the session sees —
is refused on the agent's path and on consolidation's, naming the memory that holds it; a person's write
is warned, naming it; `doctor` and `status` list the groups (issue 24 §5). Each with a control: a
near-but-different memory is written."""

from __future__ import annotations

import pytest

from memdir.consolidation.proposals import Proposal
from memdir.errors import Refused
from memdir.render import maintenance
from tests.scripted import Scripted

DESC, BODY = "Dev PostgreSQL listens on 5433", "Moved from 5432 because the system cluster holds it."


@pytest.mark.slow
def test_the_agent_is_refused_a_copy_in_its_own_layer_and_in_another_naming_the_holder(mem, person):
    mem.write("db-port", DESC, "project", BODY)
    with pytest.raises(Refused) as refused:
        mem.write("database-port", f"  {DESC} ", "project", f"\n{BODY}\n")  # outer whitespace is not a difference
    assert str(refused.value) == ("not written: memory 'db-port' (project) already holds this description and body; "
                                  "update 'db-port' instead of writing a copy under another name")
    person.write("editor", "Prefers tabs", "user", "Tabs, width 4.")
    with pytest.raises(Refused, match=r"memory 'editor' \(user\) already holds"):
        mem.write("indentation", "Prefers tabs", "project", "Tabs, width 4.", scope="project")
    assert [m.name for m in person.list().memories] == ["editor", "db-port"]  # nothing written
    # controls: a near-but-different text is written; an update of the holder itself is no copy
    assert mem.write("database-port", DESC, "project", BODY + " Since November.").operation == "created"
    assert mem.write("indentation", "Prefers tabs", "project", "Tabs, width 8.").operation == "created"
    assert mem.write("db-port", DESC, "project", BODY, pinned=True).operation == "updated"


def test_the_tool_path_refuses_too_and_a_person_is_warned_naming_the_holder(mem, person):
    mem.write("db-port", DESC, "project", BODY)
    out = mem.call_tool("memory_write", {"name": "pg-port", "description": DESC, "type": "project", "body": BODY})
    assert "memory 'db-port' (project) already holds this description and body" in out
    assert "pg-port" not in [m.name for m in mem.list().memories]
    done = person.write("pg-port", DESC, "project", BODY)
    assert done.operation == "created"  # a person's copy is theirs to make
    assert done.warnings == ("memory 'db-port' (project) holds the same description and body; 'pg-port' is a copy "
                             "of it (memdir doctor lists duplicates)",)
    assert person.write("pg-host", "Dev PostgreSQL host", "project", BODY).warnings == ()  # control: no copy


def test_a_candidate_that_copies_another_memory_is_refused_but_a_change_to_its_own_target_is_not(mem, person):
    person.write("db-port", DESC, "project", BODY)
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflows in .github.")
    with pytest.raises(Refused, match=r"memory 'ci' \(project\)"):  # a change to db-port that copies ci
        mem.write("db-port", "CI runs on GitHub Actions", "project", "Workflows in .github.", status="candidate")
    proposed = mem.write("db-port", DESC, "project", BODY + " Checked again.", status="candidate")  # control
    assert (proposed.name, proposed.status) == ("db-port-candidate", "candidate")


def test_consolidation_refuses_a_copy_of_another_layers_memory_and_creates_a_different_one(mem, person):
    person.write("editor", "Prefers tabs", "user", "Tabs, width 4.")
    copy = Proposal("create", name="indent-style", description="Prefers tabs", body="Tabs, width 4.", type="project")
    other = Proposal("create", name="line-length", description="Lines stay under 100 characters", body="ruff.",
                     type="project")
    report = mem.consolidate([{"role": "user", "content": "Remember: tabs. Lines under 100."}],
                             extractor=Scripted(copy, other))
    got = [(o.result, o.name) for o in report.outcomes]
    assert got == [("refused", "indent-style"), ("created", "line-length")]
    assert "memory 'editor' (user) already holds this description and body" in report.outcomes[0].detail


@pytest.mark.slow
def test_doctor_and_status_list_the_groups_of_exact_duplicates(mem, person):
    person.write("db-port", DESC, "project", BODY)
    person.write("pg-port", DESC, "project", BODY + "\n")
    person.write("editor", "Prefers tabs", "user", "Tabs, width 4.")
    person.write("tabs", "Prefers tabs", "project", "Tabs, width 4.")
    person.write("db-host", DESC, "project", "Another body.")  # control: the same description alone is no copy
    status = person.status()
    assert status.duplicates == (("user:editor", "project:tabs"), ("project:db-port", "project:pg-port"))
    doctor = person.doctor()
    assert doctor.ok and doctor.status.duplicates == status.duplicates  # listed, not a problem
    text = maintenance.doctor(doctor)
    assert "duplicates: project:db-port = project:pg-port (the same description and body)" in text
    assert "db-host" not in text
    assert "duplicates: user:editor = project:tabs" in mem.call_tool("memory_status", {})
    assert doctor.to_dict()["duplicates"] == [["user:editor", "project:tabs"], ["project:db-port", "project:pg-port"]]



def test_reactivating_a_renamed_memory_beside_its_live_successor_is_a_copy(mem, person):
    """Seen in trial16: `memdir write ci-runner --rename-from ci`, then `memdir write ci --reactivate` made two
    active memories of one text without a word (only a later `memdir doctor` listed them). A revived memory
    was no live copy, so it is checked as a new one: the agent is refused and a person warned, naming the
    successor. Control: a renamed memory whose successor's text moved on is reactivated without a word."""
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflows in .github/workflows.")
    person.write("ci-runner", rename_from="ci")
    with pytest.raises(Refused) as refused:
        mem.write("ci", reactivate=True)
    assert str(refused.value) == ("not written: memory 'ci-runner' (project) already holds this description and "
                                  "body; update 'ci-runner' instead of writing a copy under another name")
    assert mem.read("ci", count=False).record.status == "superseded"  # nothing written
    done = person.write("ci", reactivate=True)
    assert (done.operation, done.warnings) == ("reactivated", (
        ("memory 'ci-runner' (project) holds the same description and body; 'ci' is a copy of it "
         "(memdir doctor lists duplicates)"),))
    person.write("deploy", "Deploys run from the release branch", "project", "make ship on release/*.")
    person.write("deploy-job", rename_from="deploy")
    person.write("deploy-job", body="make ship on release/*; a person approves each run.")  # moved on
    revived = mem.write("deploy", reactivate=True)
    assert (revived.operation, revived.warnings) == ("reactivated", ())


def test_restoring_a_version_another_live_memory_holds_is_a_copy(mem, person):
    """Seen in trial16: `memdir restore ci --version 1 --reactivate` beside its live successor ci-runner made two
    active memories of one text without a word; a restore never looked for copies. Now it does as a write does:
    the agent is refused, a person warned, naming the holder. Control: restoring a version whose text no other
    memory holds (a memory's own earlier text) is said nothing of."""
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflows in .github/workflows.")
    person.write("ci-runner", rename_from="ci")
    with pytest.raises(Refused) as refused:
        mem.restore("ci", version=1, reactivate=True)
    assert str(refused.value) == ("not written: memory 'ci-runner' (project) already holds this description and "
                                  "body; update 'ci-runner' instead of writing a copy under another name")
    assert mem.read("ci", count=False).record.status == "superseded"  # nothing written
    done = person.restore("ci", version=1, reactivate=True)
    assert done.warnings == (("memory 'ci-runner' (project) holds the same description and body; 'ci' is a copy "
                              "of it (memdir doctor lists duplicates)"),)
    person.write("db-port", "Dev PostgreSQL listens on 5432", "project", "The system default.")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    back = mem.restore("db-port", version=1)  # control: its own earlier text, nobody else's
    assert back.warnings == () and mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5432"
