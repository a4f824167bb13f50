"""Home-wide upkeep asks each layer where it keeps its journal and ``layer.json`` (``Layer.meta``) instead of
building ``<layer>/.memdir/…`` itself (left23): a team layer keeps them in ``<home>/team/<key>/.memdir``, never
beside its files in the repository, and a repository known here by its team layer alone has no
``projects/<key>``.

Before, ``memdir verify --repair`` walked the user and project directories only, so a team layer's torn journal
line stayed reported after the repair that says it cuts torn tails; and ``doctor``'s orphaned layers read a
team-only repository's identity from ``projects/<key>/.memdir/layer.json`` (no such file), so a moved clone of it
was never named as its project."""

from __future__ import annotations

import shutil

import pytest

from memdir.operations import maintenance
from tests.teamgit import shared_repository


@pytest.fixture
def clones(tmp_path):
    return shared_repository(tmp_path)


def _tear(journal) -> None:
    with open(journal, "ab") as handle:
        handle.write(b'{"seq": 99, "actor": "hu')  # a writer killed mid-append


def test_repair_cuts_a_team_layer_s_torn_journal_tail(clones):
    a, _ = clones
    mem = a.memory()
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.", scope="team")
    mem.write("ci", "CI runs on GitHub Actions", "project", "", scope="project")
    team, project = mem.session.layer("team"), mem.session.layer("project")
    assert str(a.home) in str(team.journal.path) and str(a.root) not in str(team.journal.path)  # in the home
    _tear(team.journal.path)
    _tear(project.journal.path)
    checks = {c.layer: c for c in mem.verify().layers}
    assert checks[str(team.meta.parent)].error == "torn last line (no newline)"
    assert checks[str(project.path)].error == "torn last line (no newline)"  # control: the project layer's too
    repaired = {c.layer: c for c in mem.repair().layers}
    assert repaired[str(team.meta.parent)].ok, repaired[str(team.meta.parent)].error  # before: still torn
    assert repaired[str(project.path)].ok  # control: repaired before too
    assert mem.verify().ok and team.journal.path.read_bytes().endswith(b"\n")
    assert [e.name for e in team.journal.events()] == ["db-port"]  # the whole events kept


def test_an_orphan_known_by_its_team_layer_alone_is_matched_to_its_moved_clone(clones, tmp_path):
    a, b = clones
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "", scope="team")
    a.publish("db port", b)
    assert "5433" in b.memory().context()  # B's home knows the repository by its team layer only
    assert not (b.home / "projects").exists() or not any((b.home / "projects").iterdir())
    moved = tmp_path / "moved-b"
    shutil.move(str(b.root), str(moved))
    [orphan] = maintenance.orphans(b.home, moved)
    assert orphan.belongs_to == str(moved) and orphan.because.startswith("same git remote")  # before: None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    [unmatched] = maintenance.orphans(b.home, elsewhere)  # control: a directory of no such repository
    assert unmatched.key == orphan.key and unmatched.belongs_to is None and unmatched.because is None
