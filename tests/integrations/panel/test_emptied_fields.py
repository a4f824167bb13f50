"""An emptied name, description or type sent to the panel's API is refused by the write, as
`memdir write -d ''` is, never taken for "keep it": the panel answered 'Memory updated', kept the
old text and wrote a new version (break39). Real server (`memdir panel`, a subprocess), raw HTTP."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir import Memory
from memdir.paths import project_key

pytestmark = pytest.mark.slow  # a real server process


@pytest.fixture
def person(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    return person


@pytest.mark.parametrize(("field", "sent", "error", "kind"), [
    ("description", "", "description must not be empty (leave it out to keep the memory's)", "InvalidInput"),
    ("description", "   ", "description must not be empty (leave it out to keep the memory's)", "InvalidInput"),
    ("type", "", "type must be one of user, feedback, project, reference (got '')", "InvalidInput"),
    ("name", "", "memory name is empty", "InvalidName"),
])
def test_an_emptied_required_field_is_refused_by_name_and_nothing_is_written(panel, person, project, field, sent,
                                                                             error, kind):
    url = f"/api/layers/{project_key(project.resolve())}:project/memories/db-port"
    before = person.read("db-port", "project", count=False)
    body = json.dumps({field: sent, "body": "Moved again, to 6543.", "expect_digest": before.digest}).encode()
    code, reply, _ = panel.request("POST", url, body, panel.json_headers())
    assert (code, reply) == (400, {"error": error, "kind": kind})
    after = person.read("db-port", "project", count=False)
    assert (after.digest, after.record.description, after.record.body) == (
        before.digest, "Dev PostgreSQL listens on 5433", "Moved on 2026-11-02.")
    assert len(person.history("db-port", "project").versions) == 1
    # Control: the same edit with the field filled in is written, the body with it.
    filled = {"description": "Dev PostgreSQL listens on 6543", "type": "reference", "name": "db-port"}[field]
    body = json.dumps({field: filled, "body": "Moved again, to 6543.", "expect_digest": before.digest}).encode()
    code, reply, _ = panel.request("POST", url, body, panel.json_headers())
    assert (code, reply["text"]) == (200, "Memory updated: db-port (project)")
    record = person.read("db-port", "project", count=False).record
    assert (getattr(record, field), record.body) == (filled, "Moved again, to 6543.")
