"""A deleted memory's file put back by hand (a backup, `git checkout`) is named by doctor (issue 28 trial)."""

from __future__ import annotations


def test_doctor_names_a_hand_restored_file_that_holds_a_forgotten_value(person):
    person.write("cafe-wifi", "Office café network is guest-only", "project", "")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    layer = person.session.layers("project")[0]
    kept = (layer.path / "cafe-wifi.md").read_bytes()
    stone = person.delete("cafe-wifi").tombstone
    assert [n for n in person.doctor().notes if "forgotten value" in n] == []  # deleted: nothing to say
    (layer.path / "cafe-wifi.md").write_bytes(kept)  # put back by hand
    assert "cafe-wifi" in [m.name for m in person.list().memories]  # a person's hand edit is kept
    notes = [n for n in person.doctor().notes if "forgotten value" in n]
    assert notes == [f"project:cafe-wifi holds a forgotten value again (the same value; tombstone {stone}, memory "
                     f"'cafe-wifi', forgotten by human on {person.tombstones().tombstones[0].ts[:10]}): its file "
                     f"was put back by hand; `memdir delete cafe-wifi --scope project` removes it again, "
                     f"`memdir tombstone lift {stone}` keeps it"]
    assert "db-port" not in notes[0]  # control: a live memory no tombstone matches is not named


def test_the_command_the_note_names_deletes_the_put_back_file_when_another_layer_holds_the_name(person, project):
    """A name in two layers (the user's put back by hand, a project memory of the same name): the note's
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
    [note] = [n for n in person.doctor().notes if "forgotten value" in n]
    command = note.split("`")[1]
    assert command == "memdir delete lang --scope user"
    done = run_cli(*shlex.split(command)[1:], "--project", project, cwd=project)
    assert done.returncode == 0, done.stderr
    assert [(m.name, m.scope) for m in person.list().memories] == [("lang", "project")]
    assert [n for n in person.doctor().notes if "forgotten value" in n] == []
