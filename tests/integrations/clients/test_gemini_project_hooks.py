"""Gemini CLI 0.61 and a project's hooks (misc42): `memdir install gemini --scope project` said "Gemini CLI runs a
project's hooks once you trust them when it asks", and the module docstring that it "asks the person to trust a
project's hooks before it runs them". The real client asks nothing of hooks: in a folder the person trusts
(``~/.gemini/trustedFolders.json``, here; no GEMINI_CLI_TRUST_WORKSPACE) its first session warns that project-level
hooks were detected and "will be executed", runs them, and records them in ``~/.gemini/trusted_hooks.json``; the
next session runs them without a word. Where the folder is not trusted it runs none (a headless run exits 55)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.gemini_server import GeminiServer, request_text
from tests.integrations.clients.realclients import binary, client_env

WARNING = "WARNING: The following project-level hooks have been detected in this workspace:"
NOTE = ("Gemini CLI runs a project's hooks in a folder you trust without asking: its first session there warns "
        "they were detected and runs them")


@pytest.mark.slow
def test_a_trusted_folder_runs_a_project_install_s_hooks_with_a_warning_not_a_question(tmp_path, isolated_home,
                                                                                          project):
    exe = binary("gemini")
    user_home = tmp_path / "userhome"
    env = {"HOME": str(user_home), "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    gemini_dir = user_home / ".gemini"
    gemini_dir.mkdir(parents=True)
    (gemini_dir / "settings.json").write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    installed = run_cli("--project", project, "install", "gemini", "--scope", "project", env=env)
    assert installed.returncode == 0, installed.stderr
    assert NOTE in installed.stdout + installed.stderr
    assert "when it asks" not in installed.stdout + installed.stderr
    (gemini_dir / "trustedFolders.json").write_text(json.dumps({str(project.resolve()): "TRUST_FOLDER"}))
    with GeminiServer(lambda body: "It listens on 5433.") as server:
        run_env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                             PWD=str(project), MEMDIR_SEARCH_VECTORS="off", PATH=env["PATH"])

        def gemini() -> subprocess.CompletedProcess:
            return subprocess.run([exe, "-p", "Which port does the dev PostgreSQL use?", "-m", "gemini-2.5-flash"],
                                  capture_output=True, text=True, env=run_env, cwd=project, timeout=180,
                                  stdin=subprocess.DEVNULL, check=False)

        first = gemini()
        assert first.returncode == 0, first.stdout + first.stderr
        sent = [request_text(b) for p, b in server.requests if "gemini-2.5-flash:stream" in p]
        second = gemini()
        assert second.returncode == 0, second.stdout + second.stderr
        sent_next = [request_text(b) for p, b in server.requests if "gemini-2.5-flash:stream" in p][len(sent):]
    assert first.stdout.strip() == "It listens on 5433."
    assert WARNING in first.stderr and "memdir-SessionStart" in first.stderr  # warned of, not asked about
    assert "These hooks will be executed." in first.stderr
    assert len(sent) == 1 and "&lt;memory_context&gt;" in sent[0] and "Moved on 2026-11-02." in sent[0]  # they ran
    recorded = json.loads((gemini_dir / "trusted_hooks.json").read_text())
    assert list(recorded) == [str(project.resolve())] and any("memdir-SessionStart" in h for h in recorded[
        str(project.resolve())])
    assert WARNING not in second.stderr  # the next session: recorded, no warning
    assert len(sent_next) == 1 and "&lt;memory_context&gt;" in sent_next[0]  # and the hooks still run
