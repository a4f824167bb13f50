"""A mistyped command or choice names the one meant (trial27: `memdir lst` and `memdir install claude` listed
every choice and left the user to spot the right one): argparse's refusal ends with "did you mean", as a
memory's "not found" does (operations.lookup.closest). Real subprocesses."""

from __future__ import annotations

import json

from memdir.integrations.cli.main import _near_choices
from tests.conftest import run_cli


def test_a_typo_of_a_command_or_client_names_the_one_meant(isolated_home, project):
    lst = run_cli("--project", project, "lst")
    assert lst.returncode == 2 and lst.stdout == ""
    assert lst.stderr.rstrip().endswith("'export', 'sync'); did you mean 'list'?"), lst.stderr
    claude = run_cli("--project", project, "install", "claude", "--dry-run")
    assert claude.returncode == 2
    assert claude.stderr.rstrip().endswith(
        "invalid choice: 'claude' (choose from 'claude-code', 'codex', 'gemini', 'cursor', 'opencode'); "
        "did you mean 'claude-code'?"), claude.stderr
    stauts = run_cli("--json", "--project", project, "sync", "stauts")
    assert stauts.returncode == 2
    assert json.loads(stauts.stdout) == {"kind": "UsageError", "error": "argument action: invalid choice: "
                                         "'stauts' (choose from 'init', 'status', 'resolve'); did you mean 'status'?"}
    # control: a word near no choice is refused as before, the choices listed and nothing guessed
    remember = run_cli("--project", project, "remember", "x")
    assert remember.returncode == 2 and "invalid choice: 'remember'" in remember.stderr
    assert "did you mean" not in remember.stderr and "'recall'" in remember.stderr
    # control: the right spelling runs
    listed = run_cli("--project", project, "list", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout)["memories"] == []


def test_near_choices_reads_only_an_invalid_choice():
    assert _near_choices("argument --actor: invalid choice: 'humen' (choose from 'human', 'agent', 'extracted', "
                         "'import')") == "; did you mean 'human'?"
    assert _near_choices("argument --actor: invalid choice: 'bogus' (choose from 'human', 'agent')") == ""
    assert _near_choices("the following arguments are required: name") == ""
