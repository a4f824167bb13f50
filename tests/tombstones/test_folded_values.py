"""A forgotten value written with the letters a person types for it is the same value (break13).

Names and search fold letters one way (:func:`memdir.text.fold.fold`: ``Łódź`` is ``Lodz``, ``København``
``Kobenhavn``, ``שָׁלוֹם`` ``שלום``); a value compared only the accents that decompose (``Zürich`` was
``Zurich``, ``Łódź`` was not ``Lodz``). So after ``forget`` of "Kubernetes runs in København", the same fact
typed "Kubernetes runs in Kobenhavn" was written back (through the API, the CLI and the MCP tool), and an
exact copy spelled so was no copy. :func:`memdir.text.values.normalize_value` folds as names and search do now.
"""

from __future__ import annotations

import json

import anyio
import pytest

from memdir import TombstoneRefused
from memdir.files.memfile import duplicate_key
from memdir.tombstones.match import make, match, normalize_value
from tests.conftest import run_cli

# (forgotten description, the same fact as a person types it)
SPELLED = [("Kubernetes runs in København", "Kubernetes runs in Kobenhavn"),
           ("The office is in Łódź", "The office is in Lodz"),
           ("Encyclopædia build uses Sphinx", "Encyclopaedia build uses Sphinx"),
           ("Cœur service owns billing", "Coeur service owns billing"),
           ("Server Đà Nẵng runs nginx", "Server Da Nang runs nginx"),
           ("השרת שָׁלוֹם רץ על nginx", "השרת שלום רץ על nginx"),
           ("قاعـــدة البيانات في الرِّيَاض", "قاعدة البيانات في الرياض")]


def test_a_value_folds_as_names_and_search_do():
    for forgotten, typed in SPELLED:
        assert normalize_value(forgotten) == normalize_value(typed), (forgotten, typed)
        stone = make("fact", forgotten, "body", "human", None)
        assert match([stone], typed, "body")[1] == "the same value", typed
        assert duplicate_key(forgotten, "body") == duplicate_key(typed, "body")
    assert normalize_value("Zürich") == normalize_value("Zurich") == "zurich"  # as before
    # control: other letters are other values
    assert normalize_value("The office is in Lodz") != normalize_value("The office is in Lida")
    assert match([make("fact", "Kubernetes runs in København", "body", "human", None)],
                 "Kubernetes runs in Kolding", "body") is None
    assert normalize_value("мой") != normalize_value("мои")  # й is its own letter


@pytest.fixture
def forgotten(mem):
    mem.write("k8s-site", "Kubernetes runs in København", "project", "The cluster sits in the Ørestad datacenter.")
    return mem.forget("k8s-site").tombstone


@pytest.mark.slow
def test_refused_through_the_api_the_cli_and_the_tool(forgotten, mem, project):
    typed = ("Kubernetes runs in Kobenhavn", "The cluster sits in the Orestad datacenter.")
    with pytest.raises(TombstoneRefused) as refused:
        mem.write("k8s-site", *typed[:1], "project", typed[1])
    assert refused.value.tombstone_id == forgotten
    cli = run_cli("--project", project, "write", "k8s-site", "-d", typed[0], "-t", "project", "--body", typed[1])
    assert cli.returncode == 1 and forgotten in cli.stderr
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server

    async def call():
        async with Client(build_server(MemoryServer(home=mem.home, project=project))) as client:
            return (await client.call_tool("memory_write", {"name": "k8s-site", "description": typed[0],
                                                            "type": "project", "body": typed[1]})).content[0].text

    tool = anyio.run(call)
    assert "refused" in tool and forgotten in tool
    # control: another city is another fact, written on every path
    assert mem.write("k8s-site", "Kubernetes runs in Kolding", "project", "").operation == "created"
    listed = json.loads(run_cli("--project", project, "--json", "list").stdout)
    assert [m["name"] for m in listed["memories"]] == ["k8s-site"]
