"""printable_map: where each character of a text as shown (printable) stands in the text as stored (break39), the
map an edit copied from a view uses to find its span in the body."""

from __future__ import annotations

from memdir.text.printable import printable, printable_map


def test_each_shown_character_points_at_its_stored_one():
    text = "\x1b[31mmore\u200b x\r\ny"  # an escape sequence whose tail letter is the next word's first, a hidden space
    shown, where = printable_map(text)
    assert shown == printable(text) == "more x\ny"
    assert where == [5, 6, 7, 8, 10, 11, 12, 14]  # 'm' of "more" is index 5, not the escape's own 'm' at 4


def test_a_clean_text_maps_to_itself():
    assert printable_map("plain\ttext\n") == ("plain\ttext\n", list(range(11)))  # control
