"""Building vectors in the background: notes of 400 words per second. Prints one JSON line per run.

    python benchmarks/bench_embed.py [--notes 300] [--threads 0,1,2] [--words 400]

One store of ``--notes`` notes of ``--words`` words each, drawn from one
domain's vocabulary (services, stores, environments and people repeated
across notes; ``bench_recall``'s word list), indexed without vectors. Then,
per ``--threads`` value, the index's vectors are dropped and the background
embedder is run as memdir runs it (``python -m memdir.search.embedder
HOME``, a process of its own) with ``OMP_NUM_THREADS`` set to that value (0:
left unset, the engine's default of every core). Each line gives notes per
wall second, per CPU second of the embedder process, the machine's load
average at the start (figures from a busy machine are lower), and the
token cap in force (:data:`memdir.search.vectors.EMBED_TOKENS`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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
        for threads in (int(t) for t in args.threads.split(",")):
            connect(home).execute("DELETE FROM vectors")
            env = dict(os.environ)
            env.pop("OMP_NUM_THREADS", None)
            if threads:
                env["OMP_NUM_THREADS"] = str(threads)
            load = os.getloadavg()[0]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "memdir.search.embedder", str(home)], env=env,
                                  capture_output=True, text=True)
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            embedded, total = vectors.pending(connect(home))
            print(json.dumps({"notes": args.notes, "words": args.words, "omp_threads": threads or "default",
                              "embedded": embedded, "of": total, "wall_s": round(wall, 1),
                              "notes_per_s": round(embedded / wall, 1), "notes_per_cpu_s": round(embedded / cpu, 1),
                              "embed_tokens": vectors.EMBED_TOKENS, "load_avg_1m": round(load, 1),
                              "rc": done.returncode, "log": done.stdout.strip()[-80:]}), flush=True)


if __name__ == "__main__":
    main()
