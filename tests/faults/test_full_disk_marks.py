"""The once-per-session marks a hook writes in the home on every session start and prompt leave nothing behind when
the disk is full (break44b): a file the disk had room to create but not to fill was left there, one per prompt —
the warm process's launch record (``.warm.starting.<pid>``: memdir.runtime.note_start) and the hooks' claim
of an event (``<key>.<pid>.<ns>``: memdir.integrations.claude_code.once.first). A full disk is a process whose
file-size limit (RLIMIT_FSIZE 0) refuses every byte written: the files are created, their text is not."""

from __future__ import annotations

import os
import subprocess
import sys

_MARKS = """
import os, resource, signal, sys, time
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing us
if sys.argv[2] == "full":
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
from memdir import runtime
from memdir.integrations.claude_code import once
home = sys.argv[1]
runtime.note_start(home, os.getpid(), time.time())
given = once.first(home, "claude-code", "UserPromptSubmit", {"session_id": "s1", "cwd": home, "prompt": "hi"}, "me")
print(given)
"""


def _run(home, how: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _MARKS, str(home), how], capture_output=True, text=True, timeout=60,
                          check=False)


def _files(home) -> list[str]:
    return sorted(os.path.relpath(os.path.join(top, name), home) for top, _dirs, names in os.walk(home)
                  for name in names)


def test_a_full_disk_leaves_no_mark_part_in_the_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    done = _run(home, "full")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True\n"  # the block is given all the same
    assert _files(home) == []  # no ".warm.starting.<pid>", no "sessions/once/<key>.<pid>.<ns>" left empty
    assert os.path.isdir(home / "sessions" / "once")  # the claim's folder was made: its mark was tried there


def test_with_room_the_marks_are_written(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    done = _run(home, "room")  # control: the same calls, no limit
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True\n"
    files = _files(home)
    assert files[0] == "sessions/once/" + os.listdir(home / "sessions" / "once")[0] and len(files) == 2
    assert files[1] == "warm.starting"
    assert (home / "warm.starting").read_text().split()[0].isdigit()
