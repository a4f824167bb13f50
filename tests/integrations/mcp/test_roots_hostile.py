"""The client's roots are data too: a ``file://`` root naming another machine (``file://host/etc``) is
no directory here and never becomes the project; a percent-encoded name that is not UTF-8 reaches
the directory it names. Driven through the SDK's in-memory client."""

from __future__ import annotations

import os

import anyio
import mcp_types as types
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.paths import project_key


def _written_to(home, fallback, uri: str) -> list[str]:
    async def list_roots(ctx, params=None):
        return types.ListRootsResult(roots=[types.Root(uri=uri)])

    async def main():
        async with Client(build_server(MemoryServer(home=home, project=fallback)), list_roots_callback=list_roots) as c:
            r = await c.call_tool("memory_write", {"name": "a", "description": "d", "type": "project", "body": "b"})
            assert not r.is_error, r.content[0].text

    anyio.run(main)
    return sorted(p.name for p in (home / "projects").iterdir())


def test_a_root_on_another_host_is_not_a_local_project(isolated_home, project, tmp_path):
    remote = _written_to(isolated_home, project, "file://build-server/etc")
    assert remote == [project_key(project.resolve())]  # the fallback project, never /etc of this machine


def test_a_root_named_localhost_is_local(isolated_home, project, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    os.system(f"git init -q {other}")
    local = _written_to(isolated_home, project, f"file://localhost{other}")
    assert local == [project_key(other.resolve())]  # control: the root is taken


def test_a_root_whose_name_is_not_utf8_reaches_that_directory(isolated_home, project, tmp_path):
    odd = os.fsencode(str(tmp_path)) + b"/caf\xe9"  # Latin-1 bytes, as an old checkout may hold
    os.mkdir(odd)
    os.system(f"git init -q {os.fsdecode(odd)!r}")
    uri = "file://" + "".join(chr(b) if 0x21 <= b < 0x7f and b != 0x25 else f"%{b:02X}" for b in odd)
    written = _written_to(isolated_home, project, uri)
    assert written == [project_key(os.path.realpath(os.fsdecode(odd)))], written
