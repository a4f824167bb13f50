"""The hidden-character rule (memdir.text.printable.unhidden) checked against Unicode's classes, every code
point 0..0x10FFFF, never against a list found one character at a time (text38: U+1BCA0-U+1BCA3 and
U+13430-U+13438, format controls outside the list of then, reached the context block in names and
descriptions).

What must be hidden is derived here, independently of the rule: General_Category Cc, Cf, Cs, Cn (in this
Python's Unicode), Co (one-line fields only), Zl, Zp, and Unicode's Default_Ignorable_Code_Point set
(DerivedCoreProperties.txt, Unicode 15.1, written out below). Each code point is walked in a context where
nothing may keep it (between spaces: no joiner joins there, no selector draws a space), and the controls
(letters, CJK, spaces of every width, emoji with their ZWJ and variation selector) must come through whole."""

from __future__ import annotations

import unicodedata

import pytest

from memdir.text.printable import (
    LINE_BREAKS,
    are_clean_lines,
    is_clean_line,
    one_line,
    printable,
    visible,
)

# Default_Ignorable_Code_Point, DerivedCoreProperties.txt (Unicode 15.1.0), reserved code points included.
DEFAULT_IGNORABLE = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]
IGNORABLE = frozenset(cp for lo, hi in DEFAULT_IGNORABLE for cp in range(lo, hi + 1))
HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"}
# emoji-data.txt: Extended_Pictographic holds these blocks' unassigned code points as well ("reserved"), so a
# later Unicode adds only pictographs there; unassigned in this Python, they are newer emoji, kept.
PICTOGRAPHIC_RESERVED = [(0x1F000, 0x1FAFF), (0x1FC00, 0x1FFFD)]
# C0 and C1 are walked one at a time (test_controls_one_by_one): an escape sequence's introducer takes the
# characters after it with it, as it should, which a walk of all code points in one text cannot hold apart.
FIRST = 0xA0


def _expected(cp: int, body: bool) -> str:
    """What a field shows of ``chr(cp)`` between spaces: "break", "hidden" or "kept"."""
    ch = chr(cp)
    if ch in LINE_BREAKS:
        return "break"
    category = unicodedata.category(ch)
    if category == "Cs":
        return "escaped"  # no character: shown as its escape (a file name's byte that is not UTF-8)
    if category == "Cn" and any(lo <= cp <= hi for lo, hi in PICTOGRAPHIC_RESERVED):
        return "kept"
    if category in HIDDEN_CATEGORIES or cp in IGNORABLE or (category == "Co" and not body):
        return "hidden"
    return "kept"


def _walk(body: bool) -> tuple[str, str, dict[str, int]]:
    """(text of every code point from FIRST between spaces, what the rule must leave of it, counts)."""
    given, wanted, counts = [], [], {"break": 0, "hidden": 0, "kept": 0, "escaped": 0}
    for cp in range(FIRST, 0x110000):
        kind = _expected(cp, body)
        counts[kind] += 1
        given.append(f"x {chr(cp)} ")
        wanted.append("x  " if kind == "hidden" else f"x \\u{cp:04x} " if kind == "escaped"
                      else ("x \n " if body else "x ") if kind == "break" else f"x {chr(cp)} ")
    return "".join(given), "".join(wanted), counts


@pytest.mark.slow
def test_one_line_fields_hide_every_format_control_ignorable_unassigned_and_private_character():
    given, wanted, counts = _walk(body=False)
    shown = one_line(given)
    assert shown == wanted.strip()
    # The classes are all there: Cn alone is most of the code space; the hidden ones include the tester's.
    assert counts["hidden"] > 800_000 and counts["kept"] > 140_000 and counts["break"] == 2  # U+2028, U+2029
    for cp in (0x1BCA0, 0x1BCA3, 0x13430, 0x13438, 0xE0041, 0xFE00, 0xE0100, 0x115F, 0x3164, 0x034F, 0x180E,
               0x2065, 0xFFF8, 0xE000, 0x10FFFD, 0x0378):
        assert _expected(cp, False) == "hidden" and f"x {chr(cp)} " not in shown


@pytest.mark.slow
def test_bodies_hide_the_same_but_keep_private_use():
    given, wanted, _counts = _walk(body=True)
    assert printable(given) == wanted
    assert _expected(0xE000, True) == "kept" and "x \ue000 " in wanted  # control: a body keeps private use
    assert _expected(0x1BCA0, True) == "hidden" and "x \U0001bca0 " in given and "x  x" in wanted


def test_a_newer_emoji_than_python_knows_is_kept_and_a_newer_format_control_is_not():
    """🩵 (U+1FA75, Unicode 15) is unassigned in Python 3.11's Unicode 14: it stays in a body and a description
    (a person's text, and visible); U+13439 (Unicode 15's Egyptian format control, unassigned here too) goes."""
    assert unicodedata.category("\U0001fa75") == "Cn" or unicodedata.unidata_version >= "15"
    assert printable("light blue \U0001fa75 heart") == "light blue \U0001fa75 heart"
    assert one_line("light blue \U0001fa75") == "light blue \U0001fa75" and is_clean_line("\U0001fa75")
    if unicodedata.category("\U00013439") == "Cn":
        assert printable("a\U00013439b") == "ab" and one_line("a\U00013439b") == "ab"


@pytest.mark.slow
def test_clean_means_nothing_to_change_for_every_code_point():
    """is_clean_line / are_clean_lines (the context block's fast path) say clean exactly for the characters
    one_line keeps as they are, so no hidden character is waved through by the fast path."""
    for cp in range(0x110000):
        ch = chr(cp)
        # A selector (an ignorable, not hidden by category) is kept only by its context: never clean alone.
        kept = ch == "\t" or (_expected(cp, False) == "kept" and cp not in IGNORABLE)
        assert is_clean_line(f"x{ch}") is kept, hex(cp)
        assert are_clean_lines(f"x{ch}\ny") is (kept or ch == "\n"), hex(cp)


def test_controls_one_by_one():
    for cp in range(FIRST):
        ch = chr(cp)
        if ch == "\t":
            assert one_line("a\tb") == "a\tb" and printable("a\tb") == "a\tb"
        elif ch in LINE_BREAKS:
            assert one_line(f"a{ch}b") == "a b"
            assert printable(f"a{ch}b") == "a\nb"
        elif unicodedata.category(ch) == "Cc":
            assert one_line(f"a{ch}") == "a" and printable(f"a{ch}") == "a", hex(cp)
            assert visible(f"a{ch}") == f"a\\x{cp:02x}"
        else:
            assert one_line(f"a{ch}b") == f"a{ch}b" == printable(f"a{ch}b")


LEGITIMATE = [
    "Café déjà vu, Łódź", "日本語のテキスト\u3000全角スペース", "中文记忆", "Заметки проекта", "배포 노트",
    "a\u00a0b", "می\u200cخواهم", "یادداشت\u200cها",  # Persian: ZWNJ between Arabic letters
    "क्\u200dष", "क्\u200cष",  # Devanagari half forms: a joiner after a virama
    "👩\u200d💻", "👩🏽\u200d💻", "❤\ufe0f\u200d🔥", "🏳\ufe0f\u200d🌈",  # emoji ZWJ sequences
    "❤\ufe0f", "☺\ufe0e", "1\ufe0f\u20e3", "#\ufe0f\u20e3",  # presentation selectors, keycaps
    "漢\U000e0100字", "葛\U000e0101",  # ideographic variation selectors after CJK
    "\u1820\u180b\u1821", "\u1820\u180e\u1821",  # Mongolian: free variation selector, vowel separator
    "Γειά σου", "שלום", "مرحبا", "ภาษาไทย", "ᐃᓄᒃᑎᑐᑦ", "x\u0301\u0302",
]


def test_legitimate_text_passes_whole():
    for text in LEGITIMATE:
        assert one_line(text) == text == printable(text), ascii(text)
        assert visible(text) == text


def test_joiners_and_selectors_stay_only_where_they_draw_something():
    emoji = "😀"
    run = "".join(chr(0xE0100 + i) for i in range(40))  # "emoji smuggling": a byte per selector
    assert one_line(emoji + run) == emoji and printable(emoji + run + "\n") == emoji + "\n"
    assert one_line("❤\ufe0f\ufe0f\ufe0e") == "❤\ufe0f"  # one selector per character
    assert one_line("a\ufe00b") == "ab" and one_line("é\ufe00") == "é\ufe00"  # U+FE00-FE0D: beyond ASCII
    assert one_line("a\U000e0100") == "a" and one_line("漢\U000e0100") == "漢\U000e0100"
    assert one_line("deploy\u200dnotes") == "deploynotes"  # Latin: a joiner joins nothing
    assert one_line("👩\u200d\u200d\u200d💻") == "👩💻"  # a run of joiners joins nothing: all go
    assert one_line("\u180bx") == "x" and one_line(" \ufe0f") == ""
    assert visible("a\ufe0f\ufe0f") == "a\ufe0f\\ufe0f"
