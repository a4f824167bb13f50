"""ingest.transcript_cwd splits a transcript at "\n" alone, as the transcripts reader does
(transcripts.turns.jsonl_lines): a U+2028, U+2029 or U+0085 written raw inside a JSON string
(Node's JSON.stringify leaves them so) is no line break."""

import json

import pytest

from memdir.consolidation.ingest import transcript_cwd


def _line(text: str, cwd: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}, "cwd": cwd},
                      ensure_ascii=False)


@pytest.mark.parametrize("hidden", ["\u2028", "\u2029", "\x85"])
def test_cwd_found_in_a_line_holding_a_separator_inside_a_string(tmp_path, hidden):
    path = tmp_path / "session.jsonl"
    line = _line(f"first{hidden}second", "/work/project-a")
    assert hidden in line  # written raw, as Node writes it
    path.write_text(line + "\n", encoding="utf-8")
    assert transcript_cwd(path) == "/work/project-a"


def test_control_lines_split_at_newline_still_are(tmp_path):
    # control: lines really split at "\n" still are, and the first with a cwd wins
    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps({"type": "summary"}) + "\r\n" + _line("hi", "/work/b") + "\n"
                    + _line("later", "/work/c") + "\n", encoding="utf-8")
    assert transcript_cwd(path) == "/work/b"
