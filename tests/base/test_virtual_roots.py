"""A directory of the kernel's virtual file systems (/proc, /sys, /dev) is never a project root
(paths.refusal, for every source): ``file:///proc/self`` from an MCP client, ``--project /sys/kernel``.
The session is left without a project, saying why, and the MCP server skips such a root for the next
usable one, as it skips any unusable root."""

from __future__ import annotations

import os
import sys

import anyio
import mcp_types as types
import pytest
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.paths import project_key
from memdir.session import open_session

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and /sys are Linux's")


@pytest.mark.parametrize("source", ["/proc/self", "/proc", "/sys/kernel", "/dev"])
def test_a_virtual_directory_is_no_project(isolated_home, source):
    session = open_session(isolated_home, source, use_cwd=False)
    assert session.project_root is None
    top = os.path.realpath(source).split("/")[1]
    assert f"(it is in {top!r}, a virtual file system" in session.project_error
    assert session.scopes() == ("user",)  # the user layer still works


def test_control_a_real_directory_is_a_project(isolated_home, project):
    session = open_session(isolated_home, project, use_cwd=False)
    assert session.root_path == os.path.realpath(project)


def test_a_proc_named_directory_elsewhere_is_a_project(isolated_home, tmp_path):
    # only the trees themselves: /tmp/.../proc, /procurement are ordinary directories
    odd = tmp_path / "proc" / "self"
    odd.mkdir(parents=True)
    session = open_session(isolated_home, odd, use_cwd=False)
    assert session.root_path == os.path.realpath(odd)


def test_mcp_skips_a_proc_root_for_the_next_one(isolated_home, project, tmp_path):
    other = tmp_path / "other"
    other.mkdir()

    async def list_roots(ctx, params=None):
        return types.ListRootsResult(roots=[types.Root(uri="file:///proc/self"), types.Root(uri=f"file://{other}")])

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project)),
                          list_roots_callback=list_roots) as c:
            r = await c.call_tool("memory_write", {"name": "a", "description": "d", "type": "project", "body": "b"})
            assert not r.is_error, r.content[0].text

    anyio.run(main)
    # the second root, never /proc/<pid> (before: projects/<pid>-… was written) nor the launch project
    assert sorted(p.name for p in (isolated_home / "projects").iterdir()) == [project_key(other.resolve())]


@pytest.mark.parametrize("source", ["/dev/null", "/proc/self/status"])
def test_a_non_directory_source_is_refused_at_once(isolated_home, source):
    # not a directory (a device, a virtual file): refused as any file is (paths.project_dir_path), which the
    # MCP server also skips for its next root
    from memdir.errors import ScopeError

    with pytest.raises(ScopeError, match=f"project directory '{source}' is not a directory"):
        open_session(isolated_home, source, use_cwd=False)
