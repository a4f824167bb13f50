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
