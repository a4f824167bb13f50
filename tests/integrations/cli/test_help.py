"""`memdir COMMAND --help` answers each option's question: every option and argument has a help text."""

from __future__ import annotations

import argparse

from memdir.integrations.cli.main import build_parser
from tests.conftest import run_cli

# Arguments whose choices are the whole answer: the subcommand word of `tombstone`, `team` and the client of
# `hook`/`install`/`uninstall` (their usage line lists the choices; the command's description says what each does).
SELECTORS = {("memdir tombstone", "action"), ("memdir team", "action"), ("memdir hook", "agent"),
             ("memdir install", "agent"), ("memdir uninstall", "agent")}


def _without_help(parser: argparse.ArgumentParser, path: str, found: set, seen: list) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                _without_help(sub, f"{path} {name}", found, seen)
        elif action.dest != "help":
            seen.append((path, action.dest))
            if not action.help:
                found.add((path, action.option_strings[0] if action.option_strings else action.dest))


def test_every_option_and_argument_of_every_command_has_help_text():
    found, seen = set(), []
    _without_help(build_parser(), "memdir", found, seen)
    assert ("memdir restore", "version") in seen and ("memdir export", "format") in seen  # control: walked
    assert len(seen) > 200
    assert found == SELECTORS


def test_restore_help_says_where_the_version_number_comes_from():
    out = run_cli("restore", "--help")
    assert out.returncode == 0
    assert "version number from `memdir history`" in " ".join(out.stdout.split())


def test_mcp_takes_no_json_a_server_prints_no_result_while_status_does():
    mcp = run_cli("mcp", "--help")
    assert mcp.returncode == 0
    assert "--json" not in mcp.stdout
    assert "--home HOME" in mcp.stdout and "--project PROJECT" in mcp.stdout  # still located
    refused = run_cli("mcp", "--json", input="")
    assert refused.returncode == 2 and "unrecognized arguments: --json" in refused.stderr
    status = run_cli("status", "--help")  # control: a command that prints a result offers it
    assert "--json" in status.stdout


def _scope_help(command: str) -> str:
    out = run_cli(command, "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    return text[text.index("--scope {user,project}"):text.index("--dry-run print")]


def test_scope_help_names_every_clients_files_for_install_and_uninstall():
    for command in ("install", "uninstall"):
        text = _scope_help(command).replace("- ", "-")  # argparse may wrap inside claude-code
        for files in ("claude-code ~/.claude/settings.json, ~/.claude.json | .claude/settings.json, .mcp.json",
                      "codex ~/.codex/config.toml, ~/.codex/hooks.json | .codex/config.toml, .codex/hooks.json",
                      "gemini ~/.gemini/settings.json | .gemini/settings.json",
                      "cursor ~/.cursor/mcp.json, ~/.cursor/hooks.json | .cursor/mcp.json, .cursor/hooks.json",
                      # newuser36: the file install edits may be OpenCode's config.json or opencode.jsonc
                      ("opencode ~/.config/opencode/opencode.json (or the config.json or opencode.jsonc there, when "
                       "OpenCode reads that one last), ~/.config/opencode/memdir.md | opencode.json, "
                       ".opencode/memdir.md")):
            assert files in text, (command, files, text)


def test_only_installs_help_speaks_of_the_interpreter_and_of_a_default_of_user():
    install, uninstall = _scope_help("install"), _scope_help("uninstall")
    assert "interpreter" in install and "Default: user." in install
    assert "interpreter" not in uninstall and "PATH" not in uninstall
    assert "Default: every install memdir recorded for the client" in uninstall


def test_team_help_says_how_a_team_memory_is_written():
    """trial35: `memdir team --help` named init, status, resolve and trust, not how a memory gets into the team layer
    (a write with --scope team, or promote: commands outside `team`). Control: what it already said stays."""
    said = " ".join(run_cli("team", "--help").stdout.split())
    assert ("A team memory is written with `memdir write NAME … --scope team`, or moved there from your project "
            "layer with `memdir promote NAME --to team`; then commit it.") in said
    assert "trust lets its memories reach the agent in this clone" in said
