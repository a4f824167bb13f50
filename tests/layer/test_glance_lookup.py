"""A write of one layer does not parse the files placed by hand in another (issue 28 §7, "fast at any size").

Files copied by hand into the user layer (a person's notes, a ``git pull``) used to be parsed — every one,
~0.4 ms each — by a *project* write on its way: its name check (:func:`memdir.operations.lookup.refuse_ambiguous`
→ :meth:`memdir.layer.layer.Layer.lookup`) and its copy check (:func:`memdir.operations.lookup.guard`'s
``live`` scans) scanned the user layer whole. Now both :meth:`~memdir.layer.layer.Layer.glance` at it: a file
not read yet holds the name its file name gives (:func:`memdir.files.memfile.name_of_file`) and is parsed only
when that name is asked for, or when its bytes may hold the written text
(:func:`memdir.files.memfile.may_hold`). Counted in real fresh ``python -m memdir`` processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

from tests.counted import COUNTING, HAND_NOTE, told_then_run

HAND = 300

WRAPPER = ("import atexit, json, os, runpy, sys\nimport memdir.files.scan as scan\nlayer_dir = os.environ['LAYER_DIR']\n"
           + COUNTING + "\ncount()\n" + told_then_run("{'parsed': parsed}"))

NOTE = HAND_NOTE


def _env(tmp_path: Path) -> dict:
    (tmp_path / "project").mkdir(exist_ok=True)
    home = tmp_path / "home"
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_PROJECT=str(tmp_path / "project"),
                MEMDIR_SEARCH_VECTORS="off", LAYER_DIR=str(home / "_user"), COUNTS_TO=str(tmp_path / "counts.jsonl"))


def _memdir(env: dict, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """``python -m memdir args`` in a fresh process: the result and the stems it parsed."""
    counts = Path(env["COUNTS_TO"])
    counts.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", WRAPPER, "memdir", *args], capture_output=True, text=True,
                          timeout=300, env=env, check=False)
    return done, json.loads(counts.read_text().splitlines()[-1])["parsed"] if counts.exists() else []


def _seed(tmp_path: Path, hand: int = HAND) -> dict:
    """A home with a user and a project memory written through memdir, then ``hand`` user files placed by hand."""
    env = _env(tmp_path)
    for name, scope in (("seed", "user"), ("shared-fact", "project"), ("cafe-notes", "project")):
        done, _ = _memdir(env, "write", name, "-d", f"the {name} memory", "-t", scope, "--scope", scope,
                          "--body", f"{name} body")
        assert done.returncode == 0, done.stderr
    user = tmp_path / "home" / "_user"
    for i in range(hand):
        name = f"hand-note-{i:03d}"
        (user / f"{name}.md").write_text(NOTE.format(name=name, i=i, t=i % 7), encoding="utf-8")
    return env


def _hand(parsed: list[str]) -> list[str]:
    return sorted(stem for stem in parsed if stem.startswith("hand-note-"))


def _journaled(tmp_path: Path) -> list[str]:
    path = tmp_path / "home" / "_user" / ".memdir" / "journal.jsonl"
    return sorted(e["name"] for e in map(json.loads, path.read_text(encoding="utf-8").splitlines())
                  if e["action"] == "external-edit" and e["name"].startswith("hand-note-"))


def test_a_project_write_parses_none_of_the_user_layers_hand_placed_files(tmp_path):
    env = _seed(tmp_path)
    for args in (("--scope", "project"), ()):  # scope given (copy check only), and not (the name check too)
        done, parsed = _memdir(env, "write", f"x{len(args)}", "-d", "a note written after the hand copy",
                               "-t", "project", *args, "--body", "b")
        assert done.returncode == 0, done.stderr
        assert f"Memory created: x{len(args)} (project)" in done.stdout
        assert _hand(parsed) == []  # before: all 300
    assert _journaled(tmp_path) == []  # nor taken in: the user layer's own next change does that
    # control: the user layer's next write takes each of them in, once (and parses them: they are its own)
    done, parsed = _memdir(env, "write", "y", "-d", "a user note", "-t", "user", "--scope", "user", "--body", "y")
    assert done.returncode == 0, done.stderr
    assert len(_hand(parsed)) == HAND
    assert _journaled(tmp_path) == [f"hand-note-{i:03d}" for i in range(HAND)]


def test_a_hand_placed_copy_of_the_written_text_is_still_found_reading_only_it(tmp_path):
    env = _seed(tmp_path)
    done, parsed = _memdir(env, "write", "copied", "-d", "hand note 7 on topic 0", "-t", "project", "--scope",
                           "project", "--body", "Note 7: copied in by hand.")
    assert done.returncode == 0, done.stderr
    assert "memory 'hand-note-007' (user) holds the same description and body" in done.stderr
    assert _hand(parsed) == ["hand-note-007"]  # the one copy parsed, not the other 299
    # control: a text with a word no hand file holds warns of nothing and parses none of them
    done, parsed = _memdir(env, "write", "fresh", "-d", "hand note 7 on topic zebra", "-t", "project", "--scope",
                           "project", "--body", "Note 7: copied in by hand.")
    assert done.returncode == 0, done.stderr
    assert "holds the same description and body" not in done.stderr
    assert _hand(parsed) == []
    # a text whose every word some hand files hold: those are parsed (the sieve only rules out), none warned of
    done, parsed = _memdir(env, "write", "close", "-d", "hand note 7 on topic 1", "-t", "project", "--scope",
                           "project", "--body", "Note 7: copied in by hand.")
    assert done.returncode == 0, done.stderr
    assert "holds the same description and body" not in done.stderr
    assert _hand(parsed) == sorted(f"hand-note-{i:03d}" for i in range(HAND) if "7" in f"{i}" and "1" in f"{i} {i % 7}")


def test_a_hand_placed_file_with_the_written_name_is_still_refused_as_ambiguous(tmp_path):
    env = _seed(tmp_path)
    user = tmp_path / "home" / "_user"
    (user / "shared-fact.md").write_text(NOTE.format(name="shared-fact", i=1, t=1), encoding="utf-8")
    done, parsed = _memdir(env, "write", "shared-fact", "-d", "changed", "-t", "project", "--body", "b")
    assert done.returncode != 0
    assert "'shared-fact' is in the user (personal, every project) and project (personal) layers" in done.stderr
    assert _hand(parsed) == []
    assert "shared-fact" in parsed  # the user file that holds the name is read; none of the 300 is
    # NFD and NFC spellings of one name: a hand-placed "Café-notes.md" written in NFD holds cafe-notes
    (user / unicodedata.normalize("NFD", "Café-notes.md")).write_text("---\ndescription: café notes\ntype: user\n"
                                                                       "---\n\nby hand\n", encoding="utf-8")
    for spelled in ("NFC", "NFD"):
        done, parsed = _memdir(env, "write", unicodedata.normalize(spelled, "café-notes"), "-d", "changed", "-t",
                               "project", "--body", "b")
        assert done.returncode != 0
        assert "'cafe-notes' is in the user (personal, every project) and project (personal) layers" in done.stderr
        assert _hand(parsed) == []
    # control: a name only the project layer holds is written there, no hand file read
    done, parsed = _memdir(env, "write", "only-project", "-d", "new", "-t", "project", "--body", "b")
    assert done.returncode == 0 and "Memory created: only-project (project)" in done.stdout, done.stderr
    assert _hand(parsed) == []
