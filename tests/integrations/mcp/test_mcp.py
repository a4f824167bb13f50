"""The MCP server driven by the SDK's in-memory client (no subprocess, no port)."""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest
from mcp import Client

from memdir import Memory
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.paths import project_key, project_layer_dir
from memdir.tools.specs import MAX_OUTPUT, READ_CHUNK, TOOL_NAMES


def _text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


def _run(fn, *args):
    return anyio.run(fn, *args)


def test_every_tool_instructions_and_errors(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            # the instructions carry the guidance and every tool, never the index (the hook gives it)
            assert "memory_list for the index" in client.instructions and "Save a memory" in client.instructions
            assert all(f"- {name}: " in client.instructions for name in TOOL_NAMES) and len(TOOL_NAMES) == 11
            assert "db-port" not in client.instructions and "<memory_context>" not in client.instructions
            r = await client.call_tool("memory_list", {})  # control: the index is one call away
            assert "db-port" in _text(r)
            tools = (await client.list_tools()).tools
            assert [t.name for t in tools] == [
                "memory_write", "memory_edit", "memory_read", "memory_list", "memory_search", "memory_delete", "memory_prune",
                "memory_delete_all", "memory_history", "memory_restore", "memory_status"]
            hints = {t.name: t.annotations for t in tools}
            assert hints["memory_delete_all"].destructive_hint is True
            assert hints["memory_read"].read_only_hint is True and hints["memory_write"].read_only_hint is False
            assert tools[0].input_schema["required"] == ["name"]  # an update keeps what is left out

            call = client.call_tool
            r = await call("memory_write", {"name": "style", "description": "Tabs, not spaces", "type": "feedback",
                                            "body": "Use tabs.\n**Why:** team rule\n**How to apply:** always"})
            assert not r.is_error and _text(r) == "Memory created: style (project)"
            r = await call("memory_read", {"name": "style"})
            assert "description: Tabs, not spaces" in _text(r) and "**Why:** team rule" in _text(r)
            r = await call("memory_list", {})
            assert _text(r).splitlines()[0] == "Memories 1–2 of 2:"
            r = await call("memory_search", {"query": "postgresql"})
            assert not r.is_error and "db-port" in _text(r).splitlines()[1]
            r = await call("memory_history", {"name": "style"})
            assert _text(r).startswith("1 version(s) of style (project):")
            r = await call("memory_write", {"name": "style", "description": "Spaces now", "type": "feedback",
                                            "body": "Use spaces."})
            assert _text(r) == "Memory updated: style (project)"
            r = await call("memory_restore", {"name": "style", "version": 1})
            assert _text(r).startswith("Restored style to version 1")
            r = await call("memory_prune", {"older_than_days": 1})
            assert _text(r) == "Prune dry-run: 0 candidate(s) not updated for 1+ days."
            r = await call("memory_status", {})
            assert "project: 2 memories" in _text(r)

            # destructive call without confirmation: refused, nothing deleted
            r = await call("memory_delete_all", {"confirm": False})
            assert r.is_error and "requires confirm=true" in _text(r)
            r = await call("memory_list", {})
            assert "2 of 2" in _text(r)
            # a domain error comes back as an error result the model can act on
            r = await call("memory_read", {"name": "no-such-memory"})
            assert r.is_error and 'memory not found: "no-such-memory"' in _text(r) and "memory_list" in _text(r)
            r = await call("memory_delete", {"name": "db-port", "reason": "moved back"})
            assert not r.is_error and _text(r).startswith("Deleted memory: db-port (project)")
            r = await call("memory_delete_all", {"confirm": True, "scope": "project"})
            assert _text(r) == "Deleted 1 in project (tombstones stay)."
            r = await call("memory_list", {})
            assert _text(r) == "No memories yet."

    _run(main)


@pytest.mark.filterwarnings("error::mcp.shared.exceptions.MCPDeprecationWarning")  # roots through the current API
def test_roots_give_the_project_in_both_protocol_eras(isolated_home, tmp_path, monkeypatch):
    launch = tmp_path / "launch"
    (launch / ".git").mkdir(parents=True)
    monkeypatch.chdir(launch)
    rooted = tmp_path / "client-root"
    (rooted / ".git").mkdir(parents=True)

    async def roots(ctx):
        return types.ListRootsResult(roots=[types.Root(uri=rooted.as_uri(), name="proj")])

    async def main(mode, name):
        state = MemoryServer(home=isolated_home)
        async with Client(build_server(state), mode=mode, list_roots_callback=roots) as client:
            r = await client.call_tool("memory_write", {"name": name, "description": f"d of {name}",
                                                        "type": "project", "body": ""})
            assert _text(r) == f"Memory created: {name} (project)"

    _run(main, "legacy", "via-legacy")
    _run(main, "auto", "via-modern")
    rooted_layer = project_layer_dir(isolated_home, rooted)
    assert sorted(p.name for p in rooted_layer.glob("*.md") if p.name != "MEMORY.md") == [
        "via-legacy.md", "via-modern.md"]
    assert not project_layer_dir(isolated_home, launch).exists()

    async def no_roots():  # control: a client without roots gets the launch directory
        async with Client(build_server(MemoryServer(home=isolated_home))) as client:
            await client.call_tool("memory_write", {"name": "launched", "description": "d", "type": "project",
                                                    "body": ""})

    _run(no_roots)
    assert (project_layer_dir(isolated_home, launch) / "launched.md").is_file()


def test_launch_in_home_without_roots(isolated_home, tmp_path, monkeypatch):
    user_home = tmp_path / "userhome"  # $HOME from the autouse fixture
    monkeypatch.chdir(user_home)
    state = MemoryServer(home=isolated_home)
    assert state.fallback.project_root is None

    async def main():
        async with Client(build_server(state)) as client:
            assert "Project memories are unavailable" in client.instructions
            r = await client.call_tool("memory_write", {"name": "p", "description": "d", "type": "project",
                                                        "body": ""})
            assert r.is_error
            assert "--project" in _text(r) and "MEMDIR_PROJECT" in _text(r) and "$HOME" in _text(r)
            r = await client.call_tool("memory_read", {"name": "p", "scope": "project"})
            assert r.is_error and "project scope unavailable" in _text(r)
            r = await client.call_tool("memory_write", {"name": "me", "description": "Prefers short answers",
                                                        "type": "user", "body": "", "scope": "user"})
            assert not r.is_error and _text(r) == "Memory created: me (user)"
            r = await client.call_tool("memory_list", {})
            assert "- me (type: user; layer: user) — Prefers short answers" in _text(r)

    _run(main)
    assert not (isolated_home / "projects" / project_key(user_home.resolve())).exists()
    assert (isolated_home / "_user" / "me.md").is_file()
    assert not any(p.suffix == ".md" for p in user_home.rglob("*"))


@pytest.mark.slow
def test_large_store_stays_bounded(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")  # this test is about bounds, not ranking
    mem = Memory.open(home=isolated_home, project=project)
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(500):
        (layer.path / f"note-{i:03d}.md").write_text(
            f"---\nname: note-{i:03d}\ndescription: a note about area {i} and a detail\ntype: project\n---\n"
            f"a body with a few words, number {i}\n", encoding="utf-8")
    body = ("a " * 50 + "\n") * 2_000  # ~200 KB (under the 256 KiB file ceiling), past the body limit
    (layer.path / "big.md").write_text(f"---\nname: big\ndescription: a big one\ntype: reference\n---\n{body}",
                                       encoding="utf-8")
    size = len(body.strip())

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            listed = _text(await client.call_tool("memory_list", {}))
            assert len(listed) <= MAX_OUTPUT and listed.splitlines()[0] == "Memories 1–50 of 501:"
            page = _text(await client.call_tool("memory_list", {"offset": 450, "limit": 100}))
            assert page.splitlines()[0] == "Memories 451–501 of 501:"
            for args in ({"query": "a"}, {"query": "a", "k": 20}):
                found = await client.call_tool("memory_search", args)
                assert len(_text(found)) <= MAX_OUTPUT
                assert not found.is_error
                assert len(_text(found).splitlines()) <= 1 + 2 * args.get("k", 5)
            read = _text(await client.call_tool("memory_read", {"name": "big"}))
            assert len(read) <= READ_CHUNK + 1000
            assert f"total size {size} characters" in read and f"offset={READ_CHUNK}" in read
            r = await client.call_tool("memory_status", {})  # the server lives
            assert "project: 501 memories" in _text(r)

    _run(main)


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_roots_list_changed_moves_the_project(isolated_home, tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    for root in (first, second):
        (root / ".git").mkdir(parents=True)
    current = [first]

    async def roots(ctx):
        return types.ListRootsResult(roots=[types.Root(uri=current[0].as_uri())])

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home)), mode="legacy",
                          list_roots_callback=roots) as client:
            await client.call_tool("memory_write", {"name": "in-one", "description": "d", "type": "project",
                                                    "body": ""})
            current[0] = second
            await client.call_tool("memory_write", {"name": "still-one", "description": "d2", "type": "project",
                                                    "body": ""})  # no notification yet: same root
            await client.send_roots_list_changed()
            await anyio.sleep(0.05)
            await client.call_tool("memory_write", {"name": "in-two", "description": "d", "type": "project",
                                                    "body": ""})

    _run(main)
    names = lambda root: sorted(p.stem for p in project_layer_dir(isolated_home, root).glob("*.md")  # noqa: E731
                                if p.name != "MEMORY.md")
    assert names(first) == ["in-one", "still-one"]
    assert names(second) == ["in-two"]


def test_instructions_on_an_empty_store_still_carry_the_guidance(isolated_home, project, person):
    empty = MemoryServer(home=isolated_home, project=project).instructions()
    assert "Save a memory (memory_write)" in empty and "- memory_status: " in empty
    assert "follows" not in empty
    person.write("x", "a fact", "project", "")
    assert MemoryServer(home=isolated_home, project=project).instructions() == empty  # the same with memories


def test_memory_write_renames_with_rename_from(isolated_home, project):
    """The API and the panel could rename; the agent's tool could not (noticed at issue 13)."""
    seeded = Memory.open(home=isolated_home, project=project)
    seeded.write("ci", "CI runs on GitHub Actions", "project", "Workflows in .github/workflows.")
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", {
                "name": "ci-runner", "rename_from": "ci", "description": "CI runs on GitHub Actions",
                "type": "project", "body": "Workflows in .github/workflows."})
            assert not r.is_error and _text(r) == "Memory renamed: ci-runner (project)"
            r = await client.call_tool("memory_write", {
                "name": "other", "rename_from": "no-such", "description": "x", "type": "project", "body": ""})
            assert r.is_error and 'cannot rename "no-such"' in _text(r)

    _run(main)
    names = [m.name for m in seeded.list().memories]
    assert names == ["ci-runner"]  # renamed, not copied: the old name is gone
    assert seeded.read("ci-runner", count=False).record.body == "Workflows in .github/workflows."


def test_a_deleted_memory_read_names_the_history_tool_not_the_cli(isolated_home, project, person):
    """memory_read of a deleted memory pointed the model at `memdir history`, a command it has no way to
    run (trial finding): the tool result names memory_history, which does show the versions."""
    person.write("beta", "Beta uses port 8080", "project", "")
    stone = person.delete("beta").tombstone
    person.write("gamma", "Gamma runs nightly", "project", "")
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_read", {"name": "beta"})
            assert r.is_error and _text(r) == (f'Error: memory "beta" was deleted from the project layer (tombstone '
                                               f"{stone}); memory_history with name 'beta' shows its versions")
            r = await client.call_tool("memory_history", {"name": "beta"})  # the tool it names answers
            assert not r.is_error and _text(r).startswith("2 version(s) of beta (project):")
            r = await client.call_tool("memory_read", {"name": "gamma"})  # control: a live memory reads
            assert not r.is_error and "description: Gamma runs nightly" in _text(r)
            r = await client.call_tool("memory_read", {"name": "neverwas"})  # control: never held, no history hint
            assert _text(r) == 'Error: memory not found: "neverwas" in any layer — call memory_list to see the names'

    _run(main)
