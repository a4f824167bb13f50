"""A hand-made file written with YAML's explicit key form (``? key`` then ``: value``) keeps the text of the
keys memdir did not change when memdir rewrites it, as a file of plain ``key: value`` entries does (the
control): ``bin: !!binary aGVsbG8=`` stays as written, never re-serialized to ``bin: aGVsbG8=``."""

from __future__ import annotations

from memdir.files.frontmatter import read_yaml

EXPLICIT = """---
? name
: tagged
description: tagged values
type: project
bin: !!binary aGVsbG8=
? |
  long key
: kept  # as written
---
Body.
"""


def _hand(mem, stem: str, text: str):
    path = mem.session.layer("project").path / f"{stem}.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_explicit_key_file_keeps_its_tagged_values_through_an_update(mem):
    mem.write("seed", "a memory, so the project layer is made", "project", "x")
    path = _hand(mem, "tagged", EXPLICIT)
    plain = _hand(mem, "plain", EXPLICIT.replace("? name\n: tagged\n", "name: plain\n"))  # the control
    for name in ("tagged", "plain"):
        done = mem.write(name, f"{name} values, updated", "project", f"Body of {name}, updated.")
        assert done.operation == "updated"
    for name, file in (("tagged", path), ("plain", plain)):
        text = file.read_text(encoding="utf-8")
        assert f"description: {name} values, updated\n" in text and f"Body of {name}, updated." in text
        assert "bin: !!binary aGVsbG8=\n" in text
        assert "? |\n  long key\n: kept  # as written\n" in text


def test_read_yaml_cuts_an_explicit_entry_from_its_question_mark():
    sources = read_yaml("? name\n: n\ndescription: d\n?\n  k\n: v\nbin: !!binary aGVsbG8=\n")[1]
    assert sources == {"name": "? name\n: n\n", "description": "description: d\n", "k": "?\n  k\n: v\n",
                       "bin": "bin: !!binary aGVsbG8=\n"}
