"""`memdir install/uninstall claude-code` against a temp home holding real settings."""

from __future__ import annotations

import json
import subprocess

import pytest

from memdir import Memory
from memdir.prompt.context import TOOLS_NOTE
from tests.conftest import run_cli

EXISTING_SETTINGS = {
    "model": "claude-sonnet-5",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo other-start"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "async": True}]}],
    },
}
EXISTING_CLAUDE_JSON = {
    "numStartups": 12,
    "projects": {"/home/u/app": {"mcpServers": {"local-one": {"command": "x"}}}},
    "mcpServers": {"github": {"type": "http", "url": "https://api.example.com/mcp"}},
}


def _seed(user_home):
    (user_home / ".claude").mkdir()
    settings = user_home / ".claude" / "settings.json"
    settings.write_text(json.dumps(EXISTING_SETTINGS, indent=4) + "\n", encoding="utf-8")
    claude_json = user_home / ".claude.json"
    claude_json.write_text(json.dumps(EXISTING_CLAUDE_JSON), encoding="utf-8")  # one line, no newline
    return settings, claude_json


def _memdir_hooks(settings: dict) -> dict:
    out = {}
    for event, groups in settings["hooks"].items():
        for group in groups:
            for hook in group["hooks"]:
                if "memdir.hooks" in hook["command"]:
                    out[event] = (group.get("matcher"), hook["command"])
    return out


@pytest.mark.slow
def test_install_merges_is_idempotent_and_uninstall_restores(tmp_path, isolated_home):
    user_home = tmp_path / "userhome"
    settings, claude_json = _seed(user_home)
    before = {settings: settings.read_bytes(), claude_json: claude_json.read_bytes()}

    done = run_cli("install", "claude-code", "--diff")
    assert done.returncode == 0, done.stderr
    assert "+++ " in done.stdout and "memdir.hooks claude-code SessionStart" in done.stdout  # the diff, asked
    new_settings = json.loads(settings.read_text())
    new_claude = json.loads(claude_json.read_text())
    # everything that was there is still there
    for key in ("model", "permissions"):
        assert new_settings[key] == EXISTING_SETTINGS[key]
    assert EXISTING_SETTINGS["hooks"]["SessionStart"][0] in new_settings["hooks"]["SessionStart"]
    assert new_settings["hooks"]["Stop"] == EXISTING_SETTINGS["hooks"]["Stop"]
    assert new_claude["numStartups"] == 12 and new_claude["projects"] == EXISTING_CLAUDE_JSON["projects"]
    assert new_claude["mcpServers"]["github"] == EXISTING_CLAUDE_JSON["mcpServers"]["github"]
    # and gained exactly memdir's entries
    ours = _memdir_hooks(new_settings)
    assert sorted(ours) == ["PostToolUse", "PreCompact", "SessionEnd", "SessionStart", "UserPromptSubmit"]
    assert ours["SessionStart"][0] == "startup|resume|clear|compact"
    assert ours["PostToolUse"][0] == "mcp__memdir__memory_(read|write)"
    assert sum(len(g) for g in new_settings["hooks"].values()) == 2 + 5
    assert set(new_claude["mcpServers"]) == {"github", "memdir"}
    assert new_claude["mcpServers"]["memdir"]["args"][:3] == ["-m", "memdir.cli", "mcp"]
    assert set(new_claude) == set(EXISTING_CLAUDE_JSON)
    assert not list(user_home.rglob("*backup*"))  # backups live in the memdir home, not next to the files
    backups = sorted((isolated_home / "integrations" / "backups").iterdir())
    assert len(backups) == 2 and "updated: " in done.stdout and "created: " not in done.stdout
    backup_settings = next(p for p in backups if "settings.json" in p.name)
    assert backup_settings.read_bytes() == before[settings]

    after_first = {settings: settings.read_bytes(), claude_json: claude_json.read_bytes()}
    again = run_cli("install", "claude-code")
    assert again.returncode == 0 and "memdir is already installed" in again.stdout
    assert {p: p.read_bytes() for p in after_first} == after_first
    assert len(list((isolated_home / "integrations" / "backups").iterdir())) == 2  # nothing changed, no backup

    removed = run_cli("uninstall", "claude-code")
    assert removed.returncode == 0, removed.stderr
    assert {p: p.read_bytes() for p in before} == before  # byte-identical
    assert len(list((isolated_home / "integrations" / "backups").iterdir())) == 2  # putting back needs no backup
    assert [line for line in removed.stdout.splitlines() if line.startswith("restored")] == [
        f"restored (as it was before install): {settings}", f"restored (as it was before install): {claude_json}"]


def test_uninstall_says_it_removed_memdirs_entries_from_a_file_that_moved_on(tmp_path, isolated_home):
    # Claude Code writes ~/.claude.json itself (numStartups) after install: uninstall takes memdir's server out
    # and keeps the rest; it said "restored" (left32), which is what it does to the untouched settings.json.
    settings, claude_json = _seed(tmp_path / "userhome")
    assert run_cli("install", "claude-code").returncode == 0
    data = json.loads(claude_json.read_text())
    claude_json.write_text(json.dumps({**data, "numStartups": 13}), encoding="utf-8")
    dry = run_cli("uninstall", "claude-code", "--dry-run")
    assert [line for line in dry.stdout.splitlines() if line.startswith("would be")] == [
        f"would be restored (as it was before install): {settings}",  # control: put back as it was
        f"would be updated (memdir's entries removed, the rest kept): {claude_json}"]
    said = json.loads(run_cli("--json", "uninstall", "claude-code", "--dry-run").stdout)
    assert [(c["path"], c["restored"]) for c in said["changed"]] == [(str(settings), True), (str(claude_json), False)]
    done = run_cli("uninstall", "claude-code")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith(("restored", "updated"))]
    assert lines[0] == f"restored (as it was before install): {settings}"
    assert lines[1].startswith(f"updated (memdir's entries removed, the rest kept): {claude_json} (backup: ")
    assert json.loads(claude_json.read_text()) == {**EXISTING_CLAUDE_JSON, "numStartups": 13}


def test_an_install_names_its_files_and_prints_the_diff_only_when_asked(tmp_path):
    """newuser46: `memdir install` printed the whole diff (~70 lines) without `--dry-run`, which the README says shows
    it. An install names each file it wrote (and its backup); `--diff` adds the diff, and an uninstall alike."""
    user_home = tmp_path / "userhome"
    settings, claude_json = _seed(user_home)
    done = run_cli("install", "claude-code")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert not any(line.startswith(("+++ ", "--- ", "@@ ")) for line in lines)  # no diff
    assert [line.split(" (backup: ")[0] for line in lines if line.startswith("updated: ")] == [
        f"updated: {settings}", f"updated: {claude_json}"]  # control: each file it changed, named
    assert all(" (backup: " in line for line in lines if line.startswith("updated: "))
    assert "memdir" in json.loads(claude_json.read_text())["mcpServers"]
    done = run_cli("uninstall", "claude-code", "--diff")
    assert done.returncode == 0, done.stderr
    assert f"--- {settings} (before)" in done.stdout.splitlines() and "restored (as it was before install)" in done.stdout


def test_dry_run_writes_nothing(tmp_path):
    user_home = tmp_path / "userhome"
    settings, claude_json = _seed(user_home)
    before = settings.read_bytes(), claude_json.read_bytes()
    done = run_cli("install", "claude-code", "--dry-run")
    assert done.returncode == 0 and "dry run: nothing was written" in done.stdout
    assert "+    \"mcpServers\"" in done.stdout or '"memdir"' in done.stdout
    assert (settings.read_bytes(), claude_json.read_bytes()) == before
    assert not list(user_home.rglob("*backup*")) and not list(tmp_path.rglob("backups"))


@pytest.mark.slow
def test_invalid_json_is_left_untouched(tmp_path):
    user_home = tmp_path / "userhome"
    (user_home / ".claude").mkdir()
    settings = user_home / ".claude" / "settings.json"
    settings.write_text('{"model": "x",, }', encoding="utf-8")
    claude_json = user_home / ".claude.json"
    claude_json.write_text('{"numStartups": 1}', encoding="utf-8")
    done = run_cli("install", "claude-code")
    assert done.returncode == 1
    assert "settings.json is not valid JSON" in done.stderr and "untouched" in done.stderr
    assert settings.read_text() == '{"model": "x",, }'
    assert claude_json.read_text() == '{"numStartups": 1}'  # the valid file was not written either
    settings.write_text("[1, 2]", encoding="utf-8")
    assert run_cli("install", "claude-code").returncode == 1
    settings.write_text('{"model": "x"}', encoding="utf-8")  # control: fixed, install works
    assert run_cli("install", "claude-code").returncode == 0
    assert "memdir" in json.loads(claude_json.read_text())["mcpServers"]


@pytest.mark.slow
def test_fresh_home_install_and_uninstall_leave_nothing(tmp_path, isolated_home):
    user_home = tmp_path / "userhome"
    for cycle in range(2):
        done = run_cli("install", "claude-code")
        assert done.returncode == 0
        # before: "updated:" for files install created, and a backup of each
        assert f"created: {user_home / '.claude' / 'settings.json'}" in done.stdout
        assert f"created: {user_home / '.claude.json'}" in done.stdout and "updated" not in done.stdout
        assert (user_home / ".claude" / "settings.json").is_file() and (user_home / ".claude.json").is_file()
        assert run_cli("uninstall", "claude-code").returncode == 0
        # before: ~/.claude/ and two *.memdir-backup-* files left, two more per cycle
        assert sorted(p.name for p in user_home.iterdir()) == []
        assert not (isolated_home / "integrations" / "backups").exists()


def _path_with_memdir(tmp_path) -> dict:
    """PATH holding a `memdir` (this test run's), as a person's shell would after installing it."""
    import os
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "memdir").write_text(f"#!/bin/sh\nexec {sys.executable} -m memdir.cli \"$@\"\n")
    (bin_dir / "memdir").chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def _memdir_hooks_any(settings: dict) -> dict:
    return {event: group["hooks"][0]["command"] for event, groups in settings["hooks"].items() for group in groups
            if "memdir" in group["hooks"][0]["command"]}


@pytest.mark.slow
def test_project_scope(tmp_path, project):
    import sys

    mcp_file = project / ".mcp.json"
    mcp_file.write_text(json.dumps({"mcpServers": {"other": {"command": "other-server"}}}, indent=2) + "\n")
    before = mcp_file.read_bytes()
    env = _path_with_memdir(tmp_path)
    done = run_cli("install", "claude-code", "--scope", "project", cwd=project / ".git", env=env)
    assert done.returncode == 0, done.stderr
    servers = json.loads(mcp_file.read_text())["mcpServers"]
    assert set(servers) == {"other", "memdir"}
    # before: the virtualenv's absolute interpreter path in files a team commits
    assert servers["memdir"] == {"type": "stdio", "command": "memdir", "args": ["mcp", "--hooks"]}
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    hooks = _memdir_hooks_any(settings)
    assert hooks["SessionStart"] == "memdir hook claude-code SessionStart"
    assert sorted(hooks) == ["PostToolUse", "PreCompact", "SessionEnd", "SessionStart", "UserPromptSubmit"]
    assert sys.executable not in mcp_file.read_text() + json.dumps(settings)
    assert "note: the project's files name no home" in done.stdout  # this test's home is not the default
    assert not (tmp_path / "userhome" / ".claude.json").exists()  # user files untouched
    # before: three untracked *.memdir-backup-* files in the repository
    assert not list(project.rglob("*backup*"))
    # before: `uninstall claude-code` (no --scope) said "nothing to do" after a project install
    removed = run_cli("uninstall", "claude-code", cwd=tmp_path, env=env)
    assert removed.returncode == 0 and "nothing to do" not in removed.stdout, removed.stdout
    assert mcp_file.read_bytes() == before
    assert not (project / ".claude").exists()  # the directory install created is gone too
    again = run_cli("uninstall", "claude-code", cwd=tmp_path)  # control: now there is nothing left
    assert "nothing to do" in again.stdout


def test_project_scope_needs_memdir_on_path(tmp_path, project):
    import os

    done = run_cli("install", "claude-code", "--scope", "project", cwd=project,
                   env={"PATH": os.path.dirname(os.path.realpath("/bin/sh"))})
    assert done.returncode == 1 and "`memdir` is not on PATH" in done.stderr
    assert not (project / ".mcp.json").exists() and not (project / ".claude").exists()


def test_project_scope_from_a_linked_worktree_writes_into_the_worktree(tmp_path):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    main = tmp_path / "main"
    main.mkdir()
    subprocess.run([*git, "init", "-q", str(main)], check=True)
    (main / "f").write_text("x")
    subprocess.run([*git, "-C", str(main), "add", "f"], check=True)
    subprocess.run([*git, "-C", str(main), "commit", "-qm", "one"], check=True)
    subprocess.run([*git, "-C", str(main), "worktree", "add", "-q", "-b", "side", str(tmp_path / "wt")], check=True)
    done = run_cli("install", "claude-code", "--scope", "project", cwd=tmp_path / "wt" , env=_path_with_memdir(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "wt" / ".mcp.json").is_file() and (tmp_path / "wt" / ".claude" / "settings.json").is_file()
    assert not (main / ".mcp.json").exists() and not (main / ".claude").exists()


def test_installed_session_start_command_runs(tmp_path, isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    assert run_cli("install", "claude-code").returncode == 0
    settings = json.loads((tmp_path / "userhome" / ".claude" / "settings.json").read_text())
    group = settings["hooks"]["SessionStart"][-1]
    command = group["hooks"][0]["command"]
    payload = json.dumps({"session_id": "e2e", "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(project),
                          "hook_event_name": "SessionStart", "source": "startup"})
    done = subprocess.run(command, shell=True, input=payload, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == person.context() + "\n" + TOOLS_NOTE and "db-port" in context


def test_a_non_default_home_is_written_into_user_scope_commands(tmp_path, isolated_home, project):
    Memory.open(home=isolated_home, project=project, actor="human").write("here", "In MEMDIR_HOME", "project", "")
    assert run_cli("install", "claude-code").returncode == 0  # MEMDIR_HOME set, no --home
    claude = json.loads((tmp_path / "userhome" / ".claude.json").read_text())
    assert claude["mcpServers"]["memdir"]["args"] == ["-m", "memdir.cli", "mcp", "--home", str(isolated_home), "--hooks"]
    settings = json.loads((tmp_path / "userhome" / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["SessionStart"][-1]["hooks"][0]["command"]
    import os

    env = {k: v for k, v in os.environ.items() if k != "MEMDIR_HOME"}  # Claude Code's environment lacks it
    done = subprocess.run(command, shell=True, input=json.dumps({"cwd": str(project)}), capture_output=True,
                          text=True, timeout=60, env=env)
    assert "here" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_explicit_home_is_baked_into_the_commands(tmp_path, project):
    other_home = tmp_path / "elsewhere"
    mem = Memory.open(home=other_home, project=project, actor="human")
    mem.write("only-here", "Lives in the other home", "project", "")
    assert run_cli("install", "claude-code", "--home", other_home).returncode == 0
    claude = json.loads((tmp_path / "userhome" / ".claude.json").read_text())
    assert claude["mcpServers"]["memdir"]["args"] == ["-m", "memdir.cli", "mcp", "--home", str(other_home), "--hooks"]
    settings = json.loads((tmp_path / "userhome" / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["SessionStart"][-1]["hooks"][0]["command"]
    done = subprocess.run(command, shell=True, input=json.dumps({"cwd": str(project)}), capture_output=True,
                          text=True, timeout=60)
    assert "only-here" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_symlinked_settings_file_stays_a_symlink(tmp_path):
    user_home = tmp_path / "userhome"
    settings, _ = _seed(user_home)
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude-settings.json"
    real.write_bytes(settings.read_bytes())
    settings.unlink()
    settings.symlink_to(real)
    original = real.read_bytes()
    assert run_cli("install", "claude-code").returncode == 0
    assert settings.is_symlink() and settings.resolve() == real.resolve()
    assert "memdir.hooks" in real.read_text()
    assert run_cli("uninstall", "claude-code").returncode == 0
    assert settings.is_symlink() and real.read_bytes() == original


def test_a_file_without_a_last_line_break_is_diffed_line_by_line(tmp_path):
    """trial28: Claude Code writes ``~/.claude.json`` without a line break at its end, and `memdir install
    --dry-run` (as uninstall, and install itself) printed its last line glued to the next line of the diff:
    ``-{"numStartups": 12, …}+{``. Now git's ``\\ No newline at end of file`` follows such a line. Control: the
    settings file, which ends with a line break, gets no such line."""
    user_home = tmp_path / "userhome"
    settings, claude_json = _seed(user_home)  # .claude.json: one line, no line break; settings.json: ends with one
    done = run_cli("install", "claude-code", "--dry-run")
    assert done.returncode == 0, done.stderr
    old = f"-{json.dumps(EXISTING_CLAUDE_JSON)}"
    lines = done.stdout.splitlines()
    assert old in lines and lines[lines.index(old) + 1] == "\\ No newline at end of file"
    assert lines[lines.index(old) + 2] == "+{"  # the new text starts on a line of its own
    assert lines.count("\\ No newline at end of file") == 1  # control: settings.json's diff has none
    assert f"+++ {settings} (after)" in lines  # its diff was printed
