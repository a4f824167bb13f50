"""The CLI started with a standard stream closed (``<&-``, ``>&-``, ``2>&-``: a daemon, a cron job, a
supervisor) or with a stdout that cannot be written (``/dev/full``): a clear message and an exit
code, never a traceback; with ``--json`` stdout holds one JSON document and nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # each runs the CLI in a subprocess


def _memdir(*args, project, close: int | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """The real CLI in a subprocess, run in ``project``, with file descriptor ``close`` closed in it."""
    return subprocess.run([sys.executable, "-m", "memdir.cli", *args], stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, cwd=project, timeout=120,
                          preexec_fn=(lambda: os.close(close)) if close is not None else None)


def _names(project) -> set[str]:
    listed = _memdir("list", "--json", project=project)
    return {m["name"] for m in json.loads(listed.stdout)["memories"]}


def test_write_with_stdin_closed_writes_without_a_body(project):
    done = _memdir("write", "closed-in", "-d", "Written with stdin closed", "--json", project=project, close=0)
    assert (done.returncode, "Traceback" in done.stderr) == (0, False), done.stderr
    assert json.loads(done.stdout)["operation"] == "created"
    assert "closed-in" in _names(project)


def test_a_body_asked_from_a_closed_stdin_is_a_clear_json_error(project):
    done = _memdir("write", "closed-body", "-d", "Body from a closed stdin", "--body-file", "-", "--json",
                   project=project, close=0)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout) == {"kind": "InvalidInput", "error": "--body-file - reads the body from stdin, "
                                       "which is closed; nothing was written"}
    recalled = _memdir("recall", "--json", project=project, close=0)
    assert recalled.returncode == 1 and json.loads(recalled.stdout)["kind"] == "InvalidInput"
    assert "closed-body" not in _names(project)
    control = _memdir("write", "open-body", "-d", "Body from an open stdin", "--json", project=project)
    assert control.returncode == 0 and "open-body" in _names(project)


@pytest.mark.parametrize("command", [("list",), ("list", "--json"), ("context",), ("read", "kept")])
def test_a_closed_stdout_is_said_on_stderr(project, command):
    assert _memdir("write", "kept", "-d", "A memory to print", project=project).returncode == 0  # control
    done = _memdir(*command, project=project, close=1)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == "memdir: the result was not printed: stdout is closed"


def test_a_write_whose_stdout_is_closed_is_still_written(project):
    done = _memdir("write", "no-stdout", "-d", "Written with stdout closed", "--json", project=project, close=1)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "no-stdout" in _names(project)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_stdout_is_said_on_stderr(project):
    assert _memdir("write", "kept", "-d", "A memory to print", project=project).returncode == 0
    with open("/dev/full", "w") as full:
        done = _memdir("read", "kept", "--json", project=project, stdout=full)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == ("memdir: the result was not printed: stdout cannot be written "
                                                    "(No space left on device)")


def test_with_stderr_closed_the_json_on_stdout_stays_one_document(project):
    done = _memdir("write", "Bad/Name", "-d", "A name that warns", "--json", project=project, close=2)
    assert done.returncode == 0
    result = json.loads(done.stdout)  # a warning printed to stdout would make this two documents
    assert result["name"] == "bad-name"
    assert result["warnings"] == ["name 'Bad/Name' was normalized to 'bad-name' (kept as the title)"]
