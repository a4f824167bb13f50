"""`memdir write NAME -d …` with a pipe on stdin that stays open and empty (newuser30): a script's
``subprocess`` with ``stdin=PIPE``, or ``(sleep 8) | memdir write …``, waited in silence for the body. It
now says on stderr, after :data:`memdir.integrations.cli.common.STDIN_QUIET` s, what it waits for, and still
reads the pipe: a slow producer's body is kept."""

from __future__ import annotations

import subprocess
import sys
import time

from memdir import Memory

WAITING = ("memdir: waiting for the body on stdin (a pipe still open); close it, or give --body, --body-file, "
           "or </dev/null for no body")


def _write(project, name: str):
    return subprocess.Popen([sys.executable, "-m", "memdir.cli", "--project", str(project), "write", name,
                             "-d", "Staging deploys need the VPN", "-t", "project"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_an_open_empty_pipe_is_said_and_a_late_body_kept(isolated_home, project):
    proc = _write(project, "vpn")
    said = b""
    deadline = time.monotonic() + 60
    while WAITING.encode() not in said and time.monotonic() < deadline:
        said += proc.stderr.read1(4096) if hasattr(proc.stderr, "read1") else proc.stderr.read(1)
    assert WAITING.encode() in said
    out, err = proc.communicate(b"Connect with `vpn up staging` first.\n", timeout=60)
    assert proc.returncode == 0, err
    assert Memory.open(home=isolated_home, project=project).read("vpn").record.body == "Connect with `vpn up staging` first."

    # Control: a body there at once is read without the line.
    quick = _write(project, "vpn-two")
    out, err = quick.communicate(b"Ask in #infra.\n", timeout=60)
    assert quick.returncode == 0 and b"waiting for the body" not in err, err
    assert Memory.open(home=isolated_home, project=project).read("vpn-two").record.body == "Ask in #infra."
