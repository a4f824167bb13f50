"""One rule for the characters of a name that show as nothing (text.names, its module docstring): dropped
on every path — a read and a write, the API, the tools, the gateway an import calls directly — and the
write says which; a ZWJ/ZWNJ kept where a script joins with it (Persian, Devanagari, emoji) and no part
of the name's identity; controls and line breaks refused on every path (the controls of this file)."""

from __future__ import annotations

import re

import pytest

from memdir.errors import InvalidName, NotFound
from memdir.gateway import changes
from memdir.gateway.fields import MemoryChange
from memdir.text.names import (
    hidden_note,
    legacy_names,
    normalize_name,
    raw_name,
    same_name,
)

ZWSP, RLO, ZWJ, ZWNJ, TAG_A = "\u200b", "\u202e", "\u200d", "\u200c", "\U000e0041"
PERSIAN = "یادداشت" + ZWNJ + "ها"  # "notes": the plural suffix joined by a ZWNJ, as a Persian keyboard types it


@pytest.mark.parametrize("hidden", [ZWSP, RLO, TAG_A, ZWJ, ZWNJ, "\u2066", "\u00ad", "\ufeff"])
def test_what_shows_as_nothing_is_dropped_from_a_latin_name(hidden):
    assert normalize_name(f"deploy{hidden}notes").name == "deploynotes"
    assert raw_name(f"deploy{hidden}notes") == "deploynotes"


def test_the_write_says_which_character_went():
    assert hidden_note(f"deploy{RLO}notes") == (
        "U+202E RIGHT-TO-LEFT OVERRIDE removed from the name (a character that shows as nothing is no part of a "
        "name; it is read as 'deploynotes')")
    assert hidden_note(f"a{ZWSP}b{ZWSP}c").startswith("U+200B ZERO WIDTH SPACE removed")  # once, however many
    assert hidden_note("deploy-notes") is None and hidden_note(PERSIAN) is None  # controls: nothing dropped


@pytest.mark.parametrize("control", ["\x00", "\x1b", "\x85", "\n", "\u2028"])
def test_controls_and_line_breaks_are_refused(control):
    with pytest.raises(InvalidName, match="control characters or line breaks"):
        normalize_name(f"deploy{control}notes")


@pytest.mark.parametrize("control", ["\n", "\r\n", "\t", "\x00", "\x0b", "\x85", "\u2029"])
def test_a_control_at_either_end_is_refused_as_one_in_the_middle(control):
    """text38: ``seed\\n`` was trimmed to ``seed`` before its controls were looked for (a panel URL's seed%0a)."""
    for raw in (f"seed{control}", f"{control}seed", f"seed{control} "):
        with pytest.raises(InvalidName, match=r"must not contain control characters or line breaks \(got "):
            normalize_name(raw)
    assert normalize_name(" seed  ").name == "seed"  # control: spaces around a name are trimmed


@pytest.mark.parametrize("char, what", [("\u0378", "U+0378 (unassigned)"), ("\ue000", "U+E000 (a private-use character)"),
                                        ("\U000f0000", "U+F0000 (a private-use character)")])
def test_a_character_memdir_cannot_name_is_refused(char, what):
    with pytest.raises(InvalidName, match=rf"memory name holds {re.escape(what)}, which this memdir cannot name"):
        normalize_name(f"deploy{char}notes")
    assert normalize_name("deploy\u00e9notes").name == "deployenotes"  # control: an assigned letter


@pytest.mark.parametrize("hidden", ["\U0001bca0", "\U0001bca3", "\U00013430", "\U00013438", "\u180e", "\ufe00",
                                    "\U000e0100", "\u115f", "\u034f"])
def test_format_characters_of_every_kind_are_dropped_from_a_name(hidden):
    assert normalize_name(f"deploy{hidden}notes").name == "deploynotes"
    assert hidden_note(f"deploy{hidden}notes").startswith(f"U+{ord(hidden):04X} ")


def test_a_memory_stored_when_a_format_control_was_a_separator_is_found(mem):
    """Before text38 U+1BCA0 was no hidden character: a slug read it as a separator (sho-rt)."""
    mem.write("seed", description="makes the layer's directory")
    layer = mem.session.layer("project")
    raw = "sho\U0001bca0rt"
    assert normalize_name(raw).name == "short" and "sho-rt" in legacy_names(raw)
    (layer.path / "sho-rt.md").write_text(
        "---\nname: sho-rt\ntitle: \"sho\\U0001BCA0rt\"\ndescription: old notes\ntype: project\n---\n", encoding="utf-8")
    assert mem.read(raw).record.name == "sho-rt" and mem.read(raw).record.description == "old notes"
    with pytest.raises(NotFound):
        mem.read("shot")  # control: another name is not the older memory's


def test_joiners_a_script_uses_are_kept_and_no_part_of_the_identity():
    persian = normalize_name(PERSIAN)
    assert persian.title == PERSIAN  # the ZWNJ kept in the name as written
    assert normalize_name("یادداشتها").name == persian.name == normalize_name("یادداشت ها").name
    assert same_name("یادداشت ها", persian.name, PERSIAN)
    devanagari = "क्" + ZWJ + "ष-notes"  # a half form chosen by the ZWJ after the virama
    assert raw_name(devanagari) == devanagari and normalize_name(devanagari).name == normalize_name("क्ष-notes").name
    emoji = "👩" + ZWJ + "💻 notes"
    assert raw_name(emoji) == emoji  # one glyph, kept
    assert raw_name("Łódź" + ZWNJ + "żółw") == "Łódźżółw"  # Latin letters join with no ZWNJ: dropped
    # control: names spelled with other letters are other names
    assert normalize_name("یادداشت").name != persian.name


def test_a_memory_stored_under_the_spelling_that_counted_joiners_is_found(mem):
    mem.write("seed", description="makes the layer's directory")
    layer = mem.session.layer("project")
    old_hash = "m-b4822799dd"  # PERSIAN's hash before names26, its ZWNJ part of the spelling
    assert old_hash in legacy_names(PERSIAN) and old_hash != normalize_name(PERSIAN).name
    (layer.path / f"{old_hash}.md").write_text(
        f"---\nname: {old_hash}\ntitle: {PERSIAN}\ndescription: old persian notes\ntype: project\n---\n",
        encoding="utf-8")
    (layer.path / "deploy-notes.md").write_text(  # deploy<ZWJ>notes was deploy-notes before
        f"---\nname: deploy-notes\ntitle: deploy{ZWJ}notes\ndescription: old zwj notes\ntype: project\n---\n",
        encoding="utf-8")
    assert mem.read(PERSIAN).record.description == "old persian notes"
    assert mem.read("یادداشت ها").record.description == "old persian notes"
    assert mem.read(f"deploy{ZWJ}notes").record.description == "old zwj notes"
    assert mem.read("deploynotes").record.description == "old zwj notes"  # the same name today, without the ZWJ
    with pytest.raises(NotFound):
        mem.read("deploy-nodes")  # control: another name is not the older memory's


def test_every_path_applies_the_one_rule(mem):
    written = mem.write(f"deploy{RLO}notes", description="Deploys on Tuesday")  # before: refused (bidi)
    assert written.name == "deploynotes" and written.warnings == (hidden_note(f"deploy{RLO}notes"),)
    assert mem.read(f"deploy{RLO}notes").record.name == "deploynotes"  # read by the spelling written
    assert mem.read("deploynotes").record.description == "Deploys on Tuesday"
    said = mem.call_tool("memory_write", {"name": f"ci{ZWSP}host", "description": "CI on ci-1", "type": "project"})
    assert "cihost" in said and "U+200B ZERO WIDTH SPACE removed from the name" in said
    layer = mem.session.layer("project")
    direct = changes.write(layer, MemoryChange.of(f"db{TAG_A}port", "Postgres on 5433"), actor="import")
    assert direct.name == "dbport" and direct.warnings == (hidden_note(f"db{TAG_A}port"),)
    # controls: refused by the facade and by the gateway an import calls (before: the gateway dropped it)
    with pytest.raises(InvalidName):
        mem.write("db\x01host", description="x")
    with pytest.raises(InvalidName):
        changes.write(layer, MemoryChange.of("db\x01host", "x"), actor="import")
    assert sorted(e for e in layer.scan().entries) == ["cihost", "dbport", "deploynotes"]


def test_a_name_drops_exactly_what_printables_rule_hides_in_a_one_line_field():
    """One rule (text.printable.unhidden): every format character and default ignorable of this Python's Unicode
    that the rule drops from a one-line field is dropped from a name, and a name keeps what the rule keeps."""
    import sys
    import unicodedata

    from memdir.text.printable import unhidden

    dropped = kept = 0
    for cp in range(0xA0, sys.maxunicode + 1):
        c = chr(cp)
        if unicodedata.category(c) != "Cf" and not (0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF):
            continue
        if cp in (0x2028, 0x2029):
            continue
        raw = f"deploy{c}notes"
        if unhidden(raw) == "deploynotes":
            assert normalize_name(raw).name == "deploynotes", hex(cp)
            dropped += 1
        else:
            assert raw_name(raw) == unhidden(raw), hex(cp)
            kept += 1
    # kept: only U+FE0E/U+FE0F, which the rule keeps after any visible character (a name as a title keeps them)
    assert dropped > 400 and kept == 2


def test_a_newer_emoji_than_python_knows_is_named_as_an_emoji_and_other_unassigned_ones_are_refused():
    """🩵 (U+1FA75) is unassigned in Python 3.11's Unicode; printable's rule keeps it (the pictographs' blocks),
    so a name holds it as it holds ❤: a separator of the slug. U+0378 (not in those blocks) stays refused."""
    import unicodedata

    newer = "\U0001fa75"
    assert unicodedata.category(newer) == "Cn" or unicodedata.unidata_version >= "15"
    assert normalize_name(f"deploy{newer}notes") == normalize_name("deploy\u2764notes") == normalize_name("deploy-notes")
    assert normalize_name(f"{newer} notes").name == "notes" and hidden_note(f"{newer} notes") is None
    assert normalize_name(newer).title == newer and normalize_name(newer).name.startswith("m-")
    with pytest.raises(InvalidName, match=r"U\+0378 \(unassigned\)"):  # control: refused as before
        normalize_name("deploy\u0378notes")
