"""A body's line ends of another system (a lone ``\\r``: classic Mac OS; ``\\r\\n``: Windows) become ``\\n``
without a warning — nothing was removed; other line breaks made newlines are said as that, and a control
character really removed is still said as removed (the controls)."""

from __future__ import annotations

from memdir.text.printable import clean_body

BREAKS = "1 line break character(s) in the body (form feed, vertical tab, U+2028 …) made newlines"


def test_lone_carriage_returns_are_line_ends_not_removed_characters(mem):
    result = mem.write("mac-ends", "mac line ends", "project", "mac\rline\rends")
    assert result.warnings == ()
    assert mem.read("mac-ends", count=False).record.body == "mac\nline\nends"
    mixed = mem.write("mixed-ends", "mixed line ends", "project", "dos\r\nmac\rbell\x07 here")
    assert mixed.warnings == ("1 control or bidi character(s) removed from the body",)  # the bell, not the CRs
    assert mem.read("mixed-ends", count=False).record.body == "dos\nmac\nbell here"


def test_other_line_breaks_are_said_as_made_newlines(mem):
    result = mem.write("form-feed", "form feed", "project", "page one\fpage two\x00")
    assert result.warnings == (BREAKS, "1 control or bidi character(s) removed from the body")
    assert mem.read("form-feed", count=False).record.body == "page one\npage two"


def test_clean_body_counts():
    assert clean_body("mac\rline\rends") == ("mac\nline\nends", 0, 0)
    assert clean_body("a\r\nb") == ("a\nb", 0, 0)
    assert clean_body("a\u2028b\u2029c\rd") == ("a\nb\nc\nd", 2, 0)
    assert clean_body("red \x1b[31mtext\r") == ("red text\n", 0, 1)  # the escape sequence goes whole, said once
    assert clean_body("plain") == ("plain", 0, 0)
