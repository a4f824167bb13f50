"""A candidate's docs columns are kept per index generation (memdir.search.visible.columns, issue 28: a search read
~100 rows' bodies again each time). Faster, never different: a second search reads no row it read, and a memory
rewritten by another process (a real subprocess, which syncs the index itself, so this process's sync finds its
layer as it left it and only the generation tells the change) shows its new text at once, under the same row id."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from memdir.search import index, visible

from ..conftest import indexed_store, traced

NOTES = {  # name -> (description, body); the last written has the highest row id: its rewrite takes the same id
    "ferry-times": ("Ferry timetable for the island", "The first ferry leaves at 07:10."),
    "lighthouse-rota": ("Lighthouse keeper rota", "Morag keeps the lighthouse on Mondays."),
}


def _columns_read(conn, run):
    return traced(conn, run, lambda sql: sql.startswith("SELECT d.id, d.layer") and "FROM docs d WHERE d.id IN" in sql)


def test_rows_are_read_once_and_a_rewrite_by_another_process_is_seen(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = indexed_store(isolated_home, project, NOTES)
    conn = index.connect(isolated_home)
    visible.ROWS.clear()
    first, reads = _columns_read(conn, lambda: mem.search("lighthouse rota"))
    assert [(r.name, r.description) for r in first] == [("lighthouse-rota", "Lighthouse keeper rota")]
    assert "Morag" in first[0].snippet and len(reads) >= 1  # read from docs the first time
    again, reads = _columns_read(conn, lambda: mem.search("lighthouse rota"))
    assert again == first and reads == []  # kept: the same answer, no row read
    row_id = conn.execute("SELECT id FROM docs WHERE name = 'lighthouse-rota'").fetchone()[0]

    script = textwrap.dedent(f"""
        from memdir import Memory
        mem = Memory.open(home={str(isolated_home)!r}, project={str(project)!r}, actor="human")
        mem.write("lighthouse-rota", "Lighthouse keeper rota from June", "project", "Ewan keeps it on Mondays.")
        assert [r.name for r in mem.search("lighthouse rota")] == ["lighthouse-rota"]  # its index synced there
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert conn.execute("SELECT id FROM docs WHERE name = 'lighthouse-rota'").fetchone()[0] == row_id  # same id

    after, reads = _columns_read(conn, lambda: mem.search("lighthouse rota"))
    assert [(r.name, r.description) for r in after] == [("lighthouse-rota", "Lighthouse keeper rota from June")]
    assert "Ewan" in after[0].snippet and "Morag" not in after[0].snippet and len(reads) >= 1  # read again
    ferry = mem.search("ferry timetable")  # control: the other memory, unchanged, still found
    assert [(r.name, r.description) for r in ferry] == [("ferry-times", "Ferry timetable for the island")]
