"""A hook's one stderr line stays readable whatever its input held: a value of 100 KB (a ``cwd``, an option's
value) keeps its head and tail around a mark saying how much was cut, and the reason after it stays in view;
a value of ordinary length is shown whole (the control)."""

from __future__ import annotations

import json
import subprocess
import sys

from memdir.text.printable import LINE_CHARS, WORD_CHARS, said_line


def _hook(event: str, cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event],
                          input=json.dumps({"cwd": cwd, "session_id": "s1", "prompt": "which port"}),
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_100_kb_cwd_is_cut_in_the_hook_line_and_a_short_one_is_whole(tmp_path):
    huge = "/" + "a" * 100_000
    missing = str(tmp_path / "gone" / "proj")  # the control: a path of ordinary length, missing too
    for event in ("SessionStart", "UserPromptSubmit", "SessionEnd"):
        cut = _hook(event, huge)
        assert (cut.returncode, cut.stdout) == (0, "")
        # the word "'/aaa…aaa'" (100,003 characters) keeps its first 133 and last 66 (WORD_CHARS 200)
        assert WORD_CHARS == 200
        assert cut.stderr == (f"memdir hook {event}: project directory '/{'a' * 131}…(99804 characters cut)…"
                              f"{'a' * 65}' cannot be examined: File name too long\n")
        whole = _hook(event, missing)
        assert whole.returncode == 0 and whole.stdout == ""
        assert missing in whole.stderr and "characters cut" not in whole.stderr


def test_said_line_cuts_each_long_word_then_the_line():
    assert said_line("memdir hook X: cwd '/tmp/p' is missing") == "memdir hook X: cwd '/tmp/p' is missing"
    word = "b" * 5000
    assert said_line(f"start {word} end") == f"start {'b' * 133}…(4801 characters cut)…{'b' * 66} end"
    many = " ".join(["word"] * 1000)  # no long word: the line alone is cut, its end kept
    line = said_line(many)
    assert line.startswith("word word ") and line.endswith(" word word")
    assert len(line) == LINE_CHARS + len(f"…({len(many) - LINE_CHARS + 1} characters cut)…") - 1


def test_said_line_cuts_a_message_of_several_lines_line_by_line():
    """newuser37: an install's refusal carries a diff to apply by hand; each of its lines is short and stays, while
    a long word on one of them is still cut (control)."""
    diff = "\n".join(f'+    "hook-{n}": "memdir.hooks gemini Event{n}",' for n in range(60))
    assert len(diff) > LINE_CHARS and said_line(f"refused; add by hand:\n{diff}") == f"refused; add by hand:\n{diff}"
    word = "c" * 5000
    assert said_line(f"refused:\n{word}\n+ end") == f"refused:\n{'c' * 133}…(4801 characters cut)…{'c' * 66}\n+ end"
