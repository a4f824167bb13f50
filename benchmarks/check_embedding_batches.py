"""Whether a vector depends on the batch it is embedded in: a tie's sentences alone and together, a query alone and
with them.

    python benchmarks/check_embedding_batches.py [--notes 1000]

A search breaking a tie (:mod:`memdir.search.ties`) embeds the tied memories' sentences in one batch
(:func:`memdir.search.vectors.sentence_vectors`, which keeps each one's vector) after embedding its query alone
(:mod:`memdir.search.dense`). Batching the query with the sentences, or a kept sentence vector reused in another
batch, gives the same answers only if the vectors are the same. This embeds the needles' sentences of the
benchmarks' corpus (``benchmarks/_corpus.py``) one by one and in batches of 4, and each needle's question alone
and in a batch with its sentence, and prints one JSON line: how many sentence vectors are bitwise equal either
way, the largest difference, whether any question's order of its batch's sentences by cosine changes, and the
query's cosine between alone (ONNX Runtime when installed: one text of one window) and batched (numpy).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from _corpus import corpus  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    args = parser.parse_args()
    import numpy as np

    from memdir.search import vectors

    notes, questions = corpus(args.notes, 11, facts=min(50, max(1, args.notes // 10)))
    bodies = {name: body for name, _description, body in notes}
    sentences = []
    for _question, name in questions:
        found = [s.strip() for s in bodies[name].split(". ") if any(c.isdigit() for c in s)]
        sentences.append((found or [bodies[name][:200]])[0][:300])
    alone = np.stack([vectors.embed([s])[0] for s in sentences])
    batched = np.concatenate([vectors.embed(sentences[i:i + 4]) for i in range(0, len(sentences), 4)])
    model = vectors._model()
    equal, worst, moved, query_cos, query_equal = 0, 0.0, 0, [], 0
    for i, (question, _name) in enumerate(questions):
        equal += bool(np.array_equal(alone[i], batched[i]))
        worst = max(worst, float(np.abs(alone[i] - batched[i]).max()))
        q = vectors.embed([question], query=True)[0]
        together = model.embed([question, sentences[i]], query=True)[0]  # the query in a batch: numpy's layers
        query_cos.append(float(q @ together))
        query_equal += bool(np.array_equal(q, together))
        group = slice(4 * (i // 4), 4 * (i // 4) + 4)
        moved += list(np.argsort(-(alone[group] @ q), kind="stable")) != list(
            np.argsort(-(batched[group] @ q), kind="stable"))
    print(json.dumps({"sentences": len(sentences), "bitwise_equal_alone_vs_batch": equal,
                      "max_abs_diff": worst, "orders_changed": moved,
                      "query_alone_vs_batched_cosine_min": round(min(query_cos), 6),
                      "query_alone_vs_batched_bitwise_equal": query_equal}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
