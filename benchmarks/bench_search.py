"""BM25 search latency and full reindex time on synthetic stores.

For each size (default 10,000 and 100,000 memories) a project layer is filled
with memory files (Zipf-distributed English-like words, code identifiers and
some CJK), then:

* ``reindex_s``: ``memdir.search.index.reindex`` of the whole home (target ≤ 20 s for
  10,000);
* ``p50_ms``/``p95_ms``: in-process ``Memory.search(query, k=5)`` in BM25 mode
  over 300 queries of 1–4 words, the per-query freshness check included
  (targets: p50 ≤ 5 ms at 10,000, ≤ 30 ms at 100,000).

The files are written with :func:`memdir.files.memfile.serialize` straight into the
layer directory — as a checkout or copy would put them — because the gateway
journals and rebuilds ``MEMORY.md`` per write, which is not what is measured
here. Prints one JSON line per size.

With ``--embed N`` (the ``vectors`` extra installed) it measures embedding
throughput instead, on N notes of 400 English words (a title, a 12-word
description, the body), one JSON line per way of embedding:

* ``store`` — the background embedder's own path end to end
  (:func:`memdir.search.embedder.run` on a home whose index holds the N
  notes: SQLite reads, the token cap, batches of ``BATCH``, one commit per
  batch);
* ``capped`` — :func:`memdir.search.vectors.memory_text` + ``embed`` alone
  (title, description and start of the body, at most ``EMBED_TOKENS`` model
  tokens), and ``full`` — the 1,500 characters looked at before the cap, on a
  quarter of the notes.

Each line gives notes per second of wall time and per CPU-second of this
process (all its threads), the engine's thread count, the 1-minute load
average before and after, and ``free_2core_s_per_1000``: the seconds 1,000
notes take on two otherwise idle cores, derived as 1000 / (2 × notes per
CPU-second). That derivation holds because the engine's CPU cost per note does
not depend on its thread count (``--threads 1`` and ``--threads 2`` give the
same notes per CPU-second: no spinning, no duplicated work). The machine is
shared, so wall time alone says little; the run is repeated in a child
without ``OPENBLAS_CORETYPE`` when that is set (the engine links no BLAS:
the figures should not move).

    python benchmarks/bench_search.py [--sizes 10000,100000] [--queries 300]
    python benchmarks/bench_search.py --embed 1000 [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SYLLABLES = ("ka ri to mo na se lu vi po de ra mi ko ta ne shi ro fa gu be lo ze pa ki do su "
             "ma te ni ho ya").split()
IDENTIFIERS = ("getUserById parseHTMLResponse OPENAI_API_KEY refresh_token_rotation fetchOrders "
               "retry_policy max-connections buildIndex DB_PORT cacheTTL").split()
CJK = "部署 数据库 缓存 测试 配置 日志 服务 接口 用户 订单".split()


def vocabulary(rng: random.Random, size: int = 20000) -> list[str]:
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def zipf_words(rng: random.Random, vocab: list[str], n: int) -> list[str]:
    # rank r drawn with weight 1/r (Zipf s=1), via the inverse of the harmonic CDF approximation
    out = []
    for _ in range(n):
        r = int(len(vocab) ** rng.random())  # log-uniform rank ≈ Zipf(1)
        out.append(vocab[min(r, len(vocab) - 1)])
    return out


def fill(layer_dir: Path, count: int, rng: random.Random, vocab: list[str]) -> None:
    from memdir.files.memfile import MemoryRecord, serialize

    layer_dir.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        words = zipf_words(rng, vocab, rng.randint(20, 80))
        if rng.random() < 0.2:
            words.insert(rng.randrange(len(words)), rng.choice(IDENTIFIERS))
        if rng.random() < 0.05:
            words.insert(rng.randrange(len(words)), rng.choice(CJK))
        record = MemoryRecord(name=f"m{i:06d}", description=" ".join(zipf_words(rng, vocab, 8)),
                              type="project", body=" ".join(words), origin="human")
        (layer_dir / f"m{i:06d}.md").write_text(serialize(record), encoding="utf-8")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(size: int, queries: int, seed: int) -> dict:
    from memdir import Memory
    from memdir.search.reindex import reindex

    rng = random.Random(seed)
    vocab = vocabulary(rng)
    with tempfile.TemporaryDirectory(prefix="memdir-bench-") as tmp:
        root = Path(tmp) / "proj"
        (root / ".git").mkdir(parents=True)
        mem = Memory.open(home=Path(tmp) / "home", project=root, search_vectors="off")
        started = time.perf_counter()
        fill(mem.session.layer("project").path, size, rng, vocab)
        fill_s = time.perf_counter() - started
        started = time.perf_counter()
        report = reindex(mem.home, mem.settings)
        reindex_s = time.perf_counter() - started
        texts = [" ".join(zipf_words(rng, vocab, rng.randint(1, 3)) +
                          ([rng.choice(IDENTIFIERS)] if rng.random() < 0.2 else [])) for _ in range(queries)]
        mem.search(texts[0], k=5)  # first query of the process sweeps the layer once
        latencies, hits = [], 0
        for text in texts:
            t0 = time.perf_counter()
            results = mem.search(text, k=5)
            latencies.append((time.perf_counter() - t0) * 1000)
            hits += bool(results)
        return {"memories": size, "indexed": report.memories, "fill_s": round(fill_s, 1),
                "reindex_s": round(reindex_s, 2), "queries": queries, "answered": hits,
                "p50_ms": round(percentile(latencies, 0.5), 2), "p95_ms": round(percentile(latencies, 0.95), 2)}


ENGLISH = ("service request database cache server client deploy build test release queue worker job schedule "
           "config option setting value default user account session token login password key secret backup "
           "restore disk memory network latency timeout retry error warning log metric alert dashboard report "
           "team meeting review change commit branch merge feature bug fix issue ticket customer order payment").split()


def _notes(count: int, seed: int) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    return [(f"note {i}", " ".join(rng.choice(ENGLISH) for _ in range(12)),
             " ".join(rng.choice(ENGLISH) for _ in range(400))) for i in range(count)]


def _line(way: str, notes: int, wall: float, cpu: float, load: float, tokens: int) -> dict:
    from memdir.search import vectors

    return {"figure": "embed", "way": way, "notes": notes, "words": 400, "tokens": tokens,
            "notes_per_s": round(notes / wall, 1), "notes_per_cpu_s": round(notes / cpu, 1),
            "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "free_2core_s_per_1000": round(1000 / (2 * notes / cpu), 1),
            "threads": int(os.environ.get("OMP_NUM_THREADS") or len(os.sched_getaffinity(0))),
            "batch": vectors.BATCH, "embed_tokens": vectors.EMBED_TOKENS,
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE")}


def embed_store(count: int, seed: int) -> dict:
    """The background embedder's path on a home holding ``count`` notes."""
    from memdir import Memory
    from memdir.files.memfile import MemoryRecord, serialize
    from memdir.search import embedder, vectors
    from memdir.search.index import connect
    from memdir.search.sync import sync

    with tempfile.TemporaryDirectory(prefix="memdir-bench-") as tmp:
        root = Path(tmp) / "proj"
        (root / ".git").mkdir(parents=True)
        mem = Memory.open(home=Path(tmp) / "home", project=root, search_vectors="auto")
        layer = mem.session.layer("project").path
        layer.mkdir(parents=True, exist_ok=True)
        for i, (title, description, body) in enumerate(_notes(count, seed)):
            record = MemoryRecord(name=f"n{i:05d}", description=description, type="project", body=body,
                                  origin="human")
            (layer / f"n{i:05d}.md").write_text(serialize(record), encoding="utf-8")
        sync(mem.home, mem.session.layers())
        vectors.embed(["warm up"])  # the model load is not embedding
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        done = embedder.run(mem.home)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert done == count, (done, count)
        assert vectors.pending(connect(mem.home)) == (count, count)
        tokens = vectors._model().token_count(vectors.memory_text(*_notes(1, seed)[0]))
        return _line("store", count, wall, cpu, load, tokens)


def embed_throughput(count: int, seed: int) -> list[dict]:
    """Notes per second of the capped and the full memory text (see the module docstring)."""
    from memdir.search import vectors

    notes = _notes(count, seed)
    vectors.embed(["warm up"])
    out = []
    for way, sample in (("capped", notes), ("full", notes[:max(1, count // 4)])):
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        for start in range(0, len(sample), vectors.BATCH):
            chunk = sample[start:start + vectors.BATCH]
            if way == "capped":
                texts = [vectors.memory_text(t, d, b) for t, d, b in chunk]
            else:
                texts = ["\n".join((t, d, b))[:vectors.EMBED_CHARS] for t, d, b in chunk]
            vectors.embed(texts)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        out.append(_line(way, len(sample), wall, cpu, load, vectors._model().token_count(texts[0])))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma list of store sizes")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--embed", type=int, default=0, help="measure embedding throughput on this many notes")
    parser.add_argument("--threads", type=int, default=0,
                        help="the engine's OpenMP threads (default: every core this process may use)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    if args.embed:
        if args.threads:
            os.environ["OMP_NUM_THREADS"] = str(args.threads)  # read when the engine loads
        print(json.dumps(embed_store(args.embed, args.seed)), flush=True)
        for line in embed_throughput(min(args.embed, 256), args.seed):
            print(json.dumps(line), flush=True)
        if not args.child and "OPENBLAS_CORETYPE" in os.environ:
            import subprocess

            env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
            subprocess.run([sys.executable, __file__, "--embed", str(args.embed), "--seed", str(args.seed),
                            "--threads", str(args.threads), "--child"], env=env, check=True)
        return 0
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        print(json.dumps(run(size, args.queries, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
