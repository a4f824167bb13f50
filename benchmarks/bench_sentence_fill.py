"""What the sentences a tie may pick cost the background embedder: its CPU and the index's bytes. Prints JSON lines.

    python benchmarks/bench_sentence_fill.py --home HOME [--src SRC ...]

``HOME`` is a memdir home whose index is built with vectors (every head embedded): ``same_answers.py --dir DIR``
keeps one at ``DIR/compare-1000-on/home`` (``compare_basic_memory.py``'s 1,000 notes, seed 11). Per ``--src`` (a
tree's ``src``; default this one's), in a process of that tree, on a fresh copy of ``HOME``: the sentence tables
are dropped (``memory_sentences``, ``sentence_marks``, ``filled_vectors``, ``sentence_vectors``; the fill's mark) and the index
vacuumed (``bytes_without``), then the background embedder is run to its end (:func:`memdir.search.embedder.run`:
with every head there, it fills the sentences, :func:`memdir.search.sentencestore.fill`). One line per tree: the
fill's CPU seconds (the process's, every thread: ``resource.getrusage``) and wall seconds, the load average at its
start, how many sentences the memories hold (``memory_sentences`` rows) and how many vectors the index keeps for
them, the index's bytes after the fill (WAL checkpointed) and after a VACUUM. Trees run one after the other on
the same copy of the same home; CPU seconds are the figure to compare (wall time is whatever the machine gives).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, os, resource, sqlite3, sys, time
from pathlib import Path
home = Path(sys.argv[1])
db = home / "index.sqlite"

def size():
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db.stat().st_size

conn = sqlite3.connect(db, isolation_level=None)
version = conn.execute("PRAGMA user_version").fetchone()[0]
for table in ("memory_sentences", "sentence_marks", "filled_vectors", "sentence_vectors"):  # marks: schema 29
    conn.execute(f"DROP TABLE IF EXISTS {table}")
conn.execute("DELETE FROM meta WHERE key = 'sentences_filled'")
conn.execute("VACUUM")
conn.close()
without = size()
from memdir.search import embedder, index
load = os.getloadavg()[0]
cpu, wall = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
heads = embedder.run(home)
after, wall = resource.getrusage(resource.RUSAGE_SELF), time.monotonic() - wall
index.close_all()
conn = sqlite3.connect(db, isolation_level=None)
held = conn.execute("SELECT count(*) FROM memory_sentences WHERE key != x''").fetchone()[0]
tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
kept = conn.execute("SELECT count(*) FROM filled_vectors" if "filled_vectors" in tables else
                    "SELECT count(*) FROM memory_sentences WHERE key != x''").fetchone()[0]
texts = conn.execute("SELECT count(DISTINCT key) FROM memory_sentences WHERE key != x''").fetchone()[0]
memories = conn.execute("SELECT count(*) FROM docs WHERE status = 'active'").fetchone()[0]
conn.close()
filled = size()
conn = sqlite3.connect(db, isolation_level=None)
conn.execute("VACUUM")
conn.close()
print(json.dumps({"schema_read": version, "memories": memories, "heads_embedded": heads, "load": round(load, 2),
                  "fill_cpu_s": round(after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime, 2),
                  "fill_wall_s": round(wall, 2), "sentences_held": held, "distinct_texts": texts,
                  "vectors_kept": kept, "bytes_without": without, "bytes_filled": filled, "bytes_vacuumed": size()}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True, help="a home whose index has every head embedded")
    parser.add_argument("--src", type=Path, action="append", default=[], help="a tree's src (repeat to compare)")
    args = parser.parse_args()
    for src in args.src or [HERE.parent / "src"]:
        with tempfile.TemporaryDirectory(prefix="memdir-fill-") as tmp:
            home = Path(tmp) / "home"
            shutil.copytree(args.home, home, symlinks=True, ignore=shutil.ignore_patterns("embed.lock"))
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve()), "MEMDIR_SEARCH_VECTORS": "on"}
            found = subprocess.run([sys.executable, "-c", CHILD, str(home)], env=env, capture_output=True, text=True,
                                   check=False)
            if found.returncode:
                print(json.dumps({"src": str(src), "error": found.stderr.strip()[-2000:]}), flush=True)
                continue
            line = json.loads(found.stdout.strip().splitlines()[-1])
            print(json.dumps({"src": str(src), **line}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
