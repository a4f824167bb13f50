"""How much a cascade could spare: per search, the rows given full evidence and how many a score bound would prune.

    python benchmarks/cascade_ceiling.py [--dir DIR] [--notes 1000]

On the home of ``profile_mcp_search.py --hybrid`` (built once in ``--dir``), each query of
``compare_basic_memory.py`` is searched as ``memory_search`` does (``ranked``, explicit, pool 50, k 5) once to keep
its vector, then again with :func:`memdir.search.ranking._evidence` and :func:`memdir.search.evidence.evidence`
watched. For each row it records the query's whole weight, the weight of the terms the row holds anywhere (head and
body: what a cheap pre-pass could know) and the most ``complete`` could be, and bounds the row's score from above:
the coupled coverage/mass/missing terms maximised over the matched weight in [0, held] (a grid), the head share at
most the held share, the cosine's terms exact. A row not stating the query whose bound is under the page's 5th score
(to a hundredth) is counted prunable. Ties, ``stated``, ``_tie_cut`` (which reads the last hit) and concept lifts are
ignored, so the count is a ceiling of what such a bound spares, not a proof. One JSON line.
(cascade38, 1,000 notes: 105 rows a search, 33 prunable: 32%; a bound of separate maxima prunes 22%.)
"""
import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import profile_mcp_search as p

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--dir", type=Path, default=Path("/tmp/memdir-cascade-ceiling"))
parser.add_argument("--notes", type=int, default=1000)
args = parser.parse_args()
home, project, queries = p.build(args.dir.resolve(), args.notes, True)
os.chdir(project)
os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
from memdir.integrations.mcp.server import MemoryServer
from memdir.search import evidence as E
from memdir.search import relevance, windows
from memdir.tools.handlers import run_tool

session = MemoryServer(home, project).fallback.session
captured = {}
orig = E.evidence
def spy(weights, head_tokens, body_tokens, strong, keywords, cosine, median=None, top=None, present=None, typed=False):
    ev = orig(weights, head_tokens, body_tokens, strong, keywords, cosine, median, top, present, typed)
    whole = sum(weights.values())
    anywhere = set(head_tokens) & weights.keys() | windows.held_terms(body_tokens, weights)
    hw = sum(w for t, w in weights.items() if t in anywhere)
    core = {t for t in strong if not E.is_generic(t)} or strong
    head = set(head_tokens) & weights.keys()
    if not keywords or not core:
        comp = 0.0
    elif core <= anywhere:
        comp = 1.0
    else:
        known = core if not typed or present is None else core & present
        comp = len(known) / len(core) if typed and known and 2 * len(known) >= len(core) and known <= head else 0.0
    captured[id(ev)] = (whole, hw, comp)
    return ev
E.evidence = spy
relevance.evidence = spy
import memdir.search.ranking as R

found_ids = []
oe = R._evidence
def ev_spy(conn, ids, *a, **k):
    out = oe(conn, ids, *a, **k)
    for i, ev in out.items():
        found_ids.append((i, captured.get(id(ev))))
    return out
R._evidence = ev_spy
orig_wc = R._with_cosines
final = {}
def wc_spy(found, *a, **k):
    out = orig_wc(found, *a, **k)
    final.clear(); final.update(out)
    return out
R._with_cosines = wc_spy
L, H = relevance.LEXICAL, relevance.HYBRID
def bound(ev, whole, hw, comp):
    def z(m, hyb):
        best = -1e9
        for j in range(41):  # matched weight m in [0, hw]: the coupled features, a fine grid (oracle only)
            mm = hw * j / 40
            s = mm / whole if whole > 0 else 0.0
            best = max(best, m["coverage"] * s + m["mass"] * math.log1p(mm) + m["missing"] * math.log1p(max(0.0, whole - mm)))
        t = best + m["head"] * (hw / whole if whole > 0 else 0.0) + m["query"] * ev.query + m["complete"] * comp
        if hyb:
            t += m["cosine"] * ev.cosine + m["gap"] * ev.gap + m["lead"] * ev.lead
        return m["bias"] + t
    zz = z(L, False) if ev.cosine is None else max(z(L, False), z(H, True))
    return relevance._sigmoid(zz)
for q in queries: run_tool(session, "memory_search", {"query": q, "k": 5})  # warm: vectors kept
rows_n, hits_n, prunable, loose = [], [], [], []
for q in queries:
    found_ids.clear(); final.clear()
    hits, terms, _ = R.ranked(session, q, pool=50, explicit=True, windows=False, shown=5)
    caps = dict(found_ids)
    rows_n.append(len(caps)); hits_n.append(len(hits))
    if len(hits) < 6:
        prunable.append(0); continue
    kth = round(hits[4].score, 2)
    n = 0
    for i, ev in final.items():
        c = caps.get(i)
        if c is None or ev.held >= 0.9:
            continue
        if bound(ev, *c) < kth - 0.005 and relevance.score(ev) < kth:
            n += 1
    prunable.append(n)
print(json.dumps({"queries": len(queries), "rows_mean": statistics.mean(rows_n), "hits_mean": statistics.mean(hits_n),
                  "prunable_mean": statistics.mean(prunable), "prunable_share": sum(prunable) / sum(rows_n)}))
