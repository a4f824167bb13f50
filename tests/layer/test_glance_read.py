"""A lookup of one name across layers does not parse the files placed by hand in a layer that does not hold it.

``memdir read NAME`` (and whatever finds one memory by name: ``show``, a scoped-less update) looks in the user layer
first (:func:`memdir.operations.lookup.find` → :meth:`memdir.layer.layer.Layer.read_now`). With files added by
hand since the user layer was last read, that was a full scan of it — 300 hand-placed files, 300 parses — for a
name the project layer holds. Now the layer :meth:`~memdir.layer.layer.Layer.glance`\\ s first: a layer whose
file names do not give the name answers None, parsing none of them. Counted in real fresh processes
(the pattern of ``test_glance_lookup``); controls: a hand-placed file that holds the name is still the one read
(user first, NFC and NFD), a tombstone still holds a hand-placed copy back, a title still finds its file.
"""

from __future__ import annotations

import unicodedata

from tests.layer.test_glance_lookup import HAND, NOTE, _hand, _journaled, _memdir, _seed


def test_reading_a_project_memory_parses_none_of_the_user_layers_hand_placed_files(tmp_path):
    env = _seed(tmp_path)
    done, parsed = _memdir(env, "read", "shared-fact")
    assert done.returncode == 0, done.stderr
    assert "layer: project" in done.stdout and "> shared-fact body" in done.stdout
    assert _hand(parsed) == []  # before: all 300
    assert _journaled(tmp_path) == []  # nor taken in: the user layer's own next change does that
    # control: a name no layer holds still looks everywhere (titles, near names): each hand file parsed
    done, parsed = _memdir(env, "read", "hand-note-9999")
    assert done.returncode == 1
    assert "memory not found" in done.stderr and "hand-note-999" in done.stderr  # offered as the near name
    assert len(_hand(parsed)) == HAND


def test_a_hand_placed_file_that_holds_the_name_is_still_the_one_read(tmp_path):
    env = _seed(tmp_path)
    user = tmp_path / "home" / "_user"
    (user / "shared-fact.md").write_text(NOTE.format(name="shared-fact", i=1, t=1), encoding="utf-8")
    done, parsed = _memdir(env, "read", "shared-fact")  # user first: the hand-placed one
    assert done.returncode == 0, done.stderr
    assert "layer: user" in done.stdout and "Note 1: copied in by hand." in done.stdout
    assert "shared-fact" in parsed
    # NFD and NFC spellings: a hand-placed "Café-notes.md" written in NFD holds cafe-notes
    (user / unicodedata.normalize("NFD", "Café-notes.md")).write_text(
        "---\ndescription: café notes by hand\ntype: user\n---\n\nby hand\n", encoding="utf-8")
    for spelled in ("NFC", "NFD"):
        done, _ = _memdir(env, "read", unicodedata.normalize(spelled, "café-notes"))
        assert done.returncode == 0, done.stderr
        assert "layer: user" in done.stdout and "by hand" in done.stdout
    # a hand-placed file known by its title only (its name: is not its stem) is still found by that title
    (user / "odd-stem.md").write_text("---\nname: Titled Note\ndescription: titled by hand\ntype: user\n---\n\n"
                                      "titled body\n", encoding="utf-8")
    done, _ = _memdir(env, "read", "Titled Note")
    assert done.returncode == 0, done.stderr
    assert "titled body" in done.stdout


def test_a_tombstone_still_holds_a_hand_placed_copy_back(tmp_path):
    env = _seed(tmp_path, hand=20)
    text = ("-d", "the forgotten value", "-t", "user", "--body", "forgotten body")
    done, _ = _memdir(env, "write", "held-one", *text, "--scope", "user")
    assert done.returncode == 0, done.stderr
    done, _ = _memdir(env, "forget", "held-one")
    assert done.returncode == 0 and "Forgot memory: held-one (user)" in done.stdout, done.stderr
    done, _ = _memdir(env, "write", "held-one", "-d", "another value", "-t", "project", "--scope", "project",
                      "--body", "project body")
    assert done.returncode == 0, done.stderr
    user = tmp_path / "home" / "_user"
    (user / "held-one.md").write_text("---\ndescription: the forgotten value\ntype: user\n---\n\nforgotten body\n",
                                      encoding="utf-8")
    (user / "extra-hand.md").write_text(NOTE.format(name="extra-hand", i=2, t=2), encoding="utf-8")
    done, parsed = _memdir(env, "read", "held-one")
    assert done.returncode == 0, done.stderr
    assert "layer: project" in done.stdout and "project body" in done.stdout  # the user copy is held back
    assert "held-one" in parsed and "extra-hand" not in parsed
