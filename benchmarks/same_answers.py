"""Every answer of one source tree's search, written out whole, so two trees' answers can be diffed byte for byte.

    python benchmarks/same_answers.py [--src SRC] [--out FILE] [--notes 1000] [--dir DIR] [--sets compare]
        [--vectors on]

A change meant to make search faster and nothing else must leave every answer as it was. This writes, one JSON
line per (set, vectors, query): the results of ``Memory.search`` at ``k=10`` (every field, the score in full
precision), the text ``memory_search`` gives over MCP (its handler and rendering), and the ranking's hits as a
prompt's recall asks for them (``explicit`` False, at the threshold) with each hit's evidence as its ``repr``.

Sets: ``evals/search`` (63 memories, its 138 queries), the planted facts at ``--notes`` (``benchmarks/_corpus.py``,
seed 7: its 50 questions) and the corpus of ``compare_basic_memory.py`` at ``--notes`` (seed 11: its 194 distinct
queries); each with vectors ``on`` (embedded in the foreground) and ``off``. ``--src``: the tree whose ``src`` is
imported (default this one's). ``--dir``: where the homes are built and kept between runs (embedding 2,000 notes
takes minutes); each run copies them first, so a tree whose index schema differs rebuilds its own copy and never
the kept one. Compare two trees with ``diff`` of their ``--out`` files: empty when every answer is the same. It runs
with ``PYTHONHASHSEED=0`` (re-executing itself so): a set of terms iterates in hash order, and a sum over one may
differ in its last bit between two runs of the same tree otherwise. With vectors on, each home's background
embedder is run to its end after it is built (what the first search would start; a tree that embeds the sentences
a tie may pick ahead, :mod:`memdir.search.sentencestore`, does it then), so no search runs beside one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=HERE.parent / "src", help="the tree's src to import")
    parser.add_argument("--out", type=Path, help="where the lines go (default: stdout)")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the homes are built and kept (default: a temporary one)")
    parser.add_argument("--sets", default="evals-search,planted,compare",
                        help="comma list of the sets answered (default every one: evals-search,planted,compare)")
    parser.add_argument("--vectors", default="on,off", help="comma list: on, off or both (default on,off)")
    return parser.parse_args()


ARGS = _args()
if os.environ.get("PYTHONHASHSEED") != "0":  # a set of terms iterates in its strings' hash order, and a sum over it
    # (a memory's matched weight) may differ in its last bit between two runs of one tree: one order for every run
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
sys.path.insert(0, str(ARGS.src.resolve()))
sys.path.insert(1, str(HERE))
sys.path.insert(2, str(HERE.parent / "evals" / "search"))


def _answers(mem, queries: list[str], label: str, vectors: str):
    from memdir.search import ranking, relevance
    from memdir.tools.handlers import run_tool

    for query in queries:
        found = [{k: repr(v) if isinstance(v, float) else v for k, v in r.to_dict().items()}
                 for r in mem.search(query, k=10)]
        text = run_tool(mem.session, "memory_search", {"query": query, "k": 10}).text
        hits, terms, _ = ranking.ranked(mem.session, query, pool=ranking.POOL_MIN, min_score=relevance.THRESHOLD)
        recall = [[h.memory.name, repr(h.score), repr(h.evidence)] for h in hits[:10]]
        yield {"set": label, "vectors": vectors, "query": query, "search": found, "mcp": text, "terms": terms,
               "recall": recall}


def _copied(kept: Path, build, work: Path) -> Path:
    """``work`` as ``build(work)`` made it: built once and kept in ``kept``, then copied back into ``work`` on every
    later run (the same path, so the index finds its files where it left them; the copy is what is searched)."""
    if not (kept / "built").exists():
        shutil.rmtree(kept, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        build(work)
        shutil.copytree(work, kept, symlinks=True)
        (kept / "built").write_text("")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(kept, work, symlinks=True)
    return work


def main() -> int:
    import run as evals_search  # evals/search/run.py
    from _corpus import corpus, keywords, memory_file, vocabulary_queries

    from memdir import Memory
    from memdir.search import embedder
    from memdir.search.sync import prepare

    out = ARGS.out.open("w", encoding="utf-8") if ARGS.out else sys.stdout
    with tempfile.TemporaryDirectory(prefix="memdir-same-") as tmp:
        base = ARGS.dir.resolve() if ARGS.dir else Path(tmp) / "kept"
        sets = set(ARGS.sets.split(","))
        for vectors in [v for v in ("on", "off") if v in ARGS.vectors.split(",")]:
            os.environ["MEMDIR_SEARCH_VECTORS"] = vectors
            # evals/search: 138 queries
            home = None if "evals-search" not in sets else _copied(base / f"evals-{vectors}", lambda p, vectors=vectors: evals_search.build_store(p, vectors),
                           base / f"work-evals-{vectors}")
            if home is not None:
                if vectors == "on":
                    embedder.run(home / "home")
                mem = Memory.open(home=home / "home", project=home / "proj", search_vectors=vectors, actor="human")
                rows = [json.loads(line) for line in
                        (HERE.parent / "evals/search/queries.jsonl").read_text().splitlines() if line.strip()]
                for line in _answers(mem, [r["query"] for r in rows], "evals-search", vectors):
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
            # planted facts (seed 7) and the basic-memory comparison's corpus (seed 11)
            for label, seed in [(label, seed) for label, seed in (("planted", 7), ("compare", 11)) if label in sets]:
                notes, questions = (corpus(ARGS.notes, seed) if seed == 7 else
                                    corpus(ARGS.notes, seed, facts=min(50, max(1, ARGS.notes // 10))))

                def build(path: Path, notes=notes, vectors=vectors) -> None:
                    project = path / "proj"
                    (project / ".git").mkdir(parents=True)
                    made = Memory.open(home=path / "home", project=project, search_vectors=vectors, actor="human")
                    layer = made.session.layer("project").path
                    layer.mkdir(parents=True, exist_ok=True)
                    for name, description, body in notes:
                        (layer / f"{name}.md").write_text(memory_file(name, description, body), encoding="utf-8")
                    prepare(made.session)
                    if vectors == "on":  # what the first search starts, run to its end: every tree's answers at rest
                        embedder.run(made.session.home)

                name = f"{label}-{ARGS.notes}-{vectors}"
                home = _copied(base / name, build, base / f"work-{name}")
                mem = Memory.open(home=home / "home", project=home / "proj", search_vectors=vectors, actor="human")
                if seed == 7:
                    queries = [q for q, _ in questions]
                else:
                    queries = [q for question, _ in questions for q in (question, keywords(question))]
                    queries = list(dict.fromkeys(queries + vocabulary_queries(100, 11 + ARGS.notes)))
                for line in _answers(mem, queries, label, vectors):
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
