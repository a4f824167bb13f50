"""``memdir status --json`` says the same, byte for byte, whether the search index was checked (``PRAGMA
quick_check``) by this status or trusted from the last check that passed (:mod:`memdir.search.checked`), and
whether the collector ran: a store with exact duplicates, a candidate, a pending finding and a memory file that
does not read. The CLI as a real subprocess."""

from __future__ import annotations

import json
import os

from memdir import Memory
from memdir.search import checked, index
from tests.conftest import run_cli

SAID = "Remember: the staging database is reset every Monday at 06:00 UTC."


def _status(project) -> str:
    done = run_cli("--project", project, "status", "--json")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_status_json_is_the_same_checked_or_trusted(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Since the move.")
    person.write("db-port-copy", "Dev PostgreSQL listens on 5433", "project", "Since the move.")  # a duplicate
    person.write("use-uv", "Use uv for Python dependencies", "project", "Agreed.", status="candidate")
    person.write("editor", "Prefers small diffs", "user", "Always.", scope="user")
    person.consolidate([{"role": "user", "content": SAID}], extractor="agent")
    layer = person.session.layer("project").path
    (layer / "broken.md").write_text("---\nname: [unclosed\n---\nbody\n")  # read leniently
    (layer / "unreadable.md").write_bytes(b"---\nname: x\n---\n\xff\xfe\x00 not text")
    assert {h.name for h in person.search("postgresql")} == {"db-port", "db-port-copy"}  # the index is built
    index.close_all()
    stamp_file = isolated_home / checked.CHECKED_FILE

    checked_run = _status(project)  # no pass recorded: the check runs
    assert stamp_file.exists()
    trusted = _status(project)  # the index unchanged: trusted
    os.remove(stamp_file)
    again = _status(project)  # checked again
    assert checked_run == trusted == again
    found = json.loads(trusted)
    assert found["search"] == "bm25"
    assert found["duplicates"] == [["project:db-port", "project:db-port-copy"]]
    project_layer = next(x for x in found["layers"] if x["scope"] == "project")
    assert (project_layer["memories"], project_layer["candidates"]) == (4, 1)  # broken.md counted
    assert [p.rsplit("/", 1)[-1] for p in project_layer["fallback_parsed"]] == ["broken.md"]
    assert [f["text"] for f in project_layer["pending"]] == [SAID]
    assert [m["path"].rsplit("/", 1)[-1] for m in project_layer["malformed"]] == ["unreadable.md"]
    user_layer = next(x for x in found["layers"] if x["scope"] == "user")
    assert (user_layer["memories"], user_layer["candidates"], user_layer["malformed"]) == (1, 0, [])  # control
