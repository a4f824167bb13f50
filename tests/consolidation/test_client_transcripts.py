"""Transcripts of Codex and Gemini CLI, as the real clients wrote them, read by consolidation and ingest.

The samples in tests/fixtures/transcripts were written by the clients themselves, run here offline against a
scripted local endpoint of their model API: ``codex exec`` 0.171.0 (then ``codex exec resume --last``, with an
AGENTS.md in the project) and ``gemini -p`` 0.61.0 (then ``--resume latest``, with a GEMINI.md). Each holds two
turns; the scripted model answered the same sentence twice."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memdir.consolidation.transcripts import read_transcript
from tests.conftest import run_cli

SAMPLES = Path(__file__).parent.parent / "fixtures" / "transcripts"
CODEX = SAMPLES / "codex-rollout.jsonl"
GEMINI = SAMPLES / "gemini-session.jsonl"
CODEX_CWD = "/tmp/codexrun/proj"  # the project the sample was recorded in
GEMINI_ROOT = "/tmp/gemrun/proj"


def test_codex_rollout_reads_the_two_turns_without_injected_context():
    t = read_transcript(CODEX)
    assert (t.format, t.session_id, t.cwd, t.malformed) == ("codex", "01a232b9-1f7b-7832-b954-e24b39ee6fd7",
                                                            CODEX_CWD, 0)
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "Remember: the staging deploy needs the VPN."),
        ("assistant", "Noted: the staging deploy needs the VPN."),
        ("user", "Also: we deploy on Tuesdays, never on Fridays."),
        ("assistant", "Noted: the staging deploy needs the VPN.")]
    raw = CODEX.read_text()
    assert "<environment_context>" in raw and "AGENTS.md instructions" in raw and '"role": "developer"' in raw \
        or '"role":"developer"' in raw  # control: the injected parts are in the file, and left out above
    assert t.skipped["injected"] == 1 and t.skipped["harness"] == 1 and t.skipped["developer"] == 1
    assert t.turns[0].ts.isoformat() == "2026-12-01T17:48:43.075000+00:00"


def test_codex_tool_calls_and_reasoning_are_not_the_conversation():
    lines = [{"timestamp": "2026-12-01T10:00:00Z", "type": "session_meta", "payload": {"id": "s9", "cwd": "/w"}},
             {"timestamp": "2026-12-01T10:00:01Z", "type": "response_item",
              "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "List files"}]}},
             {"timestamp": "2026-12-01T10:00:02Z", "type": "response_item",
              "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}"}},
             {"timestamp": "2026-12-01T10:00:03Z", "type": "response_item",
              "payload": {"type": "function_call_output", "output": "SECRET_FILE.txt"}},
             {"timestamp": "2026-12-01T10:00:04Z", "type": "response_item",
              "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking hard"}]}},
             {"timestamp": "2026-12-01T10:00:05Z", "type": "response_item",
              "payload": {"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": "One file."}]}}]
    t = read_transcript("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    assert [(turn.role, turn.text) for turn in t.turns] == [("user", "List files"), ("assistant", "One file.")]
    assert "SECRET_FILE" not in t.text() and "thinking hard" not in t.text()
    assert (t.format, t.session_id, t.cwd, t.malformed) == ("codex", "s9", "/w", 1)


def test_gemini_session_replays_its_records_as_the_client_does():
    t = read_transcript(GEMINI)
    assert (t.format, t.session_id, t.malformed) == ("gemini", "9938df65-ba44-46c9-85bf-63e062e8a6d0", 0)
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "Remember: we deploy on Tuesdays, never on Fridays."),
        ("assistant", "Noted: we deploy on Tuesdays, never on Fridays."),
        ("user", "Also: the staging deploy needs the VPN."),
        ("assistant", "Noted: we deploy on Tuesdays, never on Fridays.")]  # the resume's $set did not double them
    assert "<session_context>" in GEMINI.read_text() and "session_context" not in t.text()  # control and check


def test_a_gemini_hook_block_is_not_the_persons_words():
    """trial29: Gemini CLI 0.61 writes a hook's output as ``<hook_context>`` with the fences escaped inside (a user
    message of its own after the prompt, or before it in one message); it was read as what the person said."""
    hook = ("<hook_context>&lt;memory_recall&gt;\n## test-runner (type: feedback; layer: project) — Run tests with"
            " make check, never plain pytest\n&lt;/memory_recall&gt;</hook_context>")
    lines = [{"sessionId": "s1", "projectHash": "h", "kind": "main"},
             {"id": "1", "type": "user", "content": [{"text": "Remember: releases are cut on Thursdays."}]},
             {"id": "2", "type": "user", "content": [{"text": hook}]},
             {"id": "3", "type": "user", "content": hook + "\n\nAnd never deploy on Fridays."},
             {"id": "4", "type": "gemini", "content": "ok"}]
    t = read_transcript("\n".join(json.dumps(line) for line in lines) + "\n")
    assert t.format == "gemini"
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "Remember: releases are cut on Thursdays."), ("user", "And never deploy on Fridays."),
        ("assistant", "ok")]  # was also the hook message, and message 3 with the recall line before the sentence


def test_gemini_rewind_drops_the_message_and_those_after_it():
    records = [{"sessionId": "g1", "projectHash": "h", "startTime": "2026-12-01T10:00:00Z", "kind": "main"},
               {"id": "a", "timestamp": "2026-12-01T10:00:01Z", "type": "user", "content": [{"text": "Keep me"}]},
               {"id": "b", "timestamp": "2026-12-01T10:00:02Z", "type": "gemini", "content": "Kept too"},
               {"id": "c", "timestamp": "2026-12-01T10:00:03Z", "type": "user", "content": "Rewound away"},
               {"id": "d", "timestamp": "2026-12-01T10:00:04Z", "type": "gemini", "content": "Also away",
                "toolCalls": [{"name": "read_file"}]},
               {"$rewindTo": "c"},
               {"id": "e", "timestamp": "2026-12-01T10:00:05Z", "type": "info", "content": "Shell mode on"},
               {"id": "f", "timestamp": "2026-12-01T10:00:06Z", "type": "user", "content": "After the rewind"},
               {"id": "b", "timestamp": "2026-12-01T10:00:02Z", "type": "gemini", "content": "Kept, edited"}]
    t = read_transcript("\n".join(json.dumps(r) for r in records))
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "Keep me"), ("assistant", "Kept, edited"), ("user", "After the rewind")]
    assert t.skipped == {"info": 1}


def test_a_gemini_rewind_to_an_unknown_id_drops_nothing_and_is_counted():
    records = [{"sessionId": "g2", "projectHash": "h"},
               {"id": "a", "type": "user", "content": "Remember that we ship on Mondays."},
               {"id": "b", "type": "gemini", "content": "Noted."},
               {"$rewindTo": "not-a-message"},
               {"id": "c", "type": "user", "content": "And tag every release."},
               {"$rewindTo": "c"}]  # control: a known id still rewinds
    t = read_transcript("\n".join(json.dumps(r) for r in records))
    assert [(turn.role, turn.text) for turn in t.turns] == [
        ("user", "Remember that we ship on Mondays."), ("assistant", "Noted.")]
    assert t.skipped == {"rewind-unknown": 1}
    assert t.malformed == 0


def test_an_old_gemini_session_document_is_a_message_list():
    doc = {"sessionId": "g0", "projectHash": "h", "messages": [
        {"id": "1", "type": "user", "content": "Remember that we ship on Mondays."},
        {"id": "2", "type": "gemini", "content": "Noted."}]}
    t = read_transcript(json.dumps(doc))
    assert (t.format, [(turn.role, turn.text) for turn in t.turns]) == (
        "messages", [("user", "Remember that we ship on Mondays."), ("assistant", "Noted.")])


def names(project) -> list[str]:
    from memdir import Memory

    return sorted(m.name for m in Memory.open(project=project).list(scope="project").memories)


@pytest.mark.slow
def test_ingest_codex_and_gemini_sessions_of_this_project(tmp_path, project, isolated_home):
    home = Path(tmp_path / "userhome")
    codex_home = tmp_path / "codex-home"
    day = codex_home / "sessions" / "2026" / "12" / "01"
    day.mkdir(parents=True)
    (day / "rollout-2026-12-01T17-48-42-01a232b9.jsonl").write_text(CODEX.read_text().replace(CODEX_CWD, str(project)))
    chats = home / ".gemini" / "tmp" / "proj" / "chats"
    chats.mkdir(parents=True)
    shutil.copy(GEMINI, chats / "session-2026-12-01T17-49-9938df65.jsonl")
    (chats.parent / ".project_root").write_text(str(project))
    other = home / ".gemini" / "tmp" / "other" / "chats"
    other.mkdir(parents=True)
    shutil.copy(GEMINI, other / "session-x.jsonl")
    (other.parent / ".project_root").write_text(str(tmp_path / "elsewhere"))  # no such project: not read
    env = {"CODEX_HOME": str(codex_home)}
    done = run_cli("ingest", "--codex", "--project", project, "--extractor", "rules", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["counts"] == {"ok": 1}
    assert names(project) == ["deploy-tuesdays-never-fridays", "staging-deploy-needs-vpn"]
    # again, as a person reads it: the session was consolidated before, said so (newuser36: "1 seen")
    again = run_cli("ingest", "--codex", "--project", project, "--extractor", "rules", env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().endswith(": 1 consolidated before, skipped (`memdir consolidate --force FILE` "
                                         "consolidates one again); 0 change(s)"), again.stdout
    shutil.rmtree(project.parent.parent / "memhome")  # the same two facts, from Gemini CLI's session this time
    done = run_cli("ingest", "--gemini", "--project", project, "--extractor", "rules", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["counts"] == {"ok": 1}  # the other project's session was not read
    assert names(project) == ["deploy-tuesdays-never-fridays"]  # its "Remember:" line; the rules pass the other
    both = run_cli("ingest", "--codex", "--gemini", env=env)
    assert both.returncode != 0 and "one of --claude-code, --codex, --gemini" in both.stderr


def test_json_nested_too_deeply_is_one_malformed_line_not_a_crash():
    from memdir.consolidation.transcripts import read_transcript

    deep = '{"type":"response_item","payload":{"type":"message","role":"user","content":' + "[" * 100_000 \
        + "]" * 100_000 + "}}"
    good = '{"type":"response_item","payload":{"type":"message","role":"user","content":"I always use pnpm"}}'
    text = '{"type":"session_meta","payload":{"id":"s1"}}\n' + deep + "\n" + good + "\n"
    t = read_transcript(text)
    assert t.format == "codex" and t.malformed == 1
    assert [turn.text for turn in t.turns] == ["I always use pnpm"]  # control: the good line is read


def test_a_junk_first_line_does_not_turn_a_rollout_into_plain_text():
    # A torn write leaves a partial first line; the JSON lines after it still say who wrote the file.
    t = read_transcript("\x00partial\n" + CODEX.read_text())
    assert (t.format, t.malformed, len(t.turns)) == ("codex", 1, 4)
    assert t.turns[0].text == "Remember: the staging deploy needs the VPN."
    plain = read_transcript("USER: hello there\nASSISTANT: hi\n")  # control: a text transcript stays text
    assert (plain.format, [turn.role for turn in plain.turns]) == ("text", ["user", "assistant"])
