"""How the index names a layer (:func:`memdir.search.index.layer_key`), and a team layer in a clone whose path is
not UTF-8 (break9): SQLite stores UTF-8 text only, so a team layer at ``/w/caf\\xe9`` ended search, status and the
prompt hook in a traceback (UnicodeEncodeError: surrogates not allowed) — the hook recalled nothing of any layer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memdir.search.index import layer_key
from tests.conftest import run_cli

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]


def test_a_layer_is_named_by_its_path_and_one_that_is_not_utf8_by_its_bytes():
    home = Path("/h")
    assert layer_key(home, Path("/h/_user")) == "_user"
    assert layer_key(home, Path("/h/projects/k1")) == "projects/k1"
    assert layer_key(home, Path("/w/café/.claude/memory")) == "/w/café/.claude/memory"  # UTF-8: as it is
    latin = Path(os.fsdecode(b"/w/caf\xe9/.claude/memory"))
    assert layer_key(home, latin) == "~bytes/" + b"/w/caf\xe9/.claude/memory".hex()
    assert layer_key(home, latin).encode("utf-8")  # text SQLite takes
    literal = Path("/w/caf\\xe9/.claude/memory")  # a directory literally named with a backslash: another key
    assert layer_key(home, literal) == "/w/caf\\xe9/.claude/memory" != layer_key(home, latin)


def test_a_team_layer_in_a_clone_whose_path_is_not_utf8_is_searched_and_recalled(tmp_path, isolated_home):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off", "MEMDIR_ACTOR": "human"}
    latin, utf8 = tmp_path / os.fsdecode(b"lat\xe9"), tmp_path / "café"
    for repo, day in ((latin, "Fridays"), (utf8, "Mondays")):
        (repo / ".claude" / "memory").mkdir(parents=True)
        subprocess.run([*GIT, "init", "-q", str(repo)], check=True)
        assert run_cli("team", "trust", "--project", repo, env=env).returncode == 0
        written = run_cli("write", "team-fact", "-d", f"The team lever is pulled on {day}", "-t", "project", "--scope",
                          "team", "--body", f"Ask Dana first; on {day} the lever sits in the east hall.",
                          "--project", repo, env=env)
        assert written.returncode == 0, written.stderr
        run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--project", repo,
                env=env)
    for repo, day in ((latin, "Fridays"), (utf8, "Mondays")):  # the Latin-1 clone, and a UTF-8 one (control)
        found = run_cli("search", "team lever", "--project", repo, env=env)
        assert (found.returncode, found.stderr) == (0, ""), found.stderr
        line = f"- team-fact (type: project; layer: team) relevance 1.00 — The team lever is pulled on {day}"
        assert line in found.stdout
        assert "db-port" not in found.stdout  # control: only what matches
        status = run_cli("status", "--project", repo, env=env)
        assert status.returncode == 0 and "team: 1 memory (1 in the index" in status.stdout
        hook = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                              input=json.dumps({"cwd": str(repo), "session_id": "s",
                                                "prompt": "when is the team lever pulled?",
                                                "hook_event_name": "UserPromptSubmit"}),
                              env=dict(os.environ, **env), capture_output=True, text=True, timeout=60)
        assert (hook.returncode, hook.stderr) == (0, "")  # before: "skipped after an error: UnicodeEncodeError"
        recalled = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
        assert f"on {day} the lever sits in the east hall" in recalled and "5433" not in recalled
