"""A memory file the reader refuses (a hand edit left a byte that is not UTF-8, a file over the ceiling) is named
in every search's note (memdir.search.unread), the empty page's too (memdir.render.memories.search): break19 found
such a memory invisible to search, 'No memories match' alone, the file said only by memdir list and doctor."""

from __future__ import annotations

import os
import subprocess
import sys

from memdir import Memory


def _layer(mem):
    return mem.session.layer("project").path


def test_a_search_names_the_files_it_cannot_read(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("zebra-crossing", "The zebra crossing camera is on pole 7", "project", "Camera feed on pole 7.")
    found = mem.search("zebra")
    assert [h.name for h in found] == ["zebra-crossing"] and found.note == ""  # control: nothing unread, no note
    (_layer(mem) / "zebra-notes.md").write_bytes(b"---\nname: zebra-notes\ndescription: zebra stripes\n"
                                                 b"type: project\n---\nThe zebra \xff\xfe stripes file.\n")
    found = mem.search("stripes")
    assert list(found) == []
    assert found.note == ("1 memory file cannot be read, so no search finds what it holds: zebra-notes.md "
                          "(file is not valid UTF-8); memdir doctor")
    assert [h.name for h in mem.search("camera")] == ["zebra-crossing"]  # control: the readable one still found
    out = subprocess.run([sys.executable, "-m", "memdir", "search", "stripes", "--home", str(isolated_home),
                          "--project", str(project)], check=False, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert out.returncode == 0
    assert out.stdout == ("No memories match 'stripes'.\n(1 memory file cannot be read, so no search finds what it "
                          "holds: zebra-notes.md (file is not valid UTF-8); memdir doctor)\n")
    (_layer(mem) / "zebra-notes.md").write_text("---\nname: zebra-notes\ndescription: zebra stripes\n"
                                                "type: project\n---\nThe zebra stripes file.\n")
    found = mem.search("stripes")
    assert [h.name for h in found] == ["zebra-notes"] and found.note == ""  # mended: found, nothing said


def test_the_note_is_a_seek_in_the_index_of_refused_files_not_a_walk_of_every_file(isolated_home, project):
    import sqlite3

    from memdir.search.unread import REFUSED

    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("zebra-crossing", "The zebra crossing camera is on pole 7", "project", "Camera feed on pole 7.")
    (_layer(mem) / "zebra-notes.md").write_bytes(b"---\nname: zebra-notes\n---\n\xff\n")
    assert [h.name for h in mem.search("camera")] == ["zebra-crossing"]
    conn = sqlite3.connect(isolated_home / "index.sqlite")
    rows = conn.execute("SELECT file FROM files WHERE error IS NOT NULL").fetchall()
    assert rows == [("zebra-notes.md",)]  # the refused file's row holds its error; the readable one's does not
    assert conn.execute("SELECT count(*) FROM files WHERE error IS NULL").fetchone() == (1,)
    plan = conn.execute("EXPLAIN QUERY PLAN " + REFUSED.format("?"), ("any",)).fetchall()
    assert [row[3] for row in plan] == ["SEARCH files USING INDEX files_errors (layer=?)"]


def test_a_file_held_back_is_not_named_beside_one_that_cannot_be_read(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("zebra-crossing", "The zebra crossing camera is on pole 7", "project", "Camera feed on pole 7.")
    (_layer(mem) / "zebra-notes.md").write_bytes(b"---\nname: zebra-notes\n---\n\xff\n")
    (_layer(mem) / "zebra-merge.md").write_text("---\nname: zebra-merge\ndescription: zebra\ntype: project\n---\n"
                                               "<<<<<<< ours\nThe zebra camera\n=======\nThe zebra pole\n>>>>>>> theirs\n")
    found = mem.search("zebra")
    assert [h.name for h in found] == ["zebra-crossing"]  # control: the readable memory is found
    assert found.note == ("1 memory file cannot be read, so no search finds what it holds: zebra-notes.md "
                          "(file is not valid UTF-8); memdir doctor")  # the conflicted one is doctor's to name
    assert sorted(m.path.rsplit("/", 1)[-1] for m in mem.list().malformed) == ["zebra-merge.md", "zebra-notes.md"]


def test_a_file_mended_while_the_index_cannot_be_written_is_not_named(isolated_home, project, capsys):
    """break21: with the index not writable (another process's lock; a read-only index file), the search
    answered from its up-to-date copy — the mended file found — while the note, read from the index file as
    last written, still said that file could not be read."""
    from memdir.search import index

    hold = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()")
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("zebra-crossing", "The zebra crossing camera is on pole 7", "project", "Camera feed on pole 7.")
    (_layer(mem) / "zebra-notes.md").write_bytes(b"---\nname: zebra-notes\ndescription: zebra stripes\n"
                                                 b"type: project\n---\nThe zebra \xff\xfe stripes file.\n")
    assert mem.search("stripes").note.startswith("1 memory file cannot be read")  # control: named while refused
    holder = subprocess.Popen([sys.executable, "-c", hold, str(index.db_path(isolated_home))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        (_layer(mem) / "zebra-notes.md").write_text("---\nname: zebra-notes\ndescription: zebra stripes\n"
                                                    "type: project\n---\nThe zebra stripes file.\n")
        (_layer(mem) / "zebra-bad.md").write_bytes(b"---\nname: zebra-bad\ndescription: zebra herd\n"
                                                   b"type: project\n---\nThe zebra \xff herd.\n")
        found = mem.search("stripes")
        assert [h.name for h in found] == ["zebra-notes"]  # from the copy
        assert found.note == ("1 memory file cannot be read, so no search finds what it holds: zebra-bad.md "
                              "(file is not valid UTF-8); memdir doctor")  # the one refused now, not the mended one
        assert "locked by another process" in capsys.readouterr().err
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    index.close_all()
