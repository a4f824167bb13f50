"""A pending finding reads as one JSON shape wherever it is listed (import42): `memdir status --json` listed bare
strings where `memdir review --json` listed objects. Now every status of a layer — the Python API's, the CLI's
(tests/operations/test_status_pending.py), the panel's ``/api/layers`` — holds the review's
:class:`memdir.results.findings.Finding` values (memdir.operations.findings.project_findings), and the
panel's OpenAPI document says so; ``memory_status`` (text) still counts them."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.results.findings import Finding
from memdir.tools.handlers import run_tool

SAID = "Remember: the staging database is reset every Monday at 06:00 UTC."


@pytest.fixture
def said(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project")
    assert person.consolidate([{"role": "user", "content": SAID}], extractor="agent").pending == (SAID,)
    return person


def test_status_holds_the_reviews_findings(said):
    layers = {layer.scope: layer for layer in said.status().layers}
    found = said.findings().findings
    assert layers["project"].pending == found and isinstance(found[0], Finding) and found[0].text == SAID
    assert layers["user"].pending == ()  # control: findings are kept per project
    project_json = next(x for x in said.status().to_dict()["layers"] if x["scope"] == "project")
    assert project_json["pending"] == said.findings().to_dict()["findings"]
    assert project_json["pending"][0]["text"] == SAID and project_json["answered"] == []


def test_memory_status_still_counts_them(said):
    text = run_tool(said.session, "memory_status", {}).text
    project = next(line for line in text.splitlines() if line.startswith("project: 1 memory"))
    user = next(line for line in text.splitlines() if line.startswith("user: 0 memories"))
    assert project.endswith(", 1 pending finding)") and "pending" not in user  # control: the user layer holds none


def test_the_panel_lists_them_as_review_does(said, isolated_home):
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.api import openapi
    from memdir.integrations.panel.app import create_app

    app = create_app(isolated_home, token="test-token-0123456789", csrf="test-csrf-0123456789", port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False) as client:
        client.cookies.set("memdir_panel_8765", "test-token-0123456789")
        layers = client.get("/api/layers").json()["layers"]
    project = next(v for v in layers if v["scope"] == "project")
    assert project["status"]["pending"] == said.findings().to_dict()["findings"]
    user = next(v for v in layers if v["scope"] == "user")
    assert user["status"]["pending"] == []  # control
    schema = openapi()["components"]["schemas"]
    assert schema["LayerStatus"]["properties"]["pending"]["items"] == {"$ref": "#/components/schemas/Finding"}
    assert set(schema["Finding"]["properties"]) == {"id", "text", "said", "rule", "shown", "forgotten"}  # nu47
