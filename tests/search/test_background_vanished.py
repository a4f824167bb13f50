"""A background job writes only into directories that exist (:mod:`memdir.files.background`).

A clean-clone CI run removed a repository while the first-session build SessionStart had started was still
running: the build's sync scanned the team layer after its directory had gone, its take-up of "hand edits" took the
layer lock, which made ``<repo>/.claude/memory`` again, and the test's own ``mkdir`` of it met FileExistsError.

Real things only: the build is ``python -m memdir.search.warm.first HOME CWD`` in a process of its own (as
SessionStart starts it), the directory is removed while it runs, and the index it leaves is read with SQLite.
The build syncs the user layer first (many hand-written files, taken up and indexed), so a removal made as soon
as the index file appears lands before it reaches the team layer: the team memory missing from the index proves it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from memdir import Memory
from memdir.search.warm import first
from tests.teamgit import git

USER_FILES = 400  # hand-written user memories: the build takes them up and indexes them before the team layer
WAIT = 120.0  # seconds allowed for the build on a loaded machine (a wait for its exit, not an assertion)


def _home(tmp_path: Path) -> tuple[Path, Path]:
    """A home with a team memory, a project memory and USER_FILES hand-written user memories, and no index."""
    home, root = tmp_path / "home", tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    person = Memory.open(home=home, project=root, actor="human", search_vectors="off")
    person.team_init()
    person.write("db-port", "Team dev DB listens on 5433", "project", "Port 5433.", scope="team")
    person.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on a Friday.")
    user = home / "_user"
    user.mkdir(mode=0o700, exist_ok=True)
    for i in range(USER_FILES):
        (user / f"note-{i:03d}.md").write_text(
            f"---\nname: note-{i:03d}\ndescription: Hand note number {i}\ntype: user\n---\nBody of note {i}.\n")
    assert not (home / "index.sqlite").exists()
    return home, root


def _build(home: Path, root: Path) -> subprocess.Popen:
    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off")  # words only: no warm process
    return subprocess.Popen([sys.executable, *first.COMMAND, str(home), str(root)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _when_indexing(home: Path, build: subprocess.Popen) -> None:
    """Return as soon as the build has made the index file (its sync has begun with the user layer)."""
    deadline = time.monotonic() + WAIT
    while not (home / "index.sqlite").exists():
        assert build.poll() is None, build.communicate()
        assert time.monotonic() < deadline, "the build made no index"
        time.sleep(0.002)


def _indexed(home: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{home / 'index.sqlite'}?mode=ro", uri=True)
    try:
        return {name for (name,) in conn.execute("SELECT name FROM docs")}
    finally:
        conn.close()


def test_a_build_does_not_make_again_a_team_layer_removed_under_it(tmp_path):
    home, root = _home(tmp_path)
    team = root / ".claude" / "memory"
    build = _build(home, root)
    _when_indexing(home, build)
    shutil.rmtree(team)
    out, err = build.communicate(timeout=WAIT)
    assert build.returncode == 0, err
    assert not team.exists() and (root / ".git").is_dir()  # the repository stays, its team directory is not made
    names = _indexed(home)
    assert "db-port" not in names  # the removal came before the team layer's sync: the case under test
    # control: the layers that stayed got their index, the hand-written ones and the project's
    assert "deploy-day" in names and f"note-{USER_FILES - 1:03d}" in names and len(names) == USER_FILES + 1
    assert out.startswith(f"first session: {USER_FILES + 1} memories indexed"), (out, err)


def test_a_build_does_not_make_again_a_home_removed_under_it(tmp_path):
    home, root = _home(tmp_path)
    build = _build(home, root)
    _when_indexing(home, build)
    while home.exists():  # as `rm -rf` again and again: the build may add a file while a directory is emptied
        shutil.rmtree(home, ignore_errors=True)
    out, err = build.communicate(timeout=WAIT)
    assert build.returncode == 0, (out, err)  # quietly: nothing to build
    assert not home.exists()  # nor its index, its layers, its logs
    assert (root / ".claude" / "memory" / "db-port.md").is_file()  # control: what stayed is as it was


def test_an_index_file_removed_while_a_build_opens_it_is_gone_not_a_failure(tmp_path, monkeypatch):
    """Clean-clone CI (int35): the home was being removed (``rm -rf``: its files first, then the directory) while the
    build opened the index; the file it had just made was gone at its chmod, and the build exited 1 ("cannot open
    the search index … No such file or directory") though its home was going. In a background job that is
    :class:`~memdir.files.background.Gone` (the build exits 0); in a person's own process it stays the error it was
    (control)."""
    from memdir.errors import StoreError
    from memdir.files import background
    from memdir.search import index

    def removed(path, mode):
        raise FileNotFoundError(2, "No such file or directory", os.fspath(path))

    home = tmp_path / "home"
    home.mkdir()
    # a file of a looser mode (an older memdir's), so connect goes to its chmod (status47: none when already 0600)
    (home / "index.sqlite").touch()
    os.chmod(home / "index.sqlite", 0o644)
    monkeypatch.setattr(index.os, "chmod", removed)
    with background.scope():
        try:
            index.connect(home)
        except StoreError as exc:
            in_background = exc
    try:
        index.connect(tmp_path / "home")
    except StoreError as exc:
        in_person = exc
    assert type(in_background) is background.Gone and "was removed while it was opened" in str(in_background)
    assert type(in_person) is StoreError and str(in_person).startswith("cannot open the search index")
