"""Hostile files (issue 10, items 9 and 10). Prints one JSON object per line.

    python benchmarks/bench_hostile.py

Figures:
  yaml_aliases   a ~400-byte file of nested YAML anchors/aliases (a "billion laughs"):
                 wall time of list and context with it in the layer (it is refused, not expanded).
  huge_file      a 54 MB memory file placed by hand: the first search (index built from
                 scratch), the context block, the largest version object kept, the process's
                 peak RSS (the file is over max_file_bytes: listed as too large, never read).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from memdir import Memory  # noqa: E402

LAUGHS = ("---\nname: lol\ndescription: d\ntype: project\n"
          "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
          + "".join(f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
          + "---\nbody\n")


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="memdir-hostile-"))
    try:
        run(base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run(base: Path) -> None:
    project = base / "p"
    (project / ".git").mkdir(parents=True)
    os.environ["MEMDIR_HOME"] = str(base / "home")
    mem = Memory.open(home=base / "home", project=project, search_vectors="off")
    mem.write("ok", "a plain memory about zebras", "project", "zebra")
    layer = mem.session.layer("project").path
    (layer / "lol.md").write_text(LAUGHS, encoding="utf-8")
    start = time.perf_counter()
    listed = mem.list()
    list_s = time.perf_counter() - start
    start = time.perf_counter()
    mem.context()
    context_s = time.perf_counter() - start
    print(json.dumps({"bench": "yaml_aliases", "file_bytes": len(LAUGHS), "list_ms": ms(list_s),
                      "context_ms": ms(context_s), "refused": len(listed.malformed) == 1}), flush=True)
    (layer / "lol.md").unlink()
    big = layer / "big.md"
    big.write_text("---\nname: big\ndescription: big\ntype: project\n---\n" + "zebra " * 9_000_000, encoding="utf-8")
    start = time.perf_counter()
    hits = mem.search("zebra")
    search_s = time.perf_counter() - start
    start = time.perf_counter()
    mem.context()
    context_s = time.perf_counter() - start
    objects = mem.session.layer("project").meta / "objects"
    print(json.dumps({"bench": "huge_file", "file_bytes": big.stat().st_size, "first_search_ms": ms(search_s),
                      "context_ms": ms(context_s), "hits": [h.name for h in hits],
                      "largest_object_bytes": max((p.stat().st_size for p in objects.iterdir()), default=0),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}),
          flush=True)


if __name__ == "__main__":
    main()
