"""`memdir write`'s body read from a stream stops at the memory-file ceiling (break24): an endless
one (``--body-file /dev/zero``, stdin from ``/dev/urandom``) read without a bound never ended (the
process grew until killed); now it is refused at ``max_file_bytes`` + 1 bytes with a clear error and
nothing is written — beside a body under the ceiling, from each source, that is written whole."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real CLI processes

CEILING = 262144  # the max_file_bytes default


def _write(project, *args, stdin=subprocess.DEVNULL):
    # A timeout far above the refusal's fraction of a second: it only bounds the old endless read.
    return subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "write", *args],
                          stdin=stdin, capture_output=True, text=True, timeout=60)


def test_an_endless_body_file_or_stdin_is_refused_at_the_ceiling(isolated_home, project, tmp_path):
    said = (f"holds more than {CEILING} bytes, over the {CEILING}-byte ceiling of a memory file (max_file_bytes); "
            "nothing was written (split it into several memories)")
    out = _write(project, "zeros", "-d", "A body of zeros", "--body-file", "/dev/zero")
    assert out.returncode == 1 and out.stderr == f"memdir: --body-file /dev/zero {said}\n"
    with open("/dev/urandom", "rb") as endless:
        out = _write(project, "noise", "-d", "A body of noise", "--body-file", "-", stdin=endless)
    assert out.returncode == 1 and out.stderr == f"memdir: stdin {said}\n"
    with open("/dev/zero", "rb") as endless:
        out = _write(project, "piped", "-d", "A piped body", stdin=endless)
    assert out.returncode == 1 and out.stderr == f"memdir: stdin {said}\n"
    assert "zeros" not in run_cli("--project", project, "list").stdout
    body = tmp_path / "body.md"
    body.write_text("x" * (CEILING - 1000), encoding="utf-8")  # control: under the ceiling, written whole
    out = _write(project, "long", "-d", "A long body", "--body-file", str(body))
    assert out.returncode == 0 and out.stdout == "Memory created: long (project)\n", out.stderr
    with open(body, "rb") as piped:
        out = _write(project, "long-piped", "-d", "A long piped body", stdin=piped)
    assert out.returncode == 0 and out.stdout == "Memory created: long-piped (project)\n", out.stderr
    read = run_cli("--project", project, "read", "long-piped", "--json")
    assert '"x' + "x" * (CEILING - 1001) + '"' in read.stdout.replace("\n", "")


def test_an_endless_prompt_on_stdin_for_recall_is_refused_at_the_hooks_bound(isolated_home, project):
    """`memdir recall` with no prompt argument reads stdin: from /dev/zero it read forever (break24); now it
    stops at what a hook reads (4 MiB) and says so."""
    assert run_cli("--project", project, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-b",
                   "The dev database was moved to port 5433 because 5432 is taken.").returncode == 0
    with open("/dev/zero", "rb") as endless:
        out = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "recall"],
                             stdin=endless, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == ("memdir: stdin holds more than 4194304 bytes, more than a prompt a hook reads; nothing "
                          "recalled (give the prompt's words)\n")
    found = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "recall"],
                           input="which port does the dev postgres database listen on?", capture_output=True, text=True,
                           timeout=60)  # control: a prompt on stdin recalls
    assert found.returncode == 0 and "db-port" in found.stdout, found.stderr
