"""A typed search shaped as a task that needs a kind of tool finds the memory naming the tool (misc46).

MCP ``memory_search`` "add a library dependency" returned nothing beside "Use uv for Python installs, never pip",
while the prompt hook's recall of the same words recalled it: recall read the task ("add dependency",
:data:`memdir.search.lexicon.TASKS`: a job for the package manager) and scored a memory whose head names one of its
products (uv, pip) as if it held the task's words; an explicit search read only a kind named outright ("package
manager"). Words share nothing ("add", "library", "dependency" against "uv", "python", "installs", "pip"), and
meaning alone fell short: cosine 0.835, nearest by 0.026 in a store of four, hybrid score 0.05 against the 0.5
threshold. Now an explicit search reads the task as recall does, on every path (the Python API, MCP, the CLI).

Real SQLite and memory files; each case with vectors on and off, beside a control in the same store."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.tools.handlers import run_tool
from tests.conftest import run_cli

TASK = "add a library dependency"


@pytest.fixture(params=["on", "off"])
def store(request, isolated_home, project):
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors=request.param)
    mem.write("python-installs", "Use uv for Python installs, never pip", "user",
              "Use uv for Python installs, never pip.")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Not the default 5432: set PGPORT=5433.")
    mem.write("deploy-vpn", "The staging deploy needs the VPN", "project", "Connect the VPN before deploying.")
    mem.write("editor", "I use neovim", "user", "I use neovim as my editor.")
    assert prepare(mem.session) == (4 if request.param == "on" else 0)  # embedded (none with vectors off)
    return mem


def _names(mem, query) -> list[str]:
    return [hit.name for hit in mem.search(query)]


def test_a_task_for_the_package_manager_finds_the_memory_naming_one_on_every_path(store, project):
    assert _names(store, TASK) == ["python-installs"]  # was [] (the Python API)
    out = run_tool(store.session, "memory_search", {"query": TASK})
    assert not out.is_error and "python-installs" in out.text and "db-port" not in out.text  # was "No memories"
    cli = run_cli("--project", project, "search", "--json", TASK)
    assert [hit["name"] for hit in json.loads(cli.stdout)["results"]] == ["python-installs"], cli.stdout
    # the prompt hook's recall of the same words recalled it already: both read the task alike now
    assert [m.name for m in store.recall_result(TASK).memories] == ["python-installs"]
    assert _names(store, "add a dependency") == ["python-installs"]
    assert _names(store, "install the lodash package") == ["python-installs"]


def test_a_task_for_no_tool_finds_no_package_manager(store):
    for query in ("add a column to the orders table", "add a library of icons to the design",
                  "the dependency between the two services"):
        assert "python-installs" not in _names(store, query), query
    assert _names(store, "which port does the dev postgres listen on") == ["db-port"]  # control: the store answers
    assert _names(store, "package manager") == ["python-installs"]  # control: the kind named outright, as before
