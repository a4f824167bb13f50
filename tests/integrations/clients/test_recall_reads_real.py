"""The real Gemini CLI 0.61 and Claude Code (headless, scripted APIs): a body its BeforeAgent hook's recall block gave the
model counts as a read once the session ends (its SessionEnd hook: issue 28 leftovers); a memory recall did not
give is not counted."""

from __future__ import annotations

import subprocess

import pytest

from memdir import Memory
from memdir.layer.journal import now_utc
from tests.gemini_server import GeminiServer, request_text
from tests.integrations.clients.realclients import binary, client_env
from tests.integrations.clients.test_gemini_session import MODEL, _installed


@pytest.mark.slow
def test_a_body_recall_gave_in_a_gemini_session_is_read_once_it_ends(tmp_path, isolated_home, project):
    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)  # db-port: "Moved on 2026-11-02."
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    layer = person.session.layer("project")
    assert dict(layer.usage.counts()) == {}
    with GeminiServer(lambda body: "It listens on 5433.") as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "-m", MODEL], capture_output=True,
                              text=True, env=env, cwd=project, timeout=180, stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        main = [body for path, body in server.requests if f"models/{MODEL}:streamGenerateContent" in path]
    sent = request_text(main[0])
    assert "Moved on 2026-11-02." in sent and "The linter enforces tabs" not in sent  # recall gave db-port's body
    counts = dict(layer.usage.counts())
    assert counts["db-port"][0] == 1 and counts["db-port"][1].date() == now_utc().date()
    assert "style" not in counts  # control: recall did not give it


@pytest.mark.slow
def test_a_body_recall_gave_in_a_claude_code_session_is_read_once_it_ends(tmp_path, isolated_home, project):
    """The same with the real Claude Code (`claude -p`, scripted Messages API): its SessionEnd hook counts it."""
    from tests.conftest import run_cli
    from tests.messages_server import MessagesServer, text_of

    exe = binary("claude")
    user_home = tmp_path / "userhome"
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    person.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    assert run_cli("install", "claude-code", env={"HOME": str(user_home)}).returncode == 0
    layer = person.session.layer("project")
    with MessagesServer(lambda body: "ok") as server:
        env = client_env(user_home, isolated_home, ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="dummy",
                         DISABLE_AUTOUPDATER="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                         MEMDIR_SEARCH_VECTORS="off")
        done = subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "--output-format", "json"],
                              capture_output=True, text=True, env=env, cwd=project, timeout=180,
                              stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        first = text_of(next(b for b in server.requests if b.get("tools")))
    assert "Moved on 2026-11-02." in first and "The linter enforces tabs" not in first
    counts = dict(layer.usage.counts())
    assert counts["db-port"][0] == 1 and "style" not in counts
