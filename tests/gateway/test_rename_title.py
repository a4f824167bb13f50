"""A renamed memory is found by its new name on every path (issue 28 findings): a rename took the old
name's title along (``로그-규칙`` renamed ``로그-정책`` stayed titled ``로그-규칙``, and no read of
``로그-정책`` found it; ``Café-notes`` renamed ``Thé-notes`` stayed titled ``Café-notes``). A title
derived from the old name gives way to the new name's; one a person set apart from the name is kept
where the new name can keep it (:func:`memdir.gateway.naming.inherited_title`). Each path: the Python
API, the CLI (a real subprocess), the MCP server (the SDK's client), the memory directory tool and the
panel's JSON API; each with controls (a hand-set title kept, an unrelated memory untouched, an update
keeping its title)."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.text.names import normalize_name
from memdir.tools.memory_directory import run
from tests.conftest import run_cli

OLD_KO, NEW_KO = "로그-규칙", "로그-정책"
KO_BODY = "로그는 30일 동안 보관한다."


def _seed(mem):
    mem.write(OLD_KO, "Log retention rule", "project", KO_BODY)
    mem.write("Café-notes", "Notes on coffee", "project", "Espresso, no sugar.")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.", title="Database port")
    mem.write("style", "Indent with tabs", "feedback", "The linter enforces tabs.")


def _file(mem, name: str) -> bytes:
    return (mem.session.layer("project").path / f"{normalize_name(name).name}.md").read_bytes()


def test_api_rename_takes_the_new_names_title(mem):
    _seed(mem)
    style = _file(mem, "style")
    assert normalize_name(NEW_KO).name != normalize_name(OLD_KO).name
    result = mem.write(NEW_KO, rename_from=OLD_KO)
    assert (result.operation, result.name) == ("renamed", normalize_name(NEW_KO).name)
    record = mem.read(NEW_KO, count=False).record
    assert (record.name, record.title, record.body) == (normalize_name(NEW_KO).name, NEW_KO, KO_BODY)
    old = mem.read(OLD_KO, count=False).record  # the old name is still its own, superseded by the new
    assert (old.title, old.status, old.superseded_by) == (OLD_KO, "superseded", normalize_name(NEW_KO).name)

    assert mem.write("Thé-notes", rename_from="Café-notes").operation == "renamed"
    record = mem.read("Thé-notes", count=False).record
    assert (record.name, record.title, record.body) == ("the-notes", "Thé-notes", "Espresso, no sugar.")
    mem.write("Thé-notes", body="Espresso, one sugar.")  # control: an update keeps the title
    assert mem.read("the-notes", count=False).record.title == "Thé-notes"

    # controls: a title a person set apart from the name is kept; an unrelated memory is untouched
    assert mem.write("pg-port", rename_from="db-port").operation == "renamed"
    assert mem.read("pg-port", count=False).record.title == "Database port"
    assert _file(mem, "style") == style
    # a title spelled as the old name is that name's, whoever set it: it gives way as a derived one does
    mem.write("ci-runner", "CI runs on the self-hosted runner", "project", "Label: x64.", title="CI runner")
    mem.write("ci-host", rename_from="ci-runner")
    assert mem.read("ci-host", count=False).record.title is None
    # a plain name renamed from a titled one has no title left of the old name
    mem.write("C# tips", "Tips on C#", "reference", "Use records.")
    assert mem.read("C# tips", count=False).record.title == "C# tips"
    mem.write("csharp-tips", rename_from="C# tips")
    assert mem.read("csharp-tips", count=False).record.title is None


def test_api_rename_to_a_hash_name_drops_a_set_title_and_says_so(mem):
    _seed(mem)
    result = mem.write("数据库端口", rename_from="db-port")
    record = mem.read("数据库端口", count=False).record
    assert (record.name, record.title) == (normalize_name("数据库端口").name, "数据库端口")
    assert ("title 'Database port' was not kept: the renamed memory is titled '数据库端口', its new name as "
            "written, so that name finds it") in result.warnings
    # control: a title given with the rename is the person's, and kept
    mem.write("café-port", rename_from="数据库端口", title="Café port")
    assert mem.read("café-port", count=False).record.title == "Café port"


@pytest.mark.slow
def test_cli_rename_is_read_by_its_new_name(project):
    def cli(*args):
        out = run_cli("--project", project, *args)
        assert out.returncode == 0, out.stderr
        return out

    def title(name):
        return json.loads(cli("read", name, "--json").stdout)["title"]

    cli("write", OLD_KO, "-d", "Log retention rule", "-t", "project", "--body", KO_BODY)
    cli("write", "Café-notes", "-d", "Notes on coffee", "-t", "project", "--body", "Espresso.")
    cli("write", "db-port", "-d", "Dev port", "-t", "project", "--body", "5433", "--title", "Database port")
    assert cli("write", NEW_KO, "--rename-from", OLD_KO).stdout.strip() == \
        f"Memory renamed: {normalize_name(NEW_KO).name} (project)"
    read = cli("read", NEW_KO).stdout
    assert f"title: {NEW_KO}" in read.splitlines() and f"> {KO_BODY}" in read
    cli("write", "Thé-notes", "--rename-from", "Café-notes")
    assert title("Thé-notes") == "Thé-notes"
    cli("write", "pg-port", "--rename-from", "db-port")
    assert title("pg-port") == "Database port"  # control: a person's title is kept
    listed = cli("list").stdout
    assert f"{normalize_name(NEW_KO).name} “{NEW_KO}”" in listed and OLD_KO not in listed


def test_mcp_rename_is_read_by_its_new_name(isolated_home, project):
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            call = client.call_tool
            r = await call("memory_write", {"name": OLD_KO, "description": "Log retention rule", "type": "project",
                                            "body": KO_BODY})
            assert not r.is_error
            r = await call("memory_write", {"name": "db-port", "description": "Dev port", "type": "project",
                                            "body": "5433", "title": "Database port"})
            assert not r.is_error
            r = await call("memory_write", {"name": NEW_KO, "rename_from": OLD_KO})
            said = r.content[0].text.splitlines()
            assert not r.is_error and said[0] == f"Memory renamed: {normalize_name(NEW_KO).name} (project)"
            assert f"with '{NEW_KO}' as its title (either name finds it)" in said[1]
            r = await call("memory_read", {"name": NEW_KO})
            assert not r.is_error and f"title: {NEW_KO}" in r.content[0].text and KO_BODY in r.content[0].text
            await call("memory_write", {"name": "pg-port", "rename_from": "db-port"})
            r = await call("memory_read", {"name": "pg-port"})
            assert "title: Database port" in r.content[0].text  # control

    anyio.run(main)


def test_memory_directory_rename_is_read_by_its_new_name(mem):
    """The directory tool writes the name as its path spells it (it wrote the file name: a hash
    name's memory had no title, and its name found nothing — on create and on rename)."""
    go = lambda **command: run(mem.session, command)  # noqa: E731
    assert not go(command="create", path=f"/memories/project/{OLD_KO}.md", file_text=KO_BODY).is_error
    assert mem.read(OLD_KO, count=False).record.title == OLD_KO
    done = go(command="rename", old_path=f"/memories/project/{OLD_KO}.md", new_path=f"/memories/project/{NEW_KO}.md")
    assert done.text.splitlines()[0] == (f"Successfully renamed /memories/project/{OLD_KO}.md to "
                                         f"/memories/project/{normalize_name(NEW_KO).name}.md")
    record = mem.read(NEW_KO, count=False).record
    assert (record.title, record.body) == (NEW_KO, KO_BODY)
    mem.write("Café-notes", "Notes on coffee", "project", "Espresso.")
    assert not go(command="rename", old_path="/memories/project/cafe-notes.md",
                  new_path="/memories/project/Thé-notes.md").is_error
    assert mem.read("Thé-notes", count=False).record.title == "Thé-notes"
    go(command="create", path="/memories/project/db-port.md", file_text="Dev port\n5433")
    assert mem.read("db-port", count=False).record.title is None  # control: a plain name needs no title


def test_panel_rename_is_read_by_its_new_name(isolated_home, project, person):
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app
    from memdir.paths import project_key

    person.write(OLD_KO, "Log retention rule", "project", KO_BODY)
    person.write("db-port", "Dev port", "project", "5433", title="Database port")
    ref = f"{project_key(project.resolve())}:project"
    headers = {"Content-Type": "application/json", "X-CSRF-Token": "c" * 20}
    app = create_app(isolated_home, token="t" * 20, csrf="c" * 20, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False) as client:
        client.cookies.set("memdir_panel_8765", "t" * 20)
        post = lambda name, body: client.post(f"/api/layers/{ref}/memories/{name}",  # noqa: E731
                                              content=json.dumps(body), headers=headers)
        r = post(normalize_name(OLD_KO).name, {"name": NEW_KO})
        assert r.status_code == 200 and r.json()["result"]["name"] == normalize_name(NEW_KO).name
        assert post("db-port", {"name": "pg-port"}).status_code == 200
    assert person.read(NEW_KO, count=False).record.title == NEW_KO
    assert person.read("pg-port", count=False).record.title == "Database port"  # control
