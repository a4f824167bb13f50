"""What the context block (``memdir context``, Claude Code's SessionStart hook) says while a team memory is held
back by a merge conflict or a forgotten value put back (DESIGN §6, §11). Real git in temp dirs: two clones of a
bare repository. One line before the block says a memory waits and the command that settles it; the held file's
name and text never reach the prompt; the block never says that no memory is saved."""

from __future__ import annotations

import json

import pytest

from memdir.prompt.context import EMPTY_NOTE, HELD_EMPTY_NOTE
from tests.conftest import run_cli
from tests.operations.test_held_back import forgotten_meets_edit  # noqa: F401 — a fixture
from tests.operations.test_team_merge import _diverge
from tests.teamgit import shared_repository

CONFLICT_LINE = ("memdir: held back, not shown: 1 team memory file with an unresolved merge conflict "
                 "(`memdir team status` names it and `memdir team resolve NAME` settles it).")
HELD_LINE = ("memdir: held back, not shown: 1 team memory file holding a value forgotten before "
             "(`memdir doctor` names it with the two commands that settle it).")
A_SIDE, B_SIDE = "Dev PostgreSQL listens on 5434 since December", "Dev PostgreSQL listens on 6543 in the container"


def _conflict(tmp_path, *, others: bool):
    """A and B change db-port's description (and ``others``: ci stays a team memory beside it); B's pull stops
    on the conflict. Returns B, and ``memdir context`` as B's session start saw it before the conflict."""
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", scope="team")
    if others:
        a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.commit_all("team memories")
    a.push()
    b.pull()
    b.memory().team_init()
    before = _context(b)
    pulled = _diverge(a, b, {"description": A_SIDE}, {"description": B_SIDE})
    assert pulled.returncode != 0 and "<<<<<<<" in (b.team_dir / "db-port.md").read_text()
    return b, before


def _context(b) -> str:
    out = run_cli("context", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert out.returncode == 0, out.stderr
    return out.stdout


def _session_start(b) -> str:
    """additionalContext of Claude Code's SessionStart hook in B's clone."""
    hook = {"session_id": "s1", "cwd": str(b.root), "hook_event_name": "SessionStart", "source": "startup"}
    out = run_cli("hook", "claude-code", "SessionStart", input=json.dumps(hook), env={"MEMDIR_HOME": str(b.home)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.slow
def test_the_only_team_memory_conflicted_is_said_held_back_not_that_none_is_saved(tmp_path):
    b, before = _conflict(tmp_path, others=False)
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in before and "held back" not in before
    for text in (_context(b), _session_start(b)):
        assert text.splitlines()[0] == CONFLICT_LINE
        assert HELD_EMPTY_NOTE in text and EMPTY_NOTE not in text
        assert "## How to use memory" in text  # the guidance still given
        assert "5434" not in text and "6543" not in text and "db-port" not in text  # nothing of the held file
    done = run_cli("team", "resolve", "db-port", "--ours", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert done.returncode == 0, done.stderr
    settled = _context(b)
    assert "held back" not in settled and f"- [db-port](db-port.md) — {B_SIDE}" in settled


@pytest.mark.slow
def test_a_conflict_beside_other_team_memories_is_said_once_before_the_block(tmp_path):
    b, _ = _conflict(tmp_path, others=True)
    text = _context(b)
    lines = text.splitlines()
    assert lines[0] == CONFLICT_LINE and lines[1] == "<memory_context>"
    assert "- [ci](ci.md) — CI runs on GitHub Actions" in text  # the control: the rest is shown
    assert "5434" not in text and "6543" not in text and "db-port" not in text
    assert text.count("held back") == 1 and EMPTY_NOTE not in text and HELD_EMPTY_NOTE not in text


@pytest.mark.slow
def test_a_forgotten_team_memory_put_back_by_git_is_said_held_back(forgotten_meets_edit):  # noqa: F811
    _a, b, _stone = forgotten_meets_edit
    text = _context(b)
    assert text.splitlines()[0] == HELD_LINE
    assert "- [ci](ci.md) — CI runs on GitHub Actions" in text and "5433" not in text  # control; the held value not
    deleted = run_cli("delete", "db-port", "--scope", "team", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert deleted.returncode == 0, deleted.stderr
    assert "held back" not in _context(b)
    last = [e for e in b.memory().session.layer("team").journal.events() if e.name == "db-port"][-1]
    assert (last.action, last.after) == ("delete", None) and last.before is not None  # B's version, deleted
