"""U+FFF9-U+FFFB (interlinear annotation anchor, separator, terminator) show as nothing: one more entry of
printable's one list of invisible characters (text.printable.INVISIBLE), so a name drops them as it drops a
zero-width space, the write says which went, a title or description drops them, and a memory an older
memdir stored under the name that read them as a separator (deploy-notes) is still found."""

from __future__ import annotations

import pytest

from memdir.text.names import hidden_note, legacy_names, normalize_name, raw_name
from memdir.text.printable import INVISIBLE, clean_line

MARKS = ["\ufff9", "\ufffa", "\ufffb"]


@pytest.mark.parametrize("mark", MARKS)
def test_an_annotation_mark_is_no_part_of_a_name(mark):
    assert mark in INVISIBLE
    assert normalize_name(f"deploy{mark}notes").name == "deploynotes"
    assert raw_name(f"deploy{mark}notes") == "deploynotes"
    assert normalize_name("deploy notes").name == "deploy-notes"  # control: a space still separates


def test_the_write_names_the_mark_and_fields_drop_it():
    assert hidden_note("deploy\ufff9notes") == (
        "U+FFF9 INTERLINEAR ANNOTATION ANCHOR removed from the name (a character that shows as nothing is no part "
        "of a name; it is read as 'deploynotes')")
    assert hidden_note("deploy-notes") is None  # control
    assert clean_line("Dev \ufffaPostgreSQL\ufffb port")[0] == "Dev PostgreSQL port"


def test_a_memory_an_older_memdir_stored_with_the_mark_as_a_separator_is_found(mem):
    assert "deploy-notes" in legacy_names("deploy\ufff9notes")
    assert legacy_names("deploy notes") == ()  # control: a name every memdir named alike
    mem.write("seed", description="makes the layer's directory")
    layer = mem.session.layer("project")
    (layer.path / "deploy-notes.md").write_text(  # what `deploy<U+FFF9>notes` was named before
        "---\nname: deploy-notes\ndescription: old annotated notes\ntype: project\n---\n", encoding="utf-8")
    assert mem.read("deploy\ufff9notes").record.description == "old annotated notes"
    assert mem.write("deploy\ufff9notes", description="newer annotated notes").operation == "updated"
    assert [m.name for m in mem.list().memories if m.name.startswith("deploy")] == ["deploy-notes"]
