"""`memdir consolidate` killed (SIGKILL) after its writes but before its receipt: the rerun of the same
transcript finds the change already made and says so — no change counted twice — while a rerun whose
transcript gained new lines proposes what they say (the control). The model is a real local HTTP
server (tests/llm_server.py); the CLI runs as a real subprocess that kills itself at the receipt."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.llm_server import ChatServer

pytestmark = pytest.mark.slow  # real processes

# The CLI, killed at the one point between the run's writes and its receipt (the journal line that says
# this transcript is done): SIGKILL, so nothing after it runs.
KILLED_AT_RECEIPT = textwrap.dedent("""
    import os, signal, sys
    import memdir.consolidation.consolidate as consolidate
    consolidate.receipt = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
    from memdir.integrations.cli.main import main
    sys.exit(main(sys.argv[1:]))
""")


def _update(description: str) -> str:
    return json.dumps({"proposals": [{"action": "update", "target": "deploy-day", "description": description,
                                      "evidence": description}]})


def _transcript(path: Path, cwd: Path, *said: str) -> Path:
    lines = []
    for i, text in enumerate(said):
        lines.append({"type": "user", "timestamp": f"2026-11-25T09:0{i}:00Z", "sessionId": "s1", "cwd": str(cwd),
                      "message": {"role": "user", "content": text}})
        lines.append({"type": "assistant", "timestamp": f"2026-11-25T09:0{i}:02Z", "sessionId": "s1",
                      "cwd": str(cwd), "message": {"id": f"m{i}", "role": "assistant",
                                                   "content": [{"type": "text", "text": "Noted."}]}})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def _consolidate(path, project) -> dict:
    done = run_cli("consolidate", path, "--json", "--extractor", "llm", "--project", project)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_rerun_after_a_kill_between_write_and_receipt_counts_no_change_twice(
        tmp_path, isolated_home, project, monkeypatch):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("deploy-day", "deploys go out on Tuesday", "project")
    with ChatServer() as server:
        monkeypatch.setenv("MEMDIR_LLM_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
        server.replies.append(_update("deploys go out on Thursday"))  # one: the rerun asks no model (left25)
        said = "Remember that deploys moved to Thursday."
        path = _transcript(tmp_path / "t.jsonl", project, said)
        killed = subprocess.run([sys.executable, "-c", KILLED_AT_RECEIPT, "consolidate", str(path), "--extractor",
                                 "llm", "--project", str(project)], capture_output=True, text=True, timeout=120)
        assert killed.returncode == -9, killed.stderr  # SIGKILL at the receipt
        waiting = [c.name for c in person.review().candidates]
        assert waiting == ["deploy-day-candidate"]  # the write was made before the kill

        again = _consolidate(path, project)
        assert len(server.requests) == 1  # the killed run's answer, journaled before it applied it, applied again
        assert again["applied"] == 0 and again["status"] == "noop"  # before: 1, "ok" — the same change counted again
        assert [(o["result"], o["name"]) for o in again["outcomes"]] == [("unchanged", "deploy-day-candidate")]
        assert "already proposed" in again["outcomes"][0]["detail"]
        history = run_cli("history", "deploy-day-candidate", "--project", project)
        assert history.stdout.count("extracted  create") == 1 and " update " not in history.stdout
        third = run_cli("consolidate", path, "--extractor", "llm", "--project", project)
        assert "consolidated before; nothing done" in third.stdout  # the rerun's receipt closes it

        # control: the transcript goes on; what its new lines say is proposed (the same candidate, changed)
        server.replies.append(_update("deploys go out on Friday"))
        longer = _transcript(tmp_path / "t.jsonl", project, said, "Remember: no — deploys go out on Friday now.")
        grown = _consolidate(longer, project)
        assert grown["applied"] == 1 and grown["status"] == "ok"
        assert [(o["result"], o["name"]) for o in grown["outcomes"]] == [("candidate", "deploy-day-candidate")]
    assert person.read("deploy-day-candidate").record.description == "deploys go out on Friday"
    assert person.read("deploy-day").record.description == "deploys go out on Tuesday"  # waits for review
