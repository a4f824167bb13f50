"""The MSC persona-fact figures of ``evals/extraction.py`` on each half of the dialogues.

Usage::

    python evals/msc_halves.py [--data PATH] [--extractor rules|llm]

Rules fitted on some dialogues must be checked on others: this splits the
dialogues by index parity (even: 0, 2, 4, …; odd: 1, 3, 5, …), writes each
half to a temporary file and scores it with ``evals/extraction.py``'s own
``evaluate`` — the scorer is not touched. Prints one JSON object per half,
then one for all dialogues; exit 0 (skips, with a message, when the data is
absent).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[1] / "shared" / "data" / "msc" / "personasummary-session1-test.jsonl"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="MSC persona-fact figures on the even and odd dialogues.")
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--extractor", choices=("rules", "llm"), default="rules")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"skipped: MSC data not found at {args.data}", file=sys.stderr)
        return 0
    sys.path.insert(0, str(HERE.parent / "src"))
    spec = importlib.util.spec_from_file_location("extraction_eval", HERE / "extraction.py")
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    lines = args.data.read_text(encoding="utf-8").splitlines(keepends=True)
    with tempfile.TemporaryDirectory(prefix="memdir-msc-") as tmp:
        for half, rest in (("even", 0), ("odd", 1)):
            path = Path(tmp) / f"{half}.jsonl"
            path.write_text("".join(line for n, line in enumerate(lines) if n % 2 == rest), encoding="utf-8")
            print(json.dumps({"half": half, **scorer.evaluate(path, args.extractor)}, ensure_ascii=False))
    print(json.dumps({"half": "all", **scorer.evaluate(args.data, args.extractor)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
