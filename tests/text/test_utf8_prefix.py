"""A cut by UTF-8 bytes keeps whole characters: the one rule (text.printable.utf8_prefix) that index lines
(`clipped`), a recall body cut to its share and an imported body cut to a file's ceiling all use."""

from memdir.text.printable import clipped, utf8_prefix


def test_a_byte_cut_never_splits_a_character_and_keeps_what_fits():
    assert utf8_prefix("日本語", 4) == "日"  # 3 bytes each: the second would need 6
    assert utf8_prefix("😀x", 3) == "" and utf8_prefix("😀x", 4) == "😀"  # a 4-byte character, whole or not at all
    assert utf8_prefix("é", 0) == "" and utf8_prefix("abc", -1) == ""
    # controls: text that fits is itself, ASCII is cut at the byte
    assert utf8_prefix("abc", 9) == "abc" and utf8_prefix("abcdef", 4) == "abcd"
    assert clipped("日" * 150) == "日" * 99 + "…" and clipped("a" * 400) == "a" * 299 + "…"
