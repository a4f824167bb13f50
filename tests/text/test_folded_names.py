"""Names fold as search does (issue 28 §6): one rule, :func:`memdir.text.fold.fold`, so a letter that does not
decompose (ł ø ß đ æ œ þ ı) is typed without its accent in a name as in a query: ``Łódź-notes`` is
``lodz-notes`` (it was ``odz-notes``), and ``Lodz-notes`` is the same memory. A memory an older memdir stored under
the name it gave (``odz-notes``) is found and changed in place by every spelling, on every path: the API, the CLI
and the MCP SDK's client. Real files, a real index, real subprocesses."""

from __future__ import annotations

import sqlite3

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.errors import Conflict, NotFound
from memdir.gateway.edits import BodyEdit
from memdir.gateway.naming import older_names
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.search import index
from memdir.search.tokenize import tokens
from memdir.text.fold import fold
from memdir.text.names import legacy_names, normalize_name, same_name

from ..conftest import run_cli

FOLDED = {  # as written → as a person types it without the accents, in a name and in a query alike
    "Łódź": "lodz", "København": "kobenhavn", "Straße": "strasse", "Đà Nẵng": "da nang", "Cœur": "coeur",
    "Þingvellir": "thingvellir", "Işık": "isik", "İstanbul": "istanbul", "Æbleskiver": "aebleskiver",
    "Øresund": "oresund", "Ħamrun": "hamrun", "Zürich": "zurich", "ǾRE": "ore",
}
OLDER = {  # what a memdir before this fold named them: the letters that do not decompose dropped
    "Łódź-notes": "odz-notes", "København-notes": "k-benhavn-notes", "Straße-notes": "stra-e-notes",
    "Đà-Nẵng-notes": "a-nang-notes", "Øresund-bridge": "resund-bridge",
}


def test_names_and_search_terms_fold_every_latin_letter_alike():
    for written, typed in FOLDED.items():
        assert fold(written) == typed, written
        assert normalize_name(written).name == typed.replace(" ", "-"), written
    for word in ("Łódź", "København", "Cœur", "Işık", "İstanbul", "Øresund"):  # stems as themselves
        assert tokens(word) == [normalize_name(word).name], word
    assert tokens("Zürich") == [normalize_name("Zürich").name, "zuerich"]  # and its umlaut written out
    assert fold("ガイド") == "ガイド" and fold("ガイド") != fold("カイド")  # control: other scripts keep their marks
    assert normalize_name("Lods-notes").name == "lods-notes" != normalize_name("Łódź-notes").name  # control


def test_the_older_names_are_known_and_a_different_name_stays_different():
    for written, older in OLDER.items():
        assert legacy_names(written) == (older,), written
        assert older_names(normalize_name(written).name, [older, "lods-notes", "zz"]) == [older], written
    assert legacy_names("Ø") == ("m-47af2fb1e4",)  # no a-z left before: a hash of its NFKC text
    assert legacy_names("Lodz-notes") == () and legacy_names("Café Notes") == ()  # every memdir named these alike
    assert older_names("lodz-notes", ["odz-notes", "lods-notes", "ods-notes", "lodz-notes"]) == ["odz-notes"]
    assert same_name("Lodz-notes", "odz-notes", "Łódź-notes") and same_name("LODZ notes", "lodz-notes", None)
    assert not same_name("Lods-notes", "odz-notes", "Łódź-notes")  # control: one letter apart


def test_older_names_of_a_long_name_of_droppable_letters_is_answered_without_backtracking():
    """A pattern of optional letters (``-*o?-*o?…``) backtracked exponentially on ``ooo…oa`` beside ``ooo…o``
    (2 s at 26 letters, ×16 per 4 more: a read of a 30-letter name took 108 s); each name is now matched part by part.
    This test hung before; it asserts the answer."""
    names = ["o" * 198 + "a", "o" * 150, "o-" * 99 + "o", "o" * 201, "ss" * 100, "o" * 200]
    assert older_names("o" * 200, names) == ["o" * 150, "o-" * 99 + "o"]  # control: the shorter ones are older names
    assert older_names("o" * 199 + "a", ["o" * 198 + "a", "o" * 198 + "b", "a"]) == ["o" * 198 + "a", "a"]
    key = "th-" * 66 + "s"  # every part has several spellings; th-th-…s is not made of spellings only (th, t+h…)
    assert older_names(key, ["t" * 66 + "s", "h-" * 66 + "s", "th" * 66 + "x", "t" * 67 + "s", "m-0a1"]) == [
        "t" * 66 + "s", "h-" * 66 + "s"]
    assert older_names("th" * 100, ["h" * 100, "m-0a1"]) == ["h" * 100, "m-0a1"]  # control: spellings only


def _older_file(mem: Memory, name: str, title: str, scope: str = "project", kind: str = "project") -> None:
    """A memory file as a memdir before this fold wrote it: ``name`` is its file name, ``title`` its name as
    written."""
    layer = mem.session.layer_dir(scope)
    layer.mkdir(parents=True, exist_ok=True)
    (layer / f"{name}.md").write_text(
        f"---\nname: {name}\ntitle: {title}\ndescription: notes for the {title.split('-')[0]} office\n"
        f"type: {kind}\ncreated: 2026-11-02T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\norigin: human\n"
        "status: active\n---\n\nOffice at Piotrkowska 1.\n", encoding="utf-8")


def _names(mem: Memory) -> list[str]:
    return sorted(m.name for m in mem.list(include_all=True).memories)


@pytest.mark.slow
def test_a_memory_stored_under_its_older_name_is_one_memory_on_every_path_of_the_api(person):
    _older_file(person, "odz-notes", "Łódź-notes")
    for spelling in ("Łódź-notes", "Lodz-notes", "lodz-notes", "LODZ notes", "odz-notes"):
        assert person.read(spelling).record.name == "odz-notes", spelling
    written = person.write("Lodz-notes", "notes for the Lodz office", "project", "Office at Piotrkowska 2.")
    assert (written.name, written.operation) == ("odz-notes", "updated")  # before: lodz-notes, created
    assert written.warnings == ("'Lodz-notes' is the name of the existing memory 'Łódź-notes' (odz-notes) written "
                                "otherwise (in case, accents, width or spacing): that memory was updated; its title "
                                "stays 'Łódź-notes'",)
    exact = person.write("Łódź-notes", "notes for the Lodz office", "project", "Office at Piotrkowska 2.")
    assert (exact.name, exact.operation, exact.warnings) == ("odz-notes", "unchanged", ())  # its own spelling
    assert _names(person) == ["odz-notes"]
    edited = person.edit("lodz-notes", BodyEdit(old="Piotrkowska 2", new="Piotrkowska 3"))
    assert edited.name == "odz-notes" and person.read("Łódź-notes").record.body == "Office at Piotrkowska 3."
    assert [h.name for h in person.search("Lodz office")] == ["odz-notes"]
    assert [h.name for h in person.search("łódź")] == ["odz-notes"]
    person.pin("Lodz-notes")
    assert person.read("odz-notes").record.pinned is True
    history = person.history("Lodz-notes")
    assert history.name == "odz-notes" and len(history.versions) == 4  # taken up, written, edited, pinned
    deleted = person.delete("LODZ notes")
    assert deleted.name == "odz-notes"
    with pytest.raises(NotFound) as gone:
        person.read("Lodz-notes")
    assert gone.value.deleted == "odz-notes" and 'memory "Lodz-notes" (read as "odz-notes") was deleted' in str(gone.value)
    assert person.history("Łódź-notes").name == "odz-notes"  # a deleted memory's versions, by its new spelling
    person.lift_tombstone(deleted.tombstone)  # else its value stays refused, as for every deleted memory
    restored = person.restore("Lodz-notes", 2)
    assert (restored.name, restored.operation) == ("odz-notes", "created")
    assert person.read("lodz-notes").record.body == "Office at Piotrkowska 2."
    lods = person.write("Lods-notes", "notes for the Lods office", "project", "Elsewhere.")  # control: another name
    assert (lods.name, lods.operation) == ("lods-notes", "created")
    assert _names(person) == ["lods-notes", "odz-notes"]
    assert person.read("Lods-notes").record.body == "Elsewhere."
    assert not (person.session.layer_dir("project") / "lodz-notes.md").exists()


@pytest.mark.slow
def test_a_write_without_a_scope_updates_the_older_memory_in_its_own_layer(mem):
    _older_file(mem, "k-benhavn-notes", "København-notes", scope="user", kind="user")
    written = mem.write("Kobenhavn-notes", "notes for the Copenhagen office", body="Standup at nine.")
    assert (written.name, written.scope, written.operation) == ("k-benhavn-notes", "user", "updated")
    assert [(m.name, m.scope) for m in mem.list().memories] == [("k-benhavn-notes", "user")]
    other = mem.write("Kobenhavn-rules", "rules for the Copenhagen office", body="No meetings on Friday.")
    assert (other.name, other.scope, other.operation) == ("kobenhavn-rules", "project", "created")  # control


@pytest.mark.slow
def test_a_memory_an_older_memdir_hashed_is_found_by_the_letters_it_now_folds_to(person):
    _older_file(person, "m-47af2fb1e4", "Ø")
    assert person.read("O").record.name == person.read("Ø").record.name == "m-47af2fb1e4"
    written = person.write("o", "the O notes", "project", "revised")
    assert (written.name, written.operation) == ("m-47af2fb1e4", "updated")
    other = person.write("Oo", "another name", "project", "b")  # control
    assert (other.name, other.operation) == ("oo", "created")
    assert _names(person) == ["m-47af2fb1e4", "oo"]


@pytest.mark.slow
def test_the_cli_reads_writes_and_lists_the_older_memory_as_one(person, project):
    _older_file(person, "odz-notes", "Łódź-notes")
    done = run_cli("--project", project, "write", "Lodz-notes", "-d", "notes, revised", "-t", "project",
                   "--body", "Office at Piotrkowska 5.")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "Memory updated: odz-notes (project)"
    listed = run_cli("--project", project, "list").stdout
    assert "- odz-notes (type: project; layer: project) — notes, revised" in listed and "lodz-notes" not in listed
    read = run_cli("--project", project, "read", "lodz-notes")
    assert read.returncode == 0 and "Office at Piotrkowska 5." in read.stdout
    history = run_cli("--project", project, "history", "Łódź-notes")
    assert history.returncode == 0 and "odz-notes" in history.stdout
    missing = run_cli("--project", project, "read", "lods-notes")  # control: one letter apart is not it
    assert missing.returncode != 0 and 'memory not found: "lods-notes"' in missing.stderr


@pytest.mark.slow
def test_the_mcp_tools_read_write_search_and_delete_the_older_memory_as_one(person, isolated_home, project):
    _older_file(person, "resund-bridge", "Øresund-bridge")
    state = MemoryServer(home=isolated_home, project=project)
    seen: dict[str, tuple[bool, str]] = {}

    async def main():
        async with Client(build_server(state)) as client:
            for key, tool, args in (
                    ("read", "memory_read", {"name": "oresund-bridge"}),
                    ("write", "memory_write", {"name": "Oresund-bridge", "description": "Oresund bridge toll paid "
                                               "by card", "type": "project", "body": "Card only."}),
                    ("search", "memory_search", {"query": "Oresund toll"}),
                    ("other", "memory_read", {"name": "oresund-tunnel"}),
                    ("delete", "memory_delete", {"name": "Øresund-bridge"}),
                    ("gone", "memory_read", {"name": "oresund-bridge"})):
                result = await client.call_tool(tool, args)
                seen[key] = (bool(result.is_error), "".join(c.text for c in result.content))

    anyio.run(main)
    assert seen["read"][0] is False and "name: resund-bridge" in seen["read"][1]  # was: not found
    assert seen["write"] == (False, seen["write"][1]) and seen["write"][1].startswith("Memory updated: resund-bridge")
    assert seen["search"][0] is False and "resund-bridge" in seen["search"][1]
    assert seen["other"][0] is True and "not found" in seen["other"][1]  # control: another name
    assert seen["delete"][0] is False and "resund-bridge" in seen["delete"][1]
    assert seen["gone"][0] is True
    assert _names(person) == []  # one memory, deleted: no oresund-bridge was made beside it


def test_an_index_of_schema_6_is_tokenized_again_in_place_and_keeps_its_vectors(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("turkey-desk", "İzmir office handles support", "project", "Tickets by mail.")
    mem.write("ankara-desk", "Ankara office handles sales", "project", "Calls.")
    assert [h.name for h in mem.search("Izmir")] == ["turkey-desk"]
    conn = index.connect(mem.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'turkey-desk'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", ("i\u0307zmir offic handl support", row))
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (row,))
    conn.execute("PRAGMA user_version = 6")  # what the previous memdir left: İ kept its dot above
    index.close_all()
    conn = index.connect(mem.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # not rebuilt: kept
    assert conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0].startswith("izmir ")
    assert [h.name for h in mem.search("Izmir")] == ["turkey-desk"]
    assert [h.name for h in mem.search("Ankara")] == ["ankara-desk"]  # control: the other row answers as before
    assert isinstance(conn, sqlite3.Connection)


@pytest.mark.slow
def test_an_agent_proposal_for_the_team_changes_the_older_team_memory(tmp_path):
    from tests.teamgit import shared_repository

    a, _ = shared_repository(tmp_path)
    (a.team_dir / "odz-notes.md").write_text(
        "---\nname: odz-notes\ntitle: Łódź-notes\ndescription: notes for the Łódź office\ntype: project\n"
        "created: 2026-11-02T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\norigin: human\nstatus: active\n---\n\n"
        "Office at Piotrkowska 1.\n", encoding="utf-8")
    agent = a.memory(actor="agent")
    proposed = agent.write("Lodz-notes", "notes for the Lodz office", "project", "Office at Piotrkowska 7.",
                           scope="team")
    assert (proposed.name, proposed.status) == ("odz-notes", "candidate")  # before: lodz-notes, a new memory
    other = agent.write("Lods-notes", "notes for the Lods office", "project", "Elsewhere.", scope="team")
    assert (other.name, other.status) == ("lods-notes", "candidate")  # control: another name
    a.memory().review()  # the person saw it: the approval removes the line they wrote (team33)
    a.memory().approve("odz-notes", "team")
    assert sorted(p.name for p in a.team_dir.glob("*.md")) == ["odz-notes.md"]
    assert a.memory().read("Lodz-notes", "team").record.body == "Office at Piotrkowska 7."


def _untitled_file(mem: Memory, name: str, description: str, body: str) -> None:
    """A memory file with no title (``lodz-notes``, made beside an older ``odz-notes`` by a write of ``Lodz-notes``)."""
    (mem.session.layer_dir("project") / f"{name}.md").write_text(
        f"---\nname: {name}\ndescription: {description}\ntype: project\ncreated: 2026-11-02T10:00:00Z\n"
        f"updated: 2026-11-02T10:00:00Z\norigin: human\nstatus: active\n---\n\n{body}\n", encoding="utf-8")


@pytest.mark.slow
def test_a_name_as_written_means_the_memory_spelled_so_before_one_it_only_folds_to(person):
    """Breaker 04/05: with odz-notes (titled Łódź-notes, an older memdir's) and lodz-notes (no title) both there,
    every path of Łódź-notes reached lodz-notes: the read, a write overwrote and retitled it, the delete removed it."""
    _older_file(person, "odz-notes", "Łódź-notes")
    _untitled_file(person, "lodz-notes", "lodz build server", "Build box lodz-01.")
    assert person.read("Łódź-notes").record.name == "odz-notes"  # its title as written
    assert person.read("Lodz-notes").record.name == "lodz-notes"  # control: only folds to both: the file name
    assert person.read("odz-notes").record.name == "odz-notes" and person.read("lodz-notes").record.name == "lodz-notes"
    written = person.write("Łódź-notes", "notes for the Lodz office", "project", "Office at Piotrkowska 9.")
    assert (written.name, written.operation) == ("odz-notes", "updated")
    build = person.read("lodz-notes").record
    assert (build.body, build.title, build.description) == ("Build box lodz-01.", None, "lodz build server")
    assert person.history("Łódź-notes").name == "odz-notes" and person.history("Lodz-notes").name == "lodz-notes"
    deleted = person.delete("Łódź-notes")
    assert deleted.name == "odz-notes" and _names(person) == ["lodz-notes"]
    assert person.history("Łódź-notes").name == "odz-notes"  # deleted, still the memory spelled so
    person.lift_tombstone(deleted.tombstone)
    restored = person.restore("Łódź-notes", 2)
    assert (restored.name, restored.operation) == ("odz-notes", "created")
    assert person.read("Łódź-notes").record.body == "Office at Piotrkowska 9."
    assert person.read("Lodz-notes").record.body == "Build box lodz-01."  # control: untouched throughout
    other = person.write("Lodz-notes", "lodz build server", "project", "Build box lodz-02.")
    assert (other.name, other.operation) == ("lodz-notes", "updated")  # control: the write of the other name
    assert _names(person) == ["lodz-notes", "odz-notes"]


@pytest.mark.slow
def test_a_rename_onto_a_name_an_older_memory_answers_to_is_refused(person):
    """Breaker 20: a rename to Straße-notes made strasse-notes beside stra-e-notes (titled Straße-notes): two
    memories of one name. It is refused as a rename onto an existing name is."""
    person.write("other", "other memory", "project", "other body")
    person.write("third", "third memory", "project", "third body")
    _older_file(person, "stra-e-notes", "Straße-notes")
    for target in ("Straße-notes", "Strasse-notes"):
        with pytest.raises(Conflict) as refused:
            person.write(target, rename_from="other")
        # the free name offered answers to no memory (strasse-notes would find stra-e-notes: an older file name)
        assert str(refused.value) == (f"a memory called 'stra-e-notes' exists ({target!r} names it too: a name is "
                                      "stored lowercase, in a-z, 0-9 and -), so 'other' was not renamed: rename it "
                                      "to a free name such as 'strasse-notes-2', or change 'stra-e-notes' itself (its "
                                      "title, description or body) instead"), target
        assert refused.value.taken == ("stra-e-notes", "other", "strasse-notes-2")
    with pytest.raises(Conflict) as plain:  # control: as a rename onto a plain existing name is
        person.write("third", rename_from="other")
    assert str(plain.value) == ("a memory called 'third' exists, so 'other' was not renamed: rename it to a free "
                                "name such as 'third-2', or change 'third' itself (its title, description or body) "
                                "instead")
    assert _names(person) == ["other", "stra-e-notes", "third"]
    renamed = person.write("Strasse-rules", rename_from="other")  # control: a free name is renamed to
    assert (renamed.name, renamed.operation) == ("strasse-rules", "renamed")
    assert person.read("Straße-notes").record.name == "stra-e-notes"
