"""`Memory.delete`, `forget`, `pin`, `mute` and `restore` take the digest of the version the caller read
(`expect_digest`, optional): a memory another process changed since is left as that process left it
(Conflict naming the memory and its digest now); the same call with the current digest is made; without
one, the call is as it always was."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import Conflict, InvalidInput, NotFound
from tests.conftest import run_cli


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    return person


def changed_elsewhere(person, body: str, *more: str) -> str:
    """Another process (the CLI) writes ``body`` into db-port; returns the digest it leaves."""
    assert run_cli("--home", person.home, "--project", person.project_root, "write", "db-port",
                   "--body", body, *more).returncode == 0
    return person.read("db-port", "project", count=False).digest


def events(person) -> list[str]:
    """The journal's actions on db-port, newest first."""
    return [event.action for event in person.journal("project", name="db-port").entries]


def test_the_listing_carries_the_digest_a_read_gives(person):
    listed = {m.name: m for m in person.list("project").memories}["db-port"]
    assert listed.file_digest == person.read("db-port", "project", count=False).digest
    assert len(listed.file_digest) == 64 and listed.to_dict()["file_digest"] == listed.file_digest


@pytest.mark.parametrize("call, made", [
    (lambda m, d: m.delete("db-port", "project", expect_digest=d), "delete"),
    (lambda m, d: m.forget("db-port", "project", expect_digest=d), "forget"),
    (lambda m, d: m.pin("db-port", True, "project", expect_digest=d), "pin"),
    (lambda m, d: m.mute("db-port", True, "project", expect_digest=d), "mute"),
    (lambda m, d: m.restore("db-port", 1, "project", expect_digest=d), "restore"),
])
def test_a_change_on_a_version_read_before_another_process_wrote_is_refused(person, call, made):
    read = person.read("db-port", "project", count=False).digest
    now = changed_elsewhere(person, "Moved to 6543.")
    with pytest.raises(Conflict) as refused:
        call(person, read)
    assert str(refused.value) == (f"memory 'db-port' changed since it was read; the {made} was not made: "
                                  "re-read it and try again")
    assert (refused.value.memory, refused.value.current) == ("db-port", now)
    record = person.read("db-port", "project", count=False).record
    assert (record.body, record.pinned, record.disabled) == ("Moved to 6543.", False, False)
    assert person.tombstones("project").tombstones == () and made not in events(person)
    call(person, now)  # control: the version that is there now
    assert events(person)[0] == made


def test_a_memory_deleted_since_it_was_read_is_a_conflict_not_a_not_found(person):
    read = person.read("db-port", "project", count=False).digest
    person.as_actor("agent").delete("db-port", "project")
    for call in (lambda: person.pin("db-port", True, "project", expect_digest=read),
                 lambda: person.delete("db-port", "project", expect_digest=read),
                 lambda: person.restore("db-port", 1, "project", expect_digest=read)):
        with pytest.raises(Conflict, match="'db-port' was deleted since it was read") as refused:
            call()
        assert (refused.value.memory, refused.value.current) == ("db-port", None)
    with pytest.raises(NotFound):  # control: without a digest read, a gone memory is not found, as before
        person.pin("db-port", True, "project")


def test_restore_of_a_memory_read_as_deleted_is_refused_once_it_is_written_again(person):
    person.delete("db-port", "project")
    person.lift_tombstone(person.tombstones("project").tombstones[0].id, scope="project")
    now = changed_elsewhere(person, "Written again by another process.", "-d", "Dev PostgreSQL listens on 7000")
    with pytest.raises(Conflict, match="'db-port' was written since it was read; the restore was not made"):
        person.restore("db-port", 1, "project", expect_digest=None)  # None: it was deleted when read
    assert person.read("db-port", "project", count=False).record.body == "Written again by another process."
    assert person.restore("db-port", 1, "project", expect_digest=now).operation == "updated"  # control
    assert person.read("db-port", "project", count=False).record.body == "Moved on 2026-11-02."


def test_without_a_digest_the_calls_are_as_before_and_a_bad_one_is_named(person):
    changed_elsewhere(person, "Moved to 6543.")
    assert person.pin("db-port").changed is True  # nothing read, nothing checked
    assert person.mute("db-port").changed is True
    with pytest.raises(InvalidInput, match="expect_digest must be the digest read"):
        person.delete("db-port", "project", expect_digest=True)
    assert person.read("db-port", "project", count=False).record.pinned is True  # still there
    assert person.delete("db-port").name == "db-port"
