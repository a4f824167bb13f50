"""Hand changes the verified sweep of a touched layer (hot49: :meth:`memdir.layer.handover.HandsOver._verified_scan`)
must never take for "all as recorded" (break50c): each changes a memory file in a way that keeps its size and, where
it can, its inode, so only the ctime (or, for a racy row, the bytes) tells — and each asserts the edit is journaled
by the very next fresh layer object (the journal's head of every memory is its file's bytes, the index shows the new
words), with its control (a memory not changed keeps its one journaled version, nothing else is journaled)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.files.scan import bytes_digest
from memdir.layer.manifest import Manifest
from tests.seeded import seeded

SIZE = 12


def _fresh(home, project):
    return Memory.open(home=home, project=project, actor="human").session.layer("project")


def _touch(layer) -> None:
    time.sleep(0.01)
    os.utime(layer.path)


def _journaled(layer) -> list[tuple[str, str]]:
    return [(event.action, event.name) for event in layer.journal.events()]


def _heads_match_files(layer) -> dict[str, tuple]:
    """Every memory whose journal head is not its file's bytes now ({} when every edit is journaled)."""
    heads = layer.journal.heads()
    wrong = {}
    for path in sorted(layer.path.glob("*.md")):
        if path.name == "MEMORY.md":
            continue
        now = bytes_digest(path)
        if heads.get(path.stem) != now:
            wrong[path.stem] = (heads.get(path.stem), now)
    return wrong


def _same_size(path, old: str, new: str) -> None:
    """``path`` edited in place (same inode, same size)."""
    assert len(old) == len(new)
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text.replace(old, new))
    after = path.stat()
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size)


@pytest.fixture
def verdicts(monkeypatch) -> list[bool]:
    """What :meth:`memdir.layer.manifest.Manifest.verify` answered from now on (the verified sweep tried)."""
    answers: list[bool] = []
    real = Manifest.verify

    def spied(self, *args, **kwargs):
        answers.append(real(self, *args, **kwargs))
        return answers[-1]

    monkeypatch.setattr(Manifest, "verify", spied)
    return answers


def _swept(home, project, layer, journaled, changed: list[str], verdicts: list[bool] | None = None):
    if verdicts is not None:
        verdicts.clear()
    fresh = _fresh(home, project)
    assert fresh.current_index() is None
    if verdicts is not None:
        assert verdicts == [False]  # the verified sweep was tried, and refused: the full scan and sweep then
    assert _heads_match_files(fresh) == {}  # every hand change journaled: nothing lost
    new = _journaled(fresh)[len(journaled):]
    assert sorted({name for _action, name in new}) == sorted(changed), new  # control: only those
    assert _journaled(fresh)[:len(journaled)] == journaled  # history kept
    return fresh


@pytest.fixture
def layer_of(isolated_home, project):
    mem = seeded(isolated_home, project, SIZE)
    layer = mem.session.layer("project")
    assert _heads_match_files(layer) == {}  # control: the oracle holds as seeded
    return mem, layer


def test_an_edit_in_place_within_the_same_second_as_a_write(isolated_home, project, layer_of, verdicts):
    mem, layer = layer_of
    mem.write("seed-0003", "seeded fact 3", "project", "Body Q")  # a racy row (ctime 0)
    journaled = _journaled(layer)
    _same_size(layer.path / "seed-0003.md", "Body Q", "Body R")  # at once: the same second, maybe the same tick
    _touch(layer)
    fresh = _swept(isolated_home, project, layer, journaled, ["seed-0003"], verdicts)
    assert "Body R" in (fresh.path / "seed-0003.md").read_text(encoding="utf-8")


def test_more_racy_rows_than_are_read(isolated_home, project, layer_of, verdicts):
    mem, layer = layer_of
    for i in range(40):  # 40 racy rows (each written and saved within RACY_NS): over RACY_READS (32)
        mem.write(f"quick-{i:02d}", f"quick fact {i}", "project", f"Body {i:02d}")
    journaled = _journaled(layer)
    _same_size(layer.path / "quick-07.md", "Body 07", "Body 70")
    _same_size(layer.path / "seed-0005.md", "Body 5", "Body 9")
    _touch(layer)
    _swept(isolated_home, project, layer, journaled, ["quick-07", "seed-0005"], verdicts)


def test_an_edit_whose_times_are_set_back(isolated_home, project, layer_of, verdicts):
    _mem, layer = layer_of
    journaled = _journaled(layer)
    path = layer.path / "seed-0004.md"
    st = path.stat()
    _same_size(path, "Body 4", "Body 8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # touch -d: mtime back as it was (ctime cannot be)
    subprocess.run(["touch", "-d", "2020-01-01", str(layer.path)], check=True)  # the directory back-dated too
    _swept(isolated_home, project, layer, journaled, ["seed-0004"], verdicts)


def test_two_files_swapped_by_renames(isolated_home, project, layer_of, verdicts):
    _mem, layer = layer_of
    journaled = _journaled(layer)
    a, b = layer.path / "seed-0001.md", layer.path / "seed-0002.md"
    ia, ib = a.stat().st_ino, b.stat().st_ino
    # the same size, other bytes: each file's name stays its own, its body the other's
    _same_size(a, "Body 1", "Body 2")
    _same_size(b, "Body 2", "Body 1")
    _swept(isolated_home, project, layer, journaled, ["seed-0001", "seed-0002"], verdicts)
    fresh = _fresh(isolated_home, project)
    journaled = _journaled(fresh)
    tmp = layer.path / "swap.tmp"
    os.rename(a, tmp)
    os.rename(b, a)
    os.rename(tmp, b)
    assert (a.stat().st_ino, b.stat().st_ino) == (ib, ia)
    _swept(isolated_home, project, layer, journaled, ["seed-0001", "seed-0002"], verdicts)


def test_a_file_replaced_by_a_hard_link_to_another(isolated_home, project, layer_of, verdicts):
    _mem, layer = layer_of
    journaled = _journaled(layer)
    a, b = layer.path / "seed-0001.md", layer.path / "seed-0002.md"
    link = layer.path / ".link.tmp"
    os.link(b, link)
    os.replace(link, a)
    assert a.stat().st_ino == b.stat().st_ino
    _swept(isolated_home, project, layer, journaled, ["seed-0001"], verdicts)  # the stem names it: its bytes now


def test_a_file_copied_over_with_its_times_preserved(isolated_home, project, layer_of, tmp_path, verdicts):
    _mem, layer = layer_of
    journaled = _journaled(layer)
    a = layer.path / "seed-0006.md"
    other = tmp_path / "seed-0006.md"
    other.write_text(a.read_text(encoding="utf-8").replace("Body 6", "Body 3"), encoding="utf-8")
    os.utime(other, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns))
    inode = a.stat().st_ino
    subprocess.run(["cp", "--preserve=all", str(other), str(a)], check=True)
    assert a.stat().st_ino == inode and "Body 3" in a.read_text(encoding="utf-8")
    _touch(layer)
    _swept(isolated_home, project, layer, journaled, ["seed-0006"], verdicts)


def test_a_file_deleted_and_written_again_on_its_freed_inode(isolated_home, project, layer_of, verdicts):
    mem, layer = layer_of
    mem.write("seed-0008", "seeded fact 8", "project", "Body Q")  # racy too: only the bytes tell
    journaled = _journaled(layer)
    path = layer.path / "seed-0008.md"
    before = path.stat()
    text = path.read_text(encoding="utf-8").replace("Body Q", "Body Z")
    path.unlink()
    path.write_text(text, encoding="utf-8")
    assert path.stat().st_size == before.st_size
    _swept(isolated_home, project, layer, journaled, ["seed-0008"], verdicts)


def test_a_manifest_with_a_row_of_no_file_and_a_file_of_no_row(isolated_home, project, layer_of, verdicts):
    """The rows' count equal to the files' but a row renamed: a file added by hand, one removed."""
    _mem, layer = layer_of
    journaled = _journaled(layer)
    a = layer.path / "seed-0009.md"
    text = a.read_text(encoding="utf-8").replace("seed-0009", "seed-0099")
    a.unlink()
    (layer.path / "seed-0099.md").write_text(text, encoding="utf-8")
    fresh = _swept(isolated_home, project, layer, journaled, ["seed-0009", "seed-0099"], verdicts)
    assert _journaled(fresh)[len(journaled):] == [("external-edit", "seed-0099"), ("external-delete", "seed-0009")]


EDITOR = """
import os, sys, time
path, rounds = sys.argv[1], int(sys.argv[2])
for i in range(rounds):
    with open(path, 'r+', encoding='utf-8') as handle:
        text = handle.read()
        handle.seek(0)
        handle.write(text.replace(text[-3:-1], f'{i % 100:02d}'))
    time.sleep(0.003)
"""


@pytest.mark.slow
def test_an_edit_made_while_a_cli_write_runs(isolated_home, project, layer_of, verdicts):
    _mem, layer = layer_of
    path = layer.path / "seed-0010.md"
    env = {**os.environ, "MEMDIR_SEARCH_VECTORS": "off"}
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(path), "400"], env=env)
    try:
        for i in range(6):
            subprocess.run([sys.executable, "-m", "memdir.integrations.cli.main", "--project", str(project), "write",
                            f"beside-{i}", "-d", f"written beside {i}", "-b", "b"], env=env, check=True,
                           capture_output=True)
    finally:
        editor.wait(timeout=120)
    _touch(layer)
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    assert _heads_match_files(fresh) == {}
    assert any(name == "beside-5" for _action, name in _journaled(fresh))  # control: the writes landed


def test_control_a_touched_layer_of_no_change_is_verified(isolated_home, project, layer_of, verdicts):
    mem, layer = layer_of
    mem.write("seed-0003", "seeded fact 3", "project", "Body Q")  # a racy row: compared by its bytes, found as is
    journaled = _journaled(layer)
    _touch(layer)
    verdicts.clear()
    fresh = _fresh(isolated_home, project)
    assert fresh.current_index() is None
    assert verdicts == [True]  # the verified sweep stood in
    assert _journaled(fresh) == journaled and _heads_match_files(fresh) == {}


def test_a_cli_write_over_a_hand_edit_of_its_own_file_journals_the_edit_first(isolated_home, project, layer_of):
    """The write's lookup glances at its own file (hot49's 39b482e7 takes the verified sweep for it)."""
    _mem, layer = layer_of
    journaled = _journaled(layer)
    _same_size(layer.path / "seed-0002.md", "Body 2", "Body 7")
    _touch(layer)
    env = {**os.environ, "MEMDIR_SEARCH_VECTORS": "off"}
    subprocess.run([sys.executable, "-m", "memdir.integrations.cli.main", "--project", str(project), "write",
                    "seed-0002", "-d", "seeded fact 2", "-b", "Body by the agent"], env=env, check=True,
                   capture_output=True)
    fresh = _fresh(isolated_home, project)
    new = _journaled(fresh)[len(journaled):]
    assert new[0] == ("external-edit", "seed-0002"), new  # the hand edit kept in the history, before the write
    assert [name for _action, name in new] == ["seed-0002", "seed-0002"]
    assert _heads_match_files(fresh) == {}
    assert "Body by the agent" in (layer.path / "seed-0002.md").read_text(encoding="utf-8")
