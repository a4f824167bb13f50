"""The recall decision as one fitted model, by pooled 2-fold CV on the fit data (a dump of neg.py; never held out).

    python evals/recall/neg.py dump DUMP.jsonl
    python evals/recall/decide.py DUMP.jsonl

Each candidate of a dumped fit row (:func:`neg.dump`: recall's ranked pool, its evidence, score and bar) is read as
24 features: both models' logits, cosine, gap, lead, coverage, head, near, held, query, mass, missing, complete,
shared words, the general / defines / compared flags, an infinite bar, agreed, crossed, another script, its rank by
cosine among the pool and in the ranking (log1p), and the rules' own decision. A logistic model (L2 1 or 10, on the
first 5 or 20 candidates of each row) is fitted on one fold, its threshold chosen there (hits less false recalls),
and read on the other; then the same model used only to add a memory the rules refuse (``hi``) or to refuse one they
return (``lo``). Prints ``[hits, needing, false recalls, needing none]`` of the fold read, beside the rules'.

2026-12-05 (recall23), on the fit data after named_fillers: the rules [111, 145, 20, 114], [102, 136, 18, 121]; the
fitted model alone read on fold 1 / fold 0: [96–97, 136, 16–18, 121] / [102–111, 145, 17–26, 114] — 5–9 hits lost
for at most 3 fewer false recalls; on top of the rules no rescue threshold was chosen on either fold, and a veto
chosen on one fold gives at best −1 hit −1 false recall on the other. Not kept: the rules' features already carry
what a single fitted decision finds, and the misses sit among candidates not needed (see neg.py, recall13).
"""
import math
import sys

import numpy as np

sys.path.insert(0, '.')
from common import new_folds, tally
from neg import load

rows = load(sys.argv[1])
def lg(p): p=min(max(p,1e-6),1-1e-6); return math.log(p/(1-p))
def feats(row):
    cs = row['cands']
    coss = [c['ev']['cosine'] if c['ev']['cosine'] is not None else -1 for c in cs]
    order = sorted(range(len(cs)), key=lambda i: -coss[i])
    crank = {i: r for r, i in enumerate(order)}
    out = []
    for i, c in enumerate(cs):
        e = c['ev']; has = e['cosine'] is not None
        barinf = c['bar'] == float('inf') or c['bar'] is None or (isinstance(c['bar'], float) and c['bar'] > 1)
        f = [lg(c['score']), lg(c['lexical']), (e['cosine'] or 0.8) if has else 0.8, e['gap'], e['lead'], e['coverage'], e['head'],
             e['near'], e['held'], e['query'], e['mass'], e['missing'], e['complete'], min(len(e['shared']), 5),
             float(e['general']), float(e['defines']), float(e['compared']), float(barinf), float(c['agreed']), float(c['crossed']),
             float(e['kin'] is not None), math.log1p(crank[i]), math.log1p(i), float(c['score'] >= c['bar'])]
        out.append(f)
    return np.array(out, dtype=float)

X = [feats(r) for r in rows]
def fit(idx, l2=1.0, topn=10, iters=3000, lr=0.1, wpos=1.0):
    xs, ys = [], []
    for j in idx:
        r = rows[j]
        for i, c in enumerate(r['cands'][:topn]):
            if not c['body']: continue
            xs.append(X[j][i]); ys.append(1.0 if c['name'] in r['expect'] else 0.0)
    xs = np.array(xs); ys = np.array(ys)
    mu, sd = xs.mean(0), xs.std(0) + 1e-9
    z = (xs - mu) / sd
    w = np.zeros(z.shape[1]); b = 0.0
    sw = np.where(ys > 0, wpos, 1.0)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - ys) * sw
        w -= lr * (z.T @ g / len(ys) + l2 * w / len(ys))
        b -= lr * g.mean()
    return lambda x: 1 / (1 + np.exp(-(((x - mu) / sd) @ w + b)))

def replay(idx, model, t, k=3):
    out = new_folds()
    for j in idx:
        r = rows[j]
        p = model(X[j]) if model else None
        names = []
        for i, c in enumerate(r['cands']):
            if len(names) >= k: break
            if c['body'] and (p[i] >= t if model else c['score'] >= c['bar']):
                names.append(c['name'])
        tally(out, r['fold'], r['expect'], names)
    return out

f0 = [j for j, r in enumerate(rows) if r['fold'] == 0]; f1 = [j for j, r in enumerate(rows) if r['fold'] == 1]
print('base', replay(range(len(rows)), None, 0))
for l2 in (1.0, 10.0):
  for topn in (5, 20):
    res = []
    for tr, te, fi in ((f0, f1, 1), (f1, f0, 0)):
        m = fit(tr, l2=l2, topn=topn)
        best = None
        for t in np.arange(0.2, 0.9, 0.025):
            fo = replay(tr, m, t)[1 - fi]
            g = fo[0] - fo[2]
            if best is None or g > best[0]: best = (g, t)
        t = best[1]
        res.append((fi, round(t, 3), replay(te, m, t)[fi], replay(te, None, 0)[fi]))
    print(l2, topn, res)

def replay2(idx, model, lo, hi, k=3):
    out = new_folds()
    for j in idx:
        r = rows[j]; p = model(X[j]); names = []
        for i, c in enumerate(r['cands']):
            if len(names) >= k: break
            b = c['score'] >= c['bar']
            if c['body'] and (b and p[i] >= lo or p[i] >= hi):
                names.append(c['name'])
        tally(out, r['fold'], r['expect'], names)
    return out
print('--- rescue/veto on top of the rules')
for l2 in (1.0, 10.0):
  for topn in (5, 20):
    res = []
    for tr, te, fi in ((f0, f1, 1), (f1, f0, 0)):
        m = fit(tr, l2=l2, topn=topn)
        best = None
        for lo in (0.0, 0.05, 0.1, 0.15, 0.2):
          for hi in (0.6, 0.7, 0.8, 0.9, 1.01):
            fo = replay2(tr, m, lo, hi)[1 - fi]
            g = (fo[0] - fo[2], -lo, hi)
            if best is None or g > best[0]: best = (g, lo, hi)
        res.append((fi, best[1], best[2], replay2(te, m, best[1], best[2])[fi], replay(te, None, 0)[fi]))
    print(l2, topn, res)
