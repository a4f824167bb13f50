"""A deleted memory's file put back by hand (a backup, `git checkout`) is held back, and doctor names it as a
problem with the two commands that settle it (issue 28 trial; DESIGN §5: nothing resurrected)."""

from __future__ import annotations


def test_doctor_names_a_hand_restored_file_that_holds_a_forgotten_value(person):
    person.write("cafe-wifi", "Office café network is guest-only", "project", "")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    layer = person.session.layers("project")[0]
    kept = (layer.path / "cafe-wifi.md").read_bytes()
    stone = person.delete("cafe-wifi").tombstone
    assert [p for p in person.doctor().problems if "held back" in p.error] == []  # deleted: nothing to say
    (layer.path / "cafe-wifi.md").write_bytes(kept)  # put back by hand
    assert [m.name for m in person.list().memories] == ["db-port"]  # held back; the control is listed
    problems = [p for p in person.doctor().problems if "held back" in p.error]
    assert [(p.path, p.error) for p in problems] == [(str(layer.path / "cafe-wifi.md"), (
        f"held back: it holds a value forgotten as 'cafe-wifi' (the same value; tombstone {stone}); the agent "
        f"never sees it until a person settles it: `memdir delete cafe-wifi --scope project` removes it, "
        f"`memdir tombstone lift {stone} --scope project` keeps it"))]
    assert "db-port" not in problems[0].error  # control: a live memory no tombstone matches is not named


def test_the_command_the_problem_names_deletes_the_put_back_file_when_another_layer_holds_the_name(person, project):
    """A name in two layers (the user's put back by hand, a project memory of the same name): the problem's
    ``memdir delete`` names the layer, so it runs and deletes that one (was: `memdir delete lang`, refused: "'lang'
    is in the user and project layers; say which"). Control: the project's memory of that name stays."""
    import shlex

    from ..conftest import run_cli

    person.write("lang", "Answers in English", "user", "always English")
    person.write("lang", "The project language is Rust", "project", "rust 1.80", scope="project")
    user = person.session.layers("user")[0]
    kept = (user.path / "lang.md").read_bytes()
    person.forget("lang", scope="user")
    (user.path / "lang.md").write_bytes(kept)  # put back by hand
    [problem] = [p for p in person.doctor().problems if "held back" in p.error]
    command = problem.error.split("`")[1]
    assert command == "memdir delete lang --scope user"
    done = run_cli(*shlex.split(command)[1:], "--project", project, cwd=project)
    assert done.returncode == 0, done.stderr
    assert not (user.path / "lang.md").exists()
    assert [(m.name, m.scope) for m in person.list().memories] == [("lang", "project")]
    assert [p for p in person.doctor().problems if "held back" in p.error] == []
