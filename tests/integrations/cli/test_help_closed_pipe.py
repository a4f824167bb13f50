"""A help page or ``--version`` printed into a closed pipe ends quietly (hostile tester, int43): ``memdir sync init
--help | (exec 0<&-; true)`` ended in a BrokenPipeError traceback 10/10 (also ``sync status --help``, ``sync
resolve --help``; ``memdir --version`` too), while every other command's help, printed by argparse, was clean.
The sync pages print as argparse prints, ``--version`` as a command's result, and a usage error's line on a
stderr that cannot take it keeps its exit 2. Real subprocesses write into a pipe whose reader is gone; each
control reads the same output from an open pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # real subprocesses

PAGES = [("sync", "init", "--help"), ("sync", "status", "--help"), ("sync", "resolve", "--help"),
         ("sync", "--help"), ("write", "--help"), ("--version",)]


def closed(args, into: str = "stdout") -> subprocess.CompletedProcess:
    """Run ``memdir ARGS`` with its ``into`` (stdout or stderr) a pipe nobody reads (the reader closed first); the
    other stream captured."""
    read, write = os.pipe()
    os.close(read)
    try:
        streams = {"stdout": write, "stderr": subprocess.PIPE} if into == "stdout" else \
            {"stdout": subprocess.PIPE, "stderr": write}
        return subprocess.run([sys.executable, "-m", "memdir.cli", *args], check=False, text=True, timeout=60, **streams)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", PAGES, ids=" ".join)
def test_a_page_into_a_closed_pipe_ends_quietly(args, isolated_home):
    done = closed(args)
    assert (done.returncode, done.stderr) == (0, "")  # before (sync ACTION --help, --version): a traceback, exit 1
    shown = subprocess.run([sys.executable, "-m", "memdir.cli", *args], check=False, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stderr == ""  # control: read, the page is there
    first = {"init": "usage: memdir sync init REMOTE", "status": "usage: memdir sync status",
             "resolve": "usage: memdir sync resolve NAME"}.get(args[1] if len(args) > 2 else "", "")
    assert shown.stdout.startswith(first or ("memdir " if args == ("--version",) else "usage: memdir "))


def test_a_usage_error_into_a_closed_stderr_keeps_exit_2(isolated_home):
    done = closed(("lst",), into="stderr")
    assert (done.returncode, done.stdout) == (2, "")  # before: 1 (a traceback nobody could read)
    shown = subprocess.run([sys.executable, "-m", "memdir.cli", "lst"], check=False, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 2 and "did you mean 'list'?" in shown.stderr  # control: the line, read


def test_version_into_a_closed_stdout_is_said(isolated_home):
    done = subprocess.run([sys.executable, "-m", "memdir.cli", "--version"], check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")  # control: a stdout that takes it
    gone = subprocess.run(f"{sys.executable} -m memdir.cli --version >&-", check=False, shell=True, stderr=subprocess.PIPE,
                          text=True, timeout=60)
    assert (gone.returncode, gone.stderr) == (1, "memdir: the result was not printed: stdout is closed\n")


# Every error's JSON document (restore43's leftover, left44c): argparse's usage error, no command, a command's own
# usage error, and — exit 1 — a memdir error. Each wrote into the gone stdout unguarded: a traceback, exit 1.
ERRORS = [(("list", "--json", "--bogus"), 2, "UsageError"), (("--json",), 2, "UsageError"),
          (("team", "resolve", "--json"), 2, "UsageError"), (("read", "nothere", "--json"), 1, "NotFound")]


@pytest.mark.parametrize(("args", "code", "kind"), ERRORS, ids=[" ".join(a) for a, _, _ in ERRORS])
def test_an_error_s_json_into_a_closed_pipe_or_stdout_ends_quietly_with_its_code(args, code, kind, isolated_home):
    done = closed(args)
    assert done.returncode == code and "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.stderr.strip()  # the error's own line (or argparse's usage) is still said on stderr
    shut = subprocess.run(" ".join([sys.executable, "-m", "memdir.cli", *args]) + " >&-", check=False, shell=True,
                          stderr=subprocess.PIPE, text=True, timeout=60)
    assert shut.returncode == code and "Traceback" not in shut.stderr, shut.stderr
    # control: an open stdout reads the one JSON document, the same code
    shown = subprocess.run([sys.executable, "-m", "memdir.cli", *args], check=False, capture_output=True, text=True,
                           timeout=60)
    assert shown.returncode == code and json.loads(shown.stdout)["kind"] == kind
