"""A hook's first runs in a home not made yet create nothing there (keep32): a session start that gave the empty
block and a prompt that recalled nothing made ``<home>/sessions`` (the once-per-event claim, the start's record,
the lock), and with it the home, so the prompt then made ``index.sqlite``, ``embed.lock`` and ``embed.log`` too.
What a session must remember (the block given, the claim) is kept in the runtime directory until the first write
makes the home; a prompt that recalls a memory records it in the home (the control)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir.prompt import recalled, sessionfiles
from tests.conftest import run_cli


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    return run / "memdir"


def _hook(event: str, project, home, session: str = "s-new", **fields) -> str:
    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": event, **fields})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event, "--home", str(home)],
                          input=payload, capture_output=True, text=True, timeout=120, check=False,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
    assert done.returncode == 0 and "error" not in done.stderr, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def _files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_hooks_in_a_new_home_make_nothing_there_until_there_is_something_to_record(tmp_path, project, runtime):
    home = tmp_path / "brand-new" / "memdir"
    start = _hook("SessionStart", project, home, source="startup")
    assert "No memory is saved yet for this person or this project." in start
    assert _hook("UserPromptSubmit", project, home, prompt="which port does the dev database listen on?") == ""
    assert not (tmp_path / "brand-new").exists(), _files(tmp_path / "brand-new")  # before: sessions/, index, embed.*
    # What the session must remember is remembered: the start's block, in the runtime directory's record …
    key = recalled.session_key(recalled.record_id("s-new", os.path.realpath(project)))[:16]
    spare = runtime / sessionfiles.SESSIONS_DIR / f"{recalled.digest(os.path.realpath(home))}-{key}.json"
    assert json.loads(spare.read_text())["start"].split(" ")[1] == recalled.digest(start)
    assert recalled.start_given(home, "s-new", os.path.realpath(project)) == recalled.digest(start)
    # … and each event's claim (two installs of memdir give one block), named by the home
    claims = sorted(p.name.split("-")[0] for p in (runtime / "sessions" / "once").iterdir())
    assert claims == [recalled.digest(os.path.realpath(home))] * 2
    # The control: the first write makes the home; a prompt that recalls the memory records it there.
    wrote = run_cli("--home", home, "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project",
                    "--body", "Moved from 5432 on 2026-11-02.", cwd=project)
    assert wrote.returncode == 0, wrote.stderr
    given = _hook("UserPromptSubmit", project, home, prompt="which port does the dev postgresql database listen on?")
    assert "Moved from 5432 on 2026-11-02." in given
    record = json.loads((home / sessionfiles.SESSIONS_DIR / f"{key}.json").read_text())
    assert list(record["shown"]) == ["project/db-port"]
    assert record["start"].split(" ")[1] == recalled.digest(start)  # the runtime's record went back to the home
    assert not spare.exists()
    assert (home / "sessions" / "once").is_dir()  # claims in the home, now that it is there


def test_a_held_start_in_a_new_home_is_given_by_the_next_prompt(tmp_path, project, runtime):
    home = tmp_path / "brand-new" / "memdir"
    assert recalled.hold_start(home, "s-g", "the start's text", project, "d1") is True
    assert not home.exists()
    assert recalled.take_start(home, "s-g", project) == ("the start's text", "d1")
    assert recalled.take_start(home, "s-g", project) == ("", None)  # given once
    home.mkdir(parents=True)  # control: a home that is there holds it itself
    assert recalled.hold_start(home, "s-g", "again", project) is True
    assert [p.name.endswith(sessionfiles.HELD_SUFFIX) for p in (home / sessionfiles.SESSIONS_DIR).iterdir()] == [True]
    assert recalled.take_start(home, "s-g", project) == ("again", None)
