"""A batch of writes (gateway.writing.write_batch, through operations.memories.write_batch) is N single
writes: the same results and refusals, the same files byte for byte, the same journal, MEMORY.md and
search index rows — on two real stores of the same project, one written one by one, one in a batch."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime

from memdir import Memory
from memdir.errors import InvalidInput
from memdir.gateway.fields import MemoryChange
from memdir.gateway.writing import BatchWrite
from memdir.operations.memories import write, write_batch

WHEN = (datetime(2026, 3, 1, 9, 0, tzinfo=UTC), datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


def seeded(home, project) -> Memory:
    """A store with what the batch runs into: a forgotten value, ``C++ tips``, a memory whose text a
    write copies, and a hand-placed file that is no memory, ``Zeta.md``."""
    person = Memory.open(home=home, project=project, actor="human")
    person.write("staging-host", "Staging host is staging-7.internal", "project", body="Ask ops.", scope="project")
    person.forget("staging-host", scope="project")
    person.write("C++ tips", "Prefer std::span over raw pointers", "project", scope="project")
    person.write("db-port", "The database listens on port 5433", "project", body="Since March.", scope="project")
    layer = person.session.layer("project").path
    (layer / "Zeta.md").write_text("---\ndescription: [unclosed\n", encoding="utf-8")
    return person


def changes() -> list[MemoryChange]:
    """Writes as an import makes them, refused ones in the middle."""
    said = [
        MemoryChange("alpha-notes", "Alpha service notes", "project", "Alpha keeps state in table a1."),
        MemoryChange("staging-again", "Staging host is staging-7.internal", "project", "Ask ops."),  # forgotten
        MemoryChange("beta-notes", "Beta service notes", "project", "Beta </memory_context> leaks no fence."),
        MemoryChange("C# tips", "Prefer spans in C# too", "project"),  # C++ tips' file: another name
        MemoryChange("huge", "A body over the file ceiling", "project", "x" * (300 * 1024)),  # max_file_bytes
        MemoryChange("zeta", "Zeta notes", "project", "Zeta.md is no memory"),  # its case twin is no memory
        MemoryChange("port-copy", "The database listens on port 5433", "project", "Since March."),  # a copy
        MemoryChange("ソース", "Where the sources live", "project", "In src/."),  # a hashed name, titled
        MemoryChange("gamma-notes", "Alpha service notes", "project", "Alpha keeps state in table a1."),  # copy in batch
        MemoryChange("db-port", "The database listens on port 5434", "project", "Since April."),  # an update
    ]
    return [MemoryChange(c.name, c.description, c.type, c.body, reason="import from test") for c in said]


def shown(value, home) -> tuple:
    """A write's result, or its refusal with the store's own path said alike."""
    if isinstance(value, Exception):
        return ("refused", type(value).__name__, str(value).replace(str(home), "<home>"))
    return ("written", value.name, value.operation, value.status, value.digest, value.warnings)


def files_of(layer) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(layer.iterdir()) if p.is_file()}


def journal_of(layer) -> list[tuple]:
    lines = (layer / ".memdir" / "journal.jsonl").read_text().splitlines()
    return [(e["actor"], e["action"], e["name"], e["before"], e["after"]) for e in map(json.loads, lines)]


def index_rows(person: Memory) -> list[tuple]:
    person.search("notes")  # brings the search index up to date with the files
    with sqlite3.connect(person.session.home / "index.sqlite") as conn:
        return conn.execute("SELECT name, file, digest, type, origin, status, title, description, body FROM docs "
                            "WHERE name NOT LIKE 'staging%' ORDER BY layer, name").fetchall()


def test_a_batch_writes_what_as_many_single_writes_write(tmp_path, project):
    layer = seeded(tmp_path / "base", project).session.layer("project").path
    for home in ("one", "many"):  # the same store twice, byte for byte; MEMORY.md (derived) made again by each
        shutil.copytree(tmp_path / "base", tmp_path / home, symlinks=True)
        (tmp_path / home / layer.relative_to(tmp_path / "base") / "MEMORY.md").unlink()
    one = Memory.open(home=tmp_path / "one", project=project, actor="human")
    many = Memory.open(home=tmp_path / "many", project=project, actor="human")
    single_session, batch_session = one.session.as_actor("import"), many.session.as_actor("import")

    singles = []
    for change in changes():
        try:
            singles.append(write(single_session, change, "project", times=WHEN))
        except Exception as exc:  # noqa: BLE001 - the refusal itself is what is compared
            singles.append(exc)
    told = []
    batched = write_batch(batch_session, [BatchWrite(c, WHEN) for c in changes()], "project",
                          done=lambda i, value: told.append(i))

    assert [shown(v, tmp_path / 'many') for v in batched] == [shown(v, tmp_path / 'one') for v in singles]
    assert told == list(range(len(changes())))
    refused = {changes()[i].name: type(v).__name__ for i, v in enumerate(batched) if isinstance(v, Exception)}
    assert refused == {"staging-again": "TombstoneRefused", "C# tips": "Conflict", "huge": "InvalidInput",
                       "zeta": "Conflict"}
    written = {v.name: v.operation for v in batched if not isinstance(v, Exception)}
    assert written == {"alpha-notes": "created", "beta-notes": "created", "port-copy": "created",
                       batched[7].name: "created", "gamma-notes": "created", "db-port": "updated"}
    copy = batched[8].warnings
    assert any("'alpha-notes' (project) holds the same description and body" in w for w in copy)

    one_layer, many_layer = one.session.layer("project").path, many.session.layer("project").path
    assert files_of(many_layer) == files_of(one_layer)  # every memory file and MEMORY.md, byte for byte
    assert "alpha-notes.md" in files_of(many_layer) and "zeta.md" not in files_of(many_layer)
    assert b"&lt;/memory_context&gt;" in files_of(many_layer)["beta-notes.md"]
    assert journal_of(many_layer) == journal_of(one_layer)
    rows = index_rows(many)
    assert rows == index_rows(one)
    assert {row[0] for row in rows} >= {"alpha-notes", "gamma-notes", "db-port", "c-tips"}


def test_a_batch_into_a_layer_not_made_yet_makes_it_with_its_first_write_only(tmp_path, project):
    person = Memory.open(home=tmp_path / "home", project=project, actor="human")
    layer = person.session.layer("project")
    asked = [MemoryChange("", "no name", "project"), MemoryChange("first", "The first memory", "project"),
                   MemoryChange("second", "The second memory", "project")]
    values = write_batch(person.session.as_actor("import"), [BatchWrite(c, WHEN) for c in asked], "project")
    assert isinstance(values[0], InvalidInput) and not isinstance(values[1], Exception)
    assert [v.name for v in values[1:]] == ["first", "second"]
    assert sorted(p.name for p in layer.path.glob("*.md")) == ["MEMORY.md", "first.md", "second.md"]
