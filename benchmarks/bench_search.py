"""BM25 search latency and full reindex time on synthetic stores.

For each size (default 10,000 and 100,000 memories) a project layer is filled
with memory files (Zipf-distributed English-like words, code identifiers and
some CJK), then:

* ``reindex_s``: ``memdir.search.fts.reindex`` of the whole home (target ≤ 20 s for
  10,000);
* ``p50_ms``/``p95_ms``: in-process ``Memory.search(query, k=5)`` in BM25 mode
  over 300 queries of 1–4 words, the per-query freshness check included
  (targets: p50 ≤ 5 ms at 10,000, ≤ 30 ms at 100,000).

The files are written with :func:`memdir.store.memfile.serialize` straight into the
layer directory — as a checkout or copy would put them — because the gateway
journals and rebuilds ``MEMORY.md`` per write, which is not what is measured
here. Prints one JSON line per size.

    python benchmarks/bench_search.py [--sizes 10000,100000] [--queries 300]
"""

from __future__ import annotations

import argparse
import json
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
    from memdir.store.memfile import MemoryRecord, serialize

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
    from memdir.search.fts import reindex

    rng = random.Random(seed)
    vocab = vocabulary(rng)
    with tempfile.TemporaryDirectory(prefix="memdir-bench-") as tmp:
        root = Path(tmp) / "proj"
        (root / ".git").mkdir(parents=True)
        mem = Memory.open(home=Path(tmp) / "home", project=root, search_vectors="off")
        started = time.perf_counter()
        fill(mem.layer("project").path, size, rng, vocab)
        fill_s = time.perf_counter() - started
        started = time.perf_counter()
        report = reindex(mem.home, mem.settings, progress=False)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma list of store sizes")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        print(json.dumps(run(size, args.queries, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
