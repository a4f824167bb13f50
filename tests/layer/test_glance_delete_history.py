"""An unscoped delete, forget or history of one memory does not parse the files placed by hand in another layer.

``memdir delete|forget NAME`` built the holders of the value (a value another layer's memory holds is not
tombstoned, :func:`memdir.gateway.deletion.holder`) from every live memory of the other layers: with 300 files
placed by hand in the user layer, a forget of a project memory parsed all 300. Now
:func:`memdir.gateway.deletion.holders_of` glances at the other layers and parses only the files whose bytes may
hold the value (:func:`memdir.tombstones.match.needed_runs`, :func:`memdir.gateway.deletion.may_hold_value`).
``memdir history NAME`` took every layer up first (journaling each hand-placed file): now only a layer where a
file of NAME may have moved by hand (:meth:`memdir.layer.layer.Layer.name_moved`). Counted in real fresh
``python -m memdir`` processes (the pattern of ``test_glance_lookup``)."""

from __future__ import annotations

from tests.layer.test_glance_lookup import HAND, NOTE, _hand, _journaled, _memdir, _seed


def _digits(i: int) -> str:
    """The digits a hand note of number ``i`` holds (its name, its number, its topic)."""
    return f"{i:03d} {i} {i % 7}"


def test_an_unscoped_delete_and_forget_parse_none_of_the_user_layers_hand_placed_files(tmp_path):
    env = _seed(tmp_path)
    done, parsed = _memdir(env, "delete", "shared-fact")
    assert done.returncode == 0, done.stderr
    assert "Deleted memory: shared-fact (project). Its value is tombstoned" in done.stdout
    assert _hand(parsed) == []  # before: all 300
    done, parsed = _memdir(env, "forget", "cafe-notes")
    assert done.returncode == 0, done.stderr
    assert "Forgot memory: cafe-notes (project). Its value is tombstoned" in done.stdout
    assert _hand(parsed) == []
    assert _journaled(tmp_path) == []  # nor taken in: the user layer's own next change does that


def test_a_hand_placed_file_holding_the_value_still_keeps_it_from_the_tombstone(tmp_path):
    env = _seed(tmp_path)
    done, _ = _memdir(env, "write", "dup", "-d", "hand note 7 on topic 0", "-t", "project", "--scope", "project",
                      "--body", "Note 7: copied in by hand.")
    assert done.returncode == 0, done.stderr
    done, parsed = _memdir(env, "forget", "dup")
    assert done.returncode == 0, done.stderr
    assert ("Forgot memory: dup (project). Its value is not tombstoned: the memory 'hand-note-007' (user) holds "
            "it too.") in done.stdout
    # parsed: only the files holding every word of the value's description (the sieve only rules out)
    assert _hand(parsed) == [f"hand-note-{i:03d}" for i in range(HAND) if "7" in _digits(i) and "0" in _digits(i)]
    assert "hand-note-007" in _hand(parsed) and "hand-note-111" not in _hand(parsed)
    # control: the same forget where no hand file holds the value tombstones it
    done, _ = _memdir(env, "write", "dup2", "-d", "hand note 7 on topic zebra", "-t", "project", "--scope",
                      "project", "--body", "Note 7: copied in by hand.")
    assert done.returncode == 0, done.stderr
    done, parsed = _memdir(env, "forget", "dup2")
    assert "Forgot memory: dup2 (project). Its value is tombstoned" in done.stdout
    assert _hand(parsed) == []


def test_history_takes_up_only_the_layer_where_the_name_moved(tmp_path):
    env = _seed(tmp_path)
    done, parsed = _memdir(env, "history", "shared-fact")
    assert done.returncode == 0, done.stderr
    assert "1 version(s) of shared-fact (project):" in done.stdout
    assert _hand(parsed) == []  # before: all 300, each journaled
    assert _journaled(tmp_path) == []
    # a hand edit of the asked memory is still journaled first and shown
    project = next((tmp_path / "home" / "projects").iterdir())
    path = project / "shared-fact.md"
    path.write_text(path.read_text(encoding="utf-8").replace("shared-fact body", "edited by hand"), encoding="utf-8")
    done, parsed = _memdir(env, "history", "shared-fact")
    assert done.returncode == 0, done.stderr
    assert "2 version(s) of shared-fact (project):" in done.stdout and "external-edit" in done.stdout
    assert _hand(parsed) == []
    # control: a hand-placed file of the asked name takes its layer up (each of its hand files, as before)
    user = tmp_path / "home" / "_user"
    (user / "hist-hand.md").write_text(NOTE.format(name="hist-hand", i=1, t=1), encoding="utf-8")
    done, parsed = _memdir(env, "history", "hist-hand")
    assert done.returncode == 0, done.stderr
    assert "1 version(s) of hist-hand (user):" in done.stdout and "external-edit" in done.stdout
    assert len(_hand(parsed)) == HAND
    assert _journaled(tmp_path) == [f"hand-note-{i:03d}" for i in range(HAND)]


def test_history_of_a_hand_file_removed_is_still_journaled(tmp_path):
    env = _seed(tmp_path, hand=20)
    done, _ = _memdir(env, "write", "gone-soon", "-d", "a user note", "-t", "user", "--scope", "user", "--body", "g")
    assert done.returncode == 0, done.stderr
    (tmp_path / "home" / "_user" / "gone-soon.md").unlink()
    done, _ = _memdir(env, "history", "gone-soon")
    assert done.returncode == 0, done.stderr
    assert "2 version(s) of gone-soon (user):" in done.stdout, done.stdout  # the removal journaled
    done, _ = _memdir(env, "history", "seed")  # control: a name that did not move takes nothing up
    assert done.returncode == 0 and "1 version(s) of seed (user):" in done.stdout
