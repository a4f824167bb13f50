"""`memdir doctor` says when a user-scope install is not what this memdir installs (trial26: a store and install
made by a memdir of 2026-12-02, upgraded to main, got "ok" while Claude Code's and Codex's files lacked the
PostToolUse hook added since), and when the interpreter its entries run is gone (a moved or deleted virtualenv:
every hook fails; a problem, exit 1). Controls: a current install, and one made by another existing interpreter
path, say nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from memdir.integrations.clients.drift import named_interpreter
from tests.conftest import run_cli

BEHIND = "are not what this memdir installs"
GONE = "which no longer exists"


def _notes(project: Path) -> list[str]:
    done = run_cli("--project", project, "doctor", "--json")
    return json.loads(done.stdout)["notes"]


def _drop_post_tool_use(settings: Path) -> None:
    """Make ``settings`` as an older memdir wrote it: memdir's hooks without PostToolUse."""
    data = json.loads(settings.read_text())
    del data["hooks"]["PostToolUse"]
    settings.write_text(json.dumps(data, indent=2) + "\n")


def test_doctor_names_an_install_an_older_memdir_wrote_until_it_runs_again(tmp_path, isolated_home, project):
    settings = tmp_path / "userhome" / ".claude" / "settings.json"
    assert run_cli("install", "claude-code").returncode == 0
    assert not [n for n in _notes(project) if BEHIND in n or GONE in n]  # control: the install as this memdir writes

    _drop_post_tool_use(settings)
    behind = [n for n in _notes(project) if BEHIND in n]
    assert behind == [(f"claude-code: memdir's entries in {settings} are not what this memdir installs (an older "
                       "memdir wrote them, so what was added since is missing); run `memdir install claude-code "
                       "--scope user` again (`memdir install claude-code --dry-run` shows the difference)")]

    again = run_cli("install", "claude-code", "--diff")  # nu47: the diff only when asked
    assert again.returncode == 0 and "PostToolUse" in again.stdout  # the hook the older install lacked
    assert not [n for n in _notes(project) if BEHIND in n]


def _doctor(project: Path) -> tuple[int, dict, str]:
    """``memdir doctor``'s exit code, its ``--json`` document and its text."""
    done = run_cli("--project", project, "doctor", "--json")
    return done.returncode, json.loads(done.stdout), run_cli("--project", project, "doctor").stdout


@pytest.mark.parametrize("client", ["claude-code", "codex", "gemini", "cursor", "opencode"])
def test_doctor_counts_an_install_whose_interpreter_is_gone_as_a_problem(tmp_path, isolated_home, project, client):
    """Every hook of such an install fails, so its agent gets no memory: a problem (exit 1, trial27: it was a
    note under "ok", exit 0), not a note; an older install that still runs stays a note (the test above)."""
    from memdir.integrations.clients import installer

    old = tmp_path / "old-checkout" / ".venv" / "bin" / "python3"
    old.parent.mkdir(parents=True)
    old.symlink_to(sys.executable)  # the person's older virtualenv: an interpreter that runs this memdir
    plan = installer(client).install("user", isolated_home, python=str(old), home=str(isolated_home))
    files = [c.path for c in plan.changes if named_interpreter(c.after or b"") == str(old)]
    assert files, plan  # every client writes the interpreter into at least one file
    code, doc, text = _doctor(project)  # control: another path, still there
    # sound (exit 0, no problem); a Codex or Gemini install here also waits for the person's trust (nu47: a warning)
    last = "ok" if client not in ("codex", "gemini") else (f"warning: {client} will not run memdir's install here until you "
                                                 "act (trust it, turn it back on, or give it MEMDIR_HOME): each warning "
                                                 "above says how")
    assert code == 0 and doc["problems"] == [] and text.splitlines()[-1] == last
    assert not [n for n in doc["notes"] if BEHIND in n or GONE in n]

    old.unlink()  # the old checkout was deleted
    lines = [(f"{client}: memdir's entries in {path} run {old}, which no longer exists (the memdir checkout "
              "or virtualenv moved or was deleted), so each of them fails; run `memdir install "
              f"{client} --scope user` again with the memdir you use now") for path in sorted(files)]
    code, doc, text = _doctor(project)
    assert code == 1 and doc["ok"] is False
    assert doc["problems"] == [{"path": "install", "error": line} for line in lines]
    assert not [n for n in doc["notes"] if BEHIND in n or GONE in n]  # said once, as the problem
    assert all(f"\ninstall: {line}\n" in text for line in lines)
    warned = "; 1 warning above" if client in ("codex", "gemini") else ""  # the trust it waits for (nu47)
    assert text.endswith(f"\n{len(lines)} problem(s){warned}\n")
    assert run_cli("install", client).returncode == 0
    code, doc, _ = _doctor(project)
    assert code == 0 and doc["problems"] == [] and not [n for n in doc["notes"] if BEHIND in n or GONE in n]


def test_the_interpreter_is_read_from_each_spelling_of_an_entry():
    py = "/opt/venv/bin/python3"
    assert named_interpreter(f'"command": "{py} -m memdir.hooks claude-code SessionStart"'.encode()) == py
    assert named_interpreter(f'"command": "X=1 {py} -m memdir.hooks codex Stop"'.encode()) == py
    assert named_interpreter(f'{{"command": "{py}",\n "args": [\n  "-m",\n  "memdir.cli", "mcp"]}}'.encode()) == py
    assert named_interpreter(f'command = "{py}"\nargs = ["-m", "memdir.cli", "mcp"]\n'.encode()) == py
    assert named_interpreter(f'"command": ["{py}", "-m", "memdir.cli", "mcp"]'.encode()) == py
    assert named_interpreter(b'"command": "memdir hook claude-code SessionStart"') is None  # project scope: PATH
    assert named_interpreter(b'"command": "/usr/bin/python3 -m mytool.hooks"') is None  # the person's own hook


def test_a_codex_limit_changed_after_install_is_said_once_and_an_older_install_is_said(tmp_path, isolated_home,
                                                                                        project):
    """Codex's own check names a limit changed since install and asks for the install again, which rewrites every
    file: doctor says that once, not also as an older install. Control: without the limit change, an install
    lacking PostToolUse (an older memdir's) is said."""
    config = tmp_path / "userhome" / ".codex" / "config.toml"
    hooks = config.parent / "hooks.json"
    assert run_cli("install", "codex").returncode == 0
    data = json.loads(hooks.read_text())
    del data["hooks"]["PostToolUse"]
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    assert [n for n in _notes(project) if BEHIND in n] == [
        (f"codex: memdir's entries in {hooks} are not what this memdir installs (an older memdir wrote them, so "
         "what was added since is missing); run `memdir install codex --scope user` again "
         "(`memdir install codex --dry-run` shows the difference)")]

    config.write_text("tool_output_token_limit = 500\n" + config.read_text())
    notes = _notes(project)
    assert [n for n in notes if "tool_output_token_limit in" in n and "memdir install codex" in n]  # Codex's own
    assert not [n for n in notes if BEHIND in n]


@pytest.mark.parametrize("client, path", [("claude-code", ".claude/settings.json"), ("codex", ".codex/hooks.json"),
                                          ("gemini", ".gemini/settings.json")])
def test_a_persons_own_hook_beside_memdirs_in_its_group_is_no_older_install(tmp_path, isolated_home, project,
                                                                            client, path):
    """trial28: a person added their own hook into the group memdir's UserPromptSubmit (BeforeAgent) hook sits in
    (as a settings editor does); `memdir doctor` then said memdir's entries were "not what this memdir installs
    (an older memdir wrote them …)" and the install it asked for split the person's group in two and moved every
    event of the file. Now memdir's group with a person's hook beside memdir's counts as installed: the install
    changes nothing, doctor says nothing. Control: the same file without memdir's PostToolUse (AfterTool) group is
    said, and the install that mends it keeps the person's hook."""
    settings = tmp_path / "userhome" / path
    assert run_cli("install", client).returncode == 0
    data = json.loads(settings.read_text())
    prompt_event = "BeforeAgent" if client == "gemini" else "UserPromptSubmit"
    mine = {"type": "command", "command": "echo mine", "timeout": 3}
    data["hooks"][prompt_event][0]["hooks"].append(mine)
    settings.write_text(json.dumps(data, indent=2) + "\n")
    written = settings.read_bytes()

    again = run_cli("install", client)
    assert again.returncode == 0 and f"unchanged: {settings}" in again.stdout, again.stdout
    assert settings.read_bytes() == written
    assert not [n for n in _notes(project) if BEHIND in n]

    tool_event = "AfterTool" if client == "gemini" else "PostToolUse"
    del data["hooks"][tool_event]  # control: an older memdir's install, the person's hook kept beside it
    settings.write_text(json.dumps(data, indent=2) + "\n")
    assert [n for n in _notes(project) if BEHIND in n] == [
        (f"{client}: memdir's entries in {settings} are not what this memdir installs (an older memdir wrote them, "
         f"so what was added since is missing); run `memdir install {client} --scope user` again "
         f"(`memdir install {client} --dry-run` shows the difference)")]
    assert run_cli("install", client).returncode == 0
    mended = json.loads(settings.read_text())["hooks"]
    assert tool_event in mended and mine in [h for group in mended[prompt_event] for h in group["hooks"]]
    assert not [n for n in _notes(project) if BEHIND in n]
