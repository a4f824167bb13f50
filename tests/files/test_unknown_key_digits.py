"""An unknown key's value written with a leading zero or a plus sign keeps its text (break31): ``zip: 01234``
was read as the integer 1234 and written back as ``zip: 1234`` wherever memdir re-serializes a key it cannot
copy line for line — every import (:func:`memdir.files.frontmatter.read_plain`) and a hand-made file whose
frontmatter has an explicit ``? key``. The rule: a value becomes an integer only when it writes back as the
same text (the rule the floats already had)."""

from __future__ import annotations

import yaml

from memdir.files.frontmatter import construct, read_plain

DIGITS = "zip: 01234\nfloor: +3\nzero: -0\nroom: 42\nbelow: -7\n"


def test_only_an_integer_written_as_it_writes_back_is_read_as_one():
    read = read_plain(f"name: office\n{DIGITS}")
    assert read == {"name": "office", "zip": "01234", "floor": "+3", "zero": "-0", "room": 42, "below": -7}
    assert construct(yaml.compose("007")) == "007" and construct(yaml.compose("700")) == 700


def test_an_imported_post_code_keeps_its_leading_zero(isolated_home, person, tmp_path):
    source = tmp_path / "notes"
    source.mkdir()
    (source / "office.md").write_text(
        f"---\nname: office\ndescription: Office address\ntype: reference\n{DIGITS}---\nThe office.\n",
        encoding="utf-8")
    report = person.import_from("dir", str(source), scope="project")
    assert [o.result for o in report.outcomes] == ["imported"]
    written = yaml.safe_load(next(isolated_home.glob("projects/*/office.md")).read_text().split("---\n")[1])
    assert (written["zip"], written["floor"], written["zero"]) == ("01234", "+3", "-0")
    assert (written["room"], written["below"]) == (42, -7)  # control: plain integers stay integers


def test_a_hand_made_file_with_an_explicit_key_keeps_its_post_code_through_an_update(isolated_home, person):
    person.write("base", "A first memory", "project", "So the layer exists.")
    path = next(isolated_home.glob("projects/*")) / "office.md"
    path.write_text("---\nname: office\ndescription: Office address\ntype: reference\nzip: 01234\n"
                    "? building\n: north\n---\nThe office.\n", encoding="utf-8")
    person.write("office", "Office address", "project", "The office moved upstairs.")
    front = path.read_text().split("---\n")[1]
    assert "\nzip: 01234\n" in front and "\n? building\n: north\n" in front  # the person's lines, as written (odd31)
    assert (read_plain(front)["zip"], read_plain(front)["building"]) == ("01234", "north")
    assert path.read_text().endswith("The office moved upstairs.\n")  # control: the update landed
