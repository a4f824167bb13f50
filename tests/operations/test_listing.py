"""``list`` (the CLI, ``memory_list``, the panel: one operation) in a fresh process answers from what
each layer keeps per memory, parsing only the files changed since the layer recorded them (issue 28
item 7: ``memdir list`` at 10,000 memories parsed every file, about 4.5 s), and says exactly what a
parse of every file says. Parses are counted at the one parser of memory files."""

from __future__ import annotations

import os
import time

import pytest

from memdir import Memory, NotFound
from memdir.files.layout import MANIFEST_FILE
from memdir.render import maintenance
from memdir.tools import handlers, memory_directory
from tests.seeded import counted_parses, counted_reads, seeded

SIZE = 300


def _varied(mem: Memory) -> None:
    """Memories of every field a listing shows: a title, an origin, a pin, a mute, a succession, a
    candidate for another memory, valid times."""
    person = mem.as_actor("human")
    person.write("titled", "has a title", "feedback", "Why: x\nHow to apply: y", title="A Title")
    person.write("old-port", "Dev DB on 5432", "project", "old")
    person.write("new-port", "Dev DB on 5433", "project", "new", supersedes="old-port")
    person.write("until-then", "true for a while", "reference", valid_until="2099-01-01T12:00:00Z")
    person.pin("titled")
    person.mute("until-then")
    mem.as_actor("agent").write("new-port", "Dev DB on 5434", body="proposed", status="candidate")  # for it


@pytest.mark.slow
def test_list_in_a_fresh_process_parses_only_a_hand_edited_file_and_says_what_a_full_parse_says(
        isolated_home, project, monkeypatch):
    mem = seeded(isolated_home, project, SIZE)
    _varied(mem)
    layer_dir = mem.session.layer("project").path
    time.sleep(2.1)  # past the clock tick of those writes: their stat keys are trusted (manifest.RACY_NS)
    (layer_dir / ".memdir" / MANIFEST_FILE).unlink()
    Memory.open(home=isolated_home, project=project).session.layer("project").refresh_index()  # kept whole again
    (layer_dir / "seed-0042.md").write_text("---\nname: seed-0042\ndescription: edited by hand\ntype: user\n"
                                            "origin: human\nupdated: 2026-11-01T00:00:00Z\n---\n\nBody 42\n")
    Memory.open(home=isolated_home, project=project).status()  # takes the edit up, as any reader does
    (layer_dir / "seed-0043.md").write_text("---\nname: seed-0043\ndescription: edited again\ntype: project\n"
                                            "updated: 2026-11-01T00:00:00Z\n---\n\nBody 43\n")
    parsed, read = counted_parses(monkeypatch), counted_reads(monkeypatch)
    listed = Memory.open(home=isolated_home, project=project).list(include_all=True)
    # The file changed since the layer recorded it, and the one taken up a moment ago (kept "racy": read
    # again until the clock has moved past its change, manifest.RACY_NS), alone of 305 — that one hashed
    # and found as recorded, not parsed again (before: parsed too).
    assert sorted(set(read)) == ["seed-0042", "seed-0043"] and sorted(set(parsed)) == ["seed-0043"]
    by_name = {m.name: m for m in listed.memories}
    assert len(listed.memories) == SIZE + 5
    assert (by_name["seed-0042"].description, by_name["seed-0042"].type) == ("edited by hand", "user")
    assert by_name["seed-0043"].description == "edited again"
    assert by_name["seed-0044"].description == "seeded fact 44"  # control: an unedited memory as written
    assert (by_name["titled"].title, by_name["titled"].pinned, by_name["titled"].type) == ("A Title", True, "feedback")
    assert (by_name["old-port"].status, by_name["old-port"].superseded_by) == ("superseded", "new-port")
    assert by_name["until-then"].state == "muted" and by_name["until-then"].valid_until == "2099-01-01T12:00:00Z"
    candidate = next(m for m in listed.memories if m.status == "candidate")
    assert (candidate.name, candidate.candidate_for, candidate.origin) == ("new-port-candidate", "new-port", "agent")
    # The same answer as a parse of every file: the manifest removed, nothing kept to answer from.
    parsed.clear()
    (layer_dir / ".memdir" / MANIFEST_FILE).unlink()
    full = Memory.open(home=isolated_home, project=project).list(include_all=True)
    assert len(set(parsed)) >= SIZE and full.to_dict() == listed.to_dict()


@pytest.mark.slow
def test_memory_list_and_the_memory_tool_s_view_parse_no_unchanged_file(isolated_home, project, monkeypatch):
    seeded(isolated_home, project, SIZE)
    parsed = counted_parses(monkeypatch)
    session = Memory.open(home=isolated_home, project=project).session
    output = handlers.run_tool(session, "memory_list", {"limit": 2})
    assert parsed == [] and "- seed-0000 " in output.text and f"Memories 1–2 of {SIZE}:" in output.text
    # The Claude API memory tool's view of the layer: the body sizes the layer keeps, no file read.
    view = memory_directory.run(session, {"command": "view", "path": "/memories/project"}).text.splitlines()
    total = sum(len(f"Body {i}".encode()) for i in range(SIZE))
    assert parsed == [] and view[1] == f"{total / 1024:.1f}K\t/memories/project/"
    assert "6B\t/memories/project/seed-0000.md\tseeded fact 0" in view


@pytest.mark.slow
def test_status_says_how_many_are_superseded_as_list_and_the_context_show_them(person):
    person.write("db-port", "Dev DB on 5432", "project", "old")
    person.write("db-port-v2", "Dev DB on 5433", "project", "new", supersedes="db-port")
    person.write("staging", "Staging lives at staging.internal", "project")
    status = person.status()
    layer = next(layer for layer in status.layers if layer.scope == "project")
    assert (layer.memories, layer.visible, layer.candidates, layer.superseded) == (3, 2, 0, 1)
    assert "project: 3 memories (2 in the index, 2 in the context block, 0 candidates, 1 superseded, 0 tombstones)" \
        in maintenance.status(status).splitlines()
    # list shows what the index shows (3 − 1 superseded), list --all every memory counted, marked
    assert [m.name for m in person.list("project").memories] == ["db-port-v2", "staging"]
    every = {m.name: m.state for m in person.list("project", include_all=True).memories}
    assert every == {"db-port": "superseded", "db-port-v2": "active", "staging": "active"}
    context = person.context()
    assert "(db-port-v2.md)" in context and "(staging.md)" in context and "(db-port.md)" not in context
    user = next(layer for layer in status.layers if layer.scope == "user")
    assert user.superseded == 0 and "user: 0 memories (0 in the index, 0 in the context block, 0 candidates, " \
        "0 tombstones)" in maintenance.status(status).splitlines()  # control: none superseded, none said
    # trial31: doctor said "— 3 memories" beside list's two; it says the superseded one as status does
    doctor = maintenance.doctor(person.doctor()).splitlines()
    project_layer = next(line for line in doctor if line.startswith("project layer: "))
    assert project_layer.endswith(" — 3 memories (1 superseded: `memdir list --all` shows it)"), project_layer
    assert next(line for line in doctor if line.startswith("user layer: ")).endswith(" — 0 memories")  # control


@pytest.mark.parametrize("text, why", [("", "file is empty"), ("\n  \n", "file is empty"),
                                       ("---\n---\n", "no description, title or text to describe it"),
                                       ("---\nname: emptied\n---\n", "no description, title or text to describe it")])
def test_an_emptied_file_is_a_file_reported_by_read_and_list_alike(person, text, why):
    person.write("emptied", "Once a fact", "project", "Its body")
    person.write("kept", "Still a fact", "project", "Its body")
    path = person.session.layer("project").path / "emptied.md"
    path.write_text(text, encoding="utf-8")
    listed = person.list()
    assert [m.name for m in listed.memories] == ["kept"]  # control: the other memory is listed
    assert [(m.path, m.error) for m in listed.malformed] == [(str(path), why)]
    message = f'memory "emptied" of the project layer is not read: its file exists but is not a readable memory: {path}: {why}'
    with pytest.raises(NotFound) as raised:
        person.read("emptied")
    assert str(raised.value) == message  # the same file and reason as list, not "deleted"
    tool = handlers.run_tool(person.session, "memory_read", {"name": "emptied"})
    assert tool.is_error and tool.text == f"Error: {message}"
    assert person.read("kept").record.body == "Its body"  # control


@pytest.mark.parametrize("make, why", [
    (lambda path: path.mkdir(), "not read: it is a directory"),
    (lambda path: path.symlink_to("/etc/hostname"), "not read: it is a symbolic link (not followed)"),
    (lambda path: os.mkfifo(path), "not read: it is not a regular file"),
])
def test_a_memory_path_that_is_no_regular_file_is_reported_by_read_and_list_alike(person, make, why):
    """break39: list said dir.md 'not read: it is a directory' while read (and the panel's page) said
    'memory not found': such a file is never read, so the reason was in the listing, not the files read."""
    person.write("kept", "Still a fact", "project", "Its body")
    path = person.session.layer("project").path / "odd.md"
    make(path)
    assert [(m.path, m.error) for m in person.list().malformed] == [(str(path), why)]
    message = f'memory "odd" of the project layer is not read: its file exists but is not a readable memory: {path}: {why}'
    with pytest.raises(NotFound) as raised:
        person.read("odd")
    assert str(raised.value) == message
    tool = handlers.run_tool(person.session, "memory_read", {"name": "odd"})
    assert tool.is_error and tool.text == f"Error: {message}"
    with pytest.raises(NotFound) as raised:  # control: a name with no file at all is not found
        person.read("absent")
    assert str(raised.value).startswith('memory not found: "absent"')
    assert person.read("kept").record.body == "Its body"


def test_a_file_emptied_to_its_frontmatter_is_an_empty_memory_in_read_and_list_alike(person):
    person.write("emptied", "Once a fact", "project", "Its body")
    path = person.session.layer("project").path / "emptied.md"
    path.write_text("---\nname: emptied\ndescription: Once a fact\ntype: project\n---\n", encoding="utf-8")
    assert person.read("emptied").record.body == ""
    listed = person.list()
    assert [(m.name, m.description) for m in listed.memories] == [("emptied", "Once a fact")] and not listed.malformed
