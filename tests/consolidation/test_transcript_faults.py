"""Transcripts under attack: one bad line costs that line alone and is named by number; text that
JSON may hold (line separators, BOM, CRLF, huge lines, binary) is read as written."""

from __future__ import annotations

import json

import pytest

from memdir.consolidation.transcripts import USER_LIMIT, read_transcript
from memdir.consolidation.transcripts.turns import MAX_NAMED_LINES, MAX_REASONS

SAID = [("user", "Remember: the dev database listens on 5433."), ("assistant", "Noted, 5433."),
        ("user", "And deploys go through make release.")]


def _claude() -> list[str]:
    return [json.dumps({"type": "user", "sessionId": "s1", "message": {"role": "user", "content": SAID[0][1]}}),
            json.dumps({"type": "assistant", "message": {"id": "m1", "role": "assistant",
                                                         "content": [{"type": "text", "text": SAID[1][1]}]}}),
            json.dumps({"type": "user", "message": {"role": "user", "content": SAID[2][1]}})]


def _codex() -> list[str]:
    return [json.dumps({"type": "response_item", "payload": {"type": "message", "role": role, "content": [
        {"type": "input_text" if role == "user" else "output_text", "text": text}]}}) for role, text in SAID]


def _messages() -> list[str]:
    return [json.dumps({"role": role, "content": text}) for role, text in SAID]


def _gemini() -> list[str]:
    return [json.dumps({"sessionId": "g1", "projectHash": "h"})] + [
        json.dumps({"id": f"r{i}", "type": "user" if role == "user" else "gemini", "content": text})
        for i, (role, text) in enumerate(SAID)]


FIRST_LINES = {
    "array of objects": '[{"a": {"b": [1, {"c": null}]}}]',
    "a list of messages": '[{"role": "user", "content": "from another file"}]',
    "nested past the parser": "[" * 100_000,
    "messages of the wrong shape": '{"messages": {"role": {"x": 1}}}',
    "a role that is an object": '{"role": {"x": 1}, "content": {"y": [1]}}',
    "a number": "42",
    "a torn object": '"role": "user", "content": "half a line"}',
}
READERS = {"claude-code": _claude, "codex": _codex, "messages-jsonl": _messages, "gemini": _gemini}


@pytest.mark.parametrize("fmt", READERS)
@pytest.mark.parametrize("first", FIRST_LINES)
def test_a_first_line_of_an_unexpected_shape_costs_that_line_only(fmt, first):
    lines = READERS[fmt]()
    control = read_transcript("\n".join(lines) + "\n")
    assert [(t.role, t.text) for t in control.turns] == SAID and control.malformed == 0  # control
    assert control.format == fmt and control.bad_lines == ()
    t = read_transcript("\n".join([FIRST_LINES[first], *lines]) + "\n")
    assert (t.format, [(x.role, x.text) for x in t.turns]) == (fmt, SAID)
    shapes_read = first in ("messages of the wrong shape", "a role that is an object") and fmt != "gemini"
    # an object of no reader's shape is a line of the format skipped (named by reason); anything else is unreadable
    assert (t.malformed, t.bad_lines) == ((0, ()) if shapes_read else (1, (1,)))
    assert t.summary().to_dict()["bad_lines"] == list(t.bad_lines)


def test_one_record_of_another_client_does_not_decide_the_format():
    codex_line = json.loads(_codex()[0])
    t = read_transcript("\n".join([json.dumps(codex_line), *_claude()]) + "\n")
    assert t.format == "claude-code" and [(x.role, x.text) for x in t.turns] == SAID
    assert t.skipped == {"response_item": 1}  # the foreign record: left out, and counted
    alone = read_transcript(json.dumps(codex_line) + "\n")  # control: the same record read as what it is
    assert alone.format == "codex" and [(x.role, x.text) for x in alone.turns] == SAID[:1]


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085"])
def test_a_line_separator_inside_a_json_string_does_not_split_the_record(sep):
    said = f"Remember: the port is 5433{sep}and the host is db1"
    line = json.dumps({"type": "user", "message": {"role": "user", "content": said}}, ensure_ascii=False)
    assert sep in line  # written raw, as Node's JSON.stringify writes it
    t = read_transcript(line + "\n" + _claude()[2] + "\n")
    assert [(x.role, x.text) for x in t.turns] == [("user", said), SAID[2]] and t.malformed == 0


def test_bom_crlf_truncated_last_line_and_binary_junk(tmp_path):
    lines = _claude()
    lines[1] = "\ufeff" + lines[1]  # two files joined by cat: the second one's byte-order mark mid-file
    raw = ("\ufeff" + "\r\n".join(lines) + "\r\n").encode() + b"\x00\x01\xff\xfe{\"type\xc3\r\n" \
        + lines[2].encode()[:-9]  # a crash mid-write tore the last line
    path = tmp_path / "session.jsonl"
    path.write_bytes(raw)
    t = read_transcript(path)
    assert t.format == "claude-code" and [(x.role, x.text) for x in t.turns] == SAID
    assert (t.malformed, t.bad_lines, t.session_id) == (2, (4, 5), "s1")
    assert all("\r" not in x.text for x in t.turns)


def test_a_huge_line_is_cut_to_the_bound_and_the_others_kept():
    huge = "Remember this: " + "x" * 5_000_000
    lines = _claude()
    lines.insert(1, json.dumps({"type": "user", "message": {"role": "user", "content": huge}}))
    t = read_transcript("\n".join(lines) + "\n")
    assert [x.role for x in t.turns] == ["user", "user", "assistant", "user"]
    assert t.turns[1].text == huge[:USER_LIMIT // 2] + "\n…\n" + "x" * (USER_LIMIT // 2) and t.turns[1].cut
    assert [(x.role, x.text) for x in t.turns if not x.cut] == SAID and t.malformed == 0


def test_hostile_values_do_not_fill_the_report():
    junk = [json.dumps({"type": f"kind-{i}"}) for i in range(100)]
    junk += [json.dumps({"type": {"nested": "x" * 10_000}}), json.dumps({"type": "y" * 5000})]
    junk += ["not json"] * 30
    t = read_transcript("\n".join(_claude() + junk) + "\n")
    assert [(x.role, x.text) for x in t.turns] == SAID  # control: the conversation is read
    assert len(t.skipped) == MAX_REASONS + 1 and sum(t.skipped.values()) == 102  # 20 reasons and "other"
    assert t.skipped["other"] == 102 - MAX_REASONS and t.skipped["kind-0"] == t.skipped["kind-19"] == 1
    assert t.malformed == 30 and t.bad_lines == tuple(range(106, 106 + MAX_NAMED_LINES))
    assert max(len(reason) for reason in t.skipped) <= 40


@pytest.mark.slow
def test_consolidate_reads_past_a_bad_first_line_and_says_which(tmp_path, project):
    from tests.conftest import run_cli

    said = json.dumps({"type": "user", "cwd": str(project), "message": {
        "role": "user", "content": "Remember that the docs live in docs/site."}})
    bad = tmp_path / "bad.jsonl"
    bad.write_text('[{"a": {"b": [1, {"c": null}]}}]\n' + said + "\n", encoding="utf-8")
    done = run_cli("consolidate", bad, "--extractor", "rules", "--project", project)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"transcript: {bad} (claude-code, 1 messages, 1 from the person;")
    assert lines[1] == "transcript: 1 unreadable line(s) left out (line 1)"
    assert "1. create → docs-live-site (type: project; layer: project): created" in lines
    as_json = run_cli("consolidate", bad, "--json", "--extractor", "rules", "--project", project, "--dry-run")
    summary = json.loads(as_json.stdout)["transcript"]
    assert (summary["malformed"], summary["bad_lines"], summary["user_turns"]) == (1, [1], 1)
    good = tmp_path / "good.jsonl"  # control: the same conversation without the bad line says nothing of lines
    good.write_text(said.replace("docs/site", "docs/www") + "\n", encoding="utf-8")
    clean = run_cli("consolidate", good, "--extractor", "rules", "--project", project)
    assert clean.returncode == 0 and "unreadable" not in clean.stdout and "docs" in clean.stdout


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig", "utf-8"])
def test_a_transcript_in_utf16_or_utf32_is_read_not_emptied(tmp_path, encoding):
    lines = _claude()
    lines[2] = json.dumps({"type": "user", "message": {"role": "user", "content": "Deploys: café, 東京, ✓."}},
                          ensure_ascii=False)
    path = tmp_path / "session.jsonl"
    path.write_bytes("\r\n".join(lines).encode(encoding))  # as a Windows tool (PowerShell's >) writes it
    t = read_transcript(path)
    assert [(x.role, x.text) for x in t.turns] == [*SAID[:2], ("user", "Deploys: café, 東京, ✓.")]
    assert (t.format, t.malformed) == ("claude-code", 0)
    plain = tmp_path / "plain.txt"
    plain.write_bytes("USER: remember the port is 5433\r\nASSISTANT: ok\r\n".encode(encoding))
    assert [(x.role, x.text) for x in read_transcript(plain).turns] == [
        ("user", "remember the port is 5433"), ("assistant", "ok")]
