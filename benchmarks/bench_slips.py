"""Cost of reading a search's unknown words as slips (:func:`memdir.search.terms._slipped`, srch16) on synthetic
stores (:mod:`bench_search`'s Zipf vocabulary). Prints one JSON line per query set:

    python benchmarks/bench_slips.py [MEMORIES]     # default 10,000

Sets: ``slipped3`` three vocabulary words each with an inner letter left out; ``unknown3`` three words of 8 letters
nothing holds nor nears; ``unknown20`` twenty unknown pseudo-words (a long query of them: at most
:data:`memdir.search.terms.SLIP_LOOKUPS` are read as slips); ``known3`` three held words (control). Each set is
halved: one half searched with the slip rule off (``SLIP_LOOKUPS = 0``), the other with it on (distinct queries: a
repeated query would be answered from the page cache). p50 and max in ms, in-process ``Memory.search(k=5)``, BM25.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import bench_search as b  # noqa: E402

from memdir import Memory  # noqa: E402
from memdir.search import terms  # noqa: E402
from memdir.search.sync import reindex  # noqa: E402


def main(size: int) -> None:
    rng = random.Random(7)
    vocab = b.vocabulary(rng)
    with tempfile.TemporaryDirectory(prefix="memdir-slips-") as tmp:
        root = Path(tmp) / "proj"
        (root / ".git").mkdir(parents=True)
        mem = Memory.open(home=Path(tmp) / "home", project=root, search_vectors="off")
        b.fill(mem.session.layer("project").path, size, rng, vocab)
        reindex(mem.home, mem.settings)
        long = [w for w in vocab if len(w) >= 7]

        def slip(word: str) -> str:
            i = rng.randrange(2, len(word) - 2)
            return word[:i] + word[i + 1:]

        def pseudo() -> str:
            return "".join(rng.choice("bcdfgklmnprst") + rng.choice("aeiou") for _ in range(4))

        sets = {"slipped3": [" ".join(slip(rng.choice(long[:2000])) for _ in range(3)) for _ in range(120)],
                "unknown3": [" ".join("".join(rng.choice("xqzjvw") for _ in range(8)) for _ in range(3))
                             for _ in range(120)],
                "unknown20": [" ".join(pseudo() for _ in range(20)) for _ in range(60)],
                "known3": [" ".join(rng.choice(vocab[:2000]) for _ in range(3)) for _ in range(120)]}
        mem.search("warm up", k=5)
        lookups = terms.SLIP_LOOKUPS
        for name, queries in sets.items():
            row = {"memories": size, "set": name}
            for label, n, half in (("off", 0, 0), ("on", lookups, 1)):
                terms.SLIP_LOOKUPS = n
                latencies = []
                for query in queries[half::2]:
                    started = time.perf_counter()
                    mem.search(query, k=5)
                    latencies.append((time.perf_counter() - started) * 1000)
                row[f"{label}_p50_ms"] = round(statistics.median(latencies), 1)
                row[f"{label}_max_ms"] = round(max(latencies), 1)
            terms.SLIP_LOOKUPS = lookups
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
