"""The command extractor end to end: a real subprocess reads the prompt and prints proposals."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from memdir import Memory
from memdir.consolidation.extractors import choose, describe
from memdir.settings import load_settings
from tests.conftest import run_cli

KEY = "sk-live" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3"
TRANSCRIPT = [
    {"role": "user", "content": f"Remember that the staging API is at staging-7.internal; its key is {KEY}."},
    {"role": "assistant", "content": "Noted."},
]
REPLY = {"proposals": [{"action": "create", "name": "staging-api", "type": "project",
                        "description": "The staging API is at staging-7.internal",
                        "body": "Said by the user.", "evidence": "Remember that the staging API…"}]}


def fake_command(tmp_path: Path, body: str) -> str:
    """A command line running a Python script whose source is ``body`` (stdin saved to prompt.txt first)."""
    script = tmp_path / "fake_model.py"
    script.write_text("import sys, time, json, pathlib\n"
                      f"prompt = sys.stdin.read()\npathlib.Path({str(tmp_path / 'prompt.txt')!r}).write_text(prompt)\n"
                      + body, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def open_mem(home, project, command: str, **overrides) -> Memory:
    return Memory.open(home=home, project=project, actor="human", extractor_command=command, **overrides)


def test_a_command_with_prose_around_the_json_creates_the_memory(isolated_home, project, tmp_path):
    reply = "Sure! Here is what I would keep:\n```json\n" + json.dumps(REPLY) + "\n```\nAnything else?"
    mem = open_mem(isolated_home, project, fake_command(tmp_path, f"print({reply!r})"))
    report = mem.consolidate(TRANSCRIPT, extractor="command")
    assert report.status == "ok" and report.extractor == "command"
    assert [(o.result, o.name) for o in report.outcomes] == [("created", "staging-api")]
    assert mem.read("staging-api", count=False).record.origin == "extracted"
    prompt = (tmp_path / "prompt.txt").read_text()
    # the command got the model extractor's prompt, with the secret redacted before it saw the text
    assert "You maintain the long-term memory of a coding assistant" in prompt
    assert "staging-7.internal" in prompt and "[REDACTED:" in prompt and KEY not in prompt
    assert report.redactions == 1


@pytest.mark.slow
def test_a_command_that_hangs_is_killed_at_the_timeout(isolated_home, project, tmp_path):
    marker = tmp_path / "child.pid"
    body = ("import subprocess\n"
            f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            f"pathlib.Path({str(marker)!r}).write_text(str(child.pid))\n"
            "time.sleep(60)\n")
    # 5 s: the command must have started its child and written its pid first (a Python start, twice: 2 s was close
    # on a loaded machine)
    mem = open_mem(isolated_home, project, fake_command(tmp_path, body), extractor_command_timeout=5)
    report = mem.consolidate(TRANSCRIPT, extractor="command")  # the command sleeps 60 s: only the kill ends it sooner
    assert report.status == "failed" and report.applied == 0
    assert report.error == "extractor_command did not finish within 5 s (extractor_command_timeout)"
    assert mem.list().memories == ()
    child = int(marker.read_text())
    for _ in range(50):  # the whole process group was killed, the grandchild too
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the command's child survived")


def test_a_command_that_fails_or_prints_no_json_writes_nothing(isolated_home, project, tmp_path):
    failing = fake_command(tmp_path, f"print('model overloaded; token {KEY}', file=sys.stderr)\nsys.exit(3)")
    report = open_mem(isolated_home, project, failing).consolidate(TRANSCRIPT, extractor="command")
    assert report.status == "failed"
    assert report.error.startswith("extractor_command exited with status 3: model overloaded; token [REDACTED:")
    prose = fake_command(tmp_path, "print('I think the user wants a staging note.')")
    report = open_mem(isolated_home, project, prose).consolidate(TRANSCRIPT, extractor="command")
    assert report.status == "failed" and report.error == "no JSON proposals found in the reply"
    assert report.raw == "I think the user wants a staging note.\n"
    flood = fake_command(tmp_path, f"print('x' * 1_100_000)\nprint(json.dumps({REPLY!r}))")
    report = open_mem(isolated_home, project, flood).consolidate(TRANSCRIPT, extractor="command")
    # the size it had when it was seen (it is killed as soon as it is over): 1,100,001 or less
    assert report.status == "failed" and re.fullmatch(r"extractor_command printed (\d+) bytes \(more than 1000000\); "
                                                      r"nothing used", report.error)
    missing = open_mem(isolated_home, project, "/nonexistent/model-cli -p").consolidate(TRANSCRIPT,
                                                                                       extractor="command")
    assert missing.status == "failed" and "cannot run extractor_command '/nonexistent/model-cli'" in missing.error
    mem = open_mem(isolated_home, project, prose)
    assert mem.list().memories == ()
    # control: the same store with a good command does get the memory
    good = open_mem(isolated_home, project, fake_command(tmp_path, f"print(json.dumps({REPLY!r}))"))
    assert good.consolidate(TRANSCRIPT, extractor="command", force=True).applied == 1


@pytest.mark.slow
def test_the_cli_runs_the_command_from_the_setting(isolated_home, project, tmp_path):
    transcript = tmp_path / "t.json"
    transcript.write_text(json.dumps(TRANSCRIPT))
    env = {"MEMDIR_EXTRACTOR_COMMAND": fake_command(tmp_path, f"print(json.dumps({REPLY!r}))")}
    done = run_cli("--project", project, "--json", "consolidate", transcript, env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["extractor"] == "command" and out["outcomes"][0]["result"] == "created"  # auto → command
    doctor = run_cli("--project", project, "doctor", env=env)
    assert "consolidation extractor: command (auto: extractor_command is set)" in doctor.stdout


def test_a_chosen_extractor_that_cannot_run_says_so():
    """``consolidation_extractor = command`` with no ``extractor_command`` (or ``llm`` with no key) is
    still the choice, and its reason — what status and doctor print — says consolidation fails until it
    is set; with the command or key set the reason is the plain setting (controls)."""
    key = {"DEEPSEEK_API_KEY": "k-123"}
    bare = load_settings(None, environ={"MEMDIR_CONSOLIDATION_EXTRACTOR": "command"})
    assert choose(bare, environ={}) == (
        "command", "consolidation_extractor = command, but extractor_command is not set: consolidation fails until it is")
    ready = load_settings(None, environ={"MEMDIR_CONSOLIDATION_EXTRACTOR": "command", "MEMDIR_EXTRACTOR_COMMAND": "llm"})
    assert choose(ready, environ={}) == ("command", "consolidation_extractor = command")
    model = load_settings(None, environ={"MEMDIR_CONSOLIDATION_EXTRACTOR": "llm"})
    assert choose(model, environ={}) == ("llm", "consolidation_extractor = llm, but no API key is set for "
                                                "https://api.deepseek.com (set DEEPSEEK_API_KEY): consolidation fails "
                                                "until one is")
    # another endpoint reads OPENAI_API_KEY, and a variable of the person's own comes first (newuser34: doctor
    # named no variable to set)
    own = load_settings(None, environ={"MEMDIR_CONSOLIDATION_EXTRACTOR": "llm", "MEMDIR_LLM_API_KEY_ENV": "MY_KEY",
                                       "MEMDIR_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    told = ("consolidation_extractor = llm, but no API key is set for http://127.0.0.1:9/v1 (set MY_KEY or "
            "OPENAI_API_KEY): consolidation fails until one is")
    assert choose(own, environ={}) == ("llm", told)
    assert choose(own, environ={"MY_KEY": "k-9"}) == ("llm", "consolidation_extractor = llm")
    assert choose(model, environ=key) == ("llm", "consolidation_extractor = llm")


def test_auto_picks_key_then_command_then_agent_under_hooks_then_rules():
    plain = load_settings(None, environ={})
    command = load_settings(None, environ={"MEMDIR_EXTRACTOR_COMMAND": "llm -m mine"})
    keyed = {"DEEPSEEK_API_KEY": "k-123"}
    assert choose(plain, environ={}) == ("rules", "auto: no API key (DEEPSEEK_API_KEY), no extractor_command, "
                                                  "not queued at a session's end by a hook")
    assert choose(plain, under_hooks=True, environ={})[0] == "agent"
    assert choose(command, under_hooks=True, environ={}) == ("command", "auto: extractor_command is set")
    assert choose(command, environ=keyed) == ("llm", "auto: an API key is set for https://api.deepseek.com")
    fixed = load_settings(None, environ={"MEMDIR_CONSOLIDATION_EXTRACTOR": "rules"})
    assert choose(fixed, under_hooks=True, environ=keyed) == ("rules", "consolidation_extractor = rules")
    # two lines (newuser36: one doctor line of 314 characters), each under 140 as doctor prints them, each naming
    # the transcripts it is for (team40: "not queued at a session's end" above "queued ... at a session's end" read
    # as two answers to one question)
    assert describe(plain, environ={}).split("\n") == [
        "rules by hand or for Codex's each-turn hook (auto: no API key (DEEPSEEK_API_KEY), no extractor_command)",
        "  agent at a session's end, queued by Claude Code's or Gemini CLI's hook (auto: the next session's agent saves)"]
    first, second = describe(plain, environ={}).split("\n")
    assert (len("consolidation extractor: " + first), len(second)) == (128, 111)
    # control: the same extractor either way is one line
    assert describe(command, environ={}) == "command (auto: extractor_command is set)"


def test_an_update_that_leaves_the_type_says_nothing_of_it(isolated_home, project, tmp_path):
    """trial31: `memdir consolidate --dry-run --explain` printed "(type: kept; layer: project)" for an update that
    gave no type: a field left as it is is not spoken of. Control: a create in the same reply names its type."""
    from memdir.render.consolidation import consolidation

    reply = {"proposals": [
        {"action": "update", "target": "staging-api", "description": "The staging API is at staging-8.internal",
         "evidence": "Remember that the staging API…"},
        {"action": "create", "name": "deploy-day", "type": "feedback", "description": "Deploy on Tuesdays only",
         "body": "Said by the user.", "evidence": "Remember that the staging API…"}]}
    mem = open_mem(isolated_home, project, fake_command(tmp_path, f"print({json.dumps(reply)!r})"))
    mem.write("staging-api", "The staging API is at staging-7.internal", "reference", "Said by the user.")
    report = mem.consolidate(TRANSCRIPT, extractor="command", dry_run=True)
    lines = consolidation(report, explain=True).splitlines()
    assert "1. update staging-api → staging-api-candidate (layer: project): would-candidate" in lines, lines
    assert "2. create → deploy-day (type: feedback; layer: project): would-create" in lines  # control
    assert not any("kept" in line for line in lines)
    assert mem.read("staging-api", count=False).record.type == "reference"  # a dry run: nothing changed
