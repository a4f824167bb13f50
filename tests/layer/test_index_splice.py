"""A write's upkeep of ``MEMORY.md`` is proportional to what changed (issue 28 §7).

A fresh process that writes into a layer takes up the index from its outline (no line read but the first
and the last) and splices the lines that moved into the file (:mod:`memdir.files.splice`): the runs of
unchanged lines are copied in the kernel (``copy_file_range``), not read and written through the
process. Each test runs the real CLI (``python -m memdir``) through a wrapper that counts the bytes of
``MEMORY.md`` the process reads, and the bytes of the new ``MEMORY.md`` that went through it (the new
file's size less what ``copy_file_range`` copied into it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.files.outline import BLOCK_BYTES, read_outline, summary
from tests.counted import told_then_run
from tests.seeded import seeded

COUNTING = """
import atexit, builtins, io, json, os, runpy, sys
real = {name: getattr(os, name) for name in ("open", "close", "read", "pread", "copy_file_range", "replace")}
real_open = io.open
fds, temps, got = {}, {}, {"read": 0, "through": 0, "copied": 0, "whole_reads": 0, "written": 0}
def kind(path):
    base = os.path.basename(os.fspath(path))
    return "index" if base == "MEMORY.md" else "temp" if base.startswith(".MEMORY.md.") else None
def opened(path, *args, **kwargs):
    fd = real["open"](path, *args, **kwargs)
    if kind(path):
        fds[fd] = (kind(path), os.fspath(path))
    return fd
def closed(fd):
    fds.pop(fd, None)
    return real["close"](fd)
def read(fd, n):
    data = real["read"](fd, n)
    got["read"] += len(data) if fds.get(fd, ("",))[0] == "index" else 0
    return data
def pread(fd, n, offset):
    data = real["pread"](fd, n, offset)
    got["read"] += len(data) if fds.get(fd, ("",))[0] == "index" else 0
    return data
def copy(src, dst, count, *args):
    done = real["copy_file_range"](src, dst, count, *args)
    if dst in fds:
        temps[fds[dst][1]] = temps.get(fds[dst][1], 0) + done
    return done
def replace(src, dst, *args, **kwargs):
    if kind(dst) == "index":
        size = os.stat(src).st_size
        got["written"] += 1
        got["copied"] += temps.get(os.fspath(src), 0)
        got["through"] += size - temps.get(os.fspath(src), 0)
    return real["replace"](src, dst, *args, **kwargs)
def whole(file, mode="r", *args, **kwargs):
    if not isinstance(file, int) and kind(file) == "index" and "r" in mode:
        got["whole_reads"] += 1
        got["read"] += os.stat(file).st_size
    return real_open(file, mode, *args, **kwargs)
os.open, os.close, os.read, os.pread, os.copy_file_range, os.replace = opened, closed, read, pread, copy, replace
io.open = builtins.open = whole
""" + told_then_run("got", "real_open")


def _cli(tmp_path, project, *args) -> dict:
    """``memdir --project PROJECT ARGS`` as a fresh process; the counts of ``MEMORY.md``'s bytes."""
    counts = tmp_path / f"counts-{time.monotonic_ns()}.jsonl"
    done = subprocess.run([sys.executable, "-c", COUNTING, "memdir", "--project", str(project), *args],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, COUNTS_TO=str(counts)))
    assert done.returncode == 0, done.stderr
    return json.loads(counts.read_text().splitlines()[-1])


def _regenerated(home, project) -> bytes:
    """``MEMORY.md`` of the project layer as a full rebuild writes it (a copy of the home rebuilt)."""
    copy = home.parent / f"{home.name}-rebuilt-{time.monotonic_ns()}"
    shutil.copytree(home, copy, symlinks=True)
    mem = Memory.open(home=copy, project=project, actor="human")
    layer = mem.session.layer("project")
    layer.refresh_index()
    return (layer.path / "MEMORY.md").read_bytes()


def _outline_holds(index, meta) -> None:
    """The outline a splice wrote describes ``index`` as a whole read of it does."""
    found = read_outline(index, meta)
    assert found is not None
    lines, clean, least, after, total, pins = summary(index.read_text(encoding="utf-8"))
    assert [found.line(i) for i in range(found.count)] == lines
    assert (found.clean, list(found.least), list(found.after), found.least_total, found.pins) == \
        (clean, least, after, total, pins)


def test_writes_adds_removals_and_a_rename_splice_the_index_to_what_a_rebuild_writes(tmp_path, monkeypatch):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    mem = seeded(home, project, 300)
    layer_dir = mem.session.layer_dir("project")
    index, meta = layer_dir / "MEMORY.md", layer_dir / ".memdir"
    steps = [
        ("write", "new-fact", "-d", "a fact written after the seeding", "-b", "Body."),  # an add
        ("write", "seed-0150", "-d", "seeded fact 150, corrected"),  # an update: its line changes
        ("write", "pinned-fact", "-d", "pinned, so first", "-b", "Body.", "--pinned"),  # to the top
        ("delete", "seed-0007"),  # a removal
        ("write", "renamed-fact", "--rename-from", "seed-0200"),  # a rename: one line out, one in
        ("write", "seed-0299", "-d", "the last line's fact, updated"),
        ("delete", "new-fact"),
    ]
    for step in steps:
        counts = _cli(tmp_path, project, *step)
        size = index.stat().st_size
        assert index.read_bytes() == _regenerated(home, project), step  # the right value, every step
        _outline_holds(index, meta)
        assert counts["written"] == 1 and counts["whole_reads"] == 0, (step, counts)
        assert counts["through"] < 400 and counts["copied"] > size - 400, (step, counts)  # spliced
    text = index.read_text(encoding="utf-8")
    assert text.startswith("- [pinned-fact](pinned-fact.md) 📌 — pinned, so first\n")
    assert "(renamed-fact.md) — seeded fact 200\n" in text and "(seed-0200.md)" not in text
    assert "(seed-0007.md)" not in text and "(new-fact.md)" not in text and "(seed-0006.md) — seeded fact 6\n" in text
    assert "(seed-0150.md) — seeded fact 150, corrected\n" in text and text.count("\n") == 300

    # One process's writes in a row: each splices into the file the last one spliced.
    import memdir.layer.indexfile as indexfile_module  # where a layer's MEMORY.md is written

    spliced, real = [], indexfile_module.splice_index
    monkeypatch.setattr(indexfile_module, "splice_index", lambda *a: spliced.append(real(*a)) or spliced[-1])
    writer = Memory.open(home=home, project=project, actor="human")
    for i in range(4):
        writer.write(f"seed-{10 + i:04d}", f"seeded fact {10 + i}, updated in one process")
        assert index.read_bytes() == _regenerated(home, project), i
        _outline_holds(index, meta)
    writer.write("seed-0011", pinned=True)
    assert index.read_text(encoding="utf-8").startswith("- [pinned-fact](pinned-fact.md) 📌 — pinned, so first\n"
                                                        "- [seed-0011](seed-0011.md) 📌 — seeded fact 11, updated in")
    assert index.read_bytes() == _regenerated(home, project)


def test_a_hand_edit_of_the_index_is_kept_and_the_index_written_whole(tmp_path, monkeypatch):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    mem = seeded(home, project, 120)
    layer_dir = mem.session.layer_dir("project")
    index = layer_dir / "MEMORY.md"
    spliced = _cli(tmp_path, project, "write", "first", "-d", "first fact", "-b", "Body.")
    assert spliced["through"] < 200  # control: spliced while no one edited the index
    with open(index, "a", encoding="utf-8") as out:
        out.write("- a line typed by hand\n")
    whole = _cli(tmp_path, project, "write", "second", "-d", "second fact", "-b", "Body.")
    assert whole["through"] == index.stat().st_size  # not spliced over the edit: written whole
    assert index.read_bytes() == _regenerated(home, project)
    assert len(spliced) == 5 and all(spliced)  # every one spliced, none written whole
    kept = list((layer_dir / ".memdir").glob("MEMORY.md.edited-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").endswith("- a line typed by hand\n")
    assert "(first.md) — first fact\n" in kept[0].read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_bytes_a_write_reads_and_writes_of_the_index_do_not_grow_with_the_layer(tmp_path, monkeypatch):
    got, sizes = {}, {}
    for size in (150, 1500):
        home, project = tmp_path / f"home-{size}", tmp_path / f"proj-{size}"
        (project / ".git").mkdir(parents=True)
        monkeypatch.setenv("MEMDIR_HOME", str(home))
        seeded(home, project, size)
        index = home / "projects"
        got[size] = _cli(tmp_path, project, "write", "seed-0100", "-d", "seeded fact 100, corrected")
        sizes[size] = next(index.glob("*/MEMORY.md")).stat().st_size
        assert got[size]["written"] == 1 and got[size]["whole_reads"] == 0
    assert sizes[1500] > 9 * sizes[150]  # control: a store ten times the size
    # The same new line's bytes written, and at most the first and the last block read (the first and
    # last lines, restore's check), whatever the layer's size.
    assert got[1500]["through"] == got[150]["through"] == len("- [seed-0100](seed-0100.md) — seeded fact 100, "
                                                              "corrected\n".encode())
    assert got[150]["read"] <= BLOCK_BYTES and got[1500]["read"] <= 2 * BLOCK_BYTES < sizes[1500] / 2
    # control: without its outline, a write reads the index whole and writes it whole
    layer_dir = next((tmp_path / "home-1500" / "projects").glob("*/"))
    (layer_dir / ".memdir" / "index-outline").unlink()
    whole = _cli(tmp_path, project, "write", "seed-0101", "-d", "seeded fact 101, corrected")
    size = (layer_dir / "MEMORY.md").stat().st_size
    assert whole["whole_reads"] == 1 and whole["read"] >= sizes[1500] and whole["through"] == size, whole


def test_a_splice_of_random_edits_writes_the_bytes_and_outline_a_whole_write_would(tmp_path):
    """:func:`memdir.files.splice.splice_index` plans a write's edits as runs of old lines (as many runs as
    edits, not a list of every line): for random inserts and removals — at the first line, the last, one
    past it, the same place twice, a pinned line, a line with a character that makes the text unclean —
    the spliced file holds exactly the lines the edits give, and its outline's tables (spans, widths,
    pins) are those of the outline written from the whole new text (but for a text left clean by removing
    its unclean line: still unclean, as before); an edit outside the lines is refused
    (None) and the file left as it was."""
    import random

    from memdir.files.outline import write_outline
    from memdir.files.splice import splice_index
    from memdir.vocabulary import PIN_MARK

    rng = random.Random(32)
    meta = tmp_path / "meta"
    meta.mkdir()
    index = tmp_path / "MEMORY.md"

    def fresh(lines):
        text = "".join(f"{line}\n" for line in lines)
        index.write_text(text, encoding="utf-8")
        write_outline(meta, text, os.lstat(index))
        return read_outline(index, meta)

    def tables(outline):
        n = outline.count
        return (n, outline.clean, outline.least_total, list(outline._starts), list(outline._ends),
                list(outline.least), list(outline.after), list(outline.pins))

    def line(i):
        pin = PIN_MARK if rng.random() < 0.15 else ""
        odd = "\u202e" if rng.random() < 0.03 else ""  # a character that makes the text unclean
        return f"- [note {i}](note-{i}.md) — topic {i} {'x' * rng.randrange(0, 40)}{odd}{pin}"

    spliced = unclean = 0
    for trial in range(60):
        lines = [line(i) for i in range(rng.randrange(0, 40))]
        before = fresh(lines)
        edits, expect = [], list(lines)
        for _ in range(rng.randrange(1, 6)):
            if expect and rng.random() < 0.4:
                at = rng.choice([0, len(expect) - 1, rng.randrange(len(expect))])
                edits.append((at, None))
                del expect[at]
            else:
                at = rng.choice([0, len(expect), rng.randrange(len(expect) + 1)])
                new = line(1000 + trial * 10 + len(edits))
                edits.append((at, new))
                expect.insert(at, new)
        done = splice_index(index, meta, before, edits)
        if not expect:
            assert done is None  # no line left: the caller removes the file
            continue
        assert done is not None
        spliced += 1
        assert index.read_text(encoding="utf-8") == "".join(f"{x}\n" for x in expect)
        got, whole = tables(done[0]), tables(fresh(expect))
        if got[1] or whole[1] is False:
            assert got == whole
        else:  # an unclean line removed: the splice stays unclean (widths unknown, 0) rather than read every line
            assert not before.clean and got[3:5] == whole[3:5] and got[7] == whole[7] and set(got[5]) == {0}
            unclean += 1
    assert spliced > 40 and unclean >= 1

    before = fresh(["- [a](a.md) — one", "- [b](b.md) — two"])
    for bad in ([(2, None)], [(3, "- [c](c.md) — three")], [(-1, None)], [(0, "two\nlines")], [(0, "  ")]):
        assert splice_index(index, meta, before, bad) is None
        assert index.read_text(encoding="utf-8") == "- [a](a.md) — one\n- [b](b.md) — two\n"
    assert splice_index(index, meta, before, [(2, "- [c](c.md) — three")]) is not None  # the control: one past the end
    assert index.read_text(encoding="utf-8") == "- [a](a.md) — one\n- [b](b.md) — two\n- [c](c.md) — three\n"
