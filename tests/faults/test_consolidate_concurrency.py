"""The layer lock is never held across the model call; changed targets are skipped, not overwritten."""

from __future__ import annotations

import json
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.llm_server import ChatServer

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)


def test_other_process_writes_during_the_model_call_and_both_changes_survive(isolated_home, project, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with ChatServer() as server:
        mem = Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                          llm_timeout=30, consolidation_extractor="llm")
        mem.as_actor("agent").write("deploy-target", "Deploys go to fly.io", "project", "Use fly deploy.")
        other: dict = {}

        def second_process():
            # A short lock timeout: if consolidation held the lock now, these would fail.
            env = {"MEMDIR_LOCK_TIMEOUT": "1"}
            started = time.monotonic()
            other["write"] = run_cli("write", "release-train", "-d", "Release train leaves on Thursdays",
                                     "-t", "project", "--body", "Cut at noon UTC.", "--project", project, env=env)
            other["pin"] = run_cli("pin", "deploy-target", "--project", project, env=env)
            other["seconds"] = time.monotonic() - started

        server.replies.append({"before": second_process, "sleep": 3, "content": json.dumps({"proposals": [
            {"action": "update", "target": "deploy-target", "type": "project",
             "description": "Deploys go to Render", "body": "Moved off fly.io."},
            {"action": "create", "name": "release-train", "type": "project",
             "description": "Release train leaves on Fridays"},
            {"action": "create", "name": "staging-region", "type": "project",
             "description": "Staging runs in eu-west-1"},
        ]})})
        started = time.monotonic()
        report = mem.consolidate([{"role": "user", "content": "Remember: we deploy to Render now."}])
        assert time.monotonic() - started >= 3

    assert other["write"].returncode == 0, other["write"].stderr
    assert other["pin"].returncode == 0, other["pin"].stderr
    assert [(o.result, o.name or o.target) for o in report.outcomes] == [
        ("skipped-changed", "deploy-target"), ("skipped-changed", "release-train"), ("created", "staging-region")]
    assert report.status == "partial"
    everything = {m.name: m for m in mem.list(include_all=True).memories}
    assert everything["deploy-target"].pinned and everything["deploy-target"].description == "Deploys go to fly.io"
    assert everything["release-train"].description == "Release train leaves on Thursdays"
    assert everything["release-train"].origin == "human"
    assert everything["staging-region"].origin == "extracted"
    assert not any(m.status == "candidate" for m in everything.values())
