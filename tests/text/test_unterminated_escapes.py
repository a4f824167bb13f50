"""An unterminated OSC/DCS/APC/PM string never swallows text (issue 10, trial
item 1): the introducer goes, the text after it stays — at write time through
the gateway and in every renderer of a hand-edited body."""

from __future__ import annotations

import random

import pytest

from memdir.text.printable import one_line, printable
from tests.conftest import run_cli

INTRODUCERS = ["\x1b]", "\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x90", "\x98", "\x9d", "\x9e", "\x9f"]
LOG = "step 1 ok\n{intro}0;build\nstep 2: rm -rf build\nstep 3: deploy\n"


@pytest.mark.parametrize("intro", INTRODUCERS)
def test_an_unterminated_string_keeps_every_later_line_through_the_gateway(mem, intro):
    mem.write("log", "d", "project", LOG.format(intro=intro))
    body = mem.read("log", count=False).record.body
    assert body == "step 1 ok\n0;build\nstep 2: rm -rf build\nstep 3: deploy"


@pytest.mark.parametrize("intro", INTRODUCERS)
def test_a_terminated_string_on_its_line_is_still_dropped_whole(intro):
    # Positive control: the sequences a terminal would eat still go, with their payload.
    for end in ("\x07", "\x1b\\", "\x9c"):
        assert printable(f"a{intro}0;title{end}b\nc") == "ab\nc"
        assert one_line(f"a{intro}8;;http://x{end}b") == "ab"


def test_a_terminator_on_a_later_line_does_not_join_lines_into_one_sequence():
    assert printable("keep 1\n\x1b]0;t\nkeep 2\n\x07keep 3") == "keep 1\n0;t\nkeep 2\nkeep 3"


def test_no_printable_character_outside_a_terminated_sequence_is_ever_lost():
    """Property over many random bodies: text pieces (letters, digits, CJK,
    punctuation, spaces, newlines) joined by unterminated introducers and
    bare controls come out with every printable character, in order."""
    rng = random.Random(10)
    alphabet = "abcXYZ019 ;:/.-[]#\\\t\n日本é"
    noise = INTRODUCERS + ["\x01", "\x00", "\x7f", "\x85", "\u202e"]
    for _ in range(2000):
        pieces = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(1, 6))]
        # A piece right after ESC must not start with a character that makes a
        # two-character escape of it (`ESC ]` + `\\` is ST, a terminated string).
        text = expected = pieces[0]
        for piece in pieces[1:]:
            mark, piece = rng.choice(noise), piece.lstrip("\\")
            text += mark + piece
            expected += ("\n" if mark == "\x85" else "") + piece
        assert printable(text) == expected, repr(text)


@pytest.mark.slow
def test_a_hand_edited_body_with_an_unterminated_osc_shows_every_line(mem, project):
    path = mem.session.layer("project").path
    path.mkdir(parents=True, exist_ok=True)
    (path / "log.md").write_text("---\nname: log\ndescription: d\ntype: project\n---\n"
                                 + LOG.format(intro="\x1b]"), encoding="utf-8")
    out = run_cli("--project", project, "read", "log").stdout
    assert "step 3: deploy" in out and "step 1 ok" in out and "\x1b" not in out
