"""Cost of reading a query's unknown words as typos (:func:`memdir.search.typos.read`, srch16, recall28) on synthetic
stores (:mod:`bench_search`'s Zipf vocabulary). Prints one JSON line per query set:

    python benchmarks/bench_slips.py [MEMORIES]     # default 10,000

Sets: ``slipped3`` three vocabulary words each with an inner letter left out; ``unknown3`` three words of 8 letters
nothing holds nor nears; ``unknown20`` twenty unknown pseudo-words (a long query of them: at most
:data:`memdir.search.terms.SLIP_LOOKUPS` are read as slips); ``known3`` three held words (control); ``typos3``
three misspellings of English words the store holds (:data:`TYPOS`, each one slip inside the word, as people type
them: ``paginaton``, ``deploymnet``); ``english3`` three English words the store does not hold, each one slip from
one it holds (:data:`NEIGHBOURS`: ``contact`` beside "contract"). Each set is halved: one half searched with the
slip rule off (``SLIP_LOOKUPS = 0``), the other with it on (distinct queries: a repeated query would be answered
from the page cache). p50 and max in ms, in-process ``Memory.search(k=5)``, BM25; and, of the words of the half
searched with the rule on, ``on_read`` the share read as a slip (the search's note) and ``on_right`` the share read
as the word they were made from (the misspelt sets; ``english3`` must read none: a real word is no slip).
"""

from __future__ import annotations

import json
import random
import re
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
from memdir.search.reindex import reindex  # noqa: E402

TYPOS = {"paginaton": "pagination", "deploymnet": "deployment", "kuberentes": "kubernetes", "databse": "database",
         "enviroment": "environment", "dependncy": "dependency", "authentcation": "authentication",
         "configuraton": "configuration", "repostiory": "repository", "migraton": "migration",
         "certficate": "certificate", "pasword": "password", "varaible": "variable", "fucntion": "function",
         "librray": "library", "postgress": "postgres", "reqeust": "request", "repsonse": "response",
         "monitorng": "monitoring", "contarct": "contract", "compalint": "complaint", "additve": "additive",
         "scheudle": "schedule", "particpant": "participant", "cusotmer": "customer", "strucltog": "structlog",
         "launchdarkley": "launchdarkly", "middlware": "middleware", "permisson": "permission",
         "notificaton": "notification", "performnace": "performance", "integraton": "integration",
         "transacton": "transaction", "subscripton": "subscription"}
"""A misspelling (one letter left out, added or two swapped inside the word) and the held word it was typed for."""
NEIGHBOURS = {"contact": "contract", "compliant": "complaint", "addictive": "additive", "friction": "fiction",
              "creation": "cremation", "topical": "tropical", "depletion": "deletion", "medication": "mediation",
              "auction": "action", "alteration": "alternation", "compete": "complete", "backslash": "backlash",
              "expiation": "expiration", "patient": "patent", "perfect": "prefect", "blinder": "binder",
              "clutter": "cutter", "sticker": "sicker", "thinker": "tinker", "chopper": "copper", "plotter": "potter",
              "overlay": "overly", "ordinance": "ordnance", "livable": "liable", "freshen": "freshmen",
              "strangle": "strange", "stringer": "stinger", "preacher": "peacher", "retread": "reread",
              "sleepier": "sleeper"}
"""An English word no memory of the bench holds and the held English word one slip from it (a letter left out,
added or two swapped inside): the word must be read as itself, not as its neighbour."""
_READ = re.compile(r"read '([^']+)' as '([^']+)'")


def _fill_words(layer_dir: Path, words) -> None:
    """One memory a word (the held words of :data:`TYPOS` and :data:`NEIGHBOURS`), beside the synthetic store."""
    from memdir.files.memfile import MemoryRecord, serialize

    for i, word in enumerate(sorted(set(words))):
        record = MemoryRecord(name=f"w{i:04d}", description=f"Notes on the {word}", type="project",
                              body=f"The {word} is kept in the team wiki.", origin="human")
        (layer_dir / f"w{i:04d}.md").write_text(serialize(record), encoding="utf-8")


def main(size: int) -> None:
    rng = random.Random(7)
    vocab = b.vocabulary(rng)
    with tempfile.TemporaryDirectory(prefix="memdir-slips-") as tmp:
        root = Path(tmp) / "proj"
        (root / ".git").mkdir(parents=True)
        mem = Memory.open(home=Path(tmp) / "home", project=root, search_vectors="off")
        b.fill(mem.session.layer("project").path, size, rng, vocab)
        _fill_words(mem.session.layer("project").path, [*TYPOS.values(), *NEIGHBOURS.values()])
        reindex(mem.home, mem.settings)
        long = [w for w in vocab if len(w) >= 7]

        meant: dict[str, str] = {}  # a misspelt word of the queries: the word it was made from

        def slip(word: str) -> str:
            i = rng.randrange(2, len(word) - 2)
            meant[word[:i] + word[i + 1:]] = word
            return word[:i] + word[i + 1:]

        def pseudo() -> str:
            return "".join(rng.choice("bcdfgklmnprst") + rng.choice("aeiou") for _ in range(4))

        sets = {"slipped3": [" ".join(slip(rng.choice(long[:2000])) for _ in range(3)) for _ in range(120)],
                "unknown3": [" ".join("".join(rng.choice("xqzjvw") for _ in range(8)) for _ in range(3))
                             for _ in range(120)],
                "unknown20": [" ".join(pseudo() for _ in range(20)) for _ in range(60)],
                "known3": [" ".join(rng.choice(vocab[:2000]) for _ in range(3)) for _ in range(120)]}
        real = random.Random(11)  # the sets below drawn apart: the ones above stay as they were
        sets["typos3"] = [" ".join(real.sample(sorted(TYPOS), 3)) for _ in range(120)]
        sets["english3"] = [" ".join(real.sample(sorted(NEIGHBOURS), 3)) for _ in range(120)]
        meant.update(TYPOS)
        mem.search("warm up", k=5)
        lookups = terms.SLIP_LOOKUPS
        for name, queries in sets.items():
            row = {"memories": size, "set": name}
            for label, n, half in (("off", 0, 0), ("on", lookups, 1)):
                terms.SLIP_LOOKUPS = n
                latencies, words, read, right = [], 0, 0, 0
                for query in queries[half::2]:
                    started = time.perf_counter()
                    found = mem.search(query, k=5)
                    latencies.append((time.perf_counter() - started) * 1000)
                    slipped = dict(_READ.findall(found.note or ""))
                    words += len(query.split())
                    read += len(slipped)
                    right += sum(1 for typed, held in slipped.items() if meant.get(typed) == held)
                row[f"{label}_p50_ms"] = round(statistics.median(latencies), 1)
                row[f"{label}_max_ms"] = round(max(latencies), 1)
            row["on_read"] = round(read / words, 3)
            if name in ("slipped3", "typos3"):
                row["on_right"] = round(right / words, 3)
            terms.SLIP_LOOKUPS = lookups
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
