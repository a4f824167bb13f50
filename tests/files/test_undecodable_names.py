"""A ``*.md`` in a layer whose file name is not UTF-8 (bytes such as ``\\xff``, which Python holds as a
lone surrogate): it names no memory and no SQLite table (the manifest, the search index) can key it, so
the scan lists it as unreadable and never opens it (files.scan.NOT_UTF8_NAME). Before break22 every
``list``, ``search``, ``doctor`` and the prompt hook's recall died in ``manifest.full_rows`` with
``UnicodeEncodeError: 'utf-8' codec can't encode character '\\udcff'``."""

from __future__ import annotations

import os

import anyio
import pytest
from mcp import Client

from memdir.files.scan import NOT_UTF8_NAME
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli

BAD = b"bad\xffname.md"


@pytest.fixture
def layer(person):
    person.write("keep-me", "Dev PostgreSQL listens on 5433 zebra", "project", "kept")
    path = person.session.layer("project").path
    with open(os.fsencode(path) + b"/" + BAD, "wb") as handle:
        handle.write(b"---\nname: badname\ndescription: a zebra in a badly named file\ntype: project\n---\nbody\n")
    return path


@pytest.mark.slow
def test_a_file_name_that_is_not_utf8_is_listed_unreadable_and_breaks_no_command(layer, project):
    listed = run_cli("--project", project, "list")
    assert listed.returncode == 0, listed.stderr
    assert "- keep-me (type: project; layer: project)" in listed.stdout  # control: the sound memory is listed
    assert f"bad\\udcffname.md: {NOT_UTF8_NAME}" in listed.stderr + listed.stdout
    found = run_cli("--project", project, "search", "zebra")
    assert found.returncode == 0, found.stderr
    assert "keep-me" in found.stdout and "badname" not in found.stdout  # never read, so never found
    doctor = run_cli("--project", project, "doctor")
    assert f"malformed: {layer}/bad\\udcffname.md: {NOT_UTF8_NAME}" in doctor.stdout
    assert doctor.stdout.rstrip().endswith("1 problem(s)")
    written = run_cli("--project", project, "write", "other-one", "-d", "another memory", "--body", "x")
    assert written.returncode == 0 and "Memory created: other-one (project)" in written.stdout
    assert os.path.exists(os.fsencode(layer) + b"/" + BAD)  # left as it was


def test_the_agent_s_tools_answer_beside_a_file_name_that_is_not_utf8(layer, isolated_home, project):
    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            listed = await client.call_tool("memory_list", {})
            found = await client.call_tool("memory_search", {"query": "zebra"})
            return listed.content[0].text, found.content[0].text, found.is_error

    listed, found, error = anyio.run(main)
    assert "keep-me" in listed and "badname" not in listed
    assert not error and "keep-me" in found and "badname" not in found
