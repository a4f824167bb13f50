"""A read never changes a memory file: usage lives in the layer's .memdir/usage.json (issue 24 §3)."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.files.layout import INDEX_FILE
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli
from tests.teamgit import git, shared_repository


def snapshot(path):
    """What an editor or git sees of a file: its bytes and its mtime."""
    return path.read_bytes(), path.stat().st_mtime_ns


def _aged_file(layer_dir, name: str, *, days: int, extra: str = "") -> object:
    """A hand-written memory last changed ``days`` ago (an older tool's file when ``extra`` holds usage keys)."""
    stamp = (datetime.now(timezone.utc) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    layer_dir.mkdir(parents=True, exist_ok=True)
    path = layer_dir / f"{name}.md"
    path.write_text(f"---\nname: {name}\ndescription: {name} described\ntype: project\ncreated: {stamp}\n"
                    f"updated: {stamp}\n{extra}---\n{name} body.\n", encoding="utf-8")
    past = datetime.now().timestamp() - 3600  # an mtime a rewrite within this test could not keep
    os.utime(path, (past, past))
    return path


@pytest.mark.slow
def test_a_read_on_every_path_keeps_the_file_byte_for_byte_and_counts(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    path = person.session.layer_dir("project") / "db-port.md"
    os.utime(path, (1_700_000_000, 1_700_000_000))
    before = snapshot(path)
    journaled = len(person.session.layer("project").journal.events())

    out = run_cli("--project", project, "read", "db-port", "--json")  # the CLI, a real process
    assert json.loads(out.stdout)["reads"] == 1
    assert snapshot(path) == before
    assert person.read("db-port").record.reads == 2  # the API
    server = MemoryServer(home=isolated_home, project=project)

    async def through_mcp():
        async with Client(build_server(server)) as client:
            result = await client.call_tool("memory_read", {"name": "db-port"})
            assert "Moved on 2026-11-02." in result.content[0].text

    anyio.run(through_mcp)
    assert snapshot(path) == before  # bytes and mtime: `updated:` did not move either
    assert b"reads" not in path.read_bytes() and b"updated:" in path.read_bytes()
    record = person.read("db-port", count=False).record
    assert record.reads == 3 and record.last_read is not None  # control: the three reads were counted
    usage = json.loads((person.session.layer_dir("project") / ".memdir" / "usage.json").read_text())
    assert usage["db-port"][0] == 3
    assert len(person.session.layer("project").journal.events()) == journaled  # a read is no mutation
    # control: a content change does rewrite the file, and keeps the count
    person.write("db-port", "Dev PostgreSQL listens on 5434", "project")
    assert snapshot(path) != before and person.read("db-port", count=False).record.reads == 3


def test_a_read_revives_a_stale_memory_without_touching_its_file(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, stale_after_days=30)
    mem.write("fresh", "Written today", "project", "Fresh.")
    layer_dir = mem.session.layer_dir("project")
    path = _aged_file(layer_dir, "aged", days=90)
    before = snapshot(path)
    mem.session.layer("project").refresh_index()
    index = layer_dir / INDEX_FILE
    assert "(aged.md)" not in index.read_text() and "(fresh.md)" in index.read_text()  # stale; control: fresh
    assert mem.read("aged").record.reads == 1
    assert "(aged.md)" in index.read_text() and "(fresh.md)" in index.read_text()  # back in MEMORY.md
    assert "aged described" in Memory.open(home=isolated_home, project=project, stale_after_days=30).context()
    assert snapshot(path) == before
    # The revival lasts: another process (no cached state) still sees the read.
    again = Memory.open(home=isolated_home, project=project, stale_after_days=30)
    assert {m.name: m.state for m in again.list("project").memories} == {"aged": "active", "fresh": "active"}


def test_an_older_file_s_reads_count_as_its_start_and_leave_only_with_a_content_change(isolated_home, project,
                                                                                        person):
    layer_dir = person.session.layer_dir("project")
    person.write("other", "Another memory", "project")  # the layer exists
    path = _aged_file(layer_dir, "legacy", days=3, extra="reads: 5\nlast_read: 2026-01-02T03:04:05Z\n")
    untouched = _aged_file(layer_dir, "kept", days=3, extra="reads: 2\n")
    before, kept_before = snapshot(path), snapshot(untouched)
    assert person.read("kept", count=False).record.reads == 2  # read as before
    assert person.read("legacy").record.reads == 6
    assert snapshot(path) == before and b"reads: 5" in path.read_bytes()  # the old fields stay while content does
    person.write("legacy", "legacy described, and changed", "project")
    assert b"reads" not in path.read_bytes() and b"last_read" not in path.read_bytes()
    assert person.read("legacy", count=False).record.reads == 6  # the count survived the rewrite
    person.write("kept", "kept, now changed", "project")  # never read since: the file's own count moves over
    assert b"reads" not in untouched.read_bytes() and snapshot(untouched) != kept_before
    assert person.read("kept", count=False).record.reads == 2


def test_usage_follows_a_rename_and_goes_with_a_delete(isolated_home, project, person):
    person.write("ci", "CI runs on GitHub Actions", "project")
    person.read("ci")
    person.read("ci")
    person.write("ci-runner", rename_from="ci")
    assert person.read("ci-runner", count=False).record.reads == 2
    person.write("cd", "CD runs on Argo", "project")
    assert person.read("cd", count=False).record.reads == 0  # a new memory starts from nothing
    usage_file = person.session.layer_dir("project") / ".memdir" / "usage.json"
    assert "ci-runner" in json.loads(usage_file.read_text())  # control for what the delete drops
    person.delete("ci-runner")
    assert "ci-runner" not in json.loads(usage_file.read_text())


@pytest.mark.slow
def test_a_team_memory_read_is_counted_in_the_home_and_leaves_the_repository_clean(tmp_path):
    a, _ = shared_repository(tmp_path)
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.commit_all("ci")
    path = a.team_dir / "ci.md"
    before = snapshot(path)
    agent = a.memory(actor="agent")
    assert agent.read("ci").record.reads == 1
    assert a.memory().read("ci").record.reads == 2  # control: counted, in the home
    assert snapshot(path) == before
    assert git(a.root, "status", "--porcelain").stdout == ""
    assert not list(a.team_dir.rglob("usage.json")) and list(a.home.rglob("usage.json"))


def test_a_symlinked_usage_file_is_ignored_and_replaced_never_hiding_the_layer(isolated_home, project, person,
                                                                              tmp_path):
    person.write("ci", "CI runs on GitHub Actions", "project")
    person.write("cd", "CD runs on Argo", "project")
    usage_file = person.session.layer_dir("project") / ".memdir" / "usage.json"
    outside = tmp_path / "outside.json"
    outside.write_text('{"ci": [99, null]}')
    usage_file.unlink(missing_ok=True)
    usage_file.symlink_to(outside)
    fresh = Memory.open(home=isolated_home, project=project, actor="human")
    assert [m.name for m in fresh.list().memories] == ["cd", "ci"]  # the layer is listed, whole
    assert fresh.read("ci").record.reads == 1  # the link is never read: counting starts over
    assert not usage_file.is_symlink() and json.loads(usage_file.read_text())["ci"][0] == 1  # replaced
    assert outside.read_text() == '{"ci": [99, null]}'  # never written through
    assert "[ci](ci.md)" in (person.session.layer_dir("project") / INDEX_FILE).read_text()  # indexed
    assert not [p for p in fresh.doctor().problems if "usage.json" in p.path]
