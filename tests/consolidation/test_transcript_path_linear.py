"""A string is read as a transcript's path when it is one line naming a file with a known suffix (a separator
before it, or no space at all), in time linear in its length (inject42: as one expression a line of "////…" was
split every way before the suffix it lacked, 2 s at 2,000 characters, for any text handed to read_transcript)."""

from __future__ import annotations

import pytest

from memdir.consolidation.transcripts import read_transcript
from memdir.errors import InvalidInput


def test_a_long_line_of_separators_is_a_path_only_with_a_suffix():
    with pytest.raises(InvalidInput, match="does not exist"):
        read_transcript("/" * 4000 + "x.jsonl")  # a path, as before: named, missing
    with pytest.raises(InvalidInput, match="does not exist"):
        read_transcript("notes.txt")  # no separator, no space: a file's name
    said = read_transcript("/" * 4000)  # control: no suffix, read as what the person said
    assert said.format == "text" and said.turns == ()
    said = read_transcript("User: I keep notes in a.txt")  # control: a space and no separator: text, not a path
    assert said.format == "text" and [t.text for t in said.turns] == ["I keep notes in a.txt"]
