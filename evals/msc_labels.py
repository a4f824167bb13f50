"""How well the MSC scorers agree with blind labels, and the precision the labels give.

Usage::

    python evals/msc_labels.py [--labels evals/data/msc_labels*.jsonl]

``evals/data/msc_labels.jsonl`` holds 400 memories drawn at random from the
rules extractor's 3,108 MSC proposals (at the commit and with the seed in
``msc_labels.meta.json``), each labelled by two annotators who saw the
memory, the utterance it came from and the speaker's gold facts — never a
scorer's verdict (instructions: ``msc_labels.md``): ``S`` states a gold fact
(in other words, or one part of a compound line), ``D`` a lasting fact about
the speaker the gold left out, ``N`` not a memory (chit-chat, the moment, a
statement that means nothing without the conversation).

Each sample has a ``.meta.json`` beside it: the commit whose proposals
were sampled, how, and that population's size and scorer matches. The
``calibration`` sample (``msc_labels.jsonl``, at c7dbe20) chose the meaning
scorer's threshold; the ``check`` sample (``msc_labels_check.jsonl``, drawn
afresh at f0236e9 and labelled by two other annotators) checked it and the
extractor's change made while looking at the first; the ``test`` sample
(``msc_labels_test.jsonl``, drawn at b9b01cd, after a last change made while
looking at the check sample, and labelled by two more) measures the
extractor as it is. Every sample was labelled blind; only ``test`` is
untouched by development.

Prints one JSON object per sample:

* ``labels`` (the file), ``role`` (calibration, check or test), ``items``,
  ``labelled_commit`` and ``population_memories``: the commit whose
  proposals were sampled and how many it made — the estimates below are
  that commit's extractor's, not necessarily the current one's
  (``evals/extraction.py`` prints the current ``memories``);
* ``annotators``: label counts, agreement and Cohen's kappa on S / not S;
* ``scorers``: for the lexical rule (persona lines as written), the lexical
  rule on atomic facts, and the meaning scorer at each threshold, the share
  of items where the scorer's "matches a fact" equals "both annotators said
  S", with its false matches and misses — on all items, and on the even
  (calibration) and odd (check) items;
* ``chosen_threshold`` (calibration only): the threshold with the best
  agreement on the even items (the lowest of ties), and its agreement on
  the odd ones;
* ``precision_estimate``: the labelled extractor's precision against the
  gold facts as the annotators read them, post-stratified on a scorer's
  verdict (known for every memory of the population: P(S | match) and
  P(S | no match) from the sample, weighted by the population's shares),
  with a 95 % normal interval — by the lexical and by the meaning verdict,
  per annotator and for both agreeing; ``sample_precision`` the plain
  share of S;
* ``keep_precision_estimate``: the same estimate (on the meaning verdict)
  of the share a person would keep — S or D: the gold as written plus the
  lasting facts its annotators left out, which the labels measure.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
THRESHOLDS = (0.86, 0.88, 0.89, 0.895, 0.9, 0.905, 0.91, 0.92, 0.93, 0.95)


def _scorer_module():
    spec = importlib.util.spec_from_file_location("extraction_eval", HERE / "extraction.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def agreement(predicted: list[bool], truth: list[bool], items) -> dict:
    """``{agreement, false_matches, misses, n}`` of ``predicted`` against
    ``truth`` over the indices ``items``."""
    items = list(items)
    return {"agreement": round(sum(predicted[i] == truth[i] for i in items) / len(items), 4),
            "false_matches": sum(predicted[i] and not truth[i] for i in items),
            "misses": sum(truth[i] and not predicted[i] for i in items), "n": len(items)}


def kappa(a: list[bool], b: list[bool]) -> float:
    """Cohen's kappa of two annotators' yes/no labels."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    return round((observed - expected) / (1 - expected), 4) if expected < 1 else 1.0


def post_stratified(verdict: list[bool], truth: list[bool], share: float) -> dict:
    """Precision estimated from a labelled sample, post-stratified on a
    scorer's verdict whose population ``share`` of matches is known:
    ``share·P(S|match) + (1-share)·P(S|no match)``, with the 95 % half-width
    of the normal interval."""
    hit = [t for v, t in zip(verdict, truth) if v]
    miss = [t for v, t in zip(verdict, truth) if not v]
    p1, p0 = sum(hit) / len(hit), sum(miss) / len(miss)
    variance = share ** 2 * p1 * (1 - p1) / len(hit) + (1 - share) ** 2 * p0 * (1 - p0) / len(miss)
    return {"estimate": round(share * p1 + (1 - share) * p0, 4), "plus_minus": round(1.96 * math.sqrt(variance), 4),
            "p_s_given_match": round(p1, 4), "p_s_given_no_match": round(p0, 4)}


def report(path: Path, ev) -> dict:
    """The figures of one labelled sample (see the module docstring)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    who = sorted(rows[0]["labels"])
    said = {w: [row["labels"][w]["label"] == "S" for row in rows] for w in who}
    both = [all(said[w][i] for w in who) for i in range(len(rows))]
    atoms = [[a for f in row["gold_facts"] for a in ev.atomic_facts(f) if ev.words(a)] for row in rows]
    lexical = [any(ev.matches(ev.words(f), ev.words(row["memory"])) for f in row["gold_facts"] if ev.words(f))
               for row in rows]
    atomic = [any(ev.matches(ev.words(f), ev.words(row["memory"])) for f in facts) for row, facts in zip(rows, atoms)]
    meaning = ev.MeaningScorer()
    meaning.embed([t for row, facts in zip(rows, atoms) for t in (*facts, row["memory"])])
    closest = [max((meaning.similarity(f, row["memory"]) for f in facts), default=0.0)
               for row, facts in zip(rows, atoms)]
    everyone, even, odd = range(len(rows)), range(0, len(rows), 2), range(1, len(rows), 2)
    sweep = {}
    for threshold in THRESHOLDS:
        predicted = [a or c >= threshold for a, c in zip(atomic, closest)]
        sweep[threshold] = {"all": agreement(predicted, both, everyone), "even": agreement(predicted, both, even),
                            "odd": agreement(predicted, both, odd)}
    in_use = [a or c >= ev.MEANING_THRESHOLD for a, c in zip(atomic, closest)]
    population = meta["population"]
    out = {
        "eval": "msc-labels", "labels": path.name, "role": meta["role"], "items": len(rows),
        "labelled_commit": meta["commit"], "population_memories": population["memories"],
        "annotators": {"counts": {w: {label: sum(row["labels"][w]["label"] == label for row in rows) for label in "SDN"}
                                  for w in who},
                       "agreement": agreement(said[who[0]], said[who[1]], everyone)["agreement"],
                       "kappa": kappa(said[who[0]], said[who[1]])},
        "scorers": {"lexical": agreement(lexical, both, everyone), "atomic": agreement(atomic, both, everyone),
                    f"meaning_{ev.MEANING_THRESHOLD}": agreement(in_use, both, everyone)},
    }
    if meta["role"] == "calibration":
        best = max(THRESHOLDS, key=lambda t: (sweep[t]["even"]["agreement"], -t))
        out["meaning_sweep"] = {str(t): v for t, v in sweep.items()}
        out["chosen_threshold"] = {"threshold": best, "even": sweep[best]["even"], "odd": sweep[best]["odd"],
                                   "in_use": ev.MEANING_THRESHOLD}
    shares = {"lexical": (lexical, population["lexical_correct"] / population["memories"]),
              "meaning": (in_use, population["meaning_correct"] / population["memories"])}
    out["precision_estimate"] = {
        f"by_{name}_verdict": {w: post_stratified(verdict, truth, share)
                               for w, truth in [*((w, said[w]) for w in who), ("both", both)]}
        for name, (verdict, share) in shares.items()}
    kept = {w: [row["labels"][w]["label"] in ("S", "D") for row in rows] for w in who}
    kept_both = [all(kept[w][i] for w in who) for i in range(len(rows))]
    verdict, share = shares["meaning"]
    out["keep_precision_estimate"] = {w: post_stratified(verdict, truth, share)
                                      for w, truth in [*((w, kept[w]) for w in who), ("both", kept_both)]}
    out["sample_precision"] = {w: round(sum(said[w]) / len(rows), 4) for w in who} | {
        "both": round(sum(both) / len(rows), 4)}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="MSC scorers against blind labels; the precision the labels give.")
    parser.add_argument("--labels", type=Path, nargs="*",
                        default=sorted((HERE / "data").glob("msc_labels*.jsonl")),
                        help="labelled samples (default: every evals/data/msc_labels*.jsonl)")
    args = parser.parse_args(argv)
    ev = _scorer_module()
    for path in args.labels:
        print(json.dumps(report(path, ev), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
