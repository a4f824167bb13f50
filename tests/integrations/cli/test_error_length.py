"""A CLI error that quotes a long value keeps its head and tail (left32: ``memdir write --valid-from <100 KB>``
printed the 100 KB back, burying the reason after it). The rule is the hooks' own, :func:`memdir.text.printable.
said_line`, applied where the CLI words its errors (main's MemdirError and UsageError branches, argparse's)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

LONG = "Ab" * 50_000
REASON = " as a time (use ISO-8601, e.g. 2026-11-30T12:00:00Z, or a date, 2026-11-30)"


@pytest.mark.slow
def test_a_long_value_in_an_error_is_cut_in_its_middle(project):
    # The word "'AbAb…Ab'" (100,002 characters) keeps its first 133 and last 66 (WORD_CHARS 200).
    word = f"'{LONG}'"
    cut = f"{word[:133]}…({len(word) - 199} characters cut)…{word[-66:]}"
    done = run_cli("--project", project, "write", "nb", "-d", "x", "--valid-from", LONG)
    assert done.returncode == 1
    assert done.stderr == f"memdir: --valid-from: cannot read {cut}{REASON}\n"
    said = json.loads(run_cli("--project", project, "--json", "write", "nb", "-d", "x", "--valid-from", LONG).stdout)
    assert said == {"error": f"--valid-from: cannot read {cut}{REASON}", "kind": "InvalidInput"}
    # Control: a short value is said whole.
    short = run_cli("--project", project, "write", "nb", "-d", "x", "--valid-from", "Abab")
    assert short.stderr == f"memdir: --valid-from: cannot read 'Abab'{REASON}\n"


@pytest.mark.slow
def test_a_long_value_in_a_usage_error_is_cut_too(project):
    done = run_cli("--project", project, "write", "nb", "--scope", LONG)
    assert done.returncode == 2
    line = done.stderr.splitlines()[-1]
    assert line.startswith("memdir write: error: argument --scope: invalid choice: 'AbAb") and len(line) < 1_100
    assert "…(99803 characters cut)…" in line and line.endswith("(choose from 'user', 'team', 'project')")
    # Control: a short one is said whole.
    assert run_cli("--project", project, "write", "nb", "--scope", "tem").stderr.splitlines()[-1].startswith(
        "memdir write: error: argument --scope: invalid choice: 'tem'")
