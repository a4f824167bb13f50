"""A headless run of the real Gemini CLI (`gemini -p`) against a scripted local Gemini API
(streamGenerateContent), after `memdir install gemini` in a temp HOME: SessionStart's context block
and BeforeAgent's recall block reach the model, and SessionEnd queues the chat file Gemini wrote.

Gemini CLI hands a hook's additionalContext to the model inside ``<hook_context>``, with ``<`` and
``>`` escaped: the model reads ``&lt;memory_context&gt;``."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.gemini_server import GeminiServer, request_text
from tests.integrations.clients.realclients import binary, client_env

MODEL = "gemini-2.5-flash"  # a fixed model: Gemini's "auto" routing asks a classifier model first


@pytest.mark.slow
def test_a_gemini_headless_run_gets_context_and_recall_and_queues_its_chat(tmp_path, isolated_home, project):
    exe = binary("gemini")
    user_home = tmp_path / "userhome"
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    assert run_cli("install", "gemini", env={"HOME": str(user_home)}).returncode == 0
    assert json.loads(settings.read_text())["security"] == {"auth": {"selectedType": "gemini-api-key"}}  # kept
    with GeminiServer(lambda body: "It listens on 5433.") as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project))
        done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "-m", MODEL],
                              capture_output=True, text=True, env=env, cwd=project, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip() == "It listens on 5433."
        main = [body for path, body in server.requests if f"models/{MODEL}:streamGenerateContent" in path]
    assert len(main) == 1, [path for path, _ in server.requests]
    sent = request_text(main[0])
    assert "<hook_context>&lt;memory_context&gt;" in sent and "db-port" in sent  # SessionStart's context block
    assert "&lt;memory_recall&gt;" in sent and "Moved on 2026-11-02." in sent  # BeforeAgent's recall block

    chats = list((user_home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))
    assert len(chats) == 1
    log = isolated_home / "logs" / "consolidate.log"
    deadline = time.time() + 20
    while time.time() < deadline and not (log.exists() and f"event=SessionEnd {chats[0]}" in log.read_text()):
        time.sleep(0.2)
    assert f"event=SessionEnd {chats[0]}" in log.read_text()  # SessionEnd queued the chat Gemini wrote
