"""A mistyped command or choice names the one meant (trial27: `memdir lst` and `memdir install claude` listed
every choice and left the user to spot the right one): argparse's refusal ends with "did you mean", as a
memory's "not found" does (operations.lookup.closest). Real subprocesses."""

from __future__ import annotations

import json

from memdir.integrations.cli.main import _near_choices, build_parser
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


def test_a_typo_of_an_option_names_the_one_meant(isolated_home, project):
    """`memdir read NAME --jsn` said only "unrecognized arguments: --jsn", under the top command's usage."""
    run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project")
    jsn = run_cli("--project", project, "read", "db-port", "--jsn")
    assert jsn.returncode == 2 and jsn.stdout == ""
    assert jsn.stderr.rstrip().endswith("memdir: error: unrecognized arguments: --jsn; did you mean '--json'?")
    # the command's own options count: --reactivate is write's, not the top command's
    react = run_cli("--project", project, "write", "db-port", "--reactvate")
    assert react.stderr.rstrip().endswith("unrecognized arguments: --reactvate; did you mean '--reactivate'?")
    # control: an option near none is refused as before, nothing guessed
    bogus = run_cli("--project", project, "list", "--bogus")
    assert bogus.returncode == 2 and bogus.stderr.rstrip().endswith("memdir: error: unrecognized arguments: --bogus")
    # control: the right spelling runs
    read = run_cli("--project", project, "read", "db-port", "--json")
    assert read.returncode == 0 and json.loads(read.stdout)["description"] == "Dev PostgreSQL listens on 5433"


def test_search_and_recall_take_limit_as_journal_does(isolated_home, project):
    """`memdir search port --limit 3` (journal's spelling) was refused: search and recall said only -k."""
    for name, port in (("db-port", 5433), ("api-port", 8081), ("web-port", 3000)):
        run_cli("--project", project, "write", name, "-d", f"The {name.split('-')[0]} listens on port {port}",
                "-t", "project", "--body", f"Port {port} on every machine; ask in #infra before moving it.")
    limited = run_cli("--project", project, "search", "port", "--limit", "2", "--json")
    assert limited.returncode == 0, limited.stderr
    assert json.loads(limited.stdout)["k"] == 2 and len(json.loads(limited.stdout)["results"]) == 2
    # control: -k still says the same, and without either the default page holds all three
    assert json.loads(run_cli("--project", project, "search", "port", "-k", "2", "--json").stdout)["k"] == 2
    assert len(json.loads(run_cli("--project", project, "search", "port", "--json").stdout)["results"]) == 3
    assert build_parser().parse_args(["recall", "which port", "--limit", "1"]).k == 1
    assert build_parser().parse_args(["recall", "which port"]).k == 3  # control: recall's default
