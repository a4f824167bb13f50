"""``status`` and ``doctor`` say what is really in the block, per layer (issue 28 item 4, audit): the block
``memdir context`` prints and the SessionStart hook injects is one text (:mod:`memdir.prompt.start`), and the
figures status gives are counted in that text — below the 8,000-byte cap a hook injects in full and above it.
Before (the audit's store): ``memdir context`` printed 39 user lines where status said 36 (the hook leaves room
for its tools note), and at ``context_max_bytes`` 9000 8,940 bytes where status said 7,964 (the hook's 8,000
cap). Real subprocesses, real files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import run_cli

TITLES = {"## User memories": "user", "## Team memories (shared in the repository)": "team",
          "## Project memories": "project"}


def _per_layer(block: str) -> dict[str, int]:
    """Index lines of each section of a printed block, counted in its text."""
    counts, scope = {}, None
    for line in block.splitlines():
        if line.startswith("## "):
            scope = TITLES.get(line)
            if scope:
                counts[scope] = 0
        elif scope and re.match(r"- \[[^\]]+\]\([a-z0-9-]+\.md\)", line):
            counts[scope] += 1
    return counts


def _hook(project, env) -> str:
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "source": "startup",
                          "hook_event_name": "SessionStart"})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload,
                          capture_output=True, text=True, timeout=60, cwd=project, env=dict(os.environ, **env))
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.slow
def test_status_and_doctor_count_the_block_memdir_context_prints_and_the_hook_injects(isolated_home, project, claude_installed):
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False, actor="human")
    for i in range(120):  # the audit's store (k4): 120 user memories, 5 project ones
        mem.write(f"user-{i}", f"user note {i} about widget config", "user", f"user body {i}")
    for i in range(5):
        mem.write(f"proj-{i}", f"proj note {i} about widget config", "project", f"proj body {i}")
    seen = {}
    for setting, budget in ((4096, 4096), (9000, 8000)):  # below the cap, and above it (capped)
        env = {"MEMDIR_CONTEXT_MAX_BYTES": str(setting), "MEMDIR_SEARCH_VECTORS": "off"}
        printed = run_cli("context", env=env, cwd=project)
        assert printed.returncode == 0 and printed.stderr == ""
        block = printed.stdout.removesuffix("\n")
        assert block == _hook(project, env)  # one text: the CLI prints what the hook injects
        counts = _per_layer(block)
        status = json.loads(run_cli("--json", "status", env=env, cwd=project).stdout)
        in_context = {layer["scope"]: layer["in_context"] for layer in status["layers"]}
        assert in_context == counts  # per layer, as counted in the printed text
        assert (status["context_bytes"], status["context_budget"]) == (len(block.encode()), budget)
        assert len(block.encode()) <= budget and counts["project"] == 5
        left = 120 - counts["user"]
        assert f"…({left} index lines left out: user {left} — call memory_list" in block  # the block's own marker
        doctor = run_cli("doctor", env=env, cwd=project).stdout
        assert (f"context: {len(block.encode())} of {budget} bytes — user {counts['user']} of 120, project 5 of 5 "
                f"in the context block; left out of the block: user {left} memories (`memdir context` shows what "
                "it holds)\n") in doctor
        seen[setting] = (counts["user"], len(block.encode()))
        # control: the API's block for a harness of one's own has no tools note to leave room for (and no cap
        # but the setting's): more user lines than the session start's, which status does not claim
        harness = mem.context(setting)
        assert _per_layer(harness)["user"] > counts["user"] and len(harness.encode()) <= setting
    assert seen == {4096: (36, 4028), 9000: (101, 7975)}  # more budget, more lines; capped at 8000 above it
    above = run_cli("doctor", env={"MEMDIR_CONTEXT_MAX_BYTES": "9000"}, cwd=project).stdout
    assert ("note: context_max_bytes 9000 is above the 8000 characters Claude Code shows in full; a session start "
            "(the hooks, `memdir context`) injects at most 8000 bytes\n") in above
    assert "context_max_bytes 4096 is above" not in run_cli("doctor", cwd=project).stdout  # control: below the cap


@pytest.mark.slow
def test_an_explicit_budget_is_the_same_rule(isolated_home, project):
    """``memdir context --max-bytes N`` is capped as the hook's budget is, and ``--json`` names the budget used."""
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False, actor="human")
    for i in range(150):
        mem.write(f"fact-{i}", f"project fact {i} about the build pipeline and its many stages", "project", "b")
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    above = json.loads(run_cli("--json", "context", "--max-bytes", "9500", env=env, cwd=project).stdout)
    at_cap = json.loads(run_cli("--json", "context", "--max-bytes", "8000", env=env, cwd=project).stdout)
    assert above == at_cap and above["budget"] == 8000 and above["bytes"] <= 8000
    below = json.loads(run_cli("--json", "context", "--max-bytes", "3000", env=env, cwd=project).stdout)
    assert below["budget"] == 3000 and below["bytes"] <= 3000  # control: a budget under the cap is kept
    assert _per_layer(below["context"])["project"] < _per_layer(above["context"])["project"]
