"""A consolidation run journals its intent before the model call and the model's answer before applying it
(left25, item 5), so a rerun after a kill knows: killed after its writes, the rerun applies the recorded
answer — no second model call (before: the model was called again, the costly step) — and a rerun of
consolidation's own supersede says unchanged (before: "refused", the target being superseded by the killed
run); killed during the model call, the rerun asks again and says why. Real local HTTP model server, the
CLI as a real subprocess killed with SIGKILL."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.consolidation.test_killed_rerun import (
    KILLED_AT_RECEIPT,
    _consolidate,
    _transcript,
)
from tests.llm_server import ChatServer

pytestmark = pytest.mark.slow  # real processes


def _reply(*proposals: dict) -> str:
    return json.dumps({"proposals": list(proposals)})


def _killed_at_receipt(path, project):
    killed = subprocess.run([sys.executable, "-c", KILLED_AT_RECEIPT, "consolidate", str(path), "--extractor", "llm",
                             "--project", str(project)], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr


@pytest.fixture
def server(monkeypatch):
    with ChatServer() as chat:
        monkeypatch.setenv("MEMDIR_LLM_BASE_URL", chat.url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
        yield chat


def test_a_rerun_after_a_kill_after_the_reply_calls_no_model_and_an_own_supersede_is_unchanged(
        tmp_path, isolated_home, project, server):
    server.replies.append(_reply({"action": "create", "name": "deploy-day", "description": "deploys go out on Tuesday",
                                  "evidence": "deploys go out on Tuesday"}))
    first = _consolidate(_transcript(tmp_path / "a.jsonl", project, "Remember: deploys go out on Tuesday."), project)
    assert [(o["result"], o["name"]) for o in first["outcomes"]] == [("created", "deploy-day")]
    supersede = {"action": "supersede", "target": "deploy-day", "name": "deploy-day-v2",
                 "description": "deploys go out on Thursday", "evidence": "deploys moved to Thursday"}
    server.replies += [_reply(supersede)] * 2  # the second is there for the model call the rerun must not make
    path = _transcript(tmp_path / "b.jsonl", project, "Remember that deploys moved to Thursday.")
    _killed_at_receipt(path, project)
    assert len(server.requests) == 2
    person = Memory.open(home=isolated_home, project=project, actor="human")
    assert person.read("deploy-day-v2").record.description == "deploys go out on Thursday"  # written before the kill

    again = _consolidate(path, project)
    assert len(server.requests) == 2  # before: 3, the model called again for the same transcript
    assert [(o["result"], o["name"], o["detail"]) for o in again["outcomes"]] == [
        ("unchanged", "deploy-day-v2", "already superseded: 'deploy-day-v2' holds this change")]  # before: "refused"
    assert again["applied"] == 0 and again["status"] == "noop"
    assert again["notes"][0].startswith("the answer a run of this transcript recorded before it was cut (journal seq ")
    assert "consolidated before; nothing done" in run_cli("consolidate", path, "--extractor", "llm", "--project",
                                                           project).stdout
    # control: --force asks the model again, whatever was recorded
    forced = run_cli("consolidate", path, "--json", "--force", "--extractor", "llm", "--project", project)
    assert forced.returncode == 0, forced.stderr
    assert len(server.requests) == 3


def test_a_rerun_after_a_kill_during_the_model_call_asks_again_and_says_so(tmp_path, isolated_home, project, server):
    create = {"action": "create", "name": "deploy-day", "description": "deploys go out on Tuesday",
              "evidence": "deploys go out on Tuesday"}
    server.replies += [{"content": _reply(create), "sleep": 20}, _reply(create)]
    path = _transcript(tmp_path / "a.jsonl", project, "Remember: deploys go out on Tuesday.")
    running = subprocess.Popen([sys.executable, "-m", "memdir.cli", "consolidate", str(path), "--extractor", "llm",
                                "--project", str(project)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            if server.requests:
                break
            time.sleep(0.1)
        assert len(server.requests) == 1  # in the model call
    finally:
        running.send_signal(signal.SIGKILL)
        running.wait(timeout=60)
    person = Memory.open(home=isolated_home, project=project, actor="human")
    assert person.list().memories == ()  # nothing applied
    again = _consolidate(path, project)
    assert len(server.requests) == 2  # asked again: no answer had been kept
    assert [(o["result"], o["name"]) for o in again["outcomes"]] == [("created", "deploy-day")]
    assert again["notes"][0].startswith("a run of this transcript was cut during its extractor call (journal seq ")
