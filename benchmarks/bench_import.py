"""Import benchmarks (issue 25). Prints one JSON object per line.

    python benchmarks/bench_import.py [--files N]

Figures:
  import_dir        ``import dir`` of N Markdown memory files (default 1,000, bodies of about
                    1-10 KB, some over the 2,000-character model limit) into an empty home:
                    items per second, and the second run's time (every item unchanged).
  import_claude_mem ``import claude-mem`` of a database of N observations (claude-mem's schema):
                    items per second, and the second run's time.
  export_reimport   ``export`` of the store in each format and its import into an empty home:
                    seconds, and whether the memories' text came back the same.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from memdir import Memory  # noqa: E402


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def texts(memory: Memory) -> dict:
    return {(m.scope, m.name): (m.description,) for m in memory.list(include_all=True).memories}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    n = parser.parse_args().files
    with tempfile.TemporaryDirectory(prefix="memdir-bench-import-") as tmp:
        base = Path(tmp)
        project = base / "work" / "proj"
        (project / ".git").mkdir(parents=True)
        notes = base / "notes"
        for i in range(n):
            folder = notes / f"area-{i % 20}"
            folder.mkdir(parents=True, exist_ok=True)
            body = f"Paragraph about topic {i}: the service keeps its state in table t{i}. " * (15 + i % 120)
            (folder / f"note-{i}.md").write_text(f"---\ndescription: Note {i} on topic {i}\ntype: project\n---\n{body}\n")
        person = Memory.open(home=base / "home", project=project, actor="human")
        first, seconds = timed(lambda: person.import_from("dir", str(notes)))
        second, again = timed(lambda: person.import_from("dir", str(notes)))
        emit(bench="import_dir", files=n, imported=first.count("imported"), cut=sum(o.kept == "cut" for o in
                                                                                     first.outcomes),
             seconds=round(seconds, 3), items_per_s=round(n / seconds, 1), second_run_s=round(again, 3),
             second_run_unchanged=second.count("unchanged"))

        from tests.importing.claude_mem_db import build

        db = base / "claude-mem.db"
        build(db, project.name, observations=n, other=0, summaries=0)
        other = Memory.open(home=base / "home-cm", project=project, actor="human")
        first, seconds = timed(lambda: other.import_from("claude-mem", str(db)))
        second, again = timed(lambda: other.import_from("claude-mem", str(db)))
        emit(bench="import_claude_mem", observations=n, imported=first.count("imported"),
             seconds=round(seconds, 3), items_per_s=round(n / seconds, 1), second_run_s=round(again, 3),
             second_run_unchanged=second.count("unchanged"))

        for fmt in ("memdir", "claude-code", "jsonl"):
            out = base / f"export-{fmt}"
            report, spent = timed(lambda: person.export(str(out), format=fmt))
            back = Memory.open(home=base / f"home-{fmt}", project=project, actor="human")
            if fmt == "jsonl":
                _, reimport = timed(lambda: back.import_from("jsonl", str(out / "memories.jsonl")))
            else:
                _, reimport = timed(lambda: back.import_from("dir", str(out / "project"), scope="project"))
            same = all(back.read(name, scope, count=False).record.body == person.read(name, scope, count=False)
                       .record.body for scope, name in list(texts(person))[:50])
            emit(bench="export_reimport", format=fmt, memories=len(report.exported), export_s=round(spent, 3),
                 reimport_s=round(reimport, 3), same_text=same and texts(back) == texts(person))


if __name__ == "__main__":
    main()
