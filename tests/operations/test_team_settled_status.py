"""``team status`` after a team memory's merge conflict was settled in the file (``memdir team resolve``) but
not yet added: git still lists it as conflicted, and status only said "conflicted", with no next step
(team33). Now it says it is settled and to ``git add`` it; before the settlement it says how to resolve."""

from __future__ import annotations

from tests.teamgit import shared_repository


def test_status_says_a_settled_conflict_waits_for_git_add(tmp_path):
    a, b = shared_repository(tmp_path)
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "Line one.\n\nLine two.", scope="team")
    a.publish("team: db-port", b)
    a.memory().write("db-port", body="Line one, by Ana.\n\nLine two.", scope="team")
    a.commit_all("a")
    a.push()
    mb = b.memory(search_vectors="off")
    mb.write("db-port", body="Line one, by Bo.\n\nLine two.\n\nLine three by Bo.", scope="team")
    b.commit_all("b")
    assert b.pull(check=False).returncode == 1
    before = mb.team_status()
    assert before.settled == () and [p.rsplit("/", 1)[-1] for p in before.conflicts] == ["db-port.md"]
    mb.team_resolve("db-port", "theirs")
    after = mb.team_status()
    assert after.conflicts == () and after.settled == (".claude/memory/db-port.md",)
    from memdir.render.team import team_status
    assert ("  settled, not yet added: .claude/memory/db-port.md — `git add` it, then commit the merge"
            in team_status(after).splitlines())
    assert (b.team_dir / "db-port.md").read_text(encoding="utf-8").endswith(
        "Line one, by Ana.\n\nLine two.\n\nLine three by Bo.\n")
