"""Whose tombstone binds whom (issue 24, §2): a refusal names a tombstone that exists and its lift works,
also for a rejected team candidate; deleting a duplicate never freezes the survivor; a person's own write is
warned, never blocked, by another layer's or a teammate's tombstone; a qualified fact is another fact."""

from __future__ import annotations

import json
import re

import pytest

from memdir import Memory, TombstoneRefused
from tests.conftest import run_cli
from tests.teamgit import shared_repository

WARNED = "written though it matches a forgotten value"


@pytest.fixture
def clones(tmp_path):
    return shared_repository(tmp_path)


@pytest.mark.slow
def test_a_rejected_team_candidate_is_listed_and_its_lift_works_on_every_path(clones):
    a, _ = clones
    cli = ("--home", a.home, "--project", a.root)
    agent = a.memory(actor="agent")
    args = {"name": "ci-runner", "type": "project", "scope": "team", "description": "CI runs on buildkite agents",
            "body": ""}
    assert agent.call_tool("memory_write", args).startswith("Candidate created: ci-runner (team)")
    assert run_cli(*cli, "reject", "ci-runner").returncode == 0
    refused = agent.call_tool("memory_write", args)  # the MCP tool's text
    stone = re.search(r"tombstone (t-[0-9a-f]{12})", refused).group(1)
    assert refused.startswith("Error: refused:") and f"`memdir tombstone lift {stone} --scope team`" in refused
    assert re.search(r"forgotten by human on \d{4}-\d{2}-\d{2}: rejected", refused)  # who and when
    # the tombstone it names exists: listed by the CLI (also under --scope team) and the API
    listed = json.loads(run_cli(*cli, "--json", "tombstones").stdout)["tombstones"]
    assert [(t["id"], t["scope"], t["name"]) for t in listed] == [(stone, "team", "ci-runner")]
    assert stone in run_cli(*cli, "tombstones", "--scope", "team").stdout
    assert [t.id for t in a.memory().tombstones().tombstones] == [stone]
    with pytest.raises(TombstoneRefused):  # the API refuses it too, naming the same tombstone
        agent.write("ci-runner", "CI runs on buildkite agents", "project", scope="team")
    lifted = run_cli(*cli, "tombstone", "lift", stone)  # the command the refusal printed
    assert lifted.returncode == 0 and f"Lifted tombstone {stone} (team, ci-runner)" in lifted.stdout
    assert a.memory().tombstones().tombstones == ()
    assert agent.call_tool("memory_write", args).startswith("Candidate created: ci-runner (team)")  # control


@pytest.mark.slow
def test_a_teammates_committed_tombstone_says_who_and_when_and_lifts(clones):
    a, b = clones
    a.memory().write("cache", "The build cache lives in /var/cache/build", "project", scope="team")
    a.memory().forget("cache", "team")
    a.commit_all("forget the cache path")
    a.push()
    b.pull()
    with pytest.raises(TombstoneRefused) as caught:
        b.memory(actor="agent").write("cache", "The build cache lives in /var/cache/build", "project", scope="team")
    stone = caught.value.tombstone_id
    assert re.search(rf"tombstone {stone}, memory 'cache', forgotten in the team layer \(added by A on "
                     r"\d{4}-\d{2}-\d{2}\)\)", str(caught.value))
    listed = run_cli("--home", b.home, "--project", b.root, "tombstones")
    assert f"{stone}  team    cache  forgotten in the team layer (added by A on" in listed.stdout
    assert run_cli("--home", b.home, "--project", b.root, "tombstone", "lift", stone).returncode == 0
    assert not (b.team_dir / "tombstones" / f"{stone}.json").exists()


@pytest.mark.slow
def test_deleting_a_duplicate_never_tombstones_the_value_the_survivor_holds(isolated_home, project, mem):
    cli = ("--project", project)
    for step in (("write", "tabs", "-d", "X"), ("write", "tabs-2", "-d", "X")):
        assert run_cli(*cli, *step).returncode == 0
    deleted = run_cli(*cli, "delete", "tabs-2")
    assert deleted.stdout == ("Deleted memory: tabs-2 (project). Its value is not tombstoned: the memory 'tabs' "
                              "(project) holds it too.\n")
    assert run_cli(*cli, "write", "tabs", "--body", "y").stdout == "Memory updated: tabs (project)\n"
    # another layer's live copy keeps it too (the agent's tool and the API)
    mem.write("go-tabs", "Go files are indented with tabs", "user", "")
    person = mem.as_actor("human")  # the agent is refused a copy (issue 24 §5); a person's is warned
    person.write("go-tabs-here", "Go files are indented with tabs", "project", "")
    assert mem.call_tool("memory_delete", {"name": "go-tabs-here"}) == (
        "Deleted memory: go-tabs-here (project). Its value is not tombstoned: the memory 'go-tabs' (user) holds "
        "it too.")
    assert mem.write("go-tabs", "Go files are indented with tabs", "user", "Always.").operation == "updated"
    # control: deleting the last holder tombstones the value
    gone = mem.delete("go-tabs")
    assert gone.tombstone and gone.kept_by is None
    with pytest.raises(TombstoneRefused):
        mem.write("go-tabs", "Go files are indented with tabs", "user", "Always.")


@pytest.mark.slow
def test_a_teammates_tombstone_warns_a_persons_own_user_memory_edit_and_binds_the_agent(clones):
    a, b = clones
    fact = "Deploys need the corporate VPN profile"
    b.memory().write("vpn", fact, "project", scope="user")  # B's own fact, in B's user layer
    a.memory().write("vpn", fact, "project", scope="team")
    a.memory().forget("vpn", "team")
    a.commit_all("vpn is wrong for the team")
    a.push()
    b.pull()
    stone = b.memory().tombstones("team").tombstones[0].id
    out = run_cli("--home", b.home, "--project", b.root, "write", "vpn", "--scope", "user", "--body", "Ask IT.")
    assert out.returncode == 0 and out.stdout == "Memory updated: vpn (user)\n"
    assert f"{WARNED} (the same words; tombstone {stone}" in out.stderr or \
        f"{WARNED} (the forgotten fact restated; tombstone {stone}" in out.stderr
    assert "the tombstone is the team layer's" in out.stderr and f"memdir tombstone lift {stone}" in out.stderr
    api = b.memory().write("vpn", fact, "project", "Ask IT first.", scope="user")
    assert api.operation == "updated" and any(stone in w for w in api.warnings)
    # control: the agent's write of the value is refused, into any layer
    for scope in ("user", "project"):
        with pytest.raises(TombstoneRefused):
            b.memory(actor="agent").write("vpn-" + scope, fact, "project", scope=scope)


@pytest.mark.slow
def test_a_qualified_forgotten_fact_is_another_fact_the_same_one_stays_forgotten(mem, project):
    mem.write("db-port", "Database port is 5433", "project", "")
    stone = mem.forget("db-port").tombstone
    person = run_cli("--project", project, "write", "test-db", "-d", "Test database port is 5433")
    assert person.returncode == 0 and person.stdout == "Memory created: test-db (project)\n"
    assert f"{WARNED} (the forgotten fact qualified; tombstone {stone}" in person.stderr
    tool = mem.call_tool("memory_write", {"name": "staging-db", "type": "project", "body": "",
                                          "description": "Staging database port is 5433"})
    assert tool.startswith("Memory created: staging-db (project)\nwarning: " + WARNED) and stone in tool
    # controls: the same fact, framed or restated, stays refused for the agent and for the person's CLI
    for description in ("Note: database port is 5433", "Remember database port is 5433", "Database port is 5433."):
        refused = mem.call_tool("memory_write", {"name": "again", "type": "project", "body": "",
                                                 "description": description})
        assert refused.startswith("Error: refused:") and stone in refused, description
    again = run_cli("--project", project, "write", "again", "-d", "Database port is 5433")
    assert again.returncode == 1 and f"memdir tombstone lift {stone}" in again.stderr


@pytest.mark.slow
def test_a_persons_write_into_the_team_layer_of_a_value_it_tombstoned_is_refused(clones):
    a, b = clones
    fact = "Release builds are signed with the old HSM key"
    a.memory().write("signing", fact, "project", scope="team")
    a.memory().forget("signing", "team")
    a.commit_all("the old key is retired")
    a.push()
    b.pull()
    stone = b.memory().tombstones("team").tombstones[0].id
    with pytest.raises(TombstoneRefused) as caught:  # the team layer's own tombstone binds a write into it
        b.memory().write("signing", fact, "project", scope="team")
    assert caught.value.tombstone_id == stone and f"memdir tombstone lift {stone}" in str(caught.value)
    out = run_cli("--home", b.home, "--project", b.root, "write", "signing-2", "--scope", "team", "-d", fact)
    assert out.returncode == 1 and f"memdir tombstone lift {stone}" in out.stderr
    assert sorted(p.name for p in b.team_dir.glob("*.md")) == []  # no live memory beside its tombstone
    # controls: the same value into a personal layer is warned and written; another value into the team is written
    mine = b.memory().write("signing", fact, "project", scope="project")
    assert mine.operation == "created" and any(stone in w and "the team layer's" in w for w in mine.warnings)
    assert b.memory().write("signing", "Release builds are signed with the new HSM key", "project",
                            scope="team").operation == "created"
    assert run_cli("--home", b.home, "--project", b.root, "tombstone", "lift", stone).returncode == 0
    assert b.memory().write("signing-old", fact, "project", scope="team").operation == "created"  # lifted: written
