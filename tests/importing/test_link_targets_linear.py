"""A folder's index reads its lines' Markdown link targets in time linear in a line's length (inject42: read from
each "](" of "](](](…" to the line's end, 3 s at 32,000 characters); the targets are those it read before."""

from __future__ import annotations

from memdir.importing.folders import _link_targets


def test_link_targets_after_many_unclosed_openers_are_found():
    assert _link_targets("see [a](a.md) and [b](<b c.md>) [c](c.md)") == ["a.md", "c.md"]  # "b c.md": a space
    assert _link_targets("](" * 16000 + " [x](x.md)") == ["x.md"]
    assert _link_targets("](" * 16000) == []  # control: no target ends
    assert _link_targets("[a](<a.md>)") == ["a.md"]
