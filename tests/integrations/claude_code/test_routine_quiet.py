"""A hook's routine skips stay off stderr (Gemini CLI shows every line a hook writes there to the person, as
"Hook system message: …"): a read shown in parts (AfterTool) and a session end with consolidation turned off
(SessionEnd) are how a session normally goes, not errors. A real error — a hook input without cwd — still
says its line, and MEMDIR_LOG_LEVEL=info brings the routine ones back. Real hook processes, as Gemini CLI runs
them (its event names and AfterTool input)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from memdir import Memory


def _gemini(event: str, payload: dict, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "gemini", event], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMDIR_CONSOLIDATION_MODE": "off", **env})


def test_gemini_hears_no_routine_skip_and_every_error(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("runbook", "How the pump is checked", "project", "\n".join(f"step {n}." for n in range(40)))
    read_in_parts = {"cwd": str(project), "session_id": "s-1", "hook_event_name": "AfterTool",
                     "tool_name": "mcp_memdir_memory_read", "tool_input": {"name": "runbook", "offset": 10},
                     "tool_response": {"llmContent": [{"text": "step 3."}], "returnDisplay": "step 3."},
                     "mcp_context": {"server_name": "memdir", "tool_name": "memory_read", "command": "python",
                                     "args": []}}
    transcript = project / "t.json"
    transcript.write_text("{}")
    end = {"cwd": str(project), "session_id": "s-1", "hook_event_name": "SessionEnd",
           "transcript_path": str(transcript), "reason": "exit"}
    routine = [("AfterTool", read_in_parts), ("SessionEnd", end)]
    quiet = [_gemini(event, payload) for event, payload in routine]
    assert [(d.returncode, d.stdout, d.stderr) for d in quiet] == [(0, "", ""), (0, "", "")]
    asked = [_gemini(event, payload, MEMDIR_LOG_LEVEL="info").stderr for event, payload in routine]
    # (the tool as translated to Claude Code's name, as every hook line names it)
    assert asked == ["memdir hook AfterTool: mcp__memdir__memory_read showed runbook in parts; recall may give it\n",
                     "memdir hook SessionEnd: consolidation is off (consolidation_mode = off)\n"]
    # control: an error is said whatever the level
    broken = _gemini("SessionEnd", {"session_id": "s-1", "hook_event_name": "SessionEnd"})
    assert (broken.returncode, broken.stdout, broken.stderr) == (0, "", "memdir hook SessionEnd: hook input has no cwd\n")
