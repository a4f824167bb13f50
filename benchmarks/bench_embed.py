"""Building vectors in the background: notes of 400 words per second. Prints one JSON line per run.

    python benchmarks/bench_embed.py [--notes 300] [--threads 0,1,2] [--words 400]

One store of ``--notes`` notes of ``--words`` words each, drawn from one
domain's vocabulary (services, stores, environments and people repeated
across notes; ``bench_recall``'s word list), indexed without vectors. Then,
per ``--threads`` value, the index's vectors are dropped and the background
embedder is run as memdir runs it (``python -m memdir.search.embedder
HOME``, a process of its own) with ``OMP_NUM_THREADS`` set to that value (0:
left unset, the engine's default of every core). Each line gives, for the
heads (every memory searchable by meaning: what ``memdir status`` counts)
and for the whole run (heads, then the body passages and the sentences a tie may pick,
:mod:`memdir.search.sentencestore`), notes per wall
second and per CPU second of the embedder process, the machine's load
average at the start (figures from a busy machine are lower), and the
token cap in force (:data:`memdir.search.vectors.EMBED_TOKENS`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

SERVICES = "billing checkout search auth gateway ledger payments inventory notifications reports".split()
STORES = "postgres redis kafka elasticsearch s3 clickhouse rabbitmq mysql".split()
ENVIRONMENTS = "staging production dev qa sandbox".split()
PEOPLE = "Alice Bob Carol Dave Erin Frank Grace Heidi".split()


def note(rng: random.Random, words: int) -> tuple[str, str]:
    from bench_recall import WORDS

    service, store, env, person = (rng.choice(SERVICES), rng.choice(STORES), rng.choice(ENVIRONMENTS),
                                   rng.choice(PEOPLE))
    description = f"{service} {store} notes for {env} by {person}"
    pool = WORDS + [service, store, env, person] * 8
    sentences, count = [], 0
    while count < words:
        length = rng.randint(8, 18)
        sentences.append(" ".join(rng.choice(pool) for _ in range(length)).capitalize() + ".")
        count += length
    return description, " ".join(sentences)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--words", type=int, default=400)
    parser.add_argument("--threads", default="0")
    args = parser.parse_args()
    from memdir import Memory
    from memdir.files.memfile import MemoryRecord, serialize
    from memdir.search import vectors
    from memdir.search.index import connect
    from memdir.search.sync import prepare

    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "proj"
        (project / ".git").mkdir(parents=True)
        home = Path(tmp) / "home"
        mem = Memory.open(home=home, project=project, search_vectors="off")
        layer = mem.session.layer("project").path
        layer.mkdir(parents=True, exist_ok=True)
        for i in range(args.notes):
            description, body = note(rng, args.words)
            record = MemoryRecord(name=f"note-{i:05d}", description=description, type="project", body=body,
                                  origin="human")
            (layer / f"note-{i:05d}.md").write_text(serialize(record), encoding="utf-8")
        prepare(mem.session)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        before_cpu = [before.ru_utime, before.ru_stime]
        for threads in (int(t) for t in args.threads.split(",")):
            conn = connect(home)
            conn.execute("DELETE FROM vectors")
            conn.execute("DROP TABLE IF EXISTS passage_vectors")
            conn.execute("DROP TABLE IF EXISTS memory_sentences")
            conn.execute("DROP TABLE IF EXISTS sentence_marks")  # schema 29: which memories are filled
            conn.execute("DROP TABLE IF EXISTS sentence_vectors")
            env = dict(os.environ)
            env.pop("OMP_NUM_THREADS", None)
            if threads:
                env["OMP_NUM_THREADS"] = str(threads)
            load = os.getloadavg()[0]
            started = time.perf_counter()
            process = subprocess.Popen([sys.executable, "-m", "memdir.search.embedder", str(home)], env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            heads_wall = heads_cpu = None
            reader = connect(home)
            while process.poll() is None:
                if heads_wall is None:
                    embedded, total = vectors.pending(reader)
                    if embedded == total:
                        heads_wall, heads_cpu = time.perf_counter() - started, cpu_seconds(process.pid)
                time.sleep(0.1)
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before_cpu[0]) + (after.ru_stime - before_cpu[1])
            before_cpu[:] = [after.ru_utime, after.ru_stime]
            embedded, total = vectors.pending(reader)
            try:
                passages = reader.execute("SELECT count(*) FROM passage_vectors WHERE vec IS NOT NULL").fetchone()[0]
            except sqlite3.OperationalError:  # no passage embedded (vectors.EMBED_PASSAGES off)
                passages = 0
            try:
                sentences = reader.execute("SELECT count(*) FROM memory_sentences WHERE vector IS NOT NULL").fetchone()[0]
            except sqlite3.OperationalError:  # a tree whose embedder keeps no sentence (memdir.search.sentencestore)
                sentences = 0
            heads_wall = heads_wall or wall
            heads_cpu = heads_cpu or cpu
            print(json.dumps({"notes": args.notes, "words": args.words, "omp_threads": threads or "default",
                              "embedded": embedded, "of": total, "embed_tokens": vectors.EMBED_TOKENS,
                              "heads_s": round(heads_wall, 1), "heads_notes_per_s": round(embedded / heads_wall, 1),
                              "heads_notes_per_cpu_s": round(embedded / heads_cpu, 1),
                              "passages": passages, "sentences": sentences, "all_s": round(wall, 1),
                              "all_notes_per_s": round(embedded / wall, 1),
                              "all_notes_per_cpu_s": round(embedded / cpu, 1), "load_avg_1m": round(load, 1),
                              "rc": process.returncode, "log": process.stdout.read().strip()[-80:]}), flush=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

if __name__ == "__main__":
    main()
