"""The agent's side of the hooks: output size under Claude Code's limits at any
setting, and UTF-8 output under any locale (issue 11, items 1 and 7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.integrations.claude_code import moments
from memdir.prompt.context import HOOK_CONTEXT_MAX_CHARS
from tests.conftest import run_cli


def _start(cwd, env=None) -> subprocess.CompletedProcess:
    payload = json.dumps({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": str(cwd),
                          "hook_event_name": "SessionStart", "source": "startup"})
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload.encode(),
                          capture_output=True, env=dict(os.environ, **(env or {})), timeout=60)


def _fill(home, project, count=120, quote=False):
    mem = Memory.open(home=home, project=project, actor="human")
    for i in range(count):
        desc = f'Fact number {i} says "use the {i}th port" with \\ and "quotes"' if quote else \
            f"Fact number {i} about the deployment of service {i} on the cluster"
        mem.write(f"fact-{i:03d}", desc, "project", "", pinned=i == 0)
    return mem


@pytest.mark.slow
def test_120_memories_at_10000_bytes_stay_under_both_limits(isolated_home, project):
    _fill(isolated_home, project)
    done = _start(project, {"MEMDIR_CONTEXT_MAX_BYTES": "10000"})
    out = done.stdout.decode("utf-8")
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    # before: 10,399 bytes of stdout, additionalContext 9,755 characters
    assert len(out) <= moments.HOOK_OUTPUT_MAX_CHARS == 10_000
    assert len(context) <= HOOK_CONTEXT_MAX_CHARS == 8_000
    assert "fact-000" in context and "index lines left out" in context  # control: the index is there, cut


@pytest.mark.slow
def test_json_escapes_count_against_the_budget(isolated_home, project):
    _fill(isolated_home, project, 200, quote=True)
    for budget in ("4096", "8000", "10000"):
        out = _start(project, {"MEMDIR_CONTEXT_MAX_BYTES": budget}).stdout.decode("utf-8")
        context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
        assert len(out) <= 10_000 and len(context) <= 8_000 and len(context.encode()) <= int(budget)
        assert '\\"quotes\\"' in out  # control: the escapes that make the JSON longer are there


def test_hook_output_budgets_every_block_it_is_given():
    calls = []

    def render(budget):
        calls.append(budget)
        return ('"' * 3000 + "\n" * 3000)[:budget]  # every character doubles in JSON

    out = moments.hook_output("SessionStart", render, 10_000)
    assert len(out) + 1 <= 10_000 and calls[0] == 8_000 and len(calls) > 1
    assert moments.hook_output("SessionStart", lambda budget: "", 10_000) == ""


@pytest.mark.slow
def test_doctor_says_the_hook_clamps_a_larger_budget(isolated_home, project):
    _fill(isolated_home, project, 3)
    done = run_cli("doctor", "--project", project, env={"MEMDIR_CONTEXT_MAX_BYTES": "10000"})
    assert "context_max_bytes 10000 is above the 8000 characters Claude Code shows in full" in done.stdout
    done = run_cli("doctor", "--project", project, env={"MEMDIR_CONTEXT_MAX_BYTES": "8000"})
    assert "context: " in done.stdout and "above the 8000" not in done.stdout


@pytest.mark.slow
def test_hook_and_cli_survive_a_cp1252_or_gbk_console(isolated_home, project):
    mem = _fill(isolated_home, project, 2)  # fact-000 is pinned: the 📌 memdir adds itself
    mem.write("部署流程", "部署前先跑迁移 ✓", "project", "正文 ✓")
    for encoding in ("cp1252", "gbk"):
        env = {"PYTHONIOENCODING": encoding}
        done = _start(project, env)
        assert done.returncode == 0 and done.stderr == b""
        context = json.loads(done.stdout.decode("utf-8"))["hookSpecificOutput"]["additionalContext"]
        assert "部署前先跑迁移" in context and "fact-001" in context
        for args in (("list",), ("read", "fact-000"), ("context",), ("search", "deployment")):
            done = subprocess.run([sys.executable, "-m", "memdir.cli", *args, "--project", str(project)],
                                  capture_output=True, env=dict(os.environ, **env), timeout=60)
            assert done.returncode == 0 and b"Traceback" not in done.stderr, (encoding, args, done.stderr)
            text = done.stdout.decode(encoding)  # the console's encoding: what it cannot show is escaped
            assert "fact-00" in text
            if args == ("list",):
                assert "\\U0001f4cc" in text  # the pin, escaped rather than a crash
                assert ("部署前先跑迁移" if encoding == "gbk" else "\\u90e8\\u7f72") in text


@pytest.mark.slow
def test_the_prompt_hook_stays_under_both_limits_at_its_ceiling(isolated_home, project, person):
    for i in range(30):
        person.write(f"deploy-{i:02d}", f"Deploy step {i} of the release", "project", ('say "deploy" ' * 150).strip())
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                          "prompt": "release deploy steps"})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                          input=payload.encode(), capture_output=True, timeout=60,
                          env=dict(os.environ, MEMDIR_RECALL_MAX_BYTES="8192", MEMDIR_SEARCH_VECTORS="off"))
    out = done.stdout.decode("utf-8")
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "deploy-" in context and '\\"deploy\\"' in out  # control: recalled bodies, their quotes escaped
    assert len(out) <= 10_000 and len(context) <= 8_000


@pytest.mark.slow
def test_the_pending_block_counts_against_the_same_limits(isolated_home, project):
    from memdir.prompt import pending

    mem = _fill(isolated_home, project, 120, quote=True)
    said = [{"role": "user", "content": f'Remember that rule {i} says "{"quote " * 40}".'} for i in range(3)]
    assert mem.consolidate(said, extractor="agent").pending
    out = _start(project, {"MEMDIR_CONTEXT_MAX_BYTES": "10000"}).stdout.decode("utf-8")
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert pending.OPEN in context and "fact-000" in context  # control: both blocks are there
    assert len(out) <= 10_000 and len(context) <= 8_000
