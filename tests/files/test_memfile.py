"""Parsing and serializing memory files (DESIGN §3)."""

from datetime import datetime, timezone

import pytest

from memdir.files.memfile import MalformedMemory, parse, serialize
from memdir.layer.index import index_line

TRICKY_DESCRIPTIONS = [
    "key: value with: colons",
    "before #not-a-comment and # after",
    "it's \"quoted\" and 'single'",
    "curly ’quote’ and “double”",
    "--- looks like a marker",
    "line one\nline two",
    "no",
    "null",
    "2024-01-05",
    "!important note",
    "@at and `backtick` and * star",
]


@pytest.mark.parametrize("description", TRICKY_DESCRIPTIONS)
def test_tricky_descriptions_round_trip_through_the_api(mem, description):
    body = "intro\n---\nkey: value\n---\nmore: text # not a comment"
    mem.write("tricky", description, "project", body)
    got = mem.read("tricky").record
    assert got.description == description.replace("\n", " ")  # a description is one line
    assert got.body == body
    line = index_line(got)
    assert "\n" not in line
    text = (mem.session.layer("project").path / "MEMORY.md").read_text(encoding="utf-8")
    assert text.count("\n") == 1 and text.startswith("- [tricky](tricky.md) — ")


def _file(front: str, body: str = "Body text.") -> str:
    return f"---\n{front}\n---\n\n{body}\n"


def test_hand_written_scalars_keep_their_meaning():
    # `description: ~` is YAML null: no description (the body's first line stands in), not "~".
    parsed = parse(_file("name: x\ndescription: ~\ntype: user"), "x")
    assert parsed.record.description == "Body text."
    assert parsed.notes == ("no description: the body's first line stands in",)
    rec = parse(_file("name: no\ndescription: yes\ntype: user\npinned: \"false\""), "no")
    assert rec.record.name == "no"
    assert rec.record.description == "yes"
    assert rec.record.pinned is False
    rec = parse(_file("name: 2024-01-05\ndescription: dated\ntype: project\npinned: true"), "2024-01-05")
    assert rec.record.name == "2024-01-05" and rec.record.title is None
    assert rec.record.pinned is True
    rec = parse(_file("name: x\ndescription: d\npinned: \"true\"\ndisabled: \"false\""), "x")
    assert rec.record.disabled is False


def test_bom_crlf_folded_epoch_and_metadata_type():
    text = ("\ufeff---\r\nname: crlf\r\ndescription: >-\r\n  folded over\r\n  two lines\r\n"
            "created: 1764460800000\r\nupdated: 2026-11-20T16:03:11\r\nmetadata:\r\n  type: feedback\r\n"
            "---\r\n\r\nBody\r\nline\r\n")
    rec = parse(text, "crlf").record
    assert rec.description == "folded over two lines"
    assert rec.type == "feedback"
    assert rec.created == datetime(2025, 11, 30, 0, 0, tzinfo=timezone.utc)
    assert rec.updated == datetime(2026, 11, 20, 16, 3, 11, tzinfo=timezone.utc)
    assert rec.body == "Body\nline"


def test_unknown_type_is_kept_and_unclosed_frontmatter_is_malformed():
    parsed = parse(_file("name: x\ndescription: d\ntype: wish"), "x")
    assert parsed.record.type == "wish" and parsed.record.effective_importance == 4  # orders as reference
    assert "type 'wish' is not one of" in parsed.notes[0]
    with pytest.raises(MalformedMemory, match="never closed"):
        parse("---\nname: x\ndescription: d\n", "x")
    with pytest.raises(MalformedMemory, match="empty"):
        parse("", "x")


def test_serialize_is_valid_yaml_and_round_trips():
    from memdir.files.memfile import MemoryRecord

    rec = MemoryRecord(name="db-port", description="on: yes # no", type="project", body="b",
                       created=datetime(2026, 11, 2, 9, 14, tzinfo=timezone.utc), pinned=True, importance=9,
                       extra=(("originSessionId", "abc"),))
    text = serialize(rec)
    assert "created: 2026-11-02T09:14:00Z\n" in text
    assert "description: 'on: yes # no'\n" in text
    assert parse(text, "db-port").record == rec


def test_equal_times_are_not_written_as_yaml_aliases(mem):
    mem.write("same-times", "created equals updated", "project", "b")
    text = (mem.session.layer("project").path / "same-times.md").read_text()
    assert "&id" not in text and "*id" not in text
    created = next(l for l in text.splitlines() if l.startswith("created: "))
    updated = next(l for l in text.splitlines() if l.startswith("updated: "))
    assert created[len("created: "):] == updated[len("updated: "):]


def test_a_decimal_fraction_reads_back_as_the_float_written_and_other_numbers_as_text():
    """A write of ``ratio: 0.25`` reads back as 0.25 in any process (a read parses the file);
    text that a float would not write back as it is stays text."""
    text = ("---\nname: n\ndescription: d\ntype: project\nratio: 0.25\nneg: -1.5\nversion: 1.10\n"
            "sci: 1e3\ninf: .inf\nquoted: '0.5'\n---\n\nbody\n")
    extra = dict(parse(text, "n").record.extra)
    assert extra == {"ratio": 0.25, "neg": -1.5, "version": "1.10", "sci": "1e3", "inf": ".inf", "quoted": "0.5"}


def test_frontmatter_read_by_the_line_fallback_says_which_line_and_how_to_quote_it():
    """trial31: status said a file was "read leniently … (memdir doctor says how)" and doctor said only "read with
    the line fallback": the note now names the line and the quoted value that YAML reads as written. Controls:
    the file with that line as the note says is YAML (no fallback, the same description); a value alone at fault
    elsewhere is found on its own line."""
    value = 'CI runs on GitHub Actions: the "main" workflow'
    text = f"---\nname: ci-runner\ndescription: {value}\ntype: project\n---\n\nUses ubuntu-latest.\n"
    read = parse(text, "ci-runner")
    assert (read.fallback, read.record.description) == (True, value)
    assert read.notes == (("line 3 (description: CI runs on GitHub Actions: the \"main\" workflow) is not valid YAML: "
                           "quote its value: description: 'CI runs on GitHub Actions: the \"main\" workflow'"),)
    fixed = parse(text.replace(f"description: {value}", read.notes[0].split("quote its value: ", 1)[1]), "ci-runner")
    assert (fixed.fallback, fixed.notes, fixed.record.description) == (False, (), value)  # control
    it = parse("---\nname: it\ndescription: plain\ntype: project\nmetadata:\n  origin: it's: here\n---\n\nB\n", "it")
    assert it.fallback and it.notes == (("line 6 (origin: it's: here) is not valid YAML: quote its value: "
                                         "  origin: 'it''s: here'"),)


def test_the_fallbacks_fix_reads_each_lines_syntax_never_its_values():
    """A line YAML reads but cannot make a value of (year 0, a date too big) is not the fault, and asking it never
    raises (the parser's property test: ``yaml.safe_load`` of "created: 0000-01-01" raised ValueError out of
    ``parse``); the line that is not YAML is named, with its value quoted."""
    from memdir.files.frontmatter import fallback_fix

    front = "name: ci\ncreated: 0000-01-01\ndescription: CI runs on: GitHub\n"
    assert fallback_fix(front) == ("line 4 (description: CI runs on: GitHub) is not valid YAML: quote its value: "
                                   "description: 'CI runs on: GitHub'")
    assert fallback_fix("name: ci\ncreated: 0000-01-01\n") == ""  # control: every line is YAML


def test_a_line_indented_with_a_tab_is_told_to_use_spaces_not_quotes():
    """newuser33: a person's editor put a tab before ``description:``; doctor said "quote its value: description:
    'tabbed'", which leaves the tab and the fallback. The note names the tab and the line to write, top level or
    nested under ``metadata:``; the line written as the note says is YAML (no fallback, no note). Control: a value
    holding ``: `` on a tab-free line is still told to quote it."""
    text = "---\nname: tabs\n\tdescription: Dev Redis on 6380\ntype: project\n---\n\nBody.\n"
    read = parse(text, "tabs")
    assert (read.fallback, read.record.description) == (True, "Dev Redis on 6380")
    assert read.notes == (("line 3 (description: Dev Redis on 6380) is not valid YAML: it is indented with a tab "
                           "(YAML indents with spaces only): description: Dev Redis on 6380"),)
    fixed = parse(text.replace("\tdescription: Dev Redis on 6380", read.notes[0].rsplit("only): ", 1)[1]), "tabs")
    assert (fixed.fallback, fixed.notes, fixed.record.description) == (False, (), "Dev Redis on 6380")
    nested = "---\nname: it\ndescription: plain\ntype: project\nmetadata:\n\torigin: here\n---\n\nB\n"
    assert parse(nested, "it").notes == (("line 6 (origin: here) is not valid YAML: it is indented with a tab (YAML "
                                          "indents with spaces only):   origin: here"),)
    fixed = parse(nested.replace("\torigin", "  origin"), "it")
    assert (fixed.fallback, fixed.notes) == (False, ())
    colon = parse("---\nname: c\ndescription: CI runs on: GitHub\ntype: project\n---\n\nB\n", "c")  # control
    assert colon.notes == (("line 3 (description: CI runs on: GitHub) is not valid YAML: quote its value: "
                            "description: 'CI runs on: GitHub'"),)


def test_frontmatter_never_closed_names_the_line_to_close_it_after():
    """newuser33: a memory typed by hand without its closing ``---`` was "never closed", with no word of where the
    line goes. The error names the last field line; the file with ``---`` put there reads (control). A file whose
    first line after ``---`` is no field is told only that it was never closed."""
    text = "---\nname: redis\ndescription: Dev Redis on 6380\ntype: project\n\nStarted by docker compose.\n"
    with pytest.raises(MalformedMemory) as caught:
        parse(text, "redis")
    assert str(caught.value) == ("frontmatter opened with --- but never closed: put a line --- after line 4 "
                                 "(type: project), before the body")
    lines = text.split("\n")
    fixed = parse("\n".join([*lines[:4], "---", *lines[4:]]), "redis")
    assert (fixed.record.description, fixed.record.body) == ("Dev Redis on 6380", "Started by docker compose.")
    with pytest.raises(MalformedMemory) as caught:
        parse("---\nJust a note.\n", "note")
    assert str(caught.value) == "frontmatter opened with --- but never closed"
