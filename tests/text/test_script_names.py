"""Names and search text in scripts other than Latin and CJK (issue 28 §6): a Cyrillic or Greek name in capitals,
without its accents or spaced otherwise is one memory on every path (the API, the CLI, the MCP SDK's client), search
folds Greek accents and Cyrillic ``ё``, and a name mixing scripts (``배포-v2``) is named by all of it, not by its Latin
part alone. A memory today's older memdir stored under its hash of the name as written (``m-664a715272`` for
``Заметки-Проекта``) or under its Latin part (``v2`` for ``배포-v2``) is found, updated and deleted in place by every
spelling. Real files, a real index, real subprocesses."""

from __future__ import annotations

import sqlite3

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.errors import NotFound
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.search import index
from memdir.search.tokenize import tokens
from memdir.text.fold import fold
from memdir.text.names import legacy_names, normalize_name

from ..conftest import run_cli

NOTES = "Заметки-Проекта"
NOTES_SPELLINGS = ("Заметки-Проекта", "ЗАМЕТКИ-ПРОЕКТА", "заметки-проекта", "заметки проекта", "Заметки_Проекта")
GREEK = "Σημειώσεις-Συστήματος"
GREEK_SPELLINGS = ("Σημειώσεις-Συστήματος", "ΣΗΜΕΙΏΣΕΙΣ-ΣΥΣΤΉΜΑΤΟΣ", "ΣΗΜΕΙΩΣΕΙΣ-ΣΥΣΤΗΜΑΤΟΣ", "σημειωσεις συστηματος",
                   "Σημειώσεις-Συστήματος".replace("ώ", "ω\u0301"))  # the tonos as a combining mark
NOTES_OLDER = "m-664a715272"  # the file name a memdir before this fold gave Заметки-Проекта: its NFKC text hashed
GREEK_OLDER = "m-a6dae8c0e1"


def test_greek_and_cyrillic_fold_as_they_are_typed_and_their_own_letters_stay():
    assert fold("Σημειώσεις ΣΥΣΤΉΜΑΤΟΣ") == fold("σημειωσεις συστηματος") == "σημειωσεισ συστηματοσ"  # ς, Σ: one σ
    assert fold("ΐ Ϊ ΰ") == "ι ι υ" and fold("Ёлка ЁЛКА") == "елка елка" and fold("заме\u0301тки") == "заметки"
    assert fold("мой") == "мой" != fold("мои")  # control: й is its own letter in Russian
    assert fold("Київ ѓ") == "київ ѓ" and fold("ガイド") != fold("カイト")  # control: letters with their own marks
    assert tokens("Ёлка стоит; Οι σημειώσεις") == ["елк", "сто", "οι", "σημειωσ"]  # folded, then stemmed
    assert tokens("ЕЛКА σημειωσεις") == ["елк", "σημειωσ"]  # a query spelled otherwise meets the same terms


def test_a_name_in_another_script_is_one_name_in_every_spelling_and_another_name_stays_another():
    for written, spellings in ((NOTES, NOTES_SPELLINGS), (GREEK, GREEK_SPELLINGS)):
        assert {normalize_name(s).name for s in spellings} == {normalize_name(written).name}, written
        assert normalize_name(written).title == written
    assert normalize_name(NOTES).name == "m-7fc07a4770"
    assert normalize_name("заметка-проекта").name == "m-a5d78272d7" != normalize_name(NOTES).name  # control
    assert normalize_name("мой").name != normalize_name("мои").name  # control: й is not и
    mixed = [normalize_name(n) for n in ("배포-v2", "デプロイ-v2", "Заметки-v2")]
    assert [m.name for m in mixed] == ["m-d004be3b17", "m-e1980f9c08", "m-fa2c65ebe2"]  # the whole name, three names
    assert [m.title for m in mixed] == ["배포-v2", "デプロイ-v2", "Заметки-v2"]
    assert normalize_name("v2").name == "v2" and normalize_name("Café-v2").name == "cafe-v2"  # control: Latin names
    assert normalize_name("ソース").name == "m-0037410597" and normalize_name("部署流程").name == "m-c3f8ff75a0"  # kept
    assert legacy_names(NOTES) == (NOTES_OLDER,) and legacy_names(GREEK) == (GREEK_OLDER,)
    assert legacy_names("배포-v2") == ("v2",) and legacy_names("Заметки-V2") == ("v2",)
    assert legacy_names("v2") == ()  # control: every memdir named it alike


def _older_file(mem: Memory, name: str, title: str) -> None:
    """A memory file as the memdir before this fold wrote ``title``: under the file name ``name``."""
    layer = mem.session.layer_dir("project")
    layer.mkdir(parents=True, exist_ok=True)
    (layer / f"{name}.md").write_text(
        f"---\nname: {name}\ntitle: {title}\ndescription: notes of {title}\ntype: project\n"
        "created: 2026-11-02T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\norigin: human\nstatus: active\n---\n\n"
        "Deploy on Tuesdays.\n", encoding="utf-8")


def _names(mem: Memory) -> list[str]:
    return sorted(m.name for m in mem.list(include_all=True).memories)


@pytest.mark.slow
def test_the_api_reads_and_writes_one_memory_by_every_spelling_and_keeps_another_name_apart(person):
    for written, spellings in ((NOTES, NOTES_SPELLINGS), (GREEK, GREEK_SPELLINGS)):
        created = person.write(written, f"notes of {written}", "project", "Deploy on Tuesdays.")
        for spelling in spellings:
            assert person.read(spelling).record.name == created.name, spelling
        again = person.write(spellings[1], "notes, revised", "project", "Deploy on Wednesdays.")
        assert (again.name, again.operation) == (created.name, "updated")
        assert person.read(written).record.title == written  # the title stays as first written
    assert _names(person) == sorted([normalize_name(NOTES).name, normalize_name(GREEK).name])  # two, not four
    other = person.write("заметка-проекта", "one note", "project", "Another.")  # control: one letter apart
    assert (other.operation, other.name) == ("created", "m-a5d78272d7")
    with pytest.raises(NotFound) as missing:
        person.read("Заметки-Проектов")
    assert str(missing.value).startswith('memory not found: "Заметки-Проектов" (read as "m-')  # the name as typed
    for name in ("배포-v2", "デプロイ-v2", "Заметки-v2"):
        mixed = person.write(name, f"deploy notes {name}", "project", f"Body of {name}.")
        assert (mixed.name, mixed.operation) == (normalize_name(name).name, "created"), name
        assert person.read(name.upper()).record.body == f"Body of {name}.", name
    assert len(_names(person)) == 6
    plus = person.write("C++ ドキュメント", "C++ docs", "project", "cppreference.")
    sharp = person.write("C# ドキュメント", "C# docs", "project", "learn.microsoft.com.")  # spelled otherwise: its own
    assert (sharp.operation, plus.operation) == ("created", "created") and sharp.name != plus.name  # (no c-tips clash)
    assert person.read("c++ドキュメント").record.body == "cppreference."
    assert len(_names(person)) == 8


@pytest.mark.slow
def test_search_folds_greek_accents_and_cyrillic_yo_beside_a_memory_it_must_not_find(person):
    person.write("greek", "Οι σημειώσεις του συστήματος βρίσκονται στο wiki", "project", "body")
    person.write("russian", "Ёлка стоит в офисе до января", "project", "body")
    person.write("iodine", "Йод лежит в аптечке", "project", "body")
    for query, found in (("σημειώσεις", "greek"), ("σημειωσεις", "greek"), ("ΣΗΜΕΙΩΣΕΙΣ", "greek"),
                         ("συστηματος", "greek"), ("ёлка", "russian"), ("елка", "russian"), ("ЕЛКА", "russian"),
                         ("йод", "iodine")):
        assert [h.name for h in person.search(query)] == [found], query
    assert person.search("иод") == []  # control: й is not и
    # a stress mark is part of its word, in a memory and a query (a breaker's: заме́тки was заме + тки)
    person.write("stressed", "Рели́з в пятницу", "project", "body")
    assert [h.name for h in person.search("релиз")] == ["stressed"]
    assert [h.name for h in person.search("рели́з")] == ["stressed"]
    assert tokens("Заме́тки kǫ́d") == tokens("заметки kod") and len(tokens("Заме́тки")) == 1
    assert person.search("ελκα") == []  # control: Greek letters are no Cyrillic ones


@pytest.mark.slow
def test_a_memory_the_older_memdir_hashed_as_written_is_found_updated_and_deleted_by_every_spelling(person):
    _older_file(person, NOTES_OLDER, NOTES)
    _older_file(person, "v2", "배포-v2")
    _older_file(person, "v3", "v3")  # control: a Latin memory whose name a mixed one only contains
    for spelling in NOTES_SPELLINGS:
        assert person.read(spelling).record.name == NOTES_OLDER, spelling
    for spelling in ("배포-v2", "배포-V2", "배포 v2"):
        assert person.read(spelling).record.name == "v2", spelling
    with pytest.raises(NotFound):
        person.read("배포-v3")  # control: v3 is not 배포-v3
    written = person.write("ЗАМЕТКИ-ПРОЕКТА", "notes, revised", "project", "Deploy on Fridays.")
    assert (written.name, written.operation) == (NOTES_OLDER, "updated")
    mixed = person.write("배포 V2", "deploy notes", "project", "Deploy v2 on Mondays.")
    assert (mixed.name, mixed.operation) == ("v2", "updated")
    assert _names(person) == [NOTES_OLDER, "v2", "v3"]  # nothing made beside them
    assert [h.name for h in person.search("fridays")] == [NOTES_OLDER]
    new = person.write("デプロイ-v2", "Japanese deploy notes", "project", "Other.")  # once refused: Conflict on v2
    assert (new.name, new.operation) == ("m-e1980f9c08", "created")
    assert person.delete("заметки проекта").name == NOTES_OLDER
    assert person.delete("배포-V2").name == "v2"
    assert person.history("Заметки-Проекта").name == NOTES_OLDER  # a deleted memory's versions, by another spelling
    assert _names(person) == ["m-e1980f9c08", "v3"]


@pytest.mark.slow
def test_the_cli_reads_writes_and_lists_a_cyrillic_name_as_one(person, project):
    _older_file(person, NOTES_OLDER, NOTES)
    done = run_cli("--project", project, "write", "ЗАМЕТКИ-ПРОЕКТА", "-d", "notes, revised", "-t", "project",
                   "--body", "Deploy on Fridays.")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == f"Memory updated: {NOTES_OLDER} (project)"
    greek = run_cli("--project", project, "write", GREEK, "-d", "system notes", "-t", "project", "--body", "Wiki.")
    assert greek.returncode == 0
    read = run_cli("--project", project, "read", "заметки-проекта")
    assert read.returncode == 0 and "Deploy on Fridays." in read.stdout
    read = run_cli("--project", project, "read", "ΣΗΜΕΙΩΣΕΙΣ-ΣΥΣΤΗΜΑΤΟΣ")
    assert read.returncode == 0 and "Wiki." in read.stdout
    listed = run_cli("--project", project, "list").stdout.splitlines()
    assert sorted(line.split()[1] for line in listed if line.startswith("- ")) == sorted(
        [NOTES_OLDER, normalize_name(GREEK).name])
    missing = run_cli("--project", project, "read", "заметка-проекта")  # control: another name
    assert missing.returncode != 0 and 'memory not found: "заметка-проекта" (read as "m-a5d78272d7")' in missing.stderr


@pytest.mark.slow
def test_the_mcp_tools_read_write_search_and_delete_a_greek_name_as_one(person, isolated_home, project):
    person.write(GREEK, "system notes live in the wiki", "project", "Οι σημειώσεις βρίσκονται στο wiki.")
    person.write("Σημείωση-Συστήματος", "one system note", "project", "Μία σημείωση.")  # control: another name
    state = MemoryServer(home=isolated_home, project=project)
    seen: dict[str, tuple[bool, str]] = {}

    async def main():
        async with Client(build_server(state)) as client:
            for key, tool, args in (
                    ("read", "memory_read", {"name": "ΣΗΜΕΙΩΣΕΙΣ-ΣΥΣΤΗΜΑΤΟΣ"}),
                    ("write", "memory_write", {"name": "σημειωσεις συστηματος", "description": "system notes, "
                                               "revised", "type": "project", "body": "Οι σημειώσεις στο wiki."}),
                    ("search", "memory_search", {"query": "ΣΗΜΕΙΩΣΕΙΣ"}),
                    ("other", "memory_read", {"name": "σημειωση-συστηματος"}),
                    ("delete", "memory_delete", {"name": "Σημειωσεις-Συστηματος"}),
                    ("gone", "memory_read", {"name": GREEK})):
                result = await client.call_tool(tool, args)
                seen[key] = (bool(result.is_error), "".join(c.text for c in result.content))

    anyio.run(main)
    name = normalize_name(GREEK).name
    assert seen["read"][0] is False and f"name: {name}" in seen["read"][1]
    assert seen["write"][0] is False and seen["write"][1].startswith(f"Memory updated: {name}")
    assert seen["search"][0] is False and name in seen["search"][1]
    assert normalize_name("Σημείωση-Συστήματος").name in seen["search"][1]  # σημειωση, its singular: one stem
    assert seen["other"][0] is False and "Μία σημείωση." in seen["other"][1]  # control: the other memory, by its name
    assert seen["delete"][0] is False and name in seen["delete"][1]
    assert seen["gone"][0] is True
    assert _names(person) == [normalize_name("Σημείωση-Συστήματος").name]


def test_an_index_of_schema_8_is_tokenized_again_in_place_and_keeps_its_vectors(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("russian", "Ёлка стоит в офисе", "project", "Until January.")
    mem.write("greek", "Σημειώσεις στο wiki", "project", "Wiki.")
    assert [h.name for h in mem.search("ЁЛКА")] == ["russian"]  # the index made and synced
    conn = index.connect(mem.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'russian'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", ("ёлка стоит в офисе", row))
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (row,))
    conn.execute("PRAGMA user_version = 8")  # what the previous memdir left: ё kept its dots
    index.close_all()
    conn = index.connect(mem.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # not rebuilt: kept
    assert conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0].startswith("елк ")
    assert [h.name for h in mem.search("елка")] == ["russian"]
    assert [h.name for h in mem.search("σημειωσεις")] == ["greek"]  # control: the other row answers too
    assert isinstance(conn, sqlite3.Connection)
