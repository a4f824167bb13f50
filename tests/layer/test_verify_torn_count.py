"""break30: a writer killed mid-line (SIGKILL inside :meth:`memdir.layer.journal.Journal.batched`'s sweep, or any
append) leaves a torn last line; `memdir verify` then said "BAD …: 0 events — torn last line" for a journal of 30
sound events, and checked none of them. It now checks the whole lines first: their count, and a failure among them
named before the torn tail."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _journal(person):
    for n in range(3):
        person.write(f"note-{n}", f"Note {n}", "project", f"body {n}")
    return person.session.layer("project").meta / "journal.jsonl"


def _verify(project, env):
    done = run_cli("--project", project, "verify", "--json", env=env)
    return done.returncode, {c["layer"]: c for c in json.loads(done.stdout)["layers"]}


def test_a_torn_last_line_is_reported_with_the_whole_lines_counted(person, project, isolated_home):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    path = _journal(person)
    layer = str(path.parent.parent)
    rc, checks = _verify(project, env)
    assert rc == 0 and (checks[layer]["ok"], checks[layer]["events"]) == (True, 3)  # control: sound
    whole = path.read_bytes()
    path.write_bytes(whole + whole.splitlines(keepends=True)[-1][:40])  # a fourth line cut mid-write
    rc, checks = _verify(project, env)
    assert rc == 1 and checks[layer]["error"] == "torn last line (no newline)"
    assert checks[layer]["events"] == 3 and checks[layer]["bad_line"] == 4  # before: 0 events
    lines = whole.splitlines(keepends=True)
    path.write_bytes(lines[0] + b'{"not": "an event"}\n' + lines[2] + lines[2][:40])  # a bad line before the tear
    rc, checks = _verify(project, env)
    assert rc == 1 and checks[layer]["error"].startswith("line 2 is not a valid event") and checks[layer]["events"] == 1
