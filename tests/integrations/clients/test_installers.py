"""`memdir install|uninstall codex|gemini|cursor|opencode` against a temp home holding real settings:
every key that is not memdir's is kept, uninstall leaves the bytes as they were."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import run_cli

CODEX_TOML = """# my codex settings
model = "gpt-6"  # the default

[mcp_servers.github]
command = "gh-mcp"
args = ["--stdio"]

[projects."/home/u/app"]
trust_level = "trusted"
"""
GEMINI_SETTINGS = {"theme": "Dracula", "mcpServers": {"other": {"command": "x"}},
                   "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}
CURSOR_HOOKS = {"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}}
OPENCODE = {"$schema": "https://opencode.ai/config.json", "instructions": ["CONTRIBUTING.md"],
            "mcp": {"other": {"type": "local", "command": ["x"]}}}


def _seed(home):
    files = {home / ".codex" / "config.toml": CODEX_TOML,
             home / ".gemini" / "settings.json": json.dumps(GEMINI_SETTINGS, indent=4) + "\n",
             home / ".cursor" / "hooks.json": json.dumps(CURSOR_HOOKS),
             home / ".config" / "opencode" / "opencode.json": json.dumps(OPENCODE, indent=2) + "\n"}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return {path: path.read_bytes() for path in files}


@pytest.mark.slow
def test_each_client_keeps_the_persons_settings_and_uninstall_restores_their_bytes(tmp_path, isolated_home):
    import os

    home = tmp_path / "userhome"
    before = _seed(home)
    for client in ("codex", "gemini", "cursor", "opencode"):
        done = run_cli("install", client)
        assert done.returncode == 0, done.stderr
        again = run_cli("install", client)
        assert "nothing to do: memdir is already installed" in again.stdout, (client, again.stdout)

    config = (home / ".codex" / "config.toml").read_text(encoding="utf-8")
    mine = [line for line in CODEX_TOML.splitlines() if line]
    assert [line for line in config.splitlines() if line in mine] == mine  # comments, order and spelling kept
    assert '[mcp_servers.memdir]\ncommand = "' in config and '"memdir.cli", "mcp"' in config
    codex_hooks = json.loads((home / ".codex" / "hooks.json").read_text())
    assert sorted(codex_hooks["hooks"]) == ["PostToolUse", "PreCompact", "SessionStart", "Stop", "UserPromptSubmit"]
    assert codex_hooks["hooks"]["PostToolUse"][0]["matcher"] == "mcp__memdir__memory_(read|write)"
    # after a compaction too (Codex sends SessionStart source "compact" since openai/codex#21272): the block again
    assert codex_hooks["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    assert codex_hooks["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"].endswith(
        "-m memdir.hooks codex UserPromptSubmit --home " + os.environ["MEMDIR_HOME"])

    gemini = json.loads((home / ".gemini" / "settings.json").read_text())
    assert gemini["theme"] == "Dracula" and set(gemini["mcpServers"]) == {"other", "memdir"}
    assert [h["hooks"][0]["command"] for h in gemini["hooks"]["SessionStart"]][0] == "echo hi"
    assert "memdir.hooks gemini BeforeAgent" in gemini["hooks"]["BeforeAgent"][0]["hooks"][0]["command"]
    assert gemini["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 5000  # milliseconds
    assert sorted(gemini["hooks"]) == ["AfterTool", "BeforeAgent", "PreCompress", "SessionEnd", "SessionStart"]
    assert gemini["hooks"]["AfterTool"][0]["matcher"] == "mcp_memdir_memory_(read|write)"

    cursor = json.loads((home / ".cursor" / "hooks.json").read_text())
    assert cursor["version"] == 1 and cursor["hooks"]["afterFileEdit"] == [{"command": "./format.sh"}]
    assert "memdir.hooks cursor sessionStart" in cursor["hooks"]["sessionStart"][0]["command"]
    assert "memdir" in json.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]

    opencode = json.loads((home / ".config" / "opencode" / "opencode.json").read_text())
    instructions = home / ".config" / "opencode" / "memdir.md"
    assert opencode["instructions"] == ["CONTRIBUTING.md", str(instructions)]
    assert opencode["mcp"]["memdir"]["command"][-4:] == ["memdir.cli", "mcp", "--home", os.environ["MEMDIR_HOME"]]
    assert "call the memdir MCP tool memory_list" in instructions.read_text()

    for client in ("codex", "gemini", "cursor", "opencode"):
        done = run_cli("uninstall", client)
        assert done.returncode == 0, done.stderr
    for path, raw in before.items():
        assert path.read_bytes() == raw, path
    assert not (home / ".codex" / "hooks.json").exists() and not (home / ".cursor" / "mcp.json").exists()
    assert not instructions.exists()


def test_a_dry_run_writes_nothing_and_bad_toml_is_left_untouched(tmp_path, isolated_home):
    home = tmp_path / "userhome"
    done = run_cli("install", "gemini", "--dry-run")
    assert done.returncode == 0 and "dry run: nothing was written" in done.stdout
    assert '"memdir"' in done.stdout and not (home / ".gemini").exists()
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("model = [broken\n")
    done = run_cli("install", "codex")
    assert done.returncode == 1 and "is not valid TOML" in done.stderr
    assert (home / ".codex" / "config.toml").read_text() == "model = [broken\n"
    assert not (home / ".codex" / "hooks.json").exists()  # nothing written when one file cannot be read


@pytest.mark.slow
def test_claude_codes_auto_memory_is_named_turned_off_on_request_and_restored(tmp_path, isolated_home):
    home = tmp_path / "userhome"
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"model": "opus"}\n')
    done = run_cli("install", "claude-code", "--dry-run", env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""})
    assert "auto memory is also on" in done.stdout and "memdir import claude-code" in done.stdout
    done = run_cli("install", "claude-code", "--disable-auto-memory", env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""})
    assert done.returncode == 0, done.stderr
    data = json.loads(settings.read_text())
    assert data["autoMemoryEnabled"] is False and data["model"] == "opus" and "hooks" in data
    again = run_cli("install", "claude-code", env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""})
    assert "auto memory is also on" not in again.stdout  # off now: nothing to say
    assert run_cli("uninstall", "claude-code").returncode == 0
    assert settings.read_text() == '{"model": "opus"}\n'  # autoMemoryEnabled gone with the hooks



@pytest.mark.slow
def test_doctor_says_when_claude_still_sees_its_own_auto_memory(tmp_path, isolated_home, project):
    """newuser33: an existing Claude Code user installed memdir and imported their auto memory; doctor said "ok"
    while Claude still put its own MEMORY.md in front of the model beside memdir's block. Doctor names it, with the
    command that turns it off; controls: no note before the install, none once auto memory is off."""
    home = tmp_path / "userhome"
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project)) / "memory"
    folder.mkdir(parents=True)
    (folder / "deploy.md").write_text("---\nname: deploy\ndescription: Deploys need the VPN\ntype: project\n---\n")
    (folder / "MEMORY.md").write_text("- [deploy](deploy.md) — Deploys need the VPN\n")
    env = {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": ""}
    note = (f"Claude Code's own auto memory is on beside memdir: Claude also sees {folder / 'MEMORY.md'} at every "
            "session start, so the two can disagree; bring it in with `memdir import claude-code`, then turn it off "
            "with `memdir install claude-code --scope user --disable-auto-memory` (uninstall turns it back on)")
    before = run_cli("doctor", "--project", project, env=env)
    assert before.returncode == 0 and "auto memory" not in before.stdout  # memdir not installed: not its concern
    assert run_cli("install", "claude-code", env=env).returncode == 0
    assert run_cli("import", "claude-code", "--project", project, env=env).returncode == 0
    done = run_cli("doctor", "--project", project, env=env)
    assert done.returncode == 0 and f"note: {note}" in done.stdout, done.stdout
    assert run_cli("install", "claude-code", "--disable-auto-memory", env=env).returncode == 0
    after = run_cli("doctor", "--project", project, env=env)
    assert after.returncode == 0 and "auto memory" not in after.stdout  # control: off now
    assert "deploy" in run_cli("list", "--project", project).stdout

def test_doctor_names_a_client_file_install_wrote_that_is_gone(tmp_path, isolated_home):
    home = tmp_path / "userhome"
    assert run_cli("install", "cursor").returncode == 0
    healthy = run_cli("doctor")
    assert "cursor:" not in healthy.stdout  # control: both files there
    (home / ".cursor" / "hooks.json").unlink()
    done = run_cli("doctor")
    assert f"cursor: {home / '.cursor' / 'hooks.json'} that memdir install wrote is gone" in done.stdout


JSONC = """{
  // my OpenCode settings
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "other": {"type": "local", "command": ["x"]}, /* the team's server */
  },
}
"""


@pytest.mark.slow
def test_a_jsonc_opencode_json_is_left_untouched_with_the_change_to_make_by_hand(tmp_path, isolated_home):
    """OpenCode reads JSONC; rewriting it would drop the person's comments and uninstall could not give
    back their text, so install says exactly what to add and changes nothing. Control: the same settings
    as plain JSON install, and uninstall restores their bytes."""
    config = tmp_path / "userhome" / ".config" / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True)
    config.write_text(JSONC, encoding="utf-8")
    done = run_cli("install", "opencode")
    assert done.returncode == 1
    assert "holds comments or trailing commas (JSONC); memdir edits only plain JSON" in done.stderr
    assert '+    "memdir": {' in done.stderr and '+  "instructions": [' in done.stderr, done.stderr
    assert config.read_text(encoding="utf-8") == JSONC  # untouched, comments and all
    assert not (config.parent / "memdir.md").exists()
    plain = json.dumps({"$schema": "https://opencode.ai/config.json", "mcp": {"other": {"type": "local",
                                                                                     "command": ["x"]}}}, indent=2)
    config.write_text(plain + "\n", encoding="utf-8")
    assert run_cli("install", "opencode").returncode == 0
    assert "memdir" in json.loads(config.read_text())["mcp"]
    # The person adds a comment while memdir is installed: uninstall names what to remove, and keeps the file.
    commented = "// mine\n" + config.read_text(encoding="utf-8")
    config.write_text(commented, encoding="utf-8")
    refused = run_cli("uninstall", "opencode")
    assert refused.returncode == 1 and "Remove memdir's entries by hand" in refused.stderr, refused.stderr
    assert '-    "memdir": {' in refused.stderr and config.read_text(encoding="utf-8") == commented
    config.write_text(commented.removeprefix("// mine\n"), encoding="utf-8")
    assert run_cli("uninstall", "opencode").returncode == 0
    assert config.read_text(encoding="utf-8") == plain + "\n"  # control: exactly the bytes before install


GEMINI_JSONC = """{
  // API key auth, for the work account
  "security": {"auth": {"selectedType": "gemini-api-key"}}
}
"""


def test_a_gemini_settings_file_with_a_comment_is_refused_in_words_naming_no_other_client(tmp_path, isolated_home):
    """trial35: Gemini CLI reads a settings.json with comments; `memdir install gemini` left it untouched (right)
    but said the file was JSONC "which OpenCode accepts". The refusal names no client, and shows the entries to
    add. Control: the same settings without the comment install, and uninstall gives back their bytes."""
    settings = tmp_path / "userhome" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(GEMINI_JSONC, encoding="utf-8")
    done = run_cli("install", "gemini")
    assert done.returncode == 1
    assert done.stderr.startswith(f"memdir: {settings} holds comments or trailing commas (JSONC); memdir edits only "
                                  "plain JSON, so that uninstall gives back exactly your text"), done.stderr
    assert "OpenCode" not in done.stderr
    assert '+  "mcpServers": {' in done.stderr and '+  "hooks": {' in done.stderr, done.stderr
    assert settings.read_text(encoding="utf-8") == GEMINI_JSONC  # untouched, the comment kept
    plain = GEMINI_JSONC.replace("  // API key auth, for the work account\n", "")
    settings.write_text(plain, encoding="utf-8")
    assert run_cli("install", "gemini").returncode == 0
    assert "memdir" in json.loads(settings.read_text())["mcpServers"]
    assert run_cli("uninstall", "gemini").returncode == 0
    assert settings.read_text(encoding="utf-8") == plain


def test_the_entries_to_add_by_hand_to_a_commented_gemini_settings_file_are_printed_whole(tmp_path, isolated_home):
    """newuser37: the refusal's diff for Gemini CLI (five hooks and the server, about 2,500 characters) was cut in
    its middle like a one-line error (`…(1166 characters cut)…`): it named the hooks of SessionStart and AfterTool
    only, so a person could not add the others by hand. Control: the same entries are what install writes to the
    settings once the comment is gone."""
    from memdir.integrations.clients import gemini

    settings = tmp_path / "userhome" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(GEMINI_JSONC, encoding="utf-8")
    done = run_cli("install", "gemini")
    assert done.returncode == 1 and "characters cut" not in done.stderr, done.stderr
    said = [event for event in gemini.HOOK_EVENTS if f'+            "name": "memdir-{event}",' in done.stderr]
    assert said == list(gemini.HOOK_EVENTS) and len(said) == 5, done.stderr
    assert '+        "memdir.cli",' in done.stderr and '+        "--hooks"' in done.stderr
    settings.write_text(GEMINI_JSONC.replace("  // API key auth, for the work account\n", ""), encoding="utf-8")
    assert run_cli("install", "gemini").returncode == 0
    written = json.loads(settings.read_text())
    assert [group["hooks"][0]["name"] for groups in written["hooks"].values() for group in groups] == [
        f"memdir-{event}" for event in said]
