"""An update or a rename that leaves out a description, type or body keeps the memory's
(:func:`memdir.gateway.fields.inherit`), on every path: the CLI (a real subprocess), the MCP
server (the SDK's in-memory client), the Python API and the panel's edit. A given body replaces
(the positive controls); ``body=""`` empties it."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.errors import InvalidInput
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli
from tests.scripted import Scripted

BODY = "Moved on 2026-11-02 because 5432 is taken by the system cluster."


def _read(project, name):
    out = run_cli("--project", project, "read", name, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _importance(project, name):
    listed = json.loads(run_cli("--project", project, "list", "--json").stdout)["memories"]
    return {m["name"]: m["importance"] for m in listed}[name]


def _seed_cli(project):
    out = run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t",
                  "reference", "--body", BODY, "--importance", "9", "--title", "DB port")
    assert out.returncode == 0, out.stderr


@pytest.mark.slow
def test_cli_update_without_body_keeps_it(project):
    _seed_cli(project)
    # run_cli pipes an empty stdin, as a script or a hook would: that is no body
    out = run_cli("--project", project, "write", "db-port", "-d", "Dev DB port is 5433")
    assert out.returncode == 0 and out.stdout.strip() == "Memory updated: db-port (project)", out.stderr
    data = _read(project, "db-port")
    assert (data["description"], data["body"], data["type"], data["title"]) == (
        "Dev DB port is 5433", BODY, "reference", "DB port")
    assert _importance(project, "db-port") == 9
    # positive control: a body given replaces it
    out = run_cli("--project", project, "write", "db-port", "--body", "Now 5434.")
    assert out.returncode == 0, out.stderr
    data = _read(project, "db-port")
    assert (data["description"], data["body"]) == ("Dev DB port is 5433", "Now 5434.")
    # a body on stdin replaces it too; --body '' empties it
    assert run_cli("--project", project, "write", "db-port", input="From stdin.\n").returncode == 0
    assert _read(project, "db-port")["body"] == "From stdin."
    assert run_cli("--project", project, "write", "db-port", "--body", "").returncode == 0
    assert _read(project, "db-port")["body"] == ""


@pytest.mark.slow
def test_cli_rename_without_anything_else_keeps_every_field(project):
    _seed_cli(project)
    out = run_cli("--project", project, "write", "dev-db-port", "--rename-from", "db-port")
    assert out.returncode == 0 and out.stdout.strip() == "Memory renamed: dev-db-port (project)", out.stderr
    data = _read(project, "dev-db-port")
    assert (data["description"], data["body"], data["type"]) == ("Dev PostgreSQL listens on 5433", BODY, "reference")
    assert _importance(project, "dev-db-port") == 9
    # the old name says where it went
    old = run_cli("--project", project, "read", "db-port")
    assert "status: superseded by dev-db-port" in old.stdout.splitlines()
    # control: a rename with a body given takes it
    out = run_cli("--project", project, "write", "pg-port", "--rename-from", "dev-db-port", "--body", "New body.")
    assert out.returncode == 0, out.stderr
    assert (_read(project, "pg-port")["body"], _read(project, "pg-port")["type"]) == ("New body.", "reference")


@pytest.mark.slow
def test_cli_new_memory_needs_a_description(project):
    out = run_cli("--project", project, "write", "fresh", "--body", "text")
    assert out.returncode == 1 and out.stderr == (
        "memdir: -d/--description is required for a new memory (there is no memory 'fresh' to update)\n")
    assert run_cli("--project", project, "read", "fresh").returncode == 1  # nothing written
    # control: with -d it is created, of type project by default
    out = run_cli("--project", project, "write", "fresh", "-d", "a fresh fact", "--body", "text")
    assert out.returncode == 0, out.stderr
    assert (_read(project, "fresh")["type"], _read(project, "fresh")["body"]) == ("project", "text")


@pytest.mark.slow
def test_cli_rename_to_the_same_name_says_so(project):
    _seed_cli(project)
    out = run_cli("--project", project, "write", "db-port", "--rename-from", "db-port")
    assert out.returncode == 1
    assert "'db-port' is already called 'db-port': a rename needs a different new name" in out.stderr
    # control: a taken other name is the "exists" refusal
    run_cli("--project", project, "write", "other", "-d", "another fact")
    out = run_cli("--project", project, "write", "other", "--rename-from", "db-port")
    assert out.returncode == 1 and "a memory called 'other' exists" in out.stderr


def test_type_change_across_layers_is_refused_clearly(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY)
    with pytest.raises(InvalidInput, match="is in the project layer, but type 'user' belongs in the user layer"):
        mem.write("db-port", type="user")
    with pytest.raises(InvalidInput, match="belongs in the user layer"):
        mem.write("my-db-port", type="user", rename_from="db-port")
    assert mem.read("db-port", count=False).record.type == "project"  # nothing changed
    # controls: the scope said keeps it where it is; a new user memory goes to the user layer
    result = mem.write("db-port", type="user", scope="project")
    assert (result.scope, mem.read("db-port", count=False).record.type) == ("project", "user")
    assert mem.write("editor", "Uses Helix", "user").scope == "user"
    with pytest.raises(InvalidInput, match="is in the user layer, but type 'feedback' belongs in the project"):
        mem.write("editor", type="feedback")


def test_api_update_and_rename_keep_the_body(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "reference", BODY)
    assert mem.write("db-port", "Dev DB port is 5433").operation == "updated"
    record = mem.read("db-port", count=False).record
    assert (record.description, record.type, record.body) == ("Dev DB port is 5433", "reference", BODY)
    assert mem.write("pg-port", rename_from="db-port").operation == "renamed"
    assert mem.read("pg-port", count=False).record.body == BODY
    mem.write("pg-port", body="Replaced.")  # control
    assert mem.read("pg-port", count=False).record.body == "Replaced."
    with pytest.raises(InvalidInput, match="description must not be empty"):
        mem.write("pg-port", "")  # a description cannot be emptied
    with pytest.raises(InvalidInput, match="description is required for a new memory"):
        mem.write("brand-new")


def test_mcp_update_and_rename_keep_the_body(isolated_home, project):
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            call = client.call_tool
            r = await call("memory_write", {"name": "db-port", "description": "Dev PostgreSQL listens on 5433",
                                            "type": "reference", "body": BODY})
            assert not r.is_error
            r = await call("memory_write", {"name": "db-port", "description": "Dev DB port is 5433"})
            assert not r.is_error and r.content[0].text == "Memory updated: db-port (project)"
            r = await call("memory_write", {"name": "pg-port", "rename_from": "db-port"})
            assert not r.is_error and r.content[0].text == "Memory renamed: pg-port (project)"
            r = await call("memory_read", {"name": "pg-port"})
            text = r.content[0].text
            assert "description: Dev DB port is 5433" in text and "type: reference" in text and BODY in text
            r = await call("memory_write", {"name": "pg-port", "body": "Replaced."})  # control
            assert not r.is_error
            r = await call("memory_read", {"name": "pg-port"})
            assert r.content[0].text.endswith("\n\n> Replaced.") and BODY not in r.content[0].text
            r = await call("memory_write", {"name": "new-one", "body": "x"})
            assert r.is_error and "description is required for a new memory" in r.content[0].text

    anyio.run(main)


def test_team_proposal_without_body_keeps_the_team_memory_body(isolated_home, project, person):
    (project / ".claude" / "memory").mkdir(parents=True)
    person.team_trust()  # made by hand: trusted as `team init` would
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflows live in .github.", scope="team")
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    result = agent.write("ci", "CI runs on Forgejo Actions", scope="team")
    assert result.status == "candidate"
    from memdir.operations import team as teamops

    proposed = {r.name: r for r in teamops.pending(agent.session)}[result.name]
    assert (proposed.description, proposed.body) == ("CI runs on Forgejo Actions", "Workflows live in .github.")


def test_a_consolidation_update_without_a_body_keeps_it(isolated_home, project, person):
    """A model's update proposal that gives no body (``Proposal.from_dict``) keeps the memory's body,
    applied (consolidation's own memory) or as a candidate (a person's memory)."""
    from memdir.consolidation.proposals import Proposal

    say = lambda text: [{"role": "user", "content": text}]  # noqa: E731
    create = Proposal("create", name="pytest-usage", description="Tests run with pytest -x",
                      body="Run the unit tests with pytest -x; the slow suite is marked slow.")
    assert person.consolidate(say("Always use pytest."), extractor=Scripted(create)).outcomes[0].result == "created"
    update = Proposal.from_dict({"action": "update", "target": "pytest-usage",
                                 "description": "Tests run with pytest -x -q"})
    assert update.body is None
    outcome = person.consolidate(say("Always use pytest quietly."), extractor=Scripted(update)).outcomes[0]
    assert outcome.result == "updated", outcome
    record = person.read("pytest-usage", count=False).record
    assert (record.description, record.body) == (
        "Tests run with pytest -x -q", "Run the unit tests with pytest -x; the slow suite is marked slow.")
    # a person's memory: the update waits as a candidate that carries the body
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY)
    # (a correction: a restatement of it would change nothing, restate47)
    update = Proposal.from_dict({"action": "update", "target": "db-port", "description": "Dev PostgreSQL is on 5434"})
    outcome = person.consolidate(say("Remember: dev PostgreSQL is on 5434."), extractor=Scripted(update)).outcomes[0]
    assert outcome.result == "candidate", outcome
    assert person.read(outcome.name, count=False).record.body == BODY
    # control: an update with a body replaces it (one saying something new: a restatement changes nothing, restate47)
    new_body = "Run the unit tests with pytest -x -q; the slow suite runs nightly."
    update = Proposal.from_dict({"action": "update", "target": "pytest-usage", "description": "Tests run with pytest",
                                 "body": new_body})
    outcome = person.consolidate(say("Always use pytest -q."), extractor=Scripted(update)).outcomes[0]
    assert outcome.result == "updated", outcome
    assert person.read("pytest-usage", count=False).record.body == new_body
    assert Proposal.from_dict({"action": "create", "name": "x", "description": "d"}).body == ""  # a create: empty


def test_a_consolidation_update_without_a_type_keeps_it(isolated_home, project, person):
    """A model's update that leaves out the type keeps the memory's (feedback stays feedback, a person's
    user memory's candidate stays user) instead of turning into ``project``; a given type replaces."""
    from memdir.consolidation.proposals import Proposal

    say = lambda text: [{"role": "user", "content": "Remember: " + text}]  # noqa: E731
    create = Proposal("create", name="test-style", type="feedback", description="Run pytest quietly", body="Use -q.")
    assert person.consolidate(say("Always pytest -q."), extractor=Scripted(create)).outcomes[0].result == "created"
    update = Proposal.from_dict({"action": "update", "target": "test-style", "description": "Run pytest quietly always",
                                 "body": "Use -q always."})
    assert update.type is None
    assert person.consolidate(say("Always pytest -q, always."), extractor=Scripted(update)).outcomes[0].result == "updated"
    assert person.read("test-style", count=False).record.type == "feedback"
    person.write("my-os", "Runs Debian", "user", "Debian 13 on the laptop.")
    update = Proposal.from_dict({"action": "update", "target": "my-os", "description": "Runs Debian testing"})
    outcome = person.consolidate(say("I run Debian testing."), extractor=Scripted(update)).outcomes[0]
    assert (outcome.result, outcome.scope) == ("candidate", "user"), outcome
    candidate = person.read(outcome.name, count=False).record
    assert (candidate.type, candidate.body) == ("user", "Debian 13 on the laptop.")
    # control: a given type replaces, and a create without one is project
    update = Proposal.from_dict({"action": "update", "target": "test-style", "type": "reference",
                                 "description": "Run pytest quietly always", "body": "Use -q always."})
    assert person.consolidate(say("pytest docs."), extractor=Scripted(update)).outcomes[0].result == "updated"
    assert person.read("test-style", count=False).record.type == "reference"
    assert Proposal.from_dict({"action": "create", "name": "x", "description": "d"}).type == "project"


def test_an_agent_cannot_propose_a_team_rename_as_a_new_memory(isolated_home, project, person):
    """The agent's rename of a team memory was proposed as a new memory with an empty body (rename_from
    dropped on the way to the candidate): it is refused, naming who can do it; a person's rename works."""
    from memdir.errors import Refused
    from memdir.operations import team as teamops

    (project / ".claude" / "memory").mkdir(parents=True)
    person.team_trust()  # made by hand: trusted as `team init` would
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflows live in .github.", scope="team")
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    for fields in ({}, {"description": "CI renamed"}):
        with pytest.raises(Refused, match="renaming 'ci' to 'ci-pipeline' in the team layer is a person's change"):
            agent.write("ci-pipeline", rename_from="ci", scope="team", **fields)
    with pytest.raises(Refused, match="clearing importance in the team layer"):
        agent.write("ci", scope="team", clear=("importance",))
    assert teamops.pending(agent.session) == []
    # control: the agent's update is a candidate that keeps the body; a person's rename keeps it too
    assert agent.write("ci", importance=5, scope="team").status == "candidate"
    assert [(r.name, r.body) for r in teamops.pending(agent.session)] == [("ci", "Workflows live in .github.")]
    assert person.write("ci-pipeline", rename_from="ci", scope="team").operation == "renamed"
    assert person.read("ci-pipeline", count=False).record.body == "Workflows live in .github."


def test_a_second_proposal_for_a_live_memory_changes_the_pending_candidate(isolated_home, project, person):
    """A further proposal for a live memory with a candidate pending was refused with a name conflict
    ('live-candidate' normalizes to 'live'); it now changes the pending candidate, keeping what it left out."""
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    person.write("style", "Tabs, not spaces", "feedback", "Use tabs.")
    first = agent.write("style", "Tabs, never spaces", status="candidate")
    second = agent.write("style", importance=4, status="candidate")
    third = agent.write("style", body="Use tabs everywhere.", status="candidate")
    assert first.name == second.name == third.name == "style-candidate"
    record = person.read("style-candidate", count=False).record
    assert (record.description, record.type, record.body, record.importance, record.status) == (
        "Tabs, never spaces", "feedback", "Use tabs everywhere.", 4, "candidate")
    live = person.read("style", count=False).record  # control: the live memory stays as it is
    assert (live.description, live.body, live.importance) == ("Tabs, not spaces", "Use tabs.", None)


@pytest.mark.slow
def test_a_rename_that_also_names_supersedes_is_refused(project):
    """``--rename-from A --supersedes B`` renamed A and silently left B active; it is refused, nothing written."""
    for name, description in (("sa", "Deploys on Fridays"), ("sb", "Deploys on Mondays")):
        assert run_cli("--project", project, "write", name, "-d", description).returncode == 0
    out = run_cli("--project", project, "write", "sc", "--rename-from", "sa", "--supersedes", "sb")
    assert out.returncode == 1 and "give rename_from or supersedes, not both" in out.stderr, out
    assert _read(project, "sa")["status"] == "active" and _read(project, "sb")["status"] == "active"
    assert run_cli("--project", project, "read", "sc").returncode == 1
    # control: the rename alone goes through
    assert run_cli("--project", project, "write", "sc", "--rename-from", "sa").returncode == 0
    assert _read(project, "sc")["description"] == "Deploys on Fridays"
