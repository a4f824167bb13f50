"""The tokenizer's terms over a corpus, recorded once and compared after a change (a refactor must give the same).

    python benchmarks/check_tokenizer_terms.py record /tmp/terms.json   # before
    python benchmarks/check_tokenizer_terms.py compare /tmp/terms.json  # after: one JSON line, exit 1 on a difference

The corpus: every text file under /work/shared/data (the shared transcripts, LoCoMo, MSC, memory folders; JSON
lines as they are) and this checkout's tests, sources and docs; not the recall eval's sets (the texts the tests write), cut into
chunks of at most 2,000 characters at line ends. For each chunk: :func:`tokens`, :func:`query_tokens`,
:func:`compound_groups`, :func:`identifier_parts`, :func:`word_forms` and :func:`acronyms` of
:mod:`memdir.search.tokenize`. Prints ``{"chunks": n, "differ": k, "seconds": s}`` and the first differences.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [Path("/work/shared/data"), ROOT / "tests", ROOT / "src", ROOT / "docs"]
"""Where the corpus is read; ``MEMDIR_TERMS_ROOT`` another checkout's tests, sources and docs (so a record taken
with main's interpreter and one taken after a change read the same texts)."""
CHUNK = 2000


def _texts() -> list[tuple[str, str]]:
    """``(key, chunk)`` of the corpus, the key the chunk's SHA-256 (a chunk met twice is one)."""
    out: dict[str, str] = {}
    root = Path(os.environ.get("MEMDIR_TERMS_ROOT", ROOT))
    for source in [SOURCES[0], *(root / s.name for s in SOURCES[1:])]:
        for path in sorted(p for p in source.rglob("*") if p.is_file() and p.suffix in (".md", ".txt", ".py", ".json", ".jsonl")):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            chunk, n = [], 0
            for line in text.splitlines(keepends=True):
                chunk.append(line)
                n += len(line)
                if n >= CHUNK:
                    _add(out, "".join(chunk))
                    chunk, n = [], 0
            if chunk:
                _add(out, "".join(chunk))
    return list(out.items())


def _add(out: dict[str, str], text: str) -> None:
    out[hashlib.sha256(text.encode()).hexdigest()[:20]] = text


def _terms(text: str) -> str:
    from memdir.search import tokenize as t

    return json.dumps([t.tokens(text), t.query_tokens(text), t.compound_groups(text),
                       {k: sorted(v) for k, v in t.identifier_parts(text).items()},
                       {k: sorted(v) for k, v in t.word_forms(text).items()}, t.acronyms(text)],
                      ensure_ascii=False, sort_keys=True)


def main(argv: list[str]) -> int:
    mode, out = argv[1], Path(argv[2])
    start = time.perf_counter()
    found = {key: _terms(text) for key, text in _texts()}
    if mode == "record":
        out.write_text(json.dumps(found, ensure_ascii=False))
        print(json.dumps({"chunks": len(found), "seconds": round(time.perf_counter() - start, 1)}))
        return 0
    before = json.loads(out.read_text())
    differ = [k for k in before if k in found and before[k] != found[k]]
    print(json.dumps({"chunks": len(found), "compared": sum(k in found for k in before), "differ": len(differ),
                      "digest": hashlib.sha256("".join(found[k] for k in sorted(found)).encode()).hexdigest()[:16],
                      "seconds": round(time.perf_counter() - start, 1)}))
    texts = dict(_texts())
    for key in differ[:5]:
        print(json.dumps({"chunk": texts[key][:200], "before": before[key][:400], "after": found[key][:400]}, ensure_ascii=False))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
