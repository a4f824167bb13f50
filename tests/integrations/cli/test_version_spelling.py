"""trial29: `memdir history` prints versions as ``v1``, but `memdir show/restore --version v1` said
"invalid int value: 'v1'". One rule (:func:`memdir.layer.history.version_number`) reads ``3``, ``"3"`` and
``"v3"`` alike on every path that takes a version: the CLI, the tools (MCP), the API and the panel."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from memdir.errors import InvalidInput
from memdir.layer.history import version_number
from memdir.tools.handlers import run_tool
from tests.conftest import run_cli


def test_the_rule_reads_the_spelling_history_prints_and_refuses_the_rest():
    assert [version_number(v) for v in (3, "3", "v3", "V3", "v12")] == [3, 3, 3, 3, 12]
    for bad in ("v", "x1", "1.5", "v-1", "٣", "1_0", " 1", "+1", "", True, None, 1.0):
        with pytest.raises(InvalidInput, match="a version is a number the memory's history lists, as 3 or v3"):
            version_number(bad)
    # read as numbers no memory has: show/restore answer "has no version" (NotFound), as for 99
    assert [version_number(v) for v in (0, "v0", "-1")] == [0, 0, -1]


def _two_versions(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "first")
    mem.write("db-port", "Dev PostgreSQL listens on 5434", "project", "second")


@pytest.mark.slow
def test_cli_show_and_restore_take_the_version_as_history_prints_it(project, mem):
    _two_versions(mem)
    history = run_cli("--project", project, "history", "db-port")
    assert history.returncode == 0 and "\nv1  " in history.stdout  # the spelling a person copies
    for spelled in ("v1", "1"):
        shown = run_cli("--project", project, "show", "db-port", "--version", spelled, "--json")
        assert shown.returncode == 0, shown.stderr
        data = json.loads(shown.stdout)
        assert data["version"] == 1 and "description: Dev PostgreSQL listens on 5433" in data["text"]
    two = json.loads(run_cli("--project", project, "show", "db-port", "--version", "v2", "--json").stdout)
    assert "listens on 5434" in two["text"]  # control: another version is another text
    bad = run_cli("--project", project, "show", "db-port", "--version", "one")
    assert bad.returncode != 0 and "a version is a number the memory's history lists, as 3 or v3 (got 'one')" in bad.stderr
    none = run_cli("--project", project, "show", "db-port", "--version", "v0")
    assert none.returncode != 0 and "memory 'db-port' has no version 0 (it has 2)" in none.stderr
    restored = run_cli("--project", project, "restore", "db-port", "--version", "v1")
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith("Restored db-port to version 1")
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"


def test_tools_and_api_take_v1_as_well(mem):
    _two_versions(mem)
    assert "description: Dev PostgreSQL listens on 5433" in mem.call_tool("memory_history",
                                                                          {"name": "db-port", "version": "v1"})
    assert "description: Dev PostgreSQL listens on 5434" in mem.call_tool("memory_history",
                                                                          {"name": "db-port", "version": 2})
    bad = run_tool(mem.session, "memory_history", {"name": "db-port", "version": "first"})
    assert bad.is_error and "as 3 or v3 (got 'first')" in bad.text
    assert mem.call_tool("memory_restore", {"name": "db-port", "version": "v1"}).startswith(
        "Restored db-port to version 1")
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"
    assert mem.show("db-port", "v2").version == 2 and "5434" in mem.show("db-port", "v2").text


@contextmanager
def _panel(isolated_home, project, mem):
    """db-port in two versions (:func:`_two_versions`) and the panel's app under Starlette's test client, signed
    in: ``(client, the project layer's ref, db-port's API path)``. Skips without the panel extra or httpx."""
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app
    from memdir.paths import project_key

    _two_versions(mem)
    ref = f"{project_key(project.resolve())}:project"
    app = create_app(isolated_home, token="test-token-0123456789", csrf="test-csrf-0123456789", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False) as client:
        client.cookies.set("memdir_panel_8765", "test-token-0123456789")
        yield client, ref, f"/api/layers/{ref}/memories/db-port"


def test_panel_urls_and_restore_body_take_v1(isolated_home, project, mem):
    with _panel(isolated_home, project, mem) as (client, ref, base):
        assert "listens on 5433" in client.get(f"{base}/versions/v1").json()["text"]
        assert "listens on 5434" in client.get(f"{base}/versions/2").json()["text"]  # control
        assert client.get(f"{base}/versions/first").status_code == 400
        diff = client.get(f"{base}/diff", params={"a": "v1", "b": "v2"}).json()
        assert (diff["a"], diff["b"]) == (1, 2) and "+description: Dev PostgreSQL listens on 5434" in diff["diff"]
        page = client.get(f"/layer/{ref}/m/db-port", params={"a": "v1", "b": "v2"}).text
        assert "Diff v1 → v2" in page and 'name="a" value="1" checked' in page
        shown = client.get(f"/layer/{ref}/m/db-port", params={"version": "v1"}).text
        assert "listens on 5433" in shown
        digest = client.get(base).json()["digest"]
        done = client.post(f"{base}/restore", content=json.dumps({"version": "v1", "expect_digest": digest}),
                           headers={"Content-Type": "application/json", "X-CSRF-Token": "test-csrf-0123456789"})
        assert done.status_code == 200, done.text
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"


TOO_MANY = "a version is a number the memory's history lists, as 3 or v3 (got a number of more than 18 digits)"


def test_a_number_past_18_digits_is_refused_alike_in_every_spelling_and_path(isolated_home, project, mem):
    """break30: 10**30 sent as a number was looked up ('has no version 1000…'), as text refused with the text
    quoted whole (100 KB of digits in the message); a number past Python's 4,300-digit conversion limit raised
    ValueError (a traceback) from the API and the tools. Every spelling and path now gives one error."""
    _two_versions(mem)
    huge = (10 ** 30, -10 ** 30, 10 ** 18, "1" * 30, "v" + "1" * 30, "1" * 19, 10 ** 5000, "v" + "1" * 100_000)
    for value in huge:
        with pytest.raises(InvalidInput) as refused:
            mem.show("db-port", value)
        assert str(refused.value) == TOO_MANY
        with pytest.raises(InvalidInput, match=r"\(got a number of more than 18 digits\)$"):
            mem.restore("db-port", value)
        for tool in ("memory_history", "memory_restore"):
            out = run_tool(mem.session, tool, {"name": "db-port", "version": value})
            assert out.is_error and out.text == f"Error: {TOO_MANY}", out.text[:200]
    # Controls: the largest number that is read is looked up; a long text that is no number is quoted cut.
    assert version_number(10 ** 18 - 1) == 10 ** 18 - 1 and version_number("v" + "9" * 18) == 10 ** 18 - 1
    with pytest.raises(InvalidInput) as cut:
        version_number("x" * 100_000)
    assert str(cut.value).endswith(f"(got {'x' * 40!r} …)")
    assert mem.show("db-port", "v2").version == 2
    for spelled in ("1" * 30, "v" + "1" * 30):
        shown = run_cli("--project", project, "show", "db-port", "--version", spelled)
        assert shown.returncode == 1 and shown.stderr == f"memdir: {TOO_MANY}\n", shown.stderr
        restored = run_cli("--project", project, "restore", "db-port", "--version", spelled)
        assert restored.returncode == 1 and restored.stderr == f"memdir: {TOO_MANY}\n", restored.stderr
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5434"  # nothing restored


def test_the_panel_refuses_a_huge_version_as_the_rest_do(isolated_home, project, mem):
    with _panel(isolated_home, project, mem) as (client, ref, base):
        for spelled in ("1" * 30, "v" + "1" * 30):
            answer = client.get(f"{base}/versions/{spelled}")
            assert answer.status_code == 400 and TOO_MANY in answer.text, answer.text
            page = client.get(f"/layer/{ref}/m/db-port", params={"version": spelled})
            assert page.status_code == 400 and "more than 18 digits" in page.text
        digest = client.get(base).json()["digest"]
        for value in (10 ** 30, "v" + "1" * 30):
            done = client.post(f"{base}/restore", content=json.dumps({"version": value, "expect_digest": digest}),
                               headers={"Content-Type": "application/json", "X-CSRF-Token": "test-csrf-0123456789"})
            assert done.status_code == 400 and TOO_MANY in done.text, done.text
        assert "listens on 5433" in client.get(f"{base}/versions/v1").json()["text"]  # control
    assert mem.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5434"
