"""The coding-session consolidation eval (evals/consolidation): its rows for rules, llm and command."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA, REPO
from tests.llm_server import ChatServer

RUN = REPO / "evals" / "consolidation" / "run.py"


def load_eval():
    spec = importlib.util.spec_from_file_location("consolidation_eval", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pick(ev, *ids):
    sessions = {s["id"]: s for s in ev.load_sessions()}
    return [sessions[i] for i in ids]


def test_the_sessions_cover_what_the_issue_lists():
    sessions = load_eval().load_sessions()
    assert len(sessions) >= 30 and len({s["id"] for s in sessions}) == len(sessions)
    assert {s["file"] for s in sessions if "file" in s} == {"claude-code-charslit.jsonl",
                                                            "claude-code-deepseek-ocr.jsonl"}
    assert sum(bool(s.get("secrets")) for s in sessions) >= 3 and any(s.get("forgotten") for s in sessions)
    assert sum(any(g.get("target") for g in s["gold"]) for s in sessions) >= 3
    assert any(s.get("other") for s in sessions) and sum(not s["gold"] for s in sessions) >= 5


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "transcripts").is_dir(), reason="../shared/data/transcripts is absent")
def test_the_rules_row_meets_the_targets():
    done = subprocess.run([sys.executable, str(RUN), "--extractor", "rules"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert row["eval"] == "consolidation" and row["extractor"] == "rules" and row["sessions"] >= 30
    assert row["skipped"] == 0 and row["failed"] == 0
    assert row["precision"] >= 0.85 and row["recall"] >= 0.6  # the issue's target
    # measured (the rules are deterministic): 1.0 / 1.0 since the casual recurring fact and the bare "yes, do
    # that" to a proposed standing rule are kept (before: 1.0 / 0.9394, both missed)
    assert row["precision"] == 1.0 and row["recall"] == 1.0 and row["pollution"] == 0
    assert row["secrets"] == 0 and row["secret_files"] == 0 and row["resurrections"] == 0
    assert row["duplicates"] == 0


@pytest.mark.slow
def test_the_llm_row_against_a_scripted_endpoint(monkeypatch):
    ev = load_eval()
    sessions = pick(ev, "remember-staging", "secret-key", "update-db-port")
    staging = {"action": "create", "name": "staging-server", "type": "project",
               "description": "The staging server is staging-7.internal", "body": "Deploys go over the VPN."}
    key_note = {"action": "create", "name": "sandbox-key", "type": "project",
                "description": "The sandbox OpenAI key is kept by the user", "body": "See the vault."}
    model = {"action": "create", "name": "sandbox-model", "type": "project",
             "description": "The sandbox uses gpt-4o-mini", "body": ""}
    # an update was due; the scripted model creates a near-duplicate instead
    port = {"action": "create", "name": "dev-pg-port", "type": "project",
            "description": "Dev PostgreSQL now listens on 5435", "body": ""}
    with ChatServer() as server:
        server.replies = [json.dumps({"proposals": [staging]}), json.dumps({"proposals": [key_note, model]}),
                          "Here you go:\n" + json.dumps([port])]
        monkeypatch.setenv("MEMDIR_LLM_BASE_URL", server.url)
        monkeypatch.setenv("MEMDIR_LLM_MODEL", "scripted-model")
        row = ev.evaluate("llm", sessions)
        prompts = [server.prompt(i) for i in range(3)]
    assert (row["extractor"], row["model"], row["sessions"], row["gold"], row["written"]) == (
        "llm", "scripted-model", 3, 3, 4)
    assert (row["correct"], row["precision"], row["recall"]) == (2, 0.5, 0.6667)
    assert (row["pollution"], row["duplicates"], row["secrets"], row["resurrections"]) == (2, 1, 0, 0)
    assert "staging-7.internal" in prompts[0] and "Zx81Qw72" not in prompts[1] and "[REDACTED:" in prompts[1]


FAKE = """
import json, re, sys
prompt = sys.stdin.read()
said = re.findall(r"^USER(?: \\[[0-9-]+\\])?: Remember that (.+)$", prompt, re.M)
print("Proposals below.")
print(json.dumps({"proposals": [{"action": "create", "name": f"fact-{n}", "type": "project",
                                 "description": text[:150], "body": text} for n, text in enumerate(said)]}))
"""


def test_the_command_row_against_a_scripted_command(monkeypatch, tmp_path):
    ev = load_eval()
    script = tmp_path / "fake_model.py"
    script.write_text(FAKE, encoding="utf-8")
    monkeypatch.setenv("MEMDIR_EXTRACTOR_COMMAND", f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}")
    row = ev.evaluate("command", pick(ev, "remember-staging", "forgotten-earlier", "task-only-chatter"),
                      details=True)
    detail = {r["id"]: r for r in row["sessions_detail"]}
    # "deploys happen on Fridays" was forgotten: the command proposes it again and the tombstone refuses it
    assert [m["name"] for m in detail["forgotten-earlier"]["memories"]] == ["fact-1"]
    assert (row["written"], row["correct"], row["precision"], row["recall"]) == (2, 2, 1.0, 1.0)
    assert (row["resurrections"], row["pollution"], row["failed"]) == (0, 0, 0)
    assert detail["task-only-chatter"]["status"] == "gated"  # the gate spared the command a call


def _measured(*flags, env=None) -> str:
    code = (f"import importlib.util, sys; spec = importlib.util.spec_from_file_location('ev', {str(RUN)!r}); "
            "ev = importlib.util.module_from_spec(spec); spec.loader.exec_module(ev); print(ev.memdir_source())")
    done = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                          cwd="/", check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_eval_measures_the_installed_memdir_not_a_path_it_puts_first(tmp_path):
    import memdir

    # this Python's memdir (the checkout's editable install when the tests run from one)
    assert _measured() == str(Path(memdir.__file__).resolve().parent)
    # another memdir first on this Python's path is the one measured: the eval no longer shadows it
    (tmp_path / "memdir").mkdir()
    (tmp_path / "memdir" / "__init__.py").write_text("")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    assert _measured(env=env) == str((tmp_path / "memdir").resolve())
    # no memdir installed at all (-S: no site-packages): this checkout's src, put last on the path
    assert _measured("-S") == str((REPO / "src" / "memdir").resolve())
