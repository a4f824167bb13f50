"""The CLI as a person uses it (real subprocesses)."""

import json

import pytest

from memdir.prompt.context import CLI_NOTE
from tests.conftest import run_cli


@pytest.mark.slow
def test_write_json_shape_and_body_from_stdin(project):
    out = run_cli("--project", project, "write", "db-port", "-d", "Dev DB on 5433", "-t", "project", "--json",
                  input="Body from stdin with AKIAIOSFODNN7EXAMPLE\n")
    assert out.returncode == 0, out.stderr
    written = json.loads(out.stdout)
    assert written == {"name": "db-port", "scope": "project", "operation": "created", "redactions": 1,
                       "redaction_kinds": {"aws-key": 1}, "warnings": [], "status": "active", "pinned": False,
                       "kept_edit": None, "digest": written["digest"],
                       "replaced": None}  # kept_edit: no hand edit was replaced; replaced: a create replaced no version
    assert len(written["digest"]) == 64
    read = run_cli("--project", project, "read", "db-port", "--json")
    data = json.loads(read.stdout)
    assert data["body"] == "Body from stdin with [REDACTED:aws-key]"
    assert data["origin"] == "human"


@pytest.mark.slow
def test_body_file_and_flags(project, tmp_path):
    body = tmp_path / "body.md"
    body.write_text("from a file")
    out = run_cli("--project", project, "write", "n", "-d", "d", "-t", "user", "--scope", "user",
                  "--body-file", body, "--pinned", "--importance", "9")
    assert out.returncode == 0 and out.stdout.strip() == "Memory created: n (user, pinned)"
    listed = json.loads(run_cli("--project", project, "list", "--json").stdout)["memories"]
    assert [(m["name"], m["pinned"], m["importance"]) for m in listed] == [("n", True, 9)]


@pytest.mark.slow
def test_errors_exit_1_usage_exit_2(project):
    missing = run_cli("--project", project, "read", "nope")
    assert missing.returncode == 1 and "memory not found" in missing.stderr and missing.stdout == ""
    bad_type = run_cli("--project", project, "write", "x", "-d", "d", "-t", "wish")
    assert bad_type.returncode == 2
    no_yes = run_cli("--project", project, "clear", "--scope", "project")
    assert no_yes.returncode == 2 and "--yes" in no_yes.stderr
    reserved = run_cli("--project", project, "write", "memory", "-d", "d", "-t", "project")
    assert reserved.returncode == 1 and "reserved" in reserved.stderr


@pytest.mark.slow
def test_context_prune_clear_status(project):
    run_cli("--project", project, "write", "a", "-d", "alpha fact", "-t", "project")
    ctx = run_cli("--project", project, "context", "--max-bytes", "2000")
    assert ctx.returncode == 0 and "- [a](a.md) — alpha fact" in ctx.stdout
    assert len(ctx.stdout.encode()) <= 2001
    prune = run_cli("--project", project, "prune", "--older-than", "1", "--json")
    assert json.loads(prune.stdout) == {"dry_run": True, "older_than_days": 1, "deleted": 0, "candidates": []}
    status = json.loads(run_cli("--project", project, "status", "--json").stdout)
    assert [l["memories"] for l in status["layers"]] == [0, 1]
    cleared = run_cli("--project", project, "clear", "--scope", "project", "--yes", "--json")
    assert json.loads(cleared.stdout) == {"layers": [{"scope": "project", "deleted": 1}]}
    # no memory left: what a session start injects, the guidance and the tools note (no index line, no marker);
    # memdir is installed into no client here, so the note names its commands (newuser31), not MCP tools
    empty = run_cli("--project", project, "context").stdout
    assert empty.startswith("<memory_context>\nNo memory is saved yet for this person or this project.\n")
    assert empty.endswith("</memory_context>\n" + CLI_NOTE + "\n") and "mcp__memdir__" not in empty
    assert "(a.md)" not in empty and "left out" not in empty


def test_help_answers_the_question():
    out = run_cli("--help")
    assert out.returncode == 0
    for command in ("write", "read", "list", "delete", "prune", "clear", "context", "status", "doctor"):
        assert command in out.stdout
    sub = run_cli("write", "--help")
    assert "--body-file" in sub.stdout and "≤ 160" in sub.stdout


@pytest.mark.slow
def test_global_json_flag_and_input_errors(project, tmp_path):
    out = run_cli("--json", "--project", project, "write", "x", "-d", "d", "-t", "project")
    assert json.loads(out.stdout)["operation"] == "created"
    listed = run_cli("--json", "--project", project, "list")
    assert [m["name"] for m in json.loads(listed.stdout)["memories"]] == ["x"]
    missing = run_cli("--project", project, "write", "y", "-d", "d", "-t", "project", "--body-file", tmp_path / "nope")
    assert missing.returncode == 1 and "cannot read --body-file" in missing.stderr
    import subprocess
    import sys

    bad = subprocess.run([sys.executable, "-m", "memdir", "--project", str(project), "write", "z", "-d", "d",
                          "-t", "project"], input=b"\xff\xfe bad", capture_output=True)
    assert bad.returncode == 1 and b"not valid UTF-8" in bad.stderr
    zero = run_cli("--project", project, "context", "--max-bytes", "0")
    assert zero.returncode == 2 and "at least 1" in zero.stderr
    whole = run_cli("--project", project, "write", "long", "-d", "d", "-t", "project", "--body", "b" * 2100)
    assert whole.stdout.strip() == "Memory created: long (project)"  # a person's body is kept whole (issue 25)
    assert "cut" not in whole.stderr and "b" * 2100 in (whole_file := run_cli(
        "--project", project, "read", "long")).stdout, whole_file.stdout[:200]
    huge = run_cli("--project", project, "write", "huge", "-d", "d", "-t", "project", "--body-file", "-",
                   input="x" * (300 * 1024))
    assert huge.returncode == 1 and "over the 262144-byte ceiling of a memory file (max_file_bytes)" in huge.stderr


@pytest.mark.slow
def test_a_deleted_working_directory_is_not_a_crash(tmp_path):
    import os
    import subprocess
    import sys

    gone = tmp_path / "gone"
    gone.mkdir()
    script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
              "from memdir.cli import main; sys.exit(main(['list']))")
    out = subprocess.run([sys.executable, "-c", script, str(gone)], capture_output=True, text=True,
                         env=dict(os.environ))
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert out.stdout.splitlines() == ["No memories yet.", "(project memories unavailable: the working directory "
                                       "no longer exists; run inside a project directory, pass --project DIR "
                                       "or set MEMDIR_PROJECT)"]


def test_limits_in_help_and_tool_schemas_come_from_the_settings(isolated_home, project):
    from memdir import Memory

    default = run_cli("write", "--help").stdout
    squeezed = " ".join(default.split())  # argparse wraps help text
    assert "≤ 160 characters" in default and "at most 262144 bytes" in squeezed  # control: the defaults
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("max_file_bytes = 65536\n[limits]\ndescription = 120\nbody = 4000\n",
                                               encoding="utf-8")
    configured = run_cli("write", "--help").stdout
    assert "≤ 120 characters" in configured and "at most 65536 bytes" in " ".join(configured.split())
    assert "≤ 160" not in configured and "262144" not in configured
    schema = {s["function"]["name"]: s["function"]["parameters"]["properties"]
              for s in Memory.open(project=project).tool_schemas()}["memory_write"]
    assert (schema["description"]["description"], schema["body"]["description"]) == (
        "one line, ≤ 120 characters (required for a new memory)", 'Markdown, ≤ 4000 characters ("" empties it)')


@pytest.mark.slow
def test_write_rename_from(project):
    assert run_cli("--project", project, "write", "ci", "-d", "CI runs on GitHub Actions", "-t", "project",
                   "--body", "Workflows live in .github.").returncode == 0
    out = run_cli("--project", project, "write", "ci-runner", "--rename-from", "ci", "-d", "CI runs on GitHub Actions",
                  "-t", "project", "--body", "Workflows live in .github.", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["operation"] == "renamed"
    listed = run_cli("--project", project, "list", "--json")
    assert [m["name"] for m in json.loads(listed.stdout)["memories"]] == ["ci-runner"]  # the old name is gone
    missing = run_cli("--project", project, "write", "x-y", "--rename-from", "no-such", "-d", "d", "-t", "project",
                      "--body", "b")
    assert missing.returncode == 1 and 'cannot rename "no-such"' in missing.stderr
