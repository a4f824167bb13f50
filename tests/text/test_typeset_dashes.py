"""A name or a word written with a typeset dash (break11): ``memory_read("pg‐port")`` (U+2010 HYPHEN, what a rendered
page or a word processor shows for ``-``) answered "memory not found … its file name 'pg-port' belongs to the memory
'pg-port', which is another name", where ``PG-PORT``, ``pg_port`` and ``pg port`` read the memory; and the tokenizer
read ``jetpack‐compose`` as two words only, never the whole ``jetpackcompose`` that ``jetpack-compose`` is.

A name's spelling drops the typeset dashes as it drops ``-`` (:func:`memdir.text.names.spelling`; a hash name of
a name with one, given before, is still found: :func:`memdir.text.names.legacy_names`), and the tokenizer reads
U+2010/U+2011 as ``-`` (:mod:`memdir.search.tokenize`). Through the Python API, the CLI and the MCP SDK's client,
beside a control in the same store; real files.
"""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.search.tokenize import tokens
from memdir.text import names

from ..conftest import run_cli

DASHED = ["pg\u2010port", "pg\u2011port", "pg\u2013port", "pg\u2014port", "pg\u2212port"]


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("pg-port", "Dev postgres port", "project", "The dev postgres listens on 5433.")
    mem.write("ui-stack", "UI toolkit", "project", "The Android UI is jetpack\u2010compose only.")
    return mem


def test_a_typeset_dash_is_spelled_as_a_hyphen():
    assert {names.spelling(n) for n in DASHED} == {names.spelling("pg-port")} == {"pgport"}
    assert names.spelling("C++ tips") != names.spelling("C# tips")  # control: other signs still differ
    assert tokens("jetpack\u2010compose") == tokens("jetpack\u2011compose") == tokens("jetpack-compose") == [
        "jetpackcompos", "jetpack", "compos"]
    assert tokens("10\u201320") == ["10", "20"]  # control: an en dash is no hyphen to the tokenizer (a range)


def test_each_path_reads_a_memory_by_its_name_with_a_typeset_dash(store, isolated_home, project):
    for name in DASHED:
        assert store.read(name).record.name == "pg-port"
        assert store.call_tool("memory_read", {"name": name}).startswith("name: pg-port\n")
    assert store.call_tool("memory_read", {"name": "pg+port"}).startswith("Error: memory not found")  # control
    out = run_cli("--project", project, "read", "pg\u2010port", "--json")
    assert (out.returncode, json.loads(out.stdout)["name"]) == (0, "pg-port"), out.stderr

    async def via_mcp():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            return [(await client.call_tool("memory_read", {"name": n})).content[0].text for n in (DASHED[3], "pgport")]

    dashed, control = anyio.run(via_mcp)
    assert dashed.startswith("name: pg-port\n") and "memory not found" in control


def test_a_hash_name_given_with_a_typeset_dash_before_is_still_found(store):
    before = names._hashed(names._HYPHENS_BEFORE.sub("", names.fold("部署\u2013流程")))  # the file name of then
    assert before != names.normalize_name("部署\u2013流程").name
    assert before in names.legacy_names("部署\u2013流程")
    layer = store.home / "projects"
    folder = next(p for p in layer.iterdir() if p.is_dir())
    (folder / f"{before}.md").write_text(f"---\nname: {before}\ntitle: 部署\u2013流程\ndescription: Deploy steps\n"
                                         "type: project\n---\n\nTag, then run the deploy job.\n")
    assert store.read("部署\u2013流程").record.body.startswith("Tag, then run")
    assert store.read("部署-流程").record.body.startswith("Tag, then run")  # its spelling with a hyphen: the same name


@pytest.mark.slow
def test_a_word_with_a_typeset_hyphen_is_found_whole(store):
    assert [h.name for h in store.search("jetpackcompose")] == ["ui-stack"]
    assert [h.name for h in store.search("jetpack-compose")] == ["ui-stack"]
    assert [h.name for h in store.search("postgres")] == ["pg-port"]  # control
