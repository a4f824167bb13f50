"""`memdir consolidate`, the hooks' queue, and `memdir ingest --claude-code`, through the real CLI."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)


def cc(path: Path, cwd: Path, text: str, session: str = "s1") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {"type": "user", "timestamp": "2026-11-25T09:00:00Z", "sessionId": session, "cwd": str(cwd),
         "message": {"role": "user", "content": text}},
        {"type": "assistant", "timestamp": "2026-11-25T09:00:02Z", "sessionId": session, "cwd": str(cwd),
         "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "Noted."}]}},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def names(project: Path, *extra) -> list[str]:
    done = run_cli("list", "--json", "--all", "--project", project, *extra)
    assert done.returncode == 0, done.stderr
    return [m["name"] for m in json.loads(done.stdout)["memories"]]


def test_consolidate_command_json_and_failure_exit_code(tmp_path, project):
    path = cc(tmp_path / "t.jsonl", project, "Remember that the docs live in docs/site.")
    done = run_cli("consolidate", path, "--json", "--extractor", "rules", "--project", project)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "ok" and data["outcomes"][0]["result"] == "created"
    assert data["outcomes"][0]["name"] == "docs-live-site" and data["receipt"]["scope"] == "project"
    assert names(project) == ["docs-live-site"]
    again = run_cli("consolidate", path, "--project", project)
    assert again.returncode == 0 and "consolidated before; nothing done (--force runs it again)" in again.stdout
    forced = run_cli("consolidate", path, "--force", "--json", "--extractor", "rules", "--project", project)
    assert json.loads(forced.stdout)["status"] == "noop"  # it ran again, not "seen": the memory holds it already

    other = cc(tmp_path / "u.jsonl", project, "Remember that CI runs nightly.")
    failed = run_cli("consolidate", other, "--extractor", "llm", "--project", project,
                     env={"DEEPSEEK_API_KEY": "", "OPENAI_API_KEY": ""})
    assert failed.returncode == 1 and "no API key" in failed.stdout
    assert names(project) == ["docs-live-site"]
    missing = run_cli("consolidate", tmp_path / "nope.jsonl", "--project", project, "--json")
    assert missing.returncode == 1 and "nope.jsonl does not exist" in missing.stderr
    assert json.loads(missing.stdout) == {"error": f"transcript {tmp_path / 'nope.jsonl'} does not exist",
                                          "kind": "InvalidInput"}
    folder = run_cli("consolidate", tmp_path, "--project", project)
    assert folder.returncode == 1 and "is a directory" in folder.stderr


def test_queue_drain_uses_each_lines_cwd_and_logs(tmp_path, isolated_home):
    one = tmp_path / "one"
    two = tmp_path / "two"
    for root in (one, two):
        (root / ".git").mkdir(parents=True)
    t1 = cc(tmp_path / "t1.jsonl", one, "Remember that service one listens on 7001.")
    t2 = cc(tmp_path / "t2.jsonl", two, "Remember that service two listens on 7002.", session="s2")
    queue = isolated_home / "queue" / "consolidate.jsonl"
    queue.parent.mkdir(parents=True)
    rows = [{"transcript_path": str(t1), "cwd": str(one), "session_id": "s1", "event": "PreCompact", "ts": "x"},
            {"transcript_path": str(t1), "cwd": str(one), "session_id": "s1", "event": "SessionEnd", "ts": "y"},
            {"transcript_path": str(t2), "cwd": str(two), "session_id": "s2", "event": "SessionEnd", "ts": "z"}]
    queue.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n", encoding="utf-8")
    done = run_cli("consolidate", "--queue", "--json", "--extractor", "rules")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [(r["transcript_path"], r["status"], r["applied"]) for r in results] == [
        (str(t1), "ok", 1), (str(t2), "ok", 1)]
    assert names(one) == ["service-one-listens-7001"] and names(two) == ["service-two-listens-7002"]
    assert not queue.exists() and [p.name for p in queue.parent.iterdir()] == ["drain.lock"]
    log = (isolated_home / "logs" / "consolidate.log").read_text()
    assert "skipped a malformed queue line" in log
    assert f"ok applied=1 event=SessionEnd {t1}" in log and f"ok applied=1 event=SessionEnd {t2}" in log
    assert run_cli("consolidate", "--queue").stdout.strip() == "queue is empty"


def test_detached_drain_logs_to_memdir_home(tmp_path, isolated_home, project):
    t1 = cc(tmp_path / "t1.jsonl", project, "Remember that the cache lives in /var/cache/app.")
    queue = isolated_home / "queue" / "consolidate.jsonl"
    queue.parent.mkdir(parents=True)
    queue.write_text(json.dumps({"transcript_path": str(t1), "cwd": str(project), "session_id": "s1",
                                 "event": "SessionEnd", "ts": "x"}) + "\n", encoding="utf-8")
    started = time.monotonic()
    done = run_cli("consolidate", "--queue", "--detach", "--extractor", "rules")
    assert done.returncode == 0 and "in the background" in done.stdout
    log = isolated_home / "logs" / "consolidate.log"
    while time.monotonic() - started < 20 and "applied=" not in (log.read_text() if log.exists() else ""):
        time.sleep(0.1)
    assert f"ok applied=1 event=SessionEnd {t1}" in log.read_text()
    assert names(project) == ["cache-lives-var-app"]


def test_ingest_claude_code_transcripts_of_this_project(tmp_path, project):
    config = tmp_path / "claude-config"
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    mine = cc(config / "projects" / "-work-proj" / "a.jsonl", project / "sub",
              "Remember that fixtures live in tests/data.")
    (project / "sub").mkdir()
    cc(config / "projects" / "-other" / "b.jsonl", other, "Remember that the other app uses Redis 7.")
    cc(config / "projects" / "-other" / "sub" / "c.jsonl", other, "Remember that nothing is read from here.")
    env = {"CLAUDE_CONFIG_DIR": str(config)}
    done = run_cli("ingest", "--claude-code", "--project", project, env=env)
    assert done.returncode == 0, done.stderr
    assert "1 transcript(s)" in done.stdout and ": 1 consolidated into memories; 1 change(s)" in done.stdout
    assert done.stderr == ""  # a log (stderr not a terminal) gets no bar frames: before, 0% and 100% lines
    assert names(project) == ["fixtures-live-tests-data"]
    assert names(other) == []  # another project's session is not read without --all
    again = run_cli("ingest", "--claude-code", "--project", project, "--json", env=env)
    assert json.loads(again.stdout)["counts"] == {"seen": 1}
    everything = run_cli("ingest", "--claude-code", "--all", "--json", env=env)
    data = json.loads(everything.stdout)
    assert data["counts"] == {"ok": 1, "seen": 1} and mine.exists()
    assert names(other) == ["other-app-uses-redis-7"]


def test_ingest_draws_its_bar_once_on_a_terminal(tmp_path, project):
    import os
    import pty
    import subprocess
    import sys

    config = tmp_path / "claude-config"
    for n in range(3):
        cc(config / "projects" / "-work-proj" / f"{n}.jsonl", project, f"Remember that fact {n} holds here.")
    import fcntl
    import struct
    import termios
    import threading

    main_fd, term_fd = pty.openpty()
    fcntl.ioctl(term_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # a 100-column terminal
    chunks: list[bytes] = []

    def read_terminal():  # read while the child writes: a pty's buffer is lost once its last writer closes
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    done = subprocess.run([sys.executable, "-m", "memdir.cli", "ingest", "--claude-code", "--project", str(project)],
                          stderr=term_fd, stdout=subprocess.PIPE, text=True, timeout=120,
                          env=dict(os.environ, CLAUDE_CONFIG_DIR=str(config)))
    os.close(term_fd)
    reader.join(timeout=10)
    os.close(main_fd)
    assert done.returncode == 0 and "3 transcript(s)" in done.stdout
    text = b"".join(chunks).decode("utf-8", "replace")
    assert "ingest:   0%" in text  # the bar, on the terminal
    assert text.endswith(" " * 50 + "\r")  # then wiped: the summary on stdout is the one final line
