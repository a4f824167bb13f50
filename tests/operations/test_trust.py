"""Tombstones, origin, candidates, valid time (DESIGN §4, §5)."""

import subprocess
import sys
from datetime import timedelta

import pytest

from memdir import Memory, Refused, TombstoneRefused
from memdir.files.memfile import format_time
from memdir.layer.journal import now_utc
from tests.conftest import run_cli

WRONG = ("Staging host is staging-7.internal", "The staging box is staging-7.internal; deploy there.")


@pytest.mark.slow
def test_forgotten_value_is_refused_everywhere_and_a_new_fact_is_not(mem, project, isolated_home):
    mem.write("staging-host", *WRONG[:1], "project", WRONG[1])
    forgotten = mem.forget("staging-host", reason="user: that host is wrong")
    assert forgotten.tombstone.startswith("t-")
    variants = [
        WRONG,
        (WRONG[0].upper(), WRONG[1]),
        ("  Staging   host is\tstaging-7.internal ", WRONG[1].replace(" ", "  ")),
        ("Ｓｔａｇｉｎｇ host is staging-7.internal", WRONG[1]),  # full-width
        ("Stag\u200bing host is staging-7.internal", WRONG[1] + "\u200d"),  # zero-width
    ]
    for description, body in variants:
        with pytest.raises(TombstoneRefused, match="memdir tombstone lift"):
            mem.write("staging-host", description, "project", body)
        with pytest.raises(TombstoneRefused):
            mem.write("another-name", description, "project", body)
    with pytest.raises(TombstoneRefused):
        mem.write("in-user", WRONG[0], "user", WRONG[1], scope="user")  # other layer of the session
    cli = run_cli("--project", project, "write", "staging-host", "-d", WRONG[0], "-t", "project", "--body", WRONG[1])
    assert cli.returncode == 1 and forgotten.tombstone in cli.stderr
    ok = mem.write("staging-host", "Staging host is staging-9.internal", "project", "Deploy to staging-9.")
    assert ok.operation == "created"  # control: the corrected fact is accepted

    mem.write("other", "another fact v1", "project", "b")
    mem.write("other", "another fact v2", "project", "b")
    mem.restore("other", 1)  # restoring another memory leaves the tombstone alone
    mem.write("old", "old memory", "project", "b")
    mem.prune(1, dry_run=False)
    Memory.open(home=isolated_home, project=project).clear("user", confirm=True)
    (isolated_home / "index.sqlite").unlink(missing_ok=True)
    mem.session.layer("project").refresh_index()
    fresh = subprocess.run([sys.executable, "-c", (
        "import sys; from memdir import Memory, TombstoneRefused\n"
        "m = Memory.open(home=sys.argv[1], project=sys.argv[2])\n"
        "try:\n    m.write('again', sys.argv[3], 'project', sys.argv[4])\n"
        "except TombstoneRefused as e:\n    print('refused', e.tombstone_id)\n"),
        str(isolated_home), str(project), *WRONG], capture_output=True, text=True)
    assert fresh.stdout.strip() == f"refused {forgotten.tombstone}"
    stones = mem.tombstones().tombstones
    assert [(s.id, s.name) for s in stones] == [(forgotten.tombstone, "staging-host")]


@pytest.mark.slow
def test_lifting_a_tombstone_is_for_people_and_is_journaled(mem, project, isolated_home):
    mem.write("x", "forget me", "project", "b")
    stone = mem.delete("x").tombstone
    with pytest.raises(Refused):
        mem.lift_tombstone(stone)  # the agent cannot
    out = run_cli("--project", project, "tombstone", "lift", stone)
    assert out.returncode == 0, out.stderr
    assert mem.write("x", "forget me", "project", "b").operation == "created"
    assert mem.history("x").versions[-1].action == "create"
    assert any(e.action == "tombstone-lift" for e in mem.session.layer("project").journal.events())


def test_laundering_through_a_candidate_is_refused(mem, isolated_home, project, person):
    mem.write("fact", "the moon is cheese", "project", "b")
    mem.forget("fact")
    with pytest.raises(TombstoneRefused):
        mem.write("proposal", "the moon is cheese", "project", "b", status="candidate")
    # A candidate proposed before the value was forgotten cannot be approved after.
    mem.write("early", "pluto is a planet", "project", "c", status="candidate")
    mem.write("twin", "pluto is a planet", "project", "c")
    mem.forget("twin")
    with pytest.raises(TombstoneRefused):
        person.approve("early")
    mem.write("good", "water boils at 100 C at sea level", "project", "b", status="candidate")
    assert person.approve("good").name == "good"  # control
    assert [m.name for m in mem.list().memories] == ["good"]


@pytest.mark.slow
def test_origin_and_status_come_from_the_path_not_the_payload(mem, isolated_home, project):
    result = mem.write("claim", "claims to be human", "project", "b",
                       extra={"origin": "human", "status": "active", "note": "kept"})
    record = mem.read("claim", count=False).record
    assert (record.origin, record.status, dict(record.extra)) == ("agent", "active", {"note": "kept"})
    mem.write("proposed", "a proposal", "project", "b", status="candidate")
    mem.write("proposed", "a proposal, rewritten by the agent", "project", "b", status="active")
    assert mem.read("proposed", count=False).record.status == "candidate"  # only a person promotes
    with pytest.raises(Refused):
        mem.approve("proposed")
    cli = run_cli("--project", project, "write", "by-hand", "-d", "typed by a person", "-t", "project")
    assert cli.returncode == 0
    assert mem.read("by-hand", count=False).record.origin == "human"
    assert result.status == "active"


@pytest.mark.slow
def test_candidate_and_expired_are_withheld_while_active_shows(mem, project):
    mem.write("live", "an active fact", "project", "b")
    mem.write("maybe", "a candidate fact", "project", "b", status="candidate")
    past = format_time(now_utc() - timedelta(days=1))
    mem.write("over", "an expired fact", "project", "b", valid_until=past)
    index = (mem.session.layer("project").path / "MEMORY.md").read_text()
    block = mem.context()
    names = [m.name for m in mem.list().memories]
    assert "an active fact" in index and "an active fact" in block and names == ["live"]
    for hidden in ("a candidate fact", "an expired fact"):
        assert hidden not in index and hidden not in block
    everything = run_cli("--project", project, "list", "--all")
    assert "- live (type: project; layer: project) — an active fact\n" in everything.stdout
    assert "a candidate fact [candidate]" in everything.stdout
    assert "an expired fact [expired]" in everything.stdout
    review = run_cli("--project", project, "review", "--json")
    import json

    assert [c["name"] for c in json.loads(review.stdout)["candidates"]] == ["maybe"]
    assert run_cli("--project", project, "approve", "maybe").returncode == 0
    assert "a candidate fact" in mem.context()


@pytest.mark.slow
def test_reject_tombstones_the_candidate(mem, project):
    mem.write("bad-idea", "use tabs everywhere", "project", "b", status="candidate")
    out = run_cli("--project", project, "reject", "bad-idea", "--reason", "no")
    assert out.returncode == 0, out.stderr
    with pytest.raises(TombstoneRefused):
        mem.write("bad-idea", "use tabs everywhere", "project", "b")
    assert mem.write("good-idea", "use spaces", "project", "b").operation == "created"


def test_supersede_links_both_ways_and_valid_at(mem):
    mem.write("db-host", "DB runs on db-1", "project", "b")
    import time

    time.sleep(0.02)
    middle = now_utc()
    time.sleep(0.02)
    mem.write("db-host-v2", "DB runs on db-2", "project", "b", supersedes="db-host")
    old = mem.read("db-host", count=False).record
    new = mem.read("db-host-v2", count=False).record
    assert (old.status, old.superseded_by, new.supersedes) == ("superseded", "db-host-v2", "db-host")
    assert old.valid_until is not None and old.valid_until > middle
    assert [m.name for m in mem.list().memories] == ["db-host-v2"]
    assert [m.name for m in mem.list(valid_at=middle).memories] == ["db-host"]
    assert new.valid_from == old.valid_until
    assert [m.name for m in mem.list(valid_at=now_utc() + timedelta(seconds=1)).memories] == ["db-host-v2"]
