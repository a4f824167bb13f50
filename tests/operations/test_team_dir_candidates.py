"""A team memory file whose frontmatter says ``status: candidate`` (written by hand, or pulled) is a candidate
of the team layer as any layer's is: withheld from the context, listed by ``review`` and decided by
``approve``/``reject`` in place (team33). Before, ``list --all`` and ``status`` counted it as a candidate while
``review`` left it out, ``approve NAME`` said it was "already decided or changed meanwhile" and
``approve NAME --scope team`` that there was "no candidate called" it."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

PROPOSED = ("---\nname: use-uv\ndescription: Use uv for Python dependencies\ntype: project\nstatus: candidate\n"
            "---\nProposed by Ana: use uv, not pip-tools.\n")
ACTIVE = ("---\nname: lint-rule\ndescription: Run ruff before every commit\ntype: project\n---\n"
          "Agreed in the weekly.\n")


@pytest.fixture
def pulled(tmp_path):
    """Clone B after pulling A's commit of a hand-written candidate file and an active memory (the control)."""
    a, b = shared_repository(tmp_path)
    (a.team_dir / "use-uv.md").write_text(PROPOSED, encoding="utf-8")
    (a.team_dir / "lint-rule.md").write_text(ACTIVE, encoding="utf-8")
    a.publish("team: a proposal by hand, and a rule", b)
    return b


def test_review_lists_a_team_directory_candidate_and_approve_publishes_it_in_place(pulled):
    person = pulled.memory(search_vectors="off")
    block = person.context()
    assert "lint-rule" in block and "use-uv" not in block  # withheld, the active control shown
    shown = person.review().candidates
    assert [(c.name, c.scope, c.change) for c in shown] == [("use-uv", "team", "new")]
    assert "Proposed by Ana: use uv, not pip-tools." in shown[0].proposed
    decided = person.approve("use-uv", digest=shown[0].digest)
    assert (decided.name, decided.scope, decided.approved) == ("use-uv", "team", True)
    assert person.read("use-uv").record.status == "active"
    assert "use-uv" in person.context() and person.review().candidates == ()
    # the decision is a change of the repository's file, for the person to commit
    assert git(pulled.root, "status", "--porcelain").stdout.strip() == "M .claude/memory/use-uv.md"


def test_the_cli_shows_it_approves_it_with_scope_team_and_says_to_commit(pulled):
    env = {"MEMDIR_HOME": str(pulled.home), "MEMDIR_SEARCH_VECTORS": "off"}
    shown = run_cli("review", "--project", pulled.root, env=env)
    assert shown.returncode == 0 and "memdir approve use-uv --scope team" in shown.stdout, shown
    assert "lint-rule" not in shown.stdout  # control: an active team memory is no candidate
    done = run_cli("approve", "use-uv", "--scope", "team", "--project", pulled.root, env=env)
    assert done.returncode == 0, done.stderr
    assert "Approved use-uv → use-uv (team); commit it to share it" in done.stdout


def test_reject_tombstones_it_in_the_team_directory(pulled):
    person = pulled.memory(search_vectors="off")
    decided = person.reject("use-uv", scope="team")
    assert (decided.name, decided.scope, decided.approved) == ("use-uv", "team", False)
    assert not (pulled.team_dir / "use-uv.md").exists() and (pulled.team_dir / "lint-rule.md").exists()
    assert [(t.name, t.scope) for t in person.tombstones("team").tombstones] == [("use-uv", "team")]
