"""Where a superseded memory's successors lead (:mod:`memdir.layer.succession`), on every path: the CLI
(real subprocesses), the Python API, the MCP server (the SDK's in-memory client) and consolidation.

A chain a → b → c names its live end c (via b); a successor that was deleted is said to be, with its
tombstone and the way back (reactivate, after `memdir tombstone lift` when the value is the forgotten one);
a chain that loops (a hand edit) ends instead of running forever."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.consolidation.proposals import Proposal
from memdir.errors import Refused, TombstoneRefused
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli
from tests.scripted import Scripted

FACT = "Dev PostgreSQL listens on 5433"


def _today() -> str:
    """The UTC day now."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


def _made_on(ts: str, before: str) -> str:
    """The UTC day of a tombstone's ``ts`` (a refusal tells it), checked to be the day it was made: ``before``
    (the day just before the forget) or today — a forget that crossed midnight UTC records the day after, so
    the day the refusal says is read from the stone, not from the clock when the test asserts."""
    day = ts[:10]
    assert day in (before, _today()), (ts, before)
    return day


def _cli(project, *args, **kw):
    return run_cli("--project", project, *args, **kw)


def _status(project, name):
    out = _cli(project, "read", name)
    assert out.returncode == 0, out.stderr
    return next(line for line in out.stdout.splitlines() if line.startswith("status: "))


def _tombstone(project):
    stones = json.loads(_cli(project, "tombstones", "--json").stdout)["tombstones"]
    assert len(stones) == 1, stones
    return stones[0]["id"]


# ---------------------------------------------------------------- 1. a successor that was deleted


@pytest.mark.slow
def test_cli_a_renamed_then_forgotten_memory_says_its_successor_was_deleted(project):
    assert _cli(project, "write", "db-port", "-d", FACT, "-b", "Moved in November.").returncode == 0
    assert _cli(project, "write", "pg-port", "--rename-from", "db-port").returncode == 0
    # control, before the delete: the live successor is named, and a write is sent to it
    assert _status(project, "db-port") == "status: superseded by pg-port"
    out = _cli(project, "write", "db-port", "-d", "Dev DB port is 5434")
    assert out.returncode == 1 and "write to 'pg-port' instead" in out.stderr

    before = _today()
    assert _cli(project, "forget", "pg-port").returncode == 0
    stone = _tombstone(project)
    day = _made_on(json.loads(_cli(project, "tombstones", "--json").stdout)["tombstones"][0]["ts"], before)
    assert _status(project, "db-port") == f"status: superseded by pg-port (deleted, tombstone {stone})"
    read = json.loads(_cli(project, "read", "db-port", "--json").stdout)
    assert read["successor"] == {"name": "pg-port", "via": [], "state": "deleted", "tombstone": stone}

    # a write with new text: no "write to 'pg-port' instead" (it is gone); the way back is said
    out = _cli(project, "write", "db-port", "-d", "Dev DB port is 5434")
    assert out.returncode == 1 and "instead" not in out.stderr
    assert out.stderr == (
        f"memdir: memory 'db-port' was superseded by 'pg-port', which was deleted and its value forgotten "
        f"(tombstone {stone}): to write to 'db-port', reactivate it explicitly; "
        f"if 'db-port' holds that value too, a person first lifts the tombstone with "
        f"`memdir tombstone lift {stone} --scope project`; reactivate it with `memdir write db-port --reactivate` "
        f"(a version of it: `memdir restore db-port --version N --reactivate`)\n")
    assert "memory_write" not in out.stderr and "reactivate=true" not in out.stderr  # the CLI's words only

    # reactivating it as it is: refused by pg-port's tombstone (the forgotten fact is db-port's text too),
    # and the refusal says why and how
    out = _cli(project, "write", "db-port", "--reactivate")
    assert out.returncode == 1
    said = (f"memdir: refused: this matches a forgotten value (the same value; tombstone {stone}, "
            f"memory 'pg-port', forgotten by human on {day}). A person can lift it with "
            f"`memdir tombstone lift {stone} --scope project`, then reactivate 'db-port': 'db-port' was superseded "
            "by 'pg-port', which was deleted and its value forgotten, and 'db-port' holds that value too; "
            "reactivate it with `memdir write db-port --reactivate` (a version of it: `memdir restore db-port "
            "--version N --reactivate`)\n")
    assert out.stderr == said  # the CLI's way back, in the CLI's words (the core's text names no interface)
    assert "memory_write" not in out.stderr and "reactivate=true" not in out.stderr
    out = _cli(project, "restore", "db-port", "--version", "1", "--reactivate")  # restoring it: the same
    assert out.returncode == 1 and out.stderr == said
    assert _status(project, "db-port").startswith("status: superseded by pg-port (deleted")  # nothing written

    # the way back works as said: lift, then reactivate
    assert _cli(project, "tombstone", "lift", stone).returncode == 0
    out = _cli(project, "write", "db-port", "--reactivate")
    assert out.returncode == 0 and out.stdout.strip() == "Memory reactivated: db-port (project)", out.stderr
    assert json.loads(_cli(project, "read", "db-port", "--json").stdout)["successor"] is None


def _forgotten_successor(mem) -> str:
    """db-port renamed to pg-port, pg-port forgotten by a person: db-port holds the forgotten value. Its id."""
    person = mem.as_actor("human")
    person.write("db-port", FACT, "project", "Moved in November.")
    person.write("pg-port", rename_from="db-port")
    return person.forget("pg-port").tombstone


def test_the_core_refusal_names_no_interface_and_says_which_memory_comes_back(mem):
    stone = _forgotten_successor(mem)
    with pytest.raises(TombstoneRefused) as caught:
        mem.write("db-port", reactivate=True)
    text = str(caught.value)
    assert caught.value.reactivate == "db-port" and caught.value.tombstone_id == stone
    assert text.endswith(", then reactivate 'db-port': 'db-port' was superseded by 'pg-port', which was deleted "
                         "and its value forgotten, and 'db-port' holds that value too")
    assert "--reactivate" not in text and "memory_write" not in text and "reactivate=true" not in text
    with pytest.raises(TombstoneRefused) as other:  # control: a plain refusal names no memory to reactivate
        mem.write("db-port-again", FACT)
    assert other.value.reactivate is None


def test_mcp_says_the_tools_way_back(isolated_home, project, mem):
    stone = _forgotten_successor(mem)
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", {"name": "db-port", "reactivate": True})
            text = r.content[0].text
            assert r.is_error and text.startswith("Error: refused: this matches a forgotten value (the same value; "
                                                  f"tombstone {stone}, ")
            assert text.endswith(", then reactivate 'db-port': 'db-port' was superseded by 'pg-port', which was "
                                 "deleted and its value forgotten, and 'db-port' holds that value too; reactivate it "
                                 "with memory_write name 'db-port' reactivate true (a version of it: memory_restore "
                                 "with reactivate true)"), text
            assert "memdir write" not in text and "--reactivate" not in text
            r = await client.call_tool("memory_write", {"name": "db-port-again", "description": FACT})
            assert r.is_error and "reactivate" not in r.content[0].text  # control: no memory to bring back

    anyio.run(main)


def test_a_deleted_successor_of_another_value_needs_no_lift(mem):
    mem.write("ci", "CI runs on Jenkins", "project")
    mem.write("ci-runner", rename_from="ci")
    mem.write("ci-runner", "CI runs on Jenkins at ci.example.org")  # the successor's text moved on
    stone = mem.delete("ci-runner").tombstone
    found = mem.read("ci", count=False).successor
    assert (found.name, found.state, found.tombstone, found.phrase()) == (
        "ci-runner", "deleted", stone, f"ci-runner (deleted, tombstone {stone})")
    with pytest.raises(Refused, match="which was deleted and its value forgotten"):
        mem.write("ci", body="x")
    assert mem.write("ci", reactivate=True).operation == "reactivated"  # its own text is no forgotten value


def test_a_successor_deleted_by_hand_is_deleted_without_a_tombstone(mem):
    mem.write("ci", "CI runs on Jenkins", "project")
    mem.write("ci-runner", rename_from="ci")
    (mem.session.layer("project").path / "ci-runner.md").unlink()
    found = mem.read("ci", count=False).successor
    assert (found.state, found.tombstone, found.phrase()) == ("deleted", None, "ci-runner (deleted)")
    with pytest.raises(Refused) as caught:
        mem.write("ci", "CI runs on Forgejo")
    assert str(caught.value) == ("memory 'ci' was superseded by 'ci-runner', which was deleted: to write to 'ci', "
                                 "reactivate it explicitly")  # the core names no interface's way
    assert (caught.value.reactivate, caught.value.lift) == ("ci", None)  # no tombstone to lift


# ---------------------------------------------------------------- 2. a chain names its live end


@pytest.mark.slow
def test_cli_a_chain_names_its_live_end(project):
    assert _cli(project, "write", "ci", "-d", "CI runs on Jenkins").returncode == 0
    assert _cli(project, "write", "ci-runner", "--rename-from", "ci").returncode == 0
    assert _cli(project, "write", "ci-agent", "--rename-from", "ci-runner").returncode == 0
    assert _cli(project, "write", "ci-host", "--rename-from", "ci-agent").returncode == 0
    assert _status(project, "ci") == "status: superseded by ci-host (via ci-runner, ci-agent)"
    assert _status(project, "ci-agent") == "status: superseded by ci-host"  # control: a direct successor
    out = _cli(project, "write", "ci", "-d", "CI runs on Forgejo")
    assert out.returncode == 1 and out.stderr == (
        "memdir: memory 'ci' was superseded by 'ci-host' (via 'ci-runner', 'ci-agent'): write to 'ci-host' "
        "instead, or reactivate 'ci' explicitly; reactivate it with `memdir write ci --reactivate` (a version "
        "of it: `memdir restore ci --version N --reactivate`)\n")
    out = _cli(project, "pin", "ci-runner")
    assert out.returncode == 1 and "superseded by 'ci-host' (via 'ci-agent'): pin 'ci-host' instead" in out.stderr
    read = json.loads(_cli(project, "read", "ci", "--json").stdout)
    assert read["successor"] == {"name": "ci-host", "via": ["ci-runner", "ci-agent"], "state": "active",
                                 "tombstone": None}
    # the end of the chain deleted: named as deleted, with the memories passed
    assert _cli(project, "delete", "ci-host").returncode == 0
    assert _status(project, "ci") == (f"status: superseded by ci-host (via ci-runner, ci-agent; deleted, "
                                      f"tombstone {_tombstone(project)})")


def test_mcp_read_and_write_name_the_live_end(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("ci", "CI runs on Jenkins", "project")
    mem.write("ci-runner", rename_from="ci")
    mem.write("ci-agent", rename_from="ci-runner")
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_read", {"name": "ci"})
            assert "status: superseded by ci-agent (via ci-runner)" in r.content[0].text.splitlines()
            r = await client.call_tool("memory_write", {"name": "ci", "description": "CI runs on Forgejo"})
            assert r.is_error and "'ci' was superseded by 'ci-agent' (via 'ci-runner'): write to 'ci-agent' " \
                                  "instead" in r.content[0].text
            text = r.content[0].text  # the tools' way back, in the tools' words (the core names no interface)
            assert text.endswith("or reactivate 'ci' explicitly; reactivate it with memory_write name 'ci' reactivate "
                                 "true (a version of it: memory_restore with reactivate true)"), text
            assert "memdir write" not in text and "--reactivate" not in text
            r = await client.call_tool("memory_write", {"name": "ci-agent", "description": "CI runs on Forgejo"})
            assert not r.is_error  # control: the live end takes the write

    anyio.run(main)


def test_consolidation_names_the_live_end(mem):
    own = mem.as_actor("extracted")
    own.write("ci", "CI runs on Jenkins", "project")
    own.write("ci-runner", rename_from="ci")
    own.write("ci-agent", rename_from="ci-runner")
    update = Proposal("update", target="ci", description="CI runs on Forgejo", type="project")
    report = mem.consolidate([{"role": "user", "content": "CI moved to Forgejo."}], extractor=Scripted(update),
                             mode="always")
    outcome = report.outcomes[0]
    assert outcome.result == "refused", outcome
    assert "'ci' was superseded by 'ci-agent' (via 'ci-runner'): write to 'ci-agent' instead" in outcome.detail
    assert mem.read("ci-agent", count=False).record.description == "CI runs on Jenkins"  # nothing written


def test_a_loop_of_successors_ends(mem):
    mem.write("a-fact", "Alpha fact", "project")
    mem.write("b-fact", rename_from="a-fact")
    mem.write("c-fact", rename_from="b-fact")
    # a hand edit closes the loop: c-fact superseded by a-fact
    path = mem.session.layer("project").path / "c-fact.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("status: active", "status: superseded\nsuperseded_by: a-fact"), encoding="utf-8")
    assert mem.read("c-fact", count=False).record.superseded_by == "a-fact"
    found = mem.read("a-fact", count=False).successor
    assert (found.name, found.state, found.phrase()) == ("b-fact", "loop", "b-fact (its successors loop back)")
    with pytest.raises(Refused, match="'a-fact' was superseded by 'b-fact', whose successors loop back to it"):
        mem.write("a-fact", "Alpha fact, restated")
    assert mem.write("a-fact", "Alpha fact, restated", reactivate=True).operation == "reactivated"
    # control: with a-fact active again the loop is broken, and b-fact's chain ends there, its live end
    found = mem.read("b-fact", count=False).successor
    assert (found.name, found.via, found.state) == ("a-fact", ("c-fact",), "active")


def test_the_tombstone_refusal_is_unchanged_for_a_memory_that_is_not_superseded(mem):
    mem.write("db-port", FACT, "project")
    before = _today()
    stone = mem.forget("db-port").tombstone
    day = _made_on(next(t.ts for t in mem.session.layer("project").tombstone_file.all() if t.id == stone), before)
    with pytest.raises(TombstoneRefused) as caught:
        mem.write("db-port-again", FACT)
    assert str(caught.value) == (f"refused: this matches a forgotten value (the same value; tombstone {stone}, "
                                 f"memory 'db-port', forgotten by agent on {day}). A person can lift it with "
                                 f"`memdir tombstone lift {stone} --scope project`")


@pytest.mark.slow
def test_a_rename_onto_an_old_name_says_its_history_keeps_it_on_every_path(isolated_home, project):
    """Renaming ci-runner back to ci, which it superseded: the name is taken by ci's history, said as such —
    never "a memory called 'ci' exists … edit 'ci' itself", a memory no list shows and no write may change."""
    from memdir.errors import Conflict

    mem = Memory.open(home=isolated_home, project=project)
    mem.write("ci", "CI runs on Jenkins", "project")
    mem.write("ci-runner", rename_from="ci")
    kept = ("the name 'ci' is kept by the history of a memory that was renamed or replaced, now ci-runner; "
            "choose another name")
    with pytest.raises(Conflict) as raised:
        mem.write("ci", rename_from="ci-runner")
    assert str(raised.value) == kept
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", {"name": "ci", "rename_from": "ci-runner"})
            assert r.is_error and kept in r.content[0].text

    anyio.run(main)
    cli = _cli(project, "write", "ci", "--rename-from", "ci-runner")
    assert cli.returncode != 0 and kept in cli.stderr
    mem.write("ci-host", rename_from="ci-runner")  # control: another name is free
    assert [m.name for m in mem.list().memories] == ["ci-host"]
    mem.write("live", "Deploys on Fridays", "project")
    with pytest.raises(Conflict) as refused:
        mem.write("live", rename_from="ci-host")  # an active memory of that name: edit it, as before
    assert str(refused.value) == ("a memory called 'live' exists, so 'ci-host' was not renamed: rename it to a free "
                                  "name such as 'live-2', or change 'live' itself (its title, description or body) "
                                  "instead")
    mem.write("live-2", rename_from="ci-host")  # control: the name it offers is free, and the rename is made
    assert sorted(m.name for m in mem.list().memories) == ["live", "live-2"]


def test_each_adapter_words_the_way_back_from_a_superseded_memory(mem):
    """The core's refusal carries the memory to reactivate (``Refused.reactivate``) and the tombstone a person lifts
    first (``Refused.lift``); the panel, which cannot reactivate, says so in its words and names its Lift button
    where the core names the command. The memory tool never gets this refusal: it answers a superseded path itself.
    Control: a memory that is not superseded takes the memory tool's write."""
    from memdir.integrations.panel.api import lifted_here
    from memdir.tools.memory_directory import run

    mem.write("db-port", FACT, "project", "Moved in November.")
    mem.write("pg-port", rename_from="db-port")
    stone = mem.forget("pg-port").tombstone
    with pytest.raises(Refused) as caught:
        mem.write("db-port", "Dev DB port is 5434")
    core = str(caught.value)
    assert (caught.value.reactivate, caught.value.lift) == ("db-port", (stone, "project"))
    assert core.endswith(f"a person first lifts the tombstone with `memdir tombstone lift {stone} --scope project`")
    assert lifted_here(caught.value) == core.replace(
        f"`memdir tombstone lift {stone} --scope project`",
        f"the Lift button of {stone} on the Tombstones page (/tombstones)") + (
        "; the panel does not reactivate a memory: run `memdir write db-port --reactivate`")
    # the memory tool answers a superseded path itself (it cannot reactivate): never the gateway's refusal
    out = run(mem.session, {"command": "create", "path": "/memories/project/db-port.md", "file_text": "Dev DB 5434"})
    assert out.is_error and "old name of a memory that was renamed or replaced" in out.text
    assert "reactivate" not in out.text
    done = run(mem.session, {"command": "create", "path": "/memories/project/ci.md", "file_text": "CI runs on Jenkins"})
    assert not done.is_error, done.text  # control: a memory that is not superseded is written
