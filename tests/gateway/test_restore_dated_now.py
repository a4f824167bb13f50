"""A restore is a change made now (hostile tester, int43): the version's bytes came back with its old
``updated:``, so ``prune --older-than 30`` listed, and ``--apply`` deleted, the memory just brought back ("vpn
(281d since update)"), and the index's decay ordered it by that age. Now every path that writes an earlier
version back — a journal version (library, CLI, the agent's memory_restore tool) and a team git commit — goes
through :func:`memdir.gateway.changes.restore_bytes`, which dates it now and keeps its ``created``
(:func:`memdir.gateway.changes.restored`). Each test has its control: a memory not restored stays as old as it is."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memdir import Memory
from memdir.files.memfile import parse
from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

OLD = "2026-03-01T00:00:00Z"


def backdate(path: Path) -> None:
    """Hand-edit a memory file's ``created:`` and ``updated:`` to :data:`OLD` (as the tester did)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(created|updated): .*$", lambda m: f"{m.group(1)}: {OLD}", text)
    path.write_text(text, encoding="utf-8")


def dates(path: Path) -> tuple[datetime, datetime]:
    record = parse(path.read_text(encoding="utf-8"), path.stem).record
    return record.created, record.updated


def recent(moment: datetime) -> bool:
    return abs(datetime.now(UTC) - moment) < timedelta(minutes=5)


def old_pair(mem: Memory, layer_dir: Path) -> None:
    """``vpn`` (to be restored) and ``dns`` (the control, left alone), both made at :data:`OLD` by hand, then
    ``vpn`` changed now, so its version 2 is the old text with the old dates."""
    for name, body in (("vpn", "use wireguard"), ("dns", "use 1.1.1.1")):
        mem.write(name, f"{name} setup", "reference", body, scope="user")
        backdate(layer_dir / f"{name}.md")
    mem.write("vpn", body="other", scope="user")  # the hand edit is version 2 (external-edit), this version 3


def test_a_restored_version_is_dated_now_and_kept_by_prune(mem, isolated_home):
    user = Path(isolated_home) / "_user"
    old_pair(mem, user)
    assert [v.action for v in mem.history("vpn", scope="user").versions] == ["create", "external-edit", "update"]
    restored = mem.restore("vpn", 2, scope="user")
    assert restored.operation == "updated"
    created, updated = dates(user / "vpn.md")
    assert created == datetime(2026, 3, 1, tzinfo=UTC)  # created kept: the memory was made then
    assert recent(updated)  # before: 2026-03-01, the version's
    assert mem.read("vpn", scope="user", count=False).record.body == "use wireguard"  # the version's text is back
    assert dates(user / "dns.md")[1] == datetime(2026, 3, 1, tzinfo=UTC)  # control: not restored, as old
    plan = mem.prune(30, scope="user")
    assert [c.name for c in plan.candidates] == ["dns"]  # before: dns and vpn; vpn was just restored
    mem.prune(30, scope="user", dry_run=False)
    assert sorted(m.name for m in mem.list("user").memories) == ["vpn"]  # the control went, the restored stayed


def test_the_agents_restore_tool_dates_it_now_too(mem, isolated_home):
    user = Path(isolated_home) / "_user"
    old_pair(mem, user)
    said = mem.as_actor("agent").call_tool("memory_restore", {"name": "vpn", "version": 2, "scope": "user"})
    assert "vpn" in said
    created, updated = dates(user / "vpn.md")
    assert (created, recent(updated)) == (datetime(2026, 3, 1, tzinfo=UTC), True)
    assert [c.name for c in mem.prune(30, scope="user").candidates] == ["dns"]  # control: dns is still old


def test_a_pruned_memory_restored_keeps_its_created_and_is_not_pruned_again(mem, isolated_home):
    user = Path(isolated_home) / "_user"
    mem.write("vpn", "vpn setup", "reference", "use wireguard", scope="user")
    backdate(user / "vpn.md")
    assert mem.prune(30, scope="user", dry_run=False).deleted == 1  # old: pruned (a prune leaves no tombstone)
    versions = mem.history("vpn", scope="user").versions
    assert [v.action for v in versions] == ["create", "external-edit", "prune"]
    assert mem.restore("vpn", 2, scope="user").operation == "created"
    created, updated = dates(user / "vpn.md")
    assert (created, recent(updated)) == (datetime(2026, 3, 1, tzinfo=UTC), True)
    assert mem.prune(30, scope="user").candidates == ()  # before: the restored version was pruned again at once


def test_a_team_commit_restored_is_dated_now(tmp_path):
    a, _b = shared_repository(tmp_path)
    mem = a.memory()
    mem.write("vpn", "vpn setup", "reference", "use wireguard", scope="team")
    backdate(a.team_dir / "vpn.md")
    a.commit_all("vpn, made in March")
    first = git(a.root, "rev-parse", "HEAD").stdout.strip()
    mem.write("vpn", body="other", scope="team")
    a.commit_all("vpn changed")
    mem.restore("vpn", commit=first, scope="team")
    created, updated = dates(a.team_dir / "vpn.md")
    assert created == datetime(2026, 3, 1, tzinfo=UTC) and recent(updated)  # before: updated in March
    assert "use wireguard" in (a.team_dir / "vpn.md").read_text(encoding="utf-8")
    shown = git(a.root, "show", f"{first}:.claude/memory/vpn.md").stdout  # control: git's commit holds the old date
    assert f"updated: {OLD}" in shown


@pytest.mark.slow  # real subprocesses
def test_the_cli_restore_then_prune_keeps_it(tmp_path, isolated_home, project):
    def cli(*args):
        done = run_cli(*args, "--project", project)
        assert done.returncode == 0, done.stderr
        return done.stdout

    user = Path(isolated_home) / "_user"
    for name in ("vpn", "dns"):
        cli("write", name, "-d", f"{name} setup", "-t", "reference", "--body", "first", "--scope", "user")
        backdate(user / f"{name}.md")
    cli("write", "vpn", "--body", "other", "--scope", "user")
    assert "Restored vpn to version 2" in cli("restore", "vpn", "--version", "2")
    planned = json.loads(cli("prune", "--older-than", "30", "--json"))
    assert [c["name"] for c in planned["candidates"]] == ["dns"]  # before: vpn (281d since update) too
    cli("prune", "--older-than", "30", "--apply")
    assert [m["name"] for m in json.loads(cli("list", "--json"))["memories"]] == ["vpn"]


def test_restoring_the_live_version_again_is_unchanged(mem, isolated_home):
    # break43: with its dates now, a second restore of the same version wrote v5, v6 … and moved updated each time
    user = Path(isolated_home) / "_user"
    old_pair(mem, user)
    assert mem.restore("vpn", 2, scope="user").operation == "updated"
    before = (user / "vpn.md").read_bytes()
    assert mem.restore("vpn", 2, scope="user").operation == "unchanged"
    assert (user / "vpn.md").read_bytes() == before and len(mem.history("vpn", scope="user").versions) == 4
    assert mem.restore("vpn", 3, scope="user").operation == "updated"  # control: another version is a change
