"""A name in a compatibility form (half-width kana, full-width Latin) is one memory, a store made before NFKC
keeps its memories, and a write that updates a memory under another spelling says so (issue 28)."""

from __future__ import annotations

import pytest

from memdir.errors import Conflict, NotFound
from memdir.text.names import legacy_names, normalize_name


def test_half_width_and_full_width_kana_normalize_to_one_name():
    assert normalize_name("ｿｰｽ").name == normalize_name("ソース").name
    assert normalize_name("ｶﾞｲﾄﾞ").name == normalize_name("ガイド").name
    assert normalize_name("ｿｰｽ").title == "ｿｰｽ"  # the title keeps the name as written
    assert normalize_name("ソース").name != normalize_name("ソーズ").name  # control: another word
    assert legacy_names("ｿｰｽ") == ("m-cef79eb96c",) and legacy_names("ソース") == () and legacy_names("db-port") == ()


@pytest.mark.slow
def test_a_compatibility_form_writes_and_reads_the_same_memory(person):
    person.write("ｿｰｽ", "a", "project", "first")
    second = person.write("ソース", "b", "project", "second")
    assert second.operation == "updated"
    assert [m.name for m in person.list().memories] == [normalize_name("ソース").name]
    person.write("ガイド", "g", "project", "the guide")
    assert person.read("ｶﾞｲﾄﾞ").record.body == "the guide"
    assert person.read("ｿｰｽ").record.body == "second"
    with pytest.raises(NotFound):
        person.read("ソーズ")  # control: a name that differs is not found


@pytest.mark.slow
def test_a_memory_stored_under_the_older_hash_is_found_and_updated_in_place(person):
    person.write("ｿｰｽ", "source layout", "project", "src/ holds the code")
    layer = person.session.layer("project").path
    new, (old,) = normalize_name("ｿｰｽ").name, legacy_names("ｿｰｽ")
    text = (layer / f"{new}.md").read_text(encoding="utf-8").replace(f"name: {new}", f"name: {old}")
    (layer / f"{new}.md").unlink()
    (layer / f"{old}.md").write_text(text, encoding="utf-8")  # as a memdir before NFKC stored it
    assert person.read("ｿｰｽ").record.body == "src/ holds the code"
    assert person.read("ソース").record.body == "src/ holds the code"  # by its title's usual form too
    written = person.write("ｿｰｽ", "source layout, revised", "project", "src/ and lib/ hold the code")
    assert (written.name, written.operation) == (old, "updated")
    assert [m.name for m in person.list().memories] == [old]  # one memory, nothing lost
    assert person.read("ｿｰｽ").record.description == "source layout, revised"


@pytest.mark.slow
def test_a_write_under_another_spelling_names_the_memory_it_updated(person):
    person.write("café-notes", "notes", "project", "b")
    for spelling in ("Café Notes", "ｃａｆｅ-ｎｏｔｅｓ"):
        result = person.write(spelling, f"notes as {spelling}", "project", "b")
        assert (result.name, result.operation) == ("cafe-notes", "updated")
        assert result.warnings == (f"{spelling!r} is the name of the existing memory 'café-notes' (cafe-notes) "
                                   "written otherwise (in case, accents, width or spacing): that memory was updated; "
                                   "its title stays 'café-notes'",)  # one line: not also "normalized … (kept as the title)"
    plain = person.write("cafe-notes", "notes, once more", "project", "b")
    assert not any("existing memory" in w for w in plain.warnings)  # control: its own file name
    person.write("C++ tips", "tips", "project", "b")
    with pytest.raises(Conflict):
        person.write("C# tips", "other tips", "project", "b")  # spelled otherwise: refused, as before
    assert [m.name for m in person.list().memories] == ["c-tips", "cafe-notes"]


@pytest.mark.slow
def test_an_update_by_a_compatibility_form_says_one_line_naming_the_memory(person):
    """Leftover 3: the update printed both "name 'ｿｰｽ' has no letters … with 'ｿｰｽ' as its title" (untrue: the
    title stays) and the line naming the memory it updated."""
    created = person.write("ソース", "source layout", "project", "src/ holds the code")
    assert created.warnings == ("name 'ソース' has no letters a-z or digits; saved as 'm-0037410597' with 'ソース' "
                                "as its title (either name finds it)",)  # control: a new memory is told its name
    updated = person.write("ｿｰｽ", "source layout, revised", "project", "src/ and lib/")
    assert (updated.name, updated.operation) == ("m-0037410597", "updated")
    assert updated.warnings == ("'ｿｰｽ' is the name of the existing memory 'ソース' (m-0037410597) written otherwise "
                                "(in case, accents, width or spacing): that memory was updated; its title stays "
                                "'ソース'",)
    assert person.read("ソース").record.title == "ソース"
    person.write("db-port", "port", "project", "5433")  # no title
    titled = person.write("DB Port", "port, revised", "project", "5433")
    assert titled.warnings == ("'DB Port' is the name of the existing memory 'db-port' written otherwise (in case, "
                               "accents, width or spacing): that memory was updated; its title is now 'DB Port'",)
    assert person.read("db-port").record.title == "DB Port"


def _stored_as_before_nfkc(person, raw: str) -> str:
    """Move the memory ``raw`` to the file name a memdir before NFKC gave it; returns that name."""
    layer = person.session.layer("project").path
    new, (old,) = normalize_name(raw).name, legacy_names(raw)
    text = (layer / f"{new}.md").read_text(encoding="utf-8").replace(f"name: {new}", f"name: {old}")
    (layer / f"{new}.md").unlink()
    (layer / f"{old}.md").write_text(text, encoding="utf-8")
    return old


@pytest.mark.slow
def test_the_usual_form_updates_a_memory_stored_under_the_older_hash_of_its_compatibility_form(person):
    """Leftover 4: reads of ソース found the memory an older memdir stored as ｿｰｽ (m-cef79eb96c), but a write of
    ソース made a second memory (m-0037410597)."""
    person.write("ｿｰｽ", "source layout", "project", "src/ holds the code")
    old = _stored_as_before_nfkc(person, "ｿｰｽ")
    assert person.read("ソース").record.name == old  # the read's rule
    written = person.write("ソース", "source layout, revised", "project", "src/ and lib/ hold the code")
    assert (written.name, written.operation) == (old, "updated")  # before: m-0037410597, created
    assert [m.name for m in person.list().memories] == [old]
    assert person.read("ｿｰｽ").record.body == person.read("ソース").record.body == "src/ and lib/ hold the code"
    other = person.write("ソーズ", "another word", "project", "b")  # control: a name that differs is its own
    assert (other.name, other.operation) == (normalize_name("ソーズ").name, "created")
    assert sorted(m.name for m in person.list().memories) == sorted([old, other.name])


@pytest.mark.slow
@pytest.mark.parametrize("title, key, created", [
    ("Café menu", "cafe-menu", "name 'Café menu' was normalized to 'cafe-menu' (kept as the title)"),
    ("日本 メモ", "m-547d1a048c", "name '日本 メモ' has no letters a-z or digits; saved as 'm-547d1a048c' with "
                              "'日本 メモ' as its title (either name finds it)"),
])
def test_an_update_by_the_memorys_own_title_says_nothing_of_its_name(person, title, key, created):
    """An update by the title's spelling repeated the creation's lines ("was normalized … (kept as the
    title)", "saved as 'm-…'"), though nothing was normalized or saved anew."""
    first = person.write(title, "first", "project", "b")
    assert (first.name, first.operation, first.warnings) == (key, "created", (created,))  # control: a new memory
    again = person.write(title, "second", "project", "b")
    assert (again.name, again.operation, again.warnings) == (key, "updated", ())
    assert person.read(key).record.title == title and person.read(key).record.description == "second"
