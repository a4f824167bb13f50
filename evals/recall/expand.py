"""Bridging the vocabulary gap with the shipped embedder: does it recall task prompts whose memory shares no word?

    python evals/recall/expand.py [--variants base vocab:0.9:0.5 ...]

On the fit data only (:func:`common.fit_rows`' sets: prompts and tasks fit halves, near, gaps, trial), fold by fold as
``run.py --split fit`` prints them (row *i* of each set in fold *i* mod 2), ``[hits, needing, false recalls,
needing none]`` per fold, pooled over the sets, for recall (:func:`memdir.search.recall.recall_result`, in
process, vectors on) with one variant patched in:

* ``base`` — recall as it is;
* ``vocab:BAR:ALPHA[:TOP][:q|p][:dilute]`` — a store vocabulary table: every distinct content word of the store's
  memories (one stemmed term, not a stopword, generic word, filler or number) embedded once (e5 ``query:`` prefix, or
  ``passage:`` with ``p``); on a prompt each of its content words is embedded too (one batch) and the store words of
  another term whose cosine to it reaches ``BAR`` (at most ``TOP`` per prompt word, default 2) are added to the
  query's lexical terms, weighing ``ALPHA`` × their IDF weight (:func:`memdir.search.weighing.term_weights`), only
  where a memory holds them (``dilute``: in the whole query's weight for every memory);
* ``vocabq:BAR:ALPHA[:TOP]`` — the same but with no prompt word embedded: store words whose cosine to the whole
  query's vector (already computed) reaches ``BAR``;
* ``sent:MODE`` — each memory's body sentences embedded (``passage:``) once; a memory's cosine is its head's
  (``MODE`` ``max``: the larger of its head's and its best sentence's; ``mix``: 0.5/0.5 of the two);
* ``heads:q`` / ``heads:avg`` — each memory's head text embedded again with the ``query:`` prefix (the prompt's
  own) and used instead of the stored ``passage:`` head vector, or the normalized mean of the two.

``--refit`` also runs each fold with both relevance models refitted on the other (``fit.py``'s fit, L2 0.3), as
``windows.py`` does. A variant is kept only if both folds gain hits without more false recalls. Cost figures (CPU of
this process) are printed per variant: the store-side embedding (per memory) and the prompt side (ms per prompt).

Measured 2026-12-03 (expand11), 45 memories, hits / false recalls of fold 0 (107 needing, 76 not) and fold 1 (98,
84); none passed, nothing was kept:

* base 82 / 22, 71 / 15 (refit on the other fold: 70 / 17, 63 / 14);
* vocabulary table, added terms diluting the query's weight (weigh in the whole): 0.9 × 0.5: 81 / 24, 69 / 15 (the
  general-question rule's coverage falls under 0.6: "how do I deploy to staging?" lost); added terms weighing only
  where the memory holds them (the rest below): 0.88 × 1: 86 / 32, 77 / 28; 0.9 × 1: 84 / 27, 73 / 23; 0.9 × 0.5:
  83 / 23, 71 / 17; 0.92 × 1: 83 / 22, 72 / 18; 0.93 × 0.5: 82 / 22, 71 / 16; 0.94 × 1 and 0.95 × 1: 83 / 22, 71 / 16
  (+1 "how do I download wheels built by CI?", +1 false "what are Postgres isolation levels?"); against the whole
  query's vector instead of its words, 0.85 × 0.5: 82 / 23, 72 / 16. 1,107 distinct words, ≈ 25 a memory, 88–109 ms
  of CPU a memory to embed (≈ 1× a head); on the prompt 19–28 ms of CPU for embedding its words (the lookup itself
  under 1 ms). Why it fails: e5-small embeds one word by its spelling more than its sense — ticket: catch 0.909, issue
  0.871; created_at: catch 0.864, timestamp 0.834; toggle: flag 0.844; flaky: flag 0.891 — so the neighbours that
  pass any bar are look-alikes, not the inference a task needs; what it bridges is cognates across languages (Paket:
  package 0.971, Projekt: project 0.969, Zeitstempel: timestamp 0.913), too few to move a fold.
* body sentences (882 sentences, 618 ms of CPU a memory, ≈ 6× a head; < 1 ms a prompt): max 80 / 22, 70 / 22; mean
  of head and best sentence 82 / 24, 72 / 18. Offline (whole prompt, nearest of the needed memory on 63 task
  prompts): head 35, best sentence 26, the larger 29: a sentence alone is nearer to everything.
* heads with the ``query:`` prefix: offline nearest 39 of 63 task prompts (MRR 0.724) against 35 (0.672), all fit
  positives 158 / 205 both (MRR 0.837 against 0.823); in recall with today's coefficients 80 / 25, 72 / 17, refitted
  71 / 17, 67 / 15; the mean of both heads 82 / 24, 73 / 16, refitted 72 / 18, 64 / 14 (one more head embedding a
  memory, ≈ 110 ms of CPU; nothing on the prompt). It brings task prompts ("给项目加一个新的 Python 依赖 requests",
  "change the price of the blue mug…") with general questions ("how do I install the 1Password CLI on Linux?") and
  loses cross-lingual ones ("Rechnung für den Kunden erzeugen"); the coefficients were fitted on ``passage:`` heads,
  and a refit with it does not pass either. Left: a refit of the hybrid model with query-prefixed heads together
  with the thresholds (neg11's constants), on more task data.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import HELDOUT_ONLY, SETS, STORES, build_store, new_folds, prompts, tally

_WORD = re.compile(r"[^\W\d_][\w'-]*[^\W_]|[^\W\d_]{2,}", re.UNICODE)


def fit_rows_with_folds() -> list[dict]:
    rows = []
    for which in SETS:
        if which not in HELDOUT_ONLY | set(STORES):
            for i, row in enumerate(prompts("fit", which)):
                rows.append({**row, "fold": i % 2, "set": which})
    return rows


def store_texts(mem) -> list[tuple[int, str, str, str]]:
    from memdir.search.index import connect

    conn = connect(mem.session.home)
    return [(i, t or "", d or "", b or "") for i, t, d, b in
            conn.execute("SELECT id, title, description, body FROM docs WHERE status = 'active'")]


def candidate_word(word: str) -> str | None:
    """The one term a word reads as when it is a content word worth a vocabulary row, else None."""
    from memdir.search import weighing
    from memdir.search.tokenize import is_stopword, tokens

    if len(word) < 3 or word.isdigit():
        return None
    found = tokens(word.lower())
    if len(found) != 1:
        return None
    term = found[0]
    if is_stopword(term) or weighing.is_generic(term) or weighing.is_filler(term) or term.isdigit():
        return None
    return term


class Vocab:
    """The store vocabulary table: surface word → (term, vector)."""

    def __init__(self, texts, prefix: str = "q"):
        from memdir.search import vectors

        words: dict[str, str] = {}
        for _i, t, d, b in texts:
            for w in _WORD.findall(f"{t}\n{d}\n{b}"):
                w = w.lower()
                if w not in words:
                    term = candidate_word(w)
                    if term:
                        words[w] = term
        self.words = list(words)
        self.terms = [words[w] for w in self.words]
        start = time.process_time()
        self.matrix = np.asarray(vectors.embed(self.words, query=prefix == "q"), dtype=np.float32)
        self.cpu = time.process_time() - start
        self.memories = len(texts)

    def near(self, vec, bar: float, top: int, exclude: set[str]) -> list[tuple[str, float]]:
        sims = self.matrix @ vec
        order = np.argsort(-sims)
        out, seen = [], set()
        for j in order[: 50]:
            if sims[j] < bar or len(out) >= top:
                break
            term = self.terms[j]
            if term in exclude or term in seen:
                continue
            seen.add(term)
            out.append((term, float(sims[j])))
        return out


_word_vecs: dict[str, np.ndarray] = {}


def word_vectors(words: list[str]):
    from memdir.search import vectors

    todo = [w for w in dict.fromkeys(words) if w not in _word_vecs]
    if todo:
        for w, v in zip(todo, np.asarray(vectors.embed(todo, query=True), dtype=np.float32)):
            _word_vecs[w] = v
    return [_word_vecs[w] for w in words]


def patch_vocab(vocab: Vocab, bar: float, alpha: float, top: int, whole: bool, spent: list, dilute: bool = False):
    """Patch ranking.query_terms and weighing.term_weights: the query's terms with the store words near its
    words (or its whole vector), those weighing ``alpha`` × their weight."""
    from memdir.search import (
        dense,
        querywindows,
        ranking,
        relevance,
        tokenize,
        weighing,
    )

    original_terms, original_weights = tokenize.query_terms, weighing.term_weights
    extra: set[str] = set()

    def query_terms(query, *args, **kwargs):
        terms = original_terms(query, *args, **kwargs)
        start = time.process_time()
        have = set(terms)
        added = []
        if whole:
            vec = dense.query_vector(query)
            added = vocab.near(vec, bar, top, have)
        else:
            words = []
            for w in querywindows.content_words(query):
                w = w.lower().strip(".,'\"`?!")
                if candidate_word(w):
                    words.append(w)
            if words:
                for w, vec in zip(words, word_vectors(words)):
                    found = vocab.near(vec, bar, top, have | {t for t, _ in added})
                    added += found
        spent.append(time.process_time() - start)
        for t, _s in added:
            extra.add(t)
        return terms + [t for t, _ in added if t not in have]

    # simpler: an extra term is one the query's own terms did not hold; mark per query
    def query_terms_marked(query, *args, **kwargs):
        extra.clear()
        return query_terms(query, *args, **kwargs)

    def weights_marked(terms, *args, **kwargs):
        out = original_weights(terms, *args, **kwargs)
        return {t: (w * alpha if t in extra else w) for t, w in out.items()}

    original_evidence = relevance.evidence

    def evidence(weights, head_tokens, body_tokens, strong, *args, **kwargs):
        # an added term weighs only where the memory holds it: it never dilutes the query's own words
        if not extra or not extra.intersection(weights):
            return original_evidence(weights, head_tokens, body_tokens, strong, *args, **kwargs)
        full = original_evidence(weights, head_tokens, body_tokens, strong, *args, **kwargs)
        held = extra.intersection(full.matched)
        kept = {t: w for t, w in weights.items() if t not in extra or t in held}
        return original_evidence(kept, head_tokens, body_tokens, strong & kept.keys(), *args, **kwargs)

    ranking.query_terms = query_terms_marked
    weighing.term_weights = weights_marked
    if not dilute:
        relevance.evidence = evidence

    def undo():
        ranking.query_terms = original_terms
        weighing.term_weights = original_weights
        relevance.evidence = original_evidence
    return undo, extra


class Sentences:
    """Each memory's body sentences embedded once (``passage:``)."""

    def __init__(self, texts):
        from memdir.search import vectors

        owners, sents = [], []
        for i, t, _d, b in texts:
            for s in re.split(r"(?<=[.!?。！？])\s+|\n+", b):
                s = s.strip(" -*#>\t")
                if len(s.split()) >= 3 or (s and not s.isascii() and len(s) >= 6):
                    owners.append(i)
                    sents.append(f"{t}\n{s}" if t else s)
        start = time.process_time()
        self.matrix = np.asarray(vectors.embed(sents), dtype=np.float32) if sents else np.zeros((0, 384), np.float32)
        self.cpu = time.process_time() - start
        self.owners = np.array(owners)
        self.count = len(sents)
        self.memories = len(texts)


def patch_sentences(sent: Sentences, mode: str, spent: list):
    from memdir.search import dense, ranking

    original = ranking._dense

    def cosines(conn, session, query, layers, where, embed_query, pending=None, windows=False):
        whole = original(conn, session, query, layers, where, embed_query, pending, windows=windows)
        if not whole or not sent.count:
            return whole
        start = time.process_time()
        vecs = dense.query_vectors(query, None, windows)
        sims = (sent.matrix @ vecs.T).max(axis=1)
        best: dict[int, float] = {}
        for owner, s in zip(sent.owners.tolist(), sims.tolist()):
            if s > best.get(owner, -1.0):
                best[owner] = s
        if mode == "max":
            out = {i: max(c, best.get(i, c)) for i, c in whole.items()}
        else:
            out = {i: 0.5 * c + 0.5 * best.get(i, c) for i, c in whole.items()}
        spent.append(time.process_time() - start)
        return out

    ranking._dense = cosines
    return lambda: setattr(ranking, "_dense", original)


class Heads:
    """Each memory's head text (:func:`memdir.search.vectors.memory_text`) embedded again with e5's ``query:``
    prefix (the prompt's own), beside the stored ``passage:`` vector."""

    def __init__(self, mem):
        from memdir.search import vectors
        from memdir.search.index import connect

        conn = connect(mem.session.home)
        docs = conn.execute("SELECT id, title, description, body FROM docs WHERE status = 'active'").fetchall()
        start = time.process_time()
        texts = [vectors.memory_text(t, d, b or "") for _i, t, d, b in docs]
        self.by_id = dict(zip([row[0] for row in docs], np.asarray(vectors.embed(texts, query=True), np.float32)))
        self.cpu = time.process_time() - start
        self.memories = len(docs)


def patch_heads(heads: Heads, mode: str, spent: list):
    """Patch :func:`memdir.search.similarity._matrix`: each memory's head vector is its ``query:`` one (``q``) or the
    normalized mean of the two (``avg``)."""
    from memdir.search import similarity

    original = similarity._matrix

    def matrix(conn, home, layers):
        ids, disabled, valid_from, valid_until, m, *rest = original(conn, home, layers)
        other = np.stack([heads.by_id.get(i, m[k]) for k, i in enumerate(ids.tolist())]) if len(ids) else m
        if mode == "avg":
            other = other + m
            other = other / np.linalg.norm(other, axis=1, keepdims=True)
        return (ids, disabled, valid_from, valid_until, other.astype(np.float32), *rest)

    similarity._matrix = matrix
    return lambda: setattr(similarity, "_matrix", original)


def run(mem, rows, details: list | None = None):
    from memdir.search.recall import recall_result

    folds = new_folds()
    for row in rows:
        names = [m.name for m in recall_result(mem.session, row["prompt"]).memories]
        right = tally(folds, row["fold"], row["expect"], names)
        if details is not None:
            details.append((row["prompt"], right, names))
    return folds


def refit(mem, rows, l2: float = 0.3) -> list:
    """Both relevance models refitted on one fold and recall run on the other, both ways (``fit.cross_refit``):
    ``[fold 0's figures, fold 1's]``; the models restored after."""
    import fit as fitmod

    return fitmod.cross_refit(mem, rows, run, l2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", nargs="+", default=["base"])
    parser.add_argument("--refit", action="store_true", help="also each fold with both models refitted on the other")
    parser.add_argument("--diff", action="store_true", help="print the prompts each variant changes against base")
    args = parser.parse_args()
    rows = fit_rows_with_folds()
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        from memdir.search.recall import recall_result

        recall_result(mem.session, "warm up the index and the model")
        texts = store_texts(mem)
        vocabs: dict[str, Vocab] = {}
        sentences = None
        base_details: list = []
        start = time.process_time()
        print(json.dumps({"variant": "base", "folds": run(mem, rows, base_details),
                          "cpu_ms_per_prompt": round(1000 * (time.process_time() - start) / len(rows), 1),
                          **({"refit_l2_0.3": refit(mem, rows)} if args.refit else {})}), flush=True)
        for label in args.variants:
            if label == "base":
                continue
            kind, *params = label.split(":")
            spent: list = []
            info = {}
            if kind in ("vocab", "vocabq"):
                bar, alpha = float(params[0]), float(params[1])
                top = int(params[2]) if len(params) > 2 else 2
                prefix = params[3] if len(params) > 3 else "q"
                dilute = len(params) > 4 and params[4] == "dilute"
                if prefix not in vocabs:
                    vocabs[prefix] = Vocab(texts, prefix)
                vocab = vocabs[prefix]
                info = {"vocab_words": len(vocab.words), "vocab_cpu_ms_per_memory":
                        round(1000 * vocab.cpu / vocab.memories, 1)}
                undo, _extra = patch_vocab(vocab, bar, alpha, top, kind == "vocabq", spent, dilute)
            elif kind == "sent":
                if sentences is None:
                    sentences = Sentences(texts)
                info = {"sentences": sentences.count, "sent_cpu_ms_per_memory":
                        round(1000 * sentences.cpu / sentences.memories, 1)}
                undo = patch_sentences(sentences, params[0], spent)
            elif kind == "heads":
                if "heads" not in vocabs:
                    vocabs["heads"] = Heads(mem)
                heads = vocabs["heads"]
                info = {"heads_cpu_ms_per_memory": round(1000 * heads.cpu / heads.memories, 1)}
                undo = patch_heads(heads, params[0], spent)
            else:
                raise SystemExit(f"unknown variant {label}")
            details: list = []
            try:
                folds = run(mem, rows, details)
                refitted = refit(mem, rows) if args.refit else None
            finally:
                undo()
            out = {"variant": label, "folds": folds, **info, **({"refit_l2_0.3": refitted} if refitted else {}),
                   "extra_cpu_ms_per_prompt": round(1000 * float(np.mean(spent)), 2) if spent else 0.0}
            print(json.dumps(out), flush=True)
            if args.diff:
                for (p, ok0, n0), (_p, ok1, n1) in zip(base_details, details):
                    if ok0 != ok1:
                        print(json.dumps({"gained" if ok1 else "lost": p, "base": n0, "now": n1},
                                         ensure_ascii=False), flush=True)


if __name__ == "__main__":
    sys.exit(main())
