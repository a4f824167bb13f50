"""What the journal records of a team memory file git left held back — with conflict markers, or a forgotten
value put back by git's modify/delete — and of what settles it (DESIGN §5, §11). Real git in temp dirs: two
clones of a bare repository. Such a file is no deletion: no ``external-delete`` while it waits, its last
version stays its head, and ``resolve``/``delete``/a lift journal what happened, the file's text kept."""

from __future__ import annotations

import time

import pytest

from tests.conftest import run_cli
from tests.operations.test_held_back import forgotten_meets_edit  # noqa: F401 — a fixture
from tests.operations.test_team_merge import BODY, _diverge, clones  # noqa: F401 — a fixture
from tests.teamgit import git


def _events(memory, name: str) -> list[tuple[str, str | None]]:
    """(action, reason) of each event of ``name`` in the team layer's journal, oldest first."""
    return [(e.action, e.reason) for e in memory.session.layer("team").journal.events() if e.name == name]


@pytest.mark.slow
def test_a_conflicted_team_file_is_no_delete_and_resolve_keeps_its_text(clones):  # noqa: F811
    a, b = clones
    time.sleep(1.1)
    git(a.root, "rm", "-q", ".claude/memory/ci.md")  # the control: a file gone for good
    pulled = _diverge(a, b, {"description": "Dev PostgreSQL listens on 5434 since December"},
                      {"description": "Dev PostgreSQL listens on 6543 in the container"})
    assert pulled.returncode != 0
    conflicted = (b.team_dir / "db-port.md").read_bytes()
    assert b"<<<<<<<" in conflicted and not (b.team_dir / "ci.md").exists()
    mem = b.memory()
    mem.list()  # the sweep: every file compared with the journal
    layer = mem.session.layer("team")
    assert [action for action, _ in _events(mem, "ci")][-1] == "external-delete"  # control: a real deletion
    assert [action for action, _ in _events(mem, "db-port")] == ["external-edit", "update"]  # no false delete
    b_version = layer.journal.head("db-port")
    assert layer.journal.get_object(b_version).startswith(b"---\nname: db-port\ndescription: Dev PostgreSQL "
                                                          b"listens on 6543 in the container\n")
    done = run_cli("team", "resolve", "db-port", "--theirs", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    assert done.returncode == 0, done.stderr
    mem = b.memory()
    journal = mem.session.layer("team").journal
    kept, resolved = [e for e in journal.events() if e.name == "db-port"][-2:]
    assert (kept.action, kept.reason, kept.before) == (
        "external-edit", "kept before memdir changed db-port.md with an unresolved merge conflict", b_version)
    assert journal.get_object(kept.after) == conflicted  # the conflicted text stays recoverable
    assert (resolved.action, resolved.before, resolved.reason) == ("resolve", kept.after, "merge conflict: kept theirs")
    history = run_cli("history", "db-port", "--scope", "team", "--project", b.root, env={"MEMDIR_HOME": str(b.home)})
    lines = history.stdout.splitlines()
    assert lines[0] == "4 version(s) of db-port (team):"
    assert lines[3].startswith("v3 ") and lines[3].endswith("— unresolved merge conflict")
    assert lines[4].startswith("v4 ") and lines[4].endswith("— Dev PostgreSQL listens on 5434 since December")
    assert "deleted" not in history.stdout


@pytest.mark.slow
def test_a_held_back_team_file_is_no_delete_and_delete_or_lift_journal_what_happened(forgotten_meets_edit):  # noqa: F811
    _a, b, stone = forgotten_meets_edit
    mem = b.memory()
    mem.list(scope="team")
    b_version = mem.session.layer("team").journal.head("db-port")
    assert b_version is not None  # B's own last version stays the head: not journaled as deleted
    assert "Ask in #platform" in mem.session.layer("team").journal.get_object(b_version).decode()
    assert "external-delete" not in [action for action, _ in _events(mem, "db-port")]
    lifted = b.memory()
    lifted.lift_tombstone(stone, scope="team")
    lifted.list(scope="team")  # the sweep: the file is a memory again, its bytes the head they were
    assert [action for action, _ in _events(lifted, "db-port")][-2:] == ["update", "tombstone-lift"]
    assert lifted.session.layer("team").journal.head("db-port") == b_version
    assert lifted.read("db-port", scope="team").record.body.endswith("Ask in #platform before changing it.")
