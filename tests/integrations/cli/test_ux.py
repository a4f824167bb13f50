"""What a new user meets at the CLI: the help, the messages and the counts say what is true."""

from __future__ import annotations

import pytest

from memdir.integrations.claude_code import hooks
from tests.conftest import run_cli


@pytest.mark.parametrize("option", ["--json", "--project", "--project=/tmp"])
def test_a_hook_names_the_option_it_does_not_take(option, capsys):
    assert hooks.main(["claude-code", "SessionStart", option]) == 0  # a hook never fails its client
    out = capsys.readouterr()
    assert out.out == "" and out.err == (
        f"memdir hook: option {option.partition('=')[0]} is not taken (a hook takes only --home; its project is its "
        "input's cwd); nothing done; usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]\n")


def test_a_hook_without_an_event_prints_the_usage_alone(capsys):
    assert hooks.main(["claude-code"]) == 0  # control: no option, the plain usage line
    assert capsys.readouterr().err == "memdir hook: usage: memdir hook {claude-code,codex,gemini,cursor} EVENT [--home DIR]\n"


@pytest.mark.slow
def test_the_hook_help_lists_what_it_takes_and_names_every_client():
    done = run_cli("hook", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: memdir hook [-h] [--home HOME] {claude-code,codex,gemini,cursor} event\n")
    text = " ".join(done.stdout.split())
    assert "Run one hook of a coding agent (Claude Code, Codex, Gemini CLI or Cursor)" in text
    assert "--home HOME" in text and "--json" not in text and "--project" not in text
    assert "gemini: SessionStart, BeforeAgent, SessionEnd, PreCompress" in text
    control = " ".join(run_cli("list", "--help").stdout.split())  # control: a command that takes them lists them
    assert "--json" in control and "--project PROJECT" in control
