"""Transcript readers: what the person and the assistant said, nothing injected, bounded."""

from __future__ import annotations

import json

import pytest

from memdir.consolidation.transcripts import (
    ASSISTANT_LIMIT,
    TOTAL_LIMIT,
    USER_LIMIT,
    Turn,
    bound,
    read_transcript,
    strip_injected,
)
from memdir.errors import InvalidInput
from tests.conftest import DATA

TRANSCRIPTS = DATA / "transcripts"
needs_data = pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="../shared/data/transcripts is absent")


def _line(**obj) -> str:
    return json.dumps(obj)


def _cc(*lines) -> str:
    return "\n".join(lines) + "\n"


def user(text, **kw):
    return _line(type="user", timestamp="2026-11-25T10:00:00Z", sessionId="s1", cwd="/w/app",
                 message={"role": "user", "content": text}, **kw)


def assistant(msg_id, blocks, **kw):
    return _line(type="assistant", timestamp="2026-11-25T10:00:05Z",
                 message={"id": msg_id, "role": "assistant", "content": blocks}, **kw)


def test_claude_code_groups_assistant_blocks_and_skips_what_the_person_did_not_say():
    text = _cc(
        user("Please use pytest for every new test."),
        assistant("m1", [{"type": "thinking", "thinking": "SECRET THOUGHT"}]),
        assistant("m1", [{"type": "text", "text": "Sure, pytest it is."}]),
        assistant("m1", [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]),
        user([{"type": "tool_result", "tool_use_id": "t1", "content": '{"prefer": "Poetry"}'}]),
        assistant("m1", [{"type": "text", "text": "Done."}]),
        user("Stop hook feedback:\nplease commit", ),
        user("meta words", isMeta=True),
        user("side words", isSidechain=True),
        user("compact words", isCompactSummary=True),
        _line(type="summary", summary="Session title"),
        _line(type="queue-operation", operation="enqueue"),
        "this is not json",
        "[1, 2]",
        user("<system-reminder>injected reminder</system-reminder>And remember: deploys go through make release."),
        user("<memory_context>\nold memory index\n</memory_context>"),
    )
    t = read_transcript(text)
    assert t.format == "claude-code"
    assert [(x.role, x.text) for x in t.turns] == [
        ("user", "Please use pytest for every new test."),
        ("assistant", "Sure, pytest it is.\nDone."),
        ("user", "And remember: deploys go through make release."),
    ]
    assert t.malformed == 2
    assert t.skipped == {"tool_result": 1, "harness": 1, "isMeta": 1, "isSidechain": 1, "isCompactSummary": 1,
                         "summary": 1, "queue-operation": 1, "injected": 1}
    assert t.session_id == "s1" and t.cwd == "/w/app"
    assert t.turns[0].ts.isoformat() == "2026-11-25T10:00:00+00:00"
    assert "SECRET THOUGHT" not in t.text() and "Poetry" not in t.text()


def test_generic_message_list_and_object_with_messages():
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": [{"type": "text", "text": "I prefer tabs."}], "timestamp": "2026-11-20T08:00:00Z"},
        {"role": "assistant", "content": "Noted."},
        {"role": "tool", "content": "{\"x\": 1}"},
        "garbage",
    ]
    for source in (messages, json.dumps(messages), json.dumps({"messages": messages}).encode()):
        t = read_transcript(source)
        assert t.format == "messages"
        assert [(x.role, x.text) for x in t.turns] == [("user", "I prefer tabs."), ("assistant", "Noted.")]
        assert t.turns[0].ts.isoformat() == "2026-11-20T08:00:00+00:00"
        assert t.malformed == 1 and t.skipped == {"system": 1, "tool": 1}


def test_one_message_per_line_is_read_as_the_same_list(tmp_path):
    """A harness that appends `{"role", "content"}` lines as it goes (JSONL, the README's `session.jsonl`) gets
    the turns the JSON list gives, with the same digest; before, it was read as Claude Code's JSONL: 0 messages,
    and consolidation found nothing. Control: Claude Code's own lines (which carry `type`) stay claude-code."""
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "From now on always use pnpm, never npm, in this repo.",
         "timestamp": "2026-11-20T08:00:00Z"},
        {"role": "assistant", "content": "Understood, I'll use pnpm."},
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in messages) + "\nnot json\n", encoding="utf-8")
    t = read_transcript(str(path))
    assert t.format == "messages-jsonl"
    assert [(x.role, x.text) for x in t.turns] == [
        ("user", "From now on always use pnpm, never npm, in this repo."), ("assistant", "Understood, I'll use pnpm.")]
    assert t.turns[0].ts.isoformat() == "2026-11-20T08:00:00+00:00"
    assert t.malformed == 1 and t.skipped == {"system": 1}
    assert t.digest == read_transcript(messages).digest
    control = read_transcript(_cc(user("I prefer tabs."), assistant("m1", [{"type": "text", "text": "Noted."}])))
    assert control.format == "claude-code" and [x.text for x in control.turns] == ["I prefer tabs.", "Noted."]


def test_a_harness_s_jsonl_session_is_consolidated_offline(tmp_path):
    from memdir import Memory

    (tmp_path / "app").mkdir()
    path = tmp_path / "session.jsonl"
    path.write_text(json.dumps({"role": "user", "content": "From now on always use pnpm, never npm, in this repo."})
                    + "\n" + json.dumps({"role": "assistant", "content": "Understood."}) + "\n", encoding="utf-8")
    mem = Memory.open(home=tmp_path / "home", project=tmp_path / "app")
    report = mem.consolidate(str(path))
    assert report.status == "ok" and report.applied == 1  # before: "empty", 0
    assert [m.description for m in mem.list().memories] == ["From now on always use pnpm, never npm, in this repo."]


def test_plain_text_prefixes_and_continuation_lines(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("preamble\nUSER: first line\nsecond line\nASSISTANT: reply\nuser: again\n", encoding="utf-8")
    t = read_transcript(path)
    assert t.format == "text" and t.source == str(path)
    assert [(x.role, x.text) for x in t.turns] == [("user", "first line\nsecond line"), ("assistant", "reply"),
                                                  ("user", "again")]
    assert t.skipped == {"no-prefix": 1}
    assert read_transcript(str(path)).digest == t.digest


def test_bounds_per_message_and_total_newest_kept():
    turns = [Turn("user", "u" * 2500), Turn("assistant", "a" * 800)]
    kept, dropped, secrets = bound(turns)
    assert secrets == {}  # by kind: none
    assert dropped == 0
    # the start and the end of each, "…" between (transcripts.cut_message)
    assert kept[0].text == "u" * (USER_LIMIT // 2) + "\n…\n" + "u" * (USER_LIMIT // 2) and kept[0].cut
    assert kept[1].text == "a" * (ASSISTANT_LIMIT // 2) + "\n…\n" + "a" * (ASSISTANT_LIMIT // 2) and kept[1].cut
    many = [Turn("user", f"{i:04d} " + "x" * 995) for i in range(40)]  # 40 lines of 1006 chars
    kept, dropped, _ = bound(many)
    size = sum(len(t.line()) for t in kept) + 2 * (len(kept) - 1)
    assert size <= TOTAL_LIMIT and len(kept) == 23 and dropped == 17
    assert kept[-1].text.startswith("0039") and kept[0].text.startswith("0017")


def test_strip_injected_and_unclosed_fence():
    assert strip_injected("keep <memory_recall>x</memory_recall> this") == "keep  this"
    assert strip_injected("keep <system-reminder>never closed") == "keep"
    assert strip_injected("<command-name>/clear</command-name>") == ""


def test_unsupported_values_raise_invalid_input(tmp_path):
    with pytest.raises(InvalidInput):
        read_transcript(42)
    # text that opens like JSON and is none: its one line is unreadable, said by number; not the value refused
    broken = read_transcript("[not json")
    assert (broken.turns, broken.format, broken.malformed, broken.bad_lines) == ((), "claude-code", 1, (1,))


@needs_data
def test_real_claude_code_transcripts():
    ocr = read_transcript(TRANSCRIPTS / "claude-code-deepseek-ocr.jsonl")
    users = [t.text for t in ocr.turns if t.role == "user"]
    assert len(users) == 5
    assert users[0] == "Create a folder deepseek-ocr and do everything else in that folder"
    assert "Warmup" not in users  # a sidechain line
    assert ocr.skipped["tool_result"] == 110 and ocr.skipped["isSidechain"] == 2
    assert ocr.malformed == 0 and ocr.dropped == 0 and len(ocr.turns) == 37
    assert all(len(t.text) <= ASSISTANT_LIMIT + 1 for t in ocr.turns if t.role == "assistant")

    slit = read_transcript(TRANSCRIPTS / "claude-code-charslit.jsonl")
    users = [t.text for t in slit.turns if t.role == "user"]
    assert len(users) == 7
    assert not any(u.startswith("Stop hook feedback") for u in users)
    assert not any("continued from another machine" in u for u in users)
    assert users[-1] == "test, just to see if this gets written to log. no need to answer"
    assert slit.skipped["harness"] == 2 and slit.skipped["isMeta"] == 1


def test_missing_transcript_file_is_an_error_not_an_empty_transcript(tmp_path):
    with pytest.raises(InvalidInput, match="does not exist"):
        read_transcript(str(tmp_path / "gone.jsonl"))
    with pytest.raises(InvalidInput, match="gone.jsonl does not exist"):
        read_transcript(tmp_path / "gone.jsonl")
    with pytest.raises(InvalidInput, match="is a directory, not a transcript file"):
        read_transcript(tmp_path)
    assert read_transcript("USER: just text.txt").turns[0].text == "just text.txt"
