"""A body's first line keeps its indentation (break31): ``str.strip`` on the way in (the gateway), out
(the file's reader) and through an import cut the first line's leading spaces, so a person's Markdown
code block ``"    make deploy\\n    make test"`` was stored as ``"make deploy\\n    make test"`` — no longer
a code block, its first command out of line with the rest. Blank lines before the body and white space
after it still go (:func:`memdir.text.printable.trimmed_body`)."""

from __future__ import annotations

from memdir.text.printable import trimmed_body

CODE = "    make deploy\n    make test"


def test_trimmed_body_drops_blank_lines_and_trailing_space_but_keeps_the_first_indent():
    assert trimmed_body(f"\n  \n\t\n{CODE}\n\n  \n") == CODE
    assert trimmed_body("\tcode\n\t\tindented") == "\tcode\n\t\tindented"
    assert trimmed_body(" \n\t \n") == "" and trimmed_body("") == ""
    assert trimmed_body("plain text  \n") == "plain text"  # control: an unindented body as str.strip leaves it


def test_a_persons_code_block_is_stored_and_read_back_whole(isolated_home, person):
    person.write("deploy-steps", "Deploy steps", "project", f"\n\n{CODE}\n\n")
    assert person.read("deploy-steps", count=False).record.body == CODE
    path = next(isolated_home.glob("projects/*/deploy-steps.md"))
    assert path.read_text(encoding="utf-8").endswith(f"---\n\n{CODE}\n")
    person.write("plain-note", "A plain note", "project", "  \n  One line.  \n")  # control: no indent to keep
    assert person.read("plain-note", count=False).record.body == "  One line."


def test_a_hand_made_and_an_imported_code_block_keep_their_indent(isolated_home, person, tmp_path):
    person.write("base", "A first memory", "project", "So the layer exists.")
    layer = next(isolated_home.glob("projects/*"))
    (layer / "by-hand.md").write_text(f"---\nname: by-hand\ndescription: Steps by hand\ntype: project\n---\n\n{CODE}\n",
                                      encoding="utf-8")
    assert person.read("by-hand", count=False).record.body == CODE
    source = tmp_path / "notes"
    source.mkdir()
    (source / "imported.md").write_text(f"---\nname: imported\ndescription: Imported steps\ntype: project\n---\n{CODE}\n",
                                        encoding="utf-8")
    assert [o.result for o in person.import_from("dir", str(source), scope="project").outcomes] == ["imported"]
    assert person.read("imported", count=False).record.body == CODE
