"""Planted one-sentence facts in long notes of one domain's vocabulary, asked as plain questions.

    python benchmarks/planted_facts.py [--notes 1000] [--modes bm25,ties,hybrid] [--seed 7] [--keep DIR] [--passages]

Generates ``--notes`` technical notes of 100–400 words (``benchmarks/_corpus.py``,
seeded, so every run of a size is the same corpus) about one company's
systems: a dozen services, ten stores, six environments and twenty people, repeated across notes in
sentences of incidents, reviews, migrations and settings — including the same
kinds of settings for *other* service/store/environment triples, so a
question's words are everywhere and only the right sentence answers it. Fifty
notes each hold one planted fact ("The staging Redis instance for billing
listens on port 6391.") at a random place in the body; each fact is asked as
a plain question ("What is the port of the staging Redis instance for
billing?"). Notes are written as memory files straight into a project layer
and indexed (``hybrid`` also embeds them, in the foreground).

Modes: ``bm25`` (vectors off), ``hybrid`` (every note's head embedded in
the foreground; ``--passages`` also its body passages) and ``ties`` (vectors
on and nothing embedded yet, as before the background embedder has run:
lexical scores, a tie at the top broken by the meaning of each tied note's
best sentence, :mod:`memdir.search.ties`; the background embedder is kept
from starting so the store stays so).

``--keep DIR`` writes the notes and their indexes into ``DIR/planted-<notes>-<seed>``
instead of a temporary directory, and a later run of that size and seed reuses
them (embedding 10,000 notes takes minutes): one index home for ``bm25`` and
``ties`` (nothing embedded), one for ``hybrid``, one for ``hybrid --passages``.

Prints one JSON line per mode: ``first`` (questions whose note is ranked
first, of 50), hit@5, ``empty`` (questions with no result at all), and p50/p95
search latency in ms. The corpus is this generator's own; nothing in
memdir's ranking was tuned on another.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

sys.path.insert(0, str(REPO / "benchmarks"))

# The generator is the benchmarks' shared one (benchmarks/_corpus.py); its names stay importable from here.
from _corpus import (ATTRIBUTES, ENVS, FILLER, PEOPLE, SERVICES, STORES, TOPICS,  # noqa: E402,F401
                     corpus, memory_file)


def _store(base: Path, notes, vectors: str, passages: bool = False):
    from memdir import Memory
    from memdir.search.sync import prepare, sync

    project = base / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    # One home per state of the vectors, so a kept store (--keep) is asked as its mode says: a ties run after a
    # hybrid one in the same home would find every note embedded, and a hybrid run after --passages every passage.
    home = base / ("home" if vectors in ("off", "ties") else "home-hybrid-passages" if passages else "home-hybrid")
    mem = Memory.open(home=home, project=project, search_vectors="on" if vectors == "ties" else vectors,
                      actor="human")
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    if not any(layer.glob("note-*.md")):
        for name, description, body in notes:
            (layer / f"{name}.md").write_text(memory_file(name, description, body), encoding="utf-8")
    if vectors == "ties":
        sync(mem.session.home, mem.session.layers(None))  # indexed, nothing embedded
        return mem
    prepare(mem.session)
    if passages:  # what the background embedder does after the heads (vectors.EMBED_PASSAGES)
        from memdir.search import index, passagevectors

        passagevectors.embed_passages(index.connect(mem.session.home), None)
    return mem


MODES = ("bm25", "hybrid", "ties")


def _explain(mem, question: str, want: str) -> None:
    """Print to stderr, for one missed question, the first hits and the answer's evidence and sentence."""
    from memdir.search import ranking, relevance

    hits, terms, _ = ranking.ranked(mem.session, question, pool=ranking.POOL_MIN, explicit=True,
                                    min_score=relevance.THRESHOLD)
    place = next((i for i, h in enumerate(hits) if h.memory.name == want), None)
    print(f"\nMISS {question!r} terms={terms} want={want} at={place}", file=sys.stderr)
    shown = hits[:3] + ([hits[place]] if place is not None and place >= 3 else [])
    for i, h in enumerate(shown):
        e = h.evidence
        mark = "*" if h.memory.name == want else " "
        sentence = next((s for s in h.memory.body.replace("\n", " ").split(". ")
                         if sum(t in s.lower() for t in terms) >= len(terms) - 2), "")
        print(f" {mark} {h.memory.name[:40]:40} score={h.score:.3f} held={e.held:.2f} near={e.near:.2f}"
              f" span={e.span} cov={e.coverage:.2f} head={e.head:.2f} stated={relevance.stated(e)}"
              f" bm25={h.memory.bm25:.2f}\n      {sentence[:150]}", file=sys.stderr)


def run(count: int, mode: str, seed: int, keep: Path | None, passages: bool = False, details: bool = False) -> dict:
    if mode not in MODES:
        raise SystemExit(f"unknown mode {mode!r} (one of: {', '.join(MODES)})")
    notes, questions = corpus(count, seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = (keep / f"planted-{count}-{seed}") if keep else Path(tmp)
        start = time.perf_counter()
        if mode == "ties":  # vectors on, no memory embedded yet: no background embedder is started meanwhile
            from memdir.search import embedder

            embedder.schedule = lambda home: None
        mem = _store(base, notes, {"bm25": "off", "hybrid": "on"}.get(mode, mode), passages and mode == "hybrid")
        built = time.perf_counter() - start
        first = top5 = empty = 0
        times, misses = [], []
        for question, name in questions:
            t0 = time.perf_counter()
            got = [r.name for r in mem.search(question, k=5)]
            times.append((time.perf_counter() - t0) * 1000)
            first += got[:1] == [name]
            top5 += name in got
            empty += not got
            if got[:1] != [name]:
                misses.append({"question": question, "want": name, "got": got[:3]})
                if details:
                    _explain(mem, question, name)
        times.sort()
        return {"bench": "planted_facts", "notes": count, "mode": mode, "seed": seed, "questions": len(questions),
                "first": first, "hit5": top5, "empty": empty, "build_s": round(built, 1),
                "p50_ms": round(statistics.median(times), 1), "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
                "misses": misses[:10]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--modes", default="bm25")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--passages", action="store_true",
                        help="hybrid: also embed every note's body passages (as the background embedder does with"
                             " vectors.EMBED_PASSAGES on) before asking")
    parser.add_argument("--details", action="store_true",
                        help="print each missed question's first hits and evidence to stderr")
    args = parser.parse_args()
    for mode in (m.strip() for m in args.modes.split(",") if m.strip()):
        keep = args.keep.resolve() if args.keep else None  # memdir refuses a relative home (paths.home_path)
        print(json.dumps(run(args.notes, mode, args.seed, keep, args.passages, args.details)), flush=True)


if __name__ == "__main__":
    main()
