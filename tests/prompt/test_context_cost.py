"""The context block costs what fits, not what the index holds (issue 28 item 7): a 10,000-line
``MEMORY.md`` of which a few dozen lines fit the budget escapes a few dozen lines, and the block it
renders is the one the walk over every escaped line renders."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from memdir.files import outline
from memdir.files.outline import Outline, read_outline, write_outline
from memdir.prompt import context
from memdir.prompt.context import layout


def _index(rng: random.Random, count: int, prefix: str) -> str:
    lines = []
    for i in range(count):
        pin = " 📌" if rng.random() < 0.02 else ""
        words = " ".join(rng.choices(["deploy", "port", "redis", "<memory_context>", "{{x}}", "Human: hi",
                                      "staging", "a" * rng.randint(1, 300)], k=rng.randint(1, 12)))
        lines.append(f"- [{prefix}{i}]({prefix}{i}.md){pin} — {words}")
    return "\n".join(lines) + "\n"


def _counting(monkeypatch) -> list[int]:
    calls = [0]
    real = context.escape_stored

    def counted(text):
        calls[0] += 1
        return real(text)

    monkeypatch.setattr(context, "escape_stored", counted)
    return calls


def test_a_10000_line_index_escapes_only_what_the_walk_can_keep(monkeypatch):
    user = "".join(f"- [u{i}](u{i}.md) — user fact {i:05d} of a fair length of words\n" for i in range(10_000))
    project = "".join(f"- [p{i}](p{i}.md) — project fact {i:05d} of a fair length\n" for i in range(10_000))
    calls = _counting(monkeypatch)
    text, shown = layout([("user", user), ("project", project)], 4096)
    assert calls[0] < 200  # before: 20,000 (every line of both indexes)
    (_, user_shown, user_total), (_, project_shown, project_total) = shown
    assert (user_total, project_total) == (10_000, 10_000)
    assert 10 < user_shown < 100 and 10 < project_shown < 100
    assert text.count("](u") == user_shown and "(u0.md)" in text and "(p0.md)" in text  # control: both layers in
    assert f"left out: user {10_000 - user_shown}, project {10_000 - project_shown} —" in text
    assert len(text.encode()) <= 4096


@pytest.mark.parametrize("seed", range(12))
def test_the_bounded_walk_renders_what_escaping_every_line_renders(monkeypatch, seed):
    rng = random.Random(seed)
    sections = [("user", _index(rng, rng.randint(0, 400), "u")), ("team", _index(rng, rng.randint(0, 50), "t")),
                ("project", _index(rng, rng.randint(1, 400), "p"))]
    budget = rng.choice([300, 1024, 4096, 8000, 60_000])
    fast = layout(sections, budget)
    monkeypatch.setattr(outline, "are_clean_lines", lambda text: False)  # no lower bounds: each line escaped
    slow = layout(sections, budget)
    assert slow == fast
    assert budget < 1024 or (fast[0].startswith("<memory_context>") and "(p" in fast[0])  # control: not empty


def test_the_quick_cleanliness_check_answers_as_the_rule_does():
    from memdir.text.printable import BIDI_CONTROLS, INVISIBLE, LINE_BREAKS, are_clean_lines, is_clean_line

    base = "- [db](db.md) — Dev PostgreSQL listens on 5433\t(ports)\n- [ü](u.md) — Zürich office, 東京\n"
    assert are_clean_lines(base) and is_clean_line(base.replace("\n", " "))  # control: clean text is clean
    odd = [*INVISIBLE, *LINE_BREAKS.replace("\n", ""), *BIDI_CONTROLS, "\x00", "\x1b", "\x7f", "\x9b",
           "\U000e0041", "\u00a0", "\u3000"]
    for char in odd:
        text = base + f"- [x](x.md) — a{char}b\n"
        assert are_clean_lines(text) == is_clean_line(text.replace("\n", " ")), repr(char)
    assert not are_clean_lines(base + "- [x](x.md) — a\u3164b\n")  # printable, yet invisible: not clean


def _outlined(tmp_path, name: str, text: str) -> Outline | None:
    """``text`` written as a ``MEMORY.md`` with its outline, read back through the outline."""
    folder = tmp_path / name
    (folder / ".memdir").mkdir(parents=True)
    (folder / "MEMORY.md").write_bytes(text.encode("utf-8"))
    write_outline(folder / ".memdir", text, (folder / "MEMORY.md").stat())
    return read_outline(folder / "MEMORY.md", folder / ".memdir")


@pytest.mark.parametrize("seed", range(12))
def test_the_outline_renders_the_block_the_whole_text_renders(tmp_path, seed):
    """A fresh process reads the lines it shows through the index's outline: the same block, the same
    counts, for pins, blank lines, non-ASCII text and a hand-made index with control characters."""
    rng = random.Random(seed)
    sections = [("user", _index(rng, rng.randint(0, 300), "ü")), ("team", _index(rng, rng.randint(0, 40), "t")),
                ("project", _index(rng, rng.randint(1, 300), "p"))]
    if seed % 3 == 0:  # not clean: a bell and a bidi override, so no line has a lower bound
        sections[2] = ("project", sections[2][1].replace("redis", "re\x07d\u202eis"))
    if seed % 4 == 1:  # blank and whitespace-only lines are not index lines
        sections[0] = ("user", "\n  \n" + sections[0][1].replace("\n", "\n\n", 3))
    budget = rng.choice([300, 1024, 4096, 8000, 60_000])
    outlined = [(scope, _outlined(tmp_path, scope, text)) for scope, text in sections]
    assert all(isinstance(found, Outline) for _, found in outlined)
    assert layout(outlined, budget) == layout(sections, budget)
    assert layout(sections, budget)[1][-1][2] == sections[2][1].count("\n")  # control: every line counted


def test_an_outline_of_another_state_of_the_file_is_not_used(tmp_path):
    text = "- [a](a.md) — first\n- [b](b.md) — second\n"
    assert _outlined(tmp_path, "x", text).line(1) == "- [b](b.md) — second"  # control: it describes this file
    index = tmp_path / "x" / "MEMORY.md"
    index.write_bytes(b"- [c](c.md) \xe2\x80\x94 third, written by hand\n")  # same inode, other size and mtime
    assert read_outline(index, tmp_path / "x" / ".memdir") is None
    (tmp_path / "x" / ".memdir" / "index-outline").write_bytes(b"memdir-outline 9 little\n")  # another version
    assert read_outline(index, tmp_path / "x" / ".memdir") is None


def test_a_layer_write_keeps_the_outline_and_the_context_reads_through_it(mem, monkeypatch):
    for i in range(30):
        mem.write(f"fact-{i:02d}", f"fact number {i} of the project — with a dash", "project", "Body.")
    mem.write("keep", "the pinned one", "project", "Body.", pinned=True)
    layer_dir = mem.session.layer_dir("project")
    found = read_outline(layer_dir / "MEMORY.md", layer_dir / ".memdir")
    assert found is not None and found.count == 31 and found.pins == [0]
    assert found.line(0).startswith("- [keep](keep.md) 📌")
    context._READ.clear()
    read = []
    real = outline.read_outline
    monkeypatch.setattr(context, "read_outline", lambda *args: read.append(args[0]) or real(*args))
    block = context.session_block(mem.session, 600)
    assert read == [str(layer_dir / "MEMORY.md")]  # the project layer's index, through its outline (a str path)
    text = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert block == context.render_block([("project", text)], 600)  # the block the whole text gives
    assert "(keep.md) 📌" in block and "(fact-00.md)" in block and "left out: project " in block


def _context_loads(project) -> tuple[str, list[str]]:
    code = ("import sys\n"
            "from memdir.integrations.cli.main import main\n"
            f"main(['--project', {str(project)!r}, 'context'])\n"
            "names = ('hashlib', 'json', 'unicodedata', 'memdir.text.lookalike', 'argparse', 'yaml', 'math',\n"
            "         'memdir.text.words')\n"
            "print(' '.join(sorted(m for m in names if m in sys.modules)), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.split()


@pytest.mark.slow
def test_memdir_context_loads_no_openssl_json_or_lookalike_table_for_plain_lines(mem, project):
    """``memdir context`` in a fresh process (issue 28 §7): the project key without hashlib's OpenSSL, no JSON
    file read, and an index line's "—" read without unicodedata or the look-alike table."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433 — “since the move”", "project", "")
    out, loaded = _context_loads(project)
    assert "(db-port.md) — Dev PostgreSQL listens on 5433" in out and loaded == []
    # control: a line holding a Cyrillic letter is read through the table (a disguised tag could hide there)
    mem.write("staging", "Stаging lives at staging.internal", "project", "")
    out, loaded = _context_loads(project)
    assert "(staging.md)" in out and loaded == ["memdir.text.lookalike", "unicodedata"]


def _reforge(meta, mutate) -> None:
    """Rewrite the outline in ``meta`` with ``mutate(numbers, header fields)`` applied and its table CRC
    recomputed: a forgery (or damage) that passes the table's own check."""
    import zlib
    from array import array

    path = meta / "index-outline"
    header, _, table = path.read_bytes().partition(b"\n")
    fields = header.decode().split(" ")
    numbers = array("I")
    numbers.frombytes(table)
    mutate(numbers, fields)
    fields[7] = str(zlib.crc32(numbers.tobytes()))
    path.write_bytes(" ".join(fields).encode() + b"\n" + numbers.tobytes())


@pytest.mark.parametrize("damage", ["pin out of range", "spans swapped", "span mid-line", "random table",
                                    "huge file"])
def test_an_outline_that_is_not_the_files_never_crashes_nor_changes_the_block(mem, damage):
    for i in range(30):
        mem.write(f"fact-{i:02d}", f"fact number {i} of the project — Café naïve", "project", "Body.")
    mem.write("keep", "the pinned one", "project", "Body.", pinned=True)
    layer_dir = mem.session.layer_dir("project")
    meta, count = layer_dir / ".memdir", 31
    text = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    truth = context.render_block([("project", text)], 600)
    context._READ.clear()
    assert context.session_block(mem.session, 600) == truth  # control: the outline as written gives the same
    if damage == "pin out of range":
        _reforge(meta, lambda n, f: n.__setitem__(4 * count, 4_000_000_000))
    elif damage == "spans swapped":
        def swap(n, f):
            n[1], n[2] = n[2], n[1]
            n[count + 1], n[count + 2] = n[count + 2], n[count + 1]
        _reforge(meta, swap)
    elif damage == "span mid-line":
        _reforge(meta, lambda n, f: n.__setitem__(1, n[1] + 3))
    elif damage == "random table":
        raw = (meta / "index-outline").read_bytes()
        head = raw.partition(b"\n")[0]
        (meta / "index-outline").write_bytes(head + b"\n" + random.Random(1).randbytes(len(raw) - len(head) - 1))
    else:
        with open(meta / "index-outline", "ab") as handle:
            handle.truncate(300_000_000)  # sparse: never read whole
    context._READ.clear()
    block = context.session_block(mem.session, 600)
    if damage == "spans swapped":  # whole lines of the file in another order: only a deliberate forgery passing
        # the CRCs does this (who can write .memdir can write MEMORY.md); no line is made up or cut
        every = set(context.render_block([("project", text)], 100_000).splitlines())
        shown = {line for line in block.splitlines() if not line.startswith("…(")}  # but the marker of lines out
        assert shown <= every and block != truth
    else:
        assert block == truth
    assert "(keep.md) 📌" in truth and "(fact-00.md)" in truth


def test_an_index_edited_with_its_time_put_back_is_not_read_through_its_outline(tmp_path):
    import os

    text = "- [a](a.md) — first\n- [b](b.md) — second\n"
    assert _outlined(tmp_path, "x", text) is not None  # control: it describes this file
    index = tmp_path / "x" / "MEMORY.md"
    before = index.stat()
    with open(index, "r+b") as handle:  # same size, same inode
        handle.write(b"- [a](a.md) \xe2\x80\x94 FORGE")
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (index.stat().st_size, index.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert read_outline(index, tmp_path / "x" / ".memdir") is None  # its bytes are not the ones outlined
