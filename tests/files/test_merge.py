"""files.merge: a memory file merged field by field, and settled per field (issue 24 §3)."""

from __future__ import annotations

import pytest

from memdir.errors import StoreError
from memdir.files import merge as merge_mod
from memdir.files.conflicts import has_conflict
from memdir.files.memfile import parse
from memdir.files.merge import conflicting_fields, merge, merge_paths, resolve_fields
from memdir.render.team import merged_file

BASE = ("---\nname: db-port\ndescription: Dev PostgreSQL listens on 5433\ntype: project\n"
        "created: 2026-11-02T09:14:00Z\nupdated: 2026-11-02T09:14:00Z\ntags:\n  - db\n  - dev\nstatus: active\n---\n\n"
        "line one\nline two\nline three\n")


def edit(text: str, *pairs: tuple[str, str]) -> bytes:
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new)
    return text.encode()


def test_each_side_s_fields_are_kept_and_the_clock_keys_take_the_later_time():
    ours = edit(BASE, ("listens on 5433", "listens on 5434"), ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-03T00:00:00Z"))
    theirs = edit(BASE, ("line three", "line three, changed"), ("  - dev\n", "  - dev\n  - pg\n"),
                  ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-01T00:00:00Z"), ("status: active\n", ""))
    merged = merge(BASE.encode(), ours, theirs)
    assert merged.conflicts == ()
    assert merged.data.decode() == edit(
        BASE, ("listens on 5433", "listens on 5434"), ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-03T00:00:00Z"),
        ("line three", "line three, changed"), ("  - dev\n", "  - dev\n  - pg\n"), ("status: active\n", "")).decode()
    record = parse(merged.data.decode(), "db-port").record
    assert record.description == "Dev PostgreSQL listens on 5434" and dict(record.extra)["tags"] == ["db", "dev", "pg"]


def test_the_same_field_changed_differently_is_one_hunk_of_that_field():
    ours = edit(BASE, ("listens on 5433", "listens on 5434"), ("line one", "line 1"))
    theirs = edit(BASE, ("listens on 5433", "listens on 6543"), ("line three", "line 3"))
    merged = merge(BASE.encode(), ours, theirs)
    assert merged.conflicts == ("description",)
    text = merged.data.decode()
    assert ("<<<<<<< ours (description)\ndescription: Dev PostgreSQL listens on 5434\n=======\n"
            "description: Dev PostgreSQL listens on 6543\n>>>>>>> theirs (description)\n") in text
    assert "line 1\nline two\nline 3\n" in text and has_conflict(merged.data)
    assert conflicting_fields(merged.data) == ["description"]
    settled = resolve_fields(merged.data, {"description": "theirs"})
    assert b"listens on 6543" in settled and b"listens on 5434" not in settled and not has_conflict(settled)
    assert parse(settled.decode(), "db-port").record.body == "line 1\nline two\nline 3"
    with pytest.raises(ValueError, match=r"no conflict in body \(conflicting: description\)"):
        resolve_fields(merged.data, {"body": "ours"})
    with pytest.raises(ValueError, match="side must be ours or theirs"):
        resolve_fields(merged.data, {"description": "mine"})


def test_both_changing_the_body_s_same_line_is_a_body_hunk_settled_apart_from_the_fields():
    ours = edit(BASE, ("line two", "line 2 (ours)"), ("type: project", "type: reference"))
    theirs = edit(BASE, ("line two", "line 2 (theirs)"), ("type: project", "type: user"))
    merged = merge(BASE.encode(), ours, theirs)
    assert merged.conflicts == ("type", "body")
    with pytest.raises(ValueError, match="still conflicting: body"):
        resolve_fields(merged.data, {"type": "ours"})
    settled = resolve_fields(merged.data, {"type": "ours"}, default="theirs").decode()
    assert "type: reference" in settled and "line 2 (theirs)" in settled and "(ours)" not in settled


def test_two_people_adding_the_same_memory_conflict_only_where_they_differ():
    ours = edit(BASE, ("listens on 5433", "listens on 5434"))
    merged = merge(b"", ours, BASE.encode())
    assert merged.conflicts == ("description",)
    assert merged.data.decode().count("<<<<<<<") == 1 and "line one\nline two\nline three\n" in merged.data.decode()
    assert merge(b"", BASE.encode(), BASE.encode()) == merge_mod.Merged(BASE.encode(), ())  # control: alike


RETIRED = (("status: active\n", "status: superseded\nvalid_until: 2026-12-03T00:00:01Z\nsuperseded_by: dev-db-port\n"),
           ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-03T00:00:00Z"))


@pytest.mark.parametrize("retiring", ["theirs", "ours"])
def test_a_side_retiring_the_memory_while_the_other_edits_it_waits_for_a_person(retiring):
    # A rename on one branch (status: superseded, superseded_by, valid_until) and an edit of the body on the
    # other: taking both buried the edit in a retired file, left out of every index, and said nothing.
    retired = edit(BASE, *RETIRED)
    edited = edit(BASE, ("line two", "line two, never on Fridays"))
    ours, theirs = (edited, retired) if retiring == "theirs" else (retired, edited)
    merged = merge(BASE.encode(), ours, theirs)
    assert merged.conflicts == ("status", "valid_until", "superseded_by")
    assert has_conflict(merged.data) and b"line two, never on Fridays" in merged.data
    keep_edit = "ours" if retiring == "theirs" else "theirs"
    live = parse(resolve_fields(merged.data, {}, default=keep_edit).decode(), "db-port").record
    assert (live.status, live.valid_until, live.body) == ("active", None, "line one\nline two, never on Fridays\nline three")
    gone = parse(resolve_fields(merged.data, {}, default=retiring).decode(), "db-port").record
    assert (gone.status, gone.superseded_by) == ("superseded", "dev-db-port")
    assert gone.body == live.body  # the person's edit is kept either way: in history when retired
    # controls: the retiring side alone, or a side that only moved the clock keys, merges cleanly
    assert merge(BASE.encode(), BASE.encode(), retired).data == retired
    clock_only = edit(BASE, ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-04T00:00:00Z"))
    assert merge(BASE.encode(), clock_only, retired).conflicts == ()
    both = merge(BASE.encode(), retired, edit(retired.decode(), ("line two", "line 2")))
    assert both.conflicts == () and b"line 2" in both.data  # both sides retired it: nothing to choose
    # the driver's line says which side retired it, not "both sides changed" (team43)
    assert (merged.retired_by, merged.retiring) == (retiring, ("status", "valid_until", "superseded_by"))
    said = merged_file(merged, "db-port.md")
    other = "ours" if retiring == "theirs" else "theirs"
    assert f"db-port.md: {retiring} renamed or superseded it (status, valid_until, superseded_by) while {other} " \
        "changed it; it stays out" in said and "both sides changed" not in said
    clash = merge(BASE.encode(), edit(BASE, ("5433", "5434")), edit(BASE, ("5433", "5435")))  # control
    assert clash.retired_by == "" and "db-port.md: both sides changed description;" in merged_file(clash, "db-port.md")


@pytest.mark.parametrize("shape", ["no frontmatter", "a key twice", "not yaml"])
def test_a_file_not_split_by_field_is_merged_whole_by_git_and_nothing_is_dropped(shape):
    base = {"no frontmatter": "# Notes\n\none\ntwo\nthree\n",
            "a key twice": BASE.replace("type: project\n", "type: project\ntype: user\n"),
            "not yaml": BASE.replace("type: project\n", "type: [project\n")}[shape]
    first, last = ("one", "three") if shape == "no frontmatter" else ("line one", "line three")
    ours, theirs = edit(base, (first, first + " (A)")), edit(base, (last, last + " (B)"))
    merged = merge(base.encode(), ours, theirs)
    assert merged.conflicts == () and b" (A)" in merged.data and b" (B)" in merged.data  # git's line merge
    clash = merge(base.encode(), ours, edit(base, (first, first + " (C)")))
    assert clash.conflicts == ("file",) and b" (A)" in clash.data and b" (C)" in clash.data
    assert conflicting_fields(clash.data) == ["body"] or shape != "no frontmatter"


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("crlf", ["ours", "theirs", "base", "all", "none"])
def test_line_ends_make_no_conflict_the_sides_merge_by_field_as_the_reader_reads_them(crlf):
    """left44c: a team file saved with CRLF (an editor on Windows) made every line differ from an LF side, so git
    merged it whole and conflicted on the whole file; the reader reads CRLF as LF. Now each side is read so first:
    the merge is the LF merge (control: ``none``), written with LF."""
    base = BASE.encode()
    ours = edit(BASE, ("listens on 5433", "listens on 5434"), ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-03T00:00:00Z"))
    theirs = edit(BASE, ("line three", "line three, changed"), ("updated: 2026-11-02T09:14:00Z", "updated: 2026-12-01T00:00:00Z"))
    expected = merge(base, ours, theirs)
    assert expected.conflicts == () and b"listens on 5434" in expected.data and b"line three, changed" in expected.data
    sides = {"base": base, "ours": ours, "theirs": theirs}
    for side in sides if crlf == "all" else [crlf] if crlf != "none" else []:
        sides[side] = _crlf(sides[side])
    merged = merge(sides["base"], sides["ours"], sides["theirs"])
    assert (merged.conflicts, merged.data) == ((), expected.data)
    assert b"\r" not in merged.data


def test_a_crlf_side_and_a_byte_order_mark_conflict_only_in_the_field_both_changed():
    ours = edit(BASE, ("listens on 5433", "listens on 5434"))
    theirs = b"\xef\xbb\xbf" + _crlf(edit(BASE, ("listens on 5433", "listens on 6543"), ("line one", "line 1")))
    merged = merge(BASE.encode(), ours, theirs)
    assert merged.conflicts == ("description",)  # not ("file",): the line ends and the mark changed no field
    assert b"line 1\nline two" in merged.data and conflicting_fields(merged.data) == ["description"]
    settled = resolve_fields(merged.data, {"description": "theirs"})
    assert parse(settled.decode(), "db-port").record.description == "Dev PostgreSQL listens on 6543"


def test_the_driver_merges_a_crlf_file_by_field(tmp_path):
    base, ours, theirs = tmp_path / "O", tmp_path / "A", tmp_path / "B"
    base.write_bytes(BASE.encode())
    ours.write_bytes(_crlf(edit(BASE, ("listens on 5433", "listens on 5434"))))
    theirs.write_bytes(edit(BASE, ("line two", "line 2")))
    merged = merge_paths(base, ours, theirs)
    assert merged.clean
    assert ours.read_bytes() == edit(BASE, ("listens on 5433", "listens on 5434"), ("line two", "line 2"))


def test_the_driver_writes_over_ours_and_keeps_both_sides_when_git_cannot_merge(tmp_path, monkeypatch):
    paths = [tmp_path / name for name in ("base", "ours", "theirs")]
    ours = edit(BASE, ("listens on 5433", "listens on 5434"))
    theirs = edit(BASE, ("line two", "line 2"))
    for path, data in zip(paths, (BASE.encode(), ours, theirs)):
        path.write_bytes(data)
    assert merge_paths(*paths).conflicts == ()
    assert b"listens on 5434" in paths[1].read_bytes() and b"line 2\n" in paths[1].read_bytes()
    # a clean result over the merging person's file-size ceiling: written whole, and not clean (team43)
    paths[1].write_bytes(ours)
    size = len(merge(BASE.encode(), ours, theirs).data)
    over = merge_paths(*paths, max_file_bytes=size - 1)
    assert (over.conflicts, over.ceiling, over.clean) == ((), size - 1, False)
    assert paths[1].read_bytes() == over.data and b"listens on 5434" in over.data and b"line 2\n" in over.data
    assert f"is {size} bytes, over the {size - 1}-byte ceiling of a memory file" in merged_file(over, "db-port.md")
    paths[1].write_bytes(ours)
    at = merge_paths(*paths, max_file_bytes=size)  # control: at the ceiling, clean
    assert (at.ceiling, at.clean, merged_file(at, "db-port.md")) == (0, True, "")

    def broken(*args, **kwargs):
        raise StoreError("git merge-file failed: out of memory")

    monkeypatch.setattr(merge_mod, "merge_file", broken)
    paths[1].write_bytes(edit(BASE, ("line two", "line 2")))  # both change the body's same line: git is needed
    paths[2].write_bytes(edit(BASE, ("line two", "line II")))
    merged = merge_paths(*paths)
    assert merged.conflicts == ("file",)
    data = paths[1].read_bytes()
    assert has_conflict(data) and b"line 2\n" in data and b"line II\n" in data  # never ours alone


FENCED = BASE.replace("line one\nline two\nline three\n", "Build it:\n\n```sh\nmake build\n```\n")


def test_a_body_conflict_inside_a_fenced_code_block_is_one_hunk_of_the_bodies_that_reads_as_a_conflict():
    """break39: both sides changed the line of a body's code block; git's hunk fell inside the fence, where
    markers read as text, so the file passed for a settled memory (listed, injected, `team status`: "settled,
    not yet added"). The body is one hunk of the two bodies whole now, outside every fence."""
    ours, theirs = edit(FENCED, ("make build", "make build-all")), edit(FENCED, ("make build", "make build-fast"))
    merged = merge(FENCED.encode(), ours, theirs)
    assert merged.conflicts == ("body",) and has_conflict(merged.data)
    assert merged.data.decode().endswith("---\n<<<<<<< ours (body)\n\nBuild it:\n\n```sh\nmake build-all\n```\n"
                                          "=======\n\nBuild it:\n\n```sh\nmake build-fast\n```\n>>>>>>> theirs (body)\n")
    assert conflicting_fields(merged.data) == ["body"]
    settled = resolve_fields(merged.data, {"body": "theirs"})
    assert parse(settled.decode(), "db-port").record.body == "Build it:\n\n```sh\nmake build-fast\n```"
    # control: a conflict outside the code block keeps git's own hunk of the lines both changed
    prose = merge(FENCED.encode(), edit(FENCED, ("Build it:", "Build it (A):")), edit(FENCED, ("Build it:", "Build (B):")))
    assert prose.conflicts == ("body",) and "<<<<<<< ours\nBuild it (A):\n=======\nBuild (B):\n>>>>>>> theirs\n" \
        in prose.data.decode() and "(body)" not in prose.data.decode()


def test_markers_a_fence_in_the_frontmatter_would_hide_are_the_two_sides_whole():
    """A fence opener in a block scalar of the frontmatter reads as a fence to the marker scan, so any hunk
    after it (a key's, the body's) would read as text: the merge is the two files whole in one hunk."""
    base = BASE.replace("name: db-port\n", "name: db-port\nnotes: |\n  ```\n")
    ours = edit(base, ("listens on 5433", "listens on 5434"))
    theirs = edit(base, ("listens on 5433", "listens on 6543"))
    merged = merge(base.encode(), ours, theirs)
    assert merged.conflicts == ("file",) and has_conflict(merged.data)
    assert merged.data == b"<<<<<<< ours\n" + ours + b"=======\n" + theirs + b">>>>>>> theirs\n"
    # control: the same base with a change of different keys merges cleanly, field by field
    clean = merge(base.encode(), ours, edit(base, ("type: project", "type: reference")))
    assert clean.conflicts == () and b"listens on 5434" in clean.data and b"type: reference" in clean.data


def test_the_program_a_registered_driver_runs_is_named_when_it_is_not_there(tmp_path):
    tool = tmp_path / "bin" / "python3"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    args = " -m memdir merge-file %O %A %B %P"
    assert merge_mod.missing_program(f"{tool}{args}", tmp_path) is None  # control: it is there
    assert merge_mod.missing_program(f"'{tmp_path}/gone dir/python3'{args}", tmp_path) == f"{tmp_path}/gone dir/python3"
    assert merge_mod.missing_program(f"bin/python3{args}", tmp_path) is None  # relative to the clone's top
    assert merge_mod.missing_program(f"venv/python3{args}", tmp_path) == "venv/python3"
    tool.chmod(0o644)
    assert merge_mod.missing_program(f"{tool}{args}", tmp_path) == str(tool)  # not executable
    assert merge_mod.missing_program("sh -c 'memdir merge-file'", tmp_path) is None  # on PATH
    assert merge_mod.missing_program("no-such-program-b39 merge-file %O %A %B %P", tmp_path) == "no-such-program-b39"
    assert merge_mod.missing_program("X=1 memdir merge-file", tmp_path) is None  # git alone judges


def test_fenced_markers_are_told_apart_from_markers_that_count_and_from_none():
    from memdir.files.conflicts import fenced_markers

    hunk = "<<<<<<< HEAD\nmake a\n=======\nmake b\n>>>>>>> theirs\n"
    assert fenced_markers(f"Build:\n```sh\n{hunk}```\n".encode()) and not has_conflict(f"```sh\n{hunk}```\n".encode())
    assert not fenced_markers(b"Build:\n```sh\nmake a\n```\n")  # control: a code block without markers
    assert not fenced_markers(b"```\n<<<<<<< HEAD\nonly an opener\n```\n")  # no closing marker: no hunk
    assert fenced_markers(hunk.encode()) and has_conflict(hunk.encode())  # outside a fence: both say so


def test_the_driver_says_which_ceiling_it_used(tmp_path):
    """left44c: a clean merge over the ceiling named a number, not whose: it is the merging person's
    max_file_bytes (memdir has no team-wide setting), and the message says where it was set."""
    from tests.conftest import run_cli

    home = tmp_path / "home"
    home.mkdir()
    body = "x" * 9000 + "\n"
    base_text = BASE.replace("line one\n", "")
    paths = [tmp_path / name for name in ("O", "A", "B")]
    for path, data in zip(paths, (base_text.encode(), edit(base_text, ("line two", body + "line two")),
                                  edit(base_text, ("line three", "line three\n" + body)))):
        path.write_bytes(data)
    (home / "config.toml").write_text("max_file_bytes = 16384\n")
    done = run_cli("--home", home, "merge-file", *paths, "team/db-port.md", env={"MEMDIR_MAX_FILE_BYTES": ""})
    assert done.returncode == 1, done.stderr
    assert (f"over the 16384-byte ceiling of a memory file (max_file_bytes of the person merging, from "
            f"{home / 'config.toml'}; a teammate's memdir reads with their own)") in " ".join(done.stderr.split())
    paths[1].write_bytes(edit(base_text, ("line two", body + "line two")))
    bigger = run_cli("--home", home, "merge-file", *paths, "team/db-port.md", env={"MEMDIR_MAX_FILE_BYTES": "32768"})
    assert (bigger.returncode, bigger.stderr) == (0, "")  # control: the variable's larger ceiling rules, clean


def test_set_by_names_the_source_that_won(tmp_path):
    from memdir.settings import set_by

    (tmp_path / "config.toml").write_text("max_file_bytes = 20000\n")
    assert set_by("max_file_bytes", tmp_path, {}) == str(tmp_path / "config.toml")
    assert set_by("max_file_bytes", tmp_path, {"MEMDIR_MAX_FILE_BYTES": "30000"}) == "MEMDIR_MAX_FILE_BYTES"
    assert set_by("max_file_bytes", tmp_path, {"MEMDIR_MAX_FILE_BYTES": "lots"}) == str(tmp_path / "config.toml")
    assert set_by("max_file_bytes", tmp_path / "none", {}) == "memdir's default"
    assert set_by("max_file_bytes", None, {"MEMDIR_MAX_FILE_BYTES": ""}) == "memdir's default"
