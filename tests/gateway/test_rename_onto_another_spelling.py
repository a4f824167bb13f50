"""A rename onto a spelling of another memory's name (``DB Port``, ``db_port`` for ``db-port``) is refused saying
the two spellings are one name under the store's name rule and what to do instead — a free name, or changing
that memory (its title, description or body) — each interface in its own words (hostile testers, tools40: the
refusal gave no hint that ``DB Port`` *is* ``db-port``, the memory tool said only "The destination … already
exists", and the MCP tool named the CLI's ``memdir write … --rename-from``). A rename onto its own name in
another case says to change the title instead. Real CLI subprocess, the MCP tools' entry, the memory tool and
the panel's API (Starlette's test client)."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.errors import Conflict, InvalidInput
from memdir.paths import project_key
from memdir.tools.memory_directory import run
from tests.conftest import run_cli

CORE = ("a memory called 'db-port' exists ('DB Port' names it too: a name is stored lowercase, in a-z, 0-9 and -), "
        "so 'cache-host' was not renamed: rename it to a free name such as 'db-port-2', or change 'db-port' itself "
        "(its title, description or body) instead")


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    person.write("cache-host", "The cache is redis1", "project", "redis1:6379")
    return person


def names(person) -> list[str]:
    return sorted(m.name for m in person.list().memories)


def test_each_interface_says_the_spellings_are_one_name_and_its_way_on(person, project, isolated_home):
    with pytest.raises(Conflict) as refused:
        person.write("DB Port", rename_from="cache-host")
    assert (str(refused.value), refused.value.taken) == (CORE, ("db-port", "cache-host", "db-port-2"))
    cli = run_cli("--home", isolated_home, "--project", project, "write", "DB Port", "--rename-from", "cache-host")
    assert (cli.returncode, cli.stderr.strip()) == (1, (f"memdir: {CORE} (`memdir write db-port-2 --rename-from "
                                                        "cache-host`, or `memdir write db-port` without --rename-from)"))
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    told = agent.call_tool("memory_write", {"name": "DB Port", "rename_from": "cache-host"})
    assert told == (f"Error: {CORE} (memory_write name 'db-port-2' rename_from 'cache-host', or name 'db-port' "
                    "without rename_from)")
    assert "memdir write" not in told
    tool = run(agent.session, {"command": "rename", "old_path": "/memories/project/cache-host.md",
                               "new_path": "/memories/project/DB Port.md"})
    assert (tool.is_error, tool.text) == (True, (
        "The destination /memories/project/DB Port.md already exists: it is /memories/project/db-port.md ('DB Port' "
        "names it too: a name is stored lowercase, in a-z, 0-9 and -); rename /memories/project/cache-host.md to "
        "another name, or change /memories/project/db-port.md itself instead"))
    assert names(person) == ["cache-host", "db-port"]


def test_controls_the_same_spelling_says_no_rule_and_a_free_name_is_renamed(person, isolated_home, project):
    with pytest.raises(Conflict) as refused:
        person.write("db-port", rename_from="cache-host")
    assert str(refused.value) == ("a memory called 'db-port' exists, so 'cache-host' was not renamed: rename it to a "
                                  "free name such as 'db-port-2', or change 'db-port' itself (its title, description "
                                  "or body) instead")
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    tool = run(agent.session, {"command": "rename", "old_path": "/memories/project/cache-host.md",
                               "new_path": "/memories/project/db-port.md"})
    assert (tool.is_error, tool.text) == (True, "The destination /memories/project/db-port.md already exists")
    assert agent.call_tool("memory_write", {"name": "Cache Server", "rename_from": "cache-host"}).splitlines()[0] == \
        "Memory renamed: cache-server (project)"
    assert names(person) == ["cache-server", "db-port"]


def test_a_rename_onto_its_own_name_in_another_case_says_to_change_the_title(person):
    with pytest.raises(InvalidInput) as refused:
        person.write("Cache Host", rename_from="cache-host")
    assert str(refused.value) == (
        "'cache-host' is already called 'cache-host' ('Cache Host' is that name: a name is stored lowercase, in a-z, "
        "0-9 and -, so a rename of its case or accents alone changes nothing): a rename needs a different new name; "
        "to show it as 'Cache Host', change its title instead")
    shown = person.write("cache-host", title="Cache Host")  # the way it names: the name stays, the title shows
    assert (shown.name, person.read("cache-host", count=False).record.title) == ("cache-host", "Cache Host")


def test_the_panel_says_its_own_way_on(person, project, isolated_home):
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app

    port, token, csrf = 8767, "test-token-0123456789", "test-csrf-0123456789"
    url = f"/api/layers/{project_key(project.resolve())}:project/memories/cache-host"
    headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf}
    with TestClient(create_app(isolated_home, token=token, csrf=csrf, port=port),
                    base_url=f"http://127.0.0.1:{port}", follow_redirects=False) as client:
        client.cookies.set(f"memdir_panel_{port}", token)
        refused = client.post(url, content=json.dumps({"name": "DB Port"}), headers=headers)
        assert (refused.status_code, refused.json()) == (409, {
            "error": f"{CORE} (save it with the name 'db-port-2', or open 'db-port' and edit it)", "kind": "Conflict"})
        renamed = client.post(url, content=json.dumps({"name": "db-port-2"}), headers=headers)  # control: the free name
        assert renamed.status_code == 200, renamed.json()
    assert names(person) == ["db-port", "db-port-2"]
