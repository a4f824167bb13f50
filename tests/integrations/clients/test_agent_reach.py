"""A client that memdir is registered with but that does not run memdir's server in a project leaves its agent
without the memories `memdir list` shows there (trial25: a new user's clone). Gemini CLI 0.61 runs no MCP server
in a folder the person has not trusted and a headless `gemini -p` exits 55 there (measured again, trial25), but
`memdir doctor` said "ok"; `memdir list` said nothing of that, nor of a project's `.mcp.json` server that waits
for Claude Code's approval, nor of a `.codex/` Codex does not read in an untrusted project. Now doctor says each
with its fix (as it did for Claude Code's approval), and list says it once, briefly, and as `agent_cannot_see`
in --json (present only then); with the folder trusted or the server approved they say nothing (the controls)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.clients.realclients import binary, client_env

SEES_NOT = "cannot reach the memories here with memdir's tools"


def _home_env(user_home) -> dict:
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for project files
    return {"HOME": str(user_home), "PATH": path}


ASKS = "reaches the memories here in a headless session; an interactive session asks the person first"


def _seen(project, user_home) -> tuple[str, list[str], list[str]]:
    """``(list's text, list --json's agent_cannot_see, doctor's warnings naming a client)`` in ``project``; doctor's
    state is ``warning`` exactly when it warns (exit 0 either way)."""
    text = run_cli("--project", project, "list", env=_home_env(user_home))
    assert text.returncode == 0, text.stderr
    listed = run_cli("--project", project, "list", "--json", env=_home_env(user_home))
    doctor = run_cli("--project", project, "doctor", "--json", env=_home_env(user_home))
    assert doctor.returncode == 0, doctor.stdout
    report = json.loads(doctor.stdout)
    notes = [n for n in report["warnings"] if n.startswith(("gemini:", "codex: Codex reads", "claude-code:"))
             and "would read another home" not in n]  # this test's home is not the default (ux49: its own test)
    assert report["state"] == ("warning" if report["warnings"] else "ok") and report["ok"] is True
    data = json.loads(listed.stdout)
    assert ("agent_cannot_see" in data) == bool(data.get("agent_cannot_see"))  # the field only when it says something
    return text.stdout, data.get("agent_cannot_see", []), notes


def _asks(project, user_home) -> tuple[list[str], list[str]]:
    """``(list --json's agent_asks_approval, doctor's notes of a server Claude Code asks to approve)``."""
    listed = json.loads(run_cli("--project", project, "list", "--json", env=_home_env(user_home)).stdout)
    doctor = json.loads(run_cli("--project", project, "doctor", "--json", env=_home_env(user_home)).stdout)
    assert ("agent_asks_approval" in listed) == bool(listed.get("agent_asks_approval"))
    return (listed.get("agent_asks_approval", []),
            [n for n in doctor["notes"] if n.startswith("claude-code: Claude Code asks")])


@pytest.fixture
def stored(isolated_home, project):
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write(
        "db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02.")
    return project


def test_gemini_folder_trust_is_said_by_doctor_and_list_until_the_folder_is_trusted(tmp_path, stored):
    project, user_home = stored, tmp_path / "userhome"
    assert run_cli("install", "gemini", env=_home_env(user_home)).returncode == 0
    text, blind, notes = _seen(project, user_home)
    rules = user_home / ".gemini" / "trustedFolders.json"
    assert blind == notes and len(notes) == 1
    assert notes[0] == (f"gemini: Gemini CLI does not trust {project}, so it runs no MCP server there, memdir's too "
                        f"(a headless `gemini -p` exits 55): trust the folder when `gemini` asks, or add "
                        f'"{project}": "TRUST_FOLDER" to {rules} (automation: GEMINI_CLI_TRUST_WORKSPACE=true)')
    assert text.count(SEES_NOT) == 1 and "the agent in gemini cannot reach" in text.splitlines()[-1]
    assert "db-port" in text.splitlines()[0]  # the listing itself comes first, unchanged
    for trust, seen in (({str(project.parent): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"}, False),  # longest wins
                        ({str(project / "anything"): "TRUST_PARENT"}, True),  # a rule naming the parent
                        ({str(project.parent): "TRUST_FOLDER"}, True)):
        rules.write_text(json.dumps(trust))
        text, blind, notes = _seen(project, user_home)
        assert (blind, notes, SEES_NOT in text) == (([], [], False) if seen else (notes, notes, True)), trust
        assert "db-port" in text


def test_codex_project_entry_in_an_untrusted_project_and_claude_code_approval_are_said_by_list(tmp_path, stored):
    """newuser46: right after a project-scope Claude Code install and a `claude -p` that wrote memories through
    memdir's server, `list` said the agent in claude-code "cannot reach the memories here". Claude Code runs a
    `.mcp.json` server it waits to have approved in a headless session and asks first in an interactive one: list
    says that (and `agent_asks_approval`), doctor keeps it a note; the Codex `.codex/` of an untrusted project is
    what cannot be reached (a doctor warning). Control: approved and trusted, nothing is said."""
    project, user_home = stored, tmp_path / "userhome"
    (user_home / ".claude").mkdir(parents=True)
    for client in ("codex", "claude-code"):
        done = run_cli("--project", project, "install", client, "--scope", "project", env=_home_env(user_home))
        assert done.returncode == 0, done.stderr
    text, blind, notes = _seen(project, user_home)
    assert [line.split(":")[0] for line in blind] == ["codex"] and blind == notes
    assert f'add [projects."{project}"] trust_level = "trusted" to {user_home / ".codex" / "config.toml"}' in blind[0]
    asks, asked = _asks(project, user_home)
    assert asks == asked and len(asks) == 1 and "asks each person to approve memdir's server" in asks[0]
    assert text.splitlines()[-1] == (
        "note: the agent in codex cannot reach the memories here with memdir's tools (its client does not run "
        "memdir's server in this project; `memdir doctor` says why and how to fix it); the agent in claude-code "
        "reaches the memories here in a headless session; an interactive session asks the person first to approve "
        "memdir's server in this project (approve it then, or ahead: `memdir doctor` says how)")
    assert "the agent in claude-code cannot reach" not in text and "db-port" in text  # the newuser46 line, and control
    (user_home / ".claude" / "settings.json").write_text('{"enabledMcpjsonServers": ["memdir"]}')
    (user_home / ".codex").mkdir()
    (user_home / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    text, blind, notes = _seen(project, user_home)
    assert (blind, notes, SEES_NOT in text, ASKS in text, "db-port" in text) == ([], [], False, False, True)
    assert _asks(project, user_home) == ([], [])  # control


def test_a_memdir_server_in_claude_codes_user_or_local_scope_reaches_memdir_whatever_the_mcp_json_one_waits_on(
        tmp_path, stored):
    """trial31: installed for Claude Code in both scopes, `list` said the agent in claude-code "cannot reach the
    memories here" and doctor named the `.mcp.json` server waiting for approval, while the user-scope server
    connected (`claude mcp list`: Connected) and the agent's calls worked: either server reaches memdir. Control:
    the project scope alone says it waits for approval (reached headless: newuser46); so does the project scope beside
    a user scope holding another server."""
    project, user_home = stored, tmp_path / "userhome"
    (user_home / ".claude").mkdir(parents=True)
    done = run_cli("--project", project, "install", "claude-code", "--scope", "project", env=_home_env(user_home))
    assert done.returncode == 0, done.stderr
    text, blind, notes = _seen(project, user_home)
    assert (blind, notes, SEES_NOT in text, ASKS in text) == ([], [], False, True)  # control: waits for approval
    assert [line.split(":")[0] for line in _asks(project, user_home)[0]] == ["claude-code"]
    claude_json = user_home / ".claude.json"
    claude_json.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    text, blind, notes = _seen(project, user_home)
    assert (blind, ASKS in text) == ([], True)  # another server: control
    claude_json.unlink()
    done = run_cli("--project", project, "install", "claude-code", "--scope", "user", env=_home_env(user_home))
    assert done.returncode == 0, done.stderr
    assert "memdir" in json.loads(claude_json.read_text())["mcpServers"]
    text, blind, notes = _seen(project, user_home)
    assert (blind, notes, SEES_NOT in text, ASKS in text, "db-port" in text) == ([], [], False, False, True)
    (user_home / ".claude" / "settings.json").write_text('{"disabledMcpjsonServers": ["memdir"]}')
    text, blind, notes = _seen(project, user_home)
    assert (blind, SEES_NOT in text, ASKS in text) == ([], False, False)  # the user-scope server runs, the project's off
    local = json.loads(claude_json.read_text())
    local["projects"] = {str(project): {"mcpServers": local.pop("mcpServers")}}  # `claude mcp add -s local`
    claude_json.write_text(json.dumps(local))
    text, blind, notes = _seen(project, user_home)
    assert (blind, SEES_NOT in text, "db-port" in text) == ([], False, True)


def test_an_empty_project_in_an_untrusted_folder_is_said_without_pointing_at_memories_it_lacks(tmp_path, project):
    """trial29: `memdir list` in a new project said "No memories yet." and then that the agent in gemini "cannot reach
    these memories"; the note now speaks of the memories here (those the person is about to save). Control: the
    same note under a listing."""
    user_home = tmp_path / "userhome"
    assert run_cli("install", "gemini", env=_home_env(user_home)).returncode == 0
    text, blind, _ = _seen(project, user_home)
    assert text.splitlines() == ["No memories yet.", "note: the agent in gemini cannot reach the memories here with "
                                 "memdir's tools (its client does not run memdir's server in this project; `memdir "
                                 "doctor` says why and how to fix it)"]
    assert [line.split(":")[0] for line in blind] == ["gemini"]


def test_nothing_registered_nothing_said(tmp_path, stored):
    """Control: no client holds memdir's server: list says nothing of agents, doctor neither."""
    text, blind, notes = _seen(stored, tmp_path / "userhome")
    assert (blind, notes, SEES_NOT in text, "db-port" in text) == ([], [], False, True)


@pytest.mark.slow
def test_the_real_gemini_runs_memdirs_server_exactly_where_doctor_says_it_does(tmp_path, isolated_home, stored):
    """The rule read against the real Gemini CLI 0.61: untrusted, `gemini mcp list` shows memdir Disabled and
    `gemini -p` exits 55 while doctor names it; after the trustedFolders.json entry doctor's note asks for,
    memdir's server is Connected and doctor says nothing."""
    exe, project, user_home = binary("gemini"), stored, tmp_path / "userhome"
    settings = user_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    assert run_cli("install", "gemini", env=_home_env(user_home)).returncode == 0
    env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", PWD=str(project),
                     GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:9")  # never reached: no request is made

    def gemini(*args):
        return subprocess.run([exe, *args], capture_output=True, text=True, env=env, cwd=project, timeout=120,
                              stdin=subprocess.DEVNULL, check=False)

    assert "memdir" in gemini("mcp", "list").stdout + gemini("mcp", "list").stderr
    listed = gemini("mcp", "list")
    assert "Disabled" in listed.stdout + listed.stderr
    assert gemini("-p", "hello", "-m", "gemini-2.5-flash").returncode == 55
    assert len(_seen(project, user_home)[2]) == 1
    (user_home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    listed = gemini("mcp", "list")
    assert "memdir" in listed.stdout + listed.stderr and "Connected" in listed.stdout + listed.stderr
    assert _seen(project, user_home)[1:] == ([], [])  # control


def test_a_team_layer_this_clone_has_not_trusted_is_said_by_list(tmp_path, isolated_home):
    """A person's `memdir list` shows the team layer's memories of an untrusted clone (to review them), which no
    agent sees: said once, and as agent_cannot_see; control: after `memdir team trust`, nothing."""
    project, user_home = tmp_path / "clone", tmp_path / "userhome"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = _home_env(user_home)
    for args in (("team", "init"), ("write", "ci", "-d", "CI runs on GitHub Actions", "-t", "project", "--scope",
                                    "team"), ("team", "untrust")):
        done = run_cli("--project", project, *args, env=env)
        assert done.returncode == 0, done.stderr
    text, blind, notes = _seen(project, user_home)
    assert "ci (type: project; layer: team)" in text.splitlines()[0]
    assert len(blind) == 1 and blind[0].startswith("team: this repository has a team memory layer (")
    assert "none of its memories reach the agent" in blind[0] and notes == []
    assert text.count("no agent sees the team layer's memories") == 1 and text.count("note:") == 1
    assert run_cli("--project", project, "team", "trust", env=env).returncode == 0
    text, blind, notes = _seen(project, user_home)
    assert (blind, "note:" in text, "ci (type: project; layer: team)" in text) == ([], False, True)  # control
