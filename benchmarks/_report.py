"""``docs/benchmarks.md`` and its plots, from the stored lines of ``benchmarks/run_all.py``.

A helper of the runner (``_``-prefixed: never run as a benchmark). It reads
``docs/benchmarks/<name>.jsonl`` and ``<name>.meta.json`` for every run the
runner lists and writes the document: the machine, a summary of every run,
the curves, then per run its command, date, load and one table per shape of
JSON line (lines with the same keys share a table; nested objects become
dotted columns). The curves are PNG files in ``docs/`` drawn with matplotlib
(the ``bench`` extra) when the lines they need are stored:

* ``bench-budget-curve.png``: ``{"eval": "budget_curve", "memories",
  "injected_bytes", "lines_kept", "marker"[, "max_bytes"]}`` lines (evals/l0);
* ``bench-search-latency.png``: bench_search's ``memories``/``p50_ms``/``p95_ms`` lines;
* ``bench-recall-sweep.png``: ``{"eval": "recall_sweep", "vectors",
  "threshold", "hit_rate", "false_recall_rate"}`` lines, with the recall
  evaluation's own points (``{"eval": "recall", ...}``) marked.
"""

from __future__ import annotations

import ast
import json
from datetime import datetime, timezone
from pathlib import Path

PLOTS = ("bench-budget-curve.png", "bench-search-latency.png", "bench-recall-sweep.png")
MAX_ROWS = 60  # a table longer than this is cut, the rest is in the .jsonl


def stored(folder: Path, name: str) -> tuple[list[dict], dict | None]:
    """The stored JSON lines and meta of run ``name`` (``[], None`` when it never ran)."""
    lines_path, meta_path = folder / f"{name}.jsonl", folder / f"{name}.meta.json"
    if not meta_path.is_file():
        return [], None
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    lines = [json.loads(line) for line in lines_path.read_text(encoding="utf-8").splitlines() if line.strip()] \
        if lines_path.is_file() else []
    return lines, meta


def flatten(data: dict, prefix: str = "") -> dict:
    """``{"a": {"b": 1}}`` → ``{"a.b": 1}``; lists stay values."""
    out = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def cell(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= 80 else text[:77] + "…"


def load_text(meta: dict) -> str:
    """``"2.94/2.25/2.12 → 4.75/2.82/2.32"``: 1/5/15-minute load average at start and end ('' when unknown)."""
    if not meta.get("load_start"):
        return ""
    show = lambda values: "/".join(f"{v:g}" for v in values) if values else "?"  # noqa: E731
    return f"{show(meta['load_start'])} → {show(meta.get('load_end'))}"


def tables(lines: list[dict]) -> list[str]:
    """Markdown tables: one per shape of line, in the order shapes first appear.
    One line of many keys is shown as key | value rows, a few lines of very
    many keys as one column per line; a list of objects inside a line (an
    eval's ``points``) is a table of its own."""
    groups: dict[tuple, list[dict]] = {}
    captions: dict[tuple, str] = {}
    for line in lines:
        kind = next((f"{key} {line[key]}" for key in ("eval", "figure", "bench", "compare", "system")
                     if isinstance(line.get(key), str)), "line")
        nested = {key: value for key, value in line.items()
                  if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)}
        flat = flatten({key: value for key, value in line.items() if key not in nested})
        groups.setdefault(tuple(flat), []).append(flat)
        for key, items in nested.items():  # e.g. an eval's "points": a table of their own
            for item in items:
                row = flatten(item)
                shape = (f"{kind}: {key}",) + tuple(row)
                captions[shape] = f"*{kind}: `{key}`*\n\n"
                groups.setdefault(shape, []).append(row)
    out = []
    for shape, rows in groups.items():
        keys = shape[1:] if shape in captions else shape
        if len(rows) == 1 and len(keys) > 6:
            body = ["| figure | value |", "|---|---|"] + [f"| {key} | {cell(rows[0][key])} |" for key in keys]
        elif len(keys) > 12 and len(rows) <= 6:  # wide lines (nested figures): one column per line
            body = ["| figure | " + " | ".join(f"line {i}" for i in range(1, len(rows) + 1)) + " |",
                    "|---|" + "---|" * len(rows)]
            body += [f"| {key} | " + " | ".join(cell(row[key]) for row in rows) + " |" for key in keys]
        else:
            body = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
            body += ["| " + " | ".join(cell(row[key]) for key in keys) + " |" for row in rows[:MAX_ROWS]]
            if len(rows) > MAX_ROWS:
                body.append(f"\n({len(rows) - MAX_ROWS} more rows in the .jsonl file)")
        out.append(captions.get(shape, "") + "\n".join(body))
    return out


def purpose(root: Path, script: str) -> str:
    """The first line of the script's docstring ('' when unreadable)."""
    try:
        doc = ast.get_docstring(ast.parse((root / script).read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError, ValueError):
        return ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _lines_where(runs: dict, **match) -> list[dict]:
    return [line for lines, _meta in runs.values() for line in lines
            if all(line.get(key) == value for key, value in match.items())]


def budget_points(runs: dict) -> list[dict]:
    """The budget curve's points, sorted by ``memories``, from either shape an
    eval may print: one line per point (``memories``, ``injected_bytes``) or one
    line holding ``points`` (``memories``, ``bytes`` or ``injected_bytes``) and
    ``empty_store_bytes``; each point ``{"memories", "injected_bytes",
    "lines_kept", "marker", "max_bytes"}`` (``None`` where not given)."""
    out = []
    for line in _lines_where(runs, eval="budget_curve"):
        limit = line.get("max_bytes")
        points = line["points"] if isinstance(line.get("points"), list) else [line]
        if "empty_store_bytes" in line:
            out.append({"memories": 0, "injected_bytes": line["empty_store_bytes"], "lines_kept": 0,
                        "marker": False, "max_bytes": limit})
        for point in (p for p in points if isinstance(p, dict) and "memories" in p):
            size = point.get("injected_bytes", point.get("bytes"))
            if size is not None:
                out.append({"memories": point["memories"], "injected_bytes": size,
                            "lines_kept": point.get("lines_kept"), "marker": point.get("marker"),
                            "max_bytes": point.get("max_bytes", limit)})
    return sorted(out, key=lambda p: p["memories"])


def plots(docs: Path, runs: dict) -> dict[str, str]:
    """Draw the curves whose lines are stored; ``{file name: note}`` where the
    note is '' for a drawn plot, else why there is none."""
    budget = budget_points(runs)
    search = sorted((l for l in runs.get("bench_search", ([], None))[0] if "p50_ms" in l and "memories" in l),
                    key=lambda l: l["memories"])
    sweep = _lines_where(runs, eval="recall_sweep")
    wanted = {PLOTS[0]: (budget, "no budget_curve lines (evals/l0/run.py has not run on this branch)"),
              PLOTS[1]: (search, "no bench_search lines with memories/p50_ms"),
              PLOTS[2]: (sweep, "no recall_sweep lines")}
    notes = {name: why for name, (lines, why) in wanted.items() if not lines}
    for name in notes:
        (docs / name).unlink(missing_ok=True)
    if len(notes) == len(wanted):
        return notes
    try:
        import matplotlib
    except ImportError:
        return {name: notes.get(name, "matplotlib is not installed (the bench extra)") for name in wanted}
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(docs / name, dpi=100, metadata={"Software": None})
        plt.close(fig)
        notes[name] = ""

    if budget:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        xs = [l["memories"] for l in budget]
        ax.plot(xs, [l["injected_bytes"] for l in budget], "o-", label="injected bytes")
        limits = {l["max_bytes"] for l in budget if l["max_bytes"]} or {4096}
        for limit in limits:
            ax.axhline(limit, color="red", linestyle="--", linewidth=1, label=f"max_bytes {limit:,}")
        for l in budget:
            if l.get("marker"):
                ax.annotate("marker", (l["memories"], l["injected_bytes"]), textcoords="offset points",
                            xytext=(0, -14), ha="center", fontsize=7)
        ax.set_xscale("symlog", linthresh=10)
        ax.set_xlabel("memories in the layer")
        ax.set_ylabel("bytes of the context block")
        if any(l["lines_kept"] is not None for l in budget):
            twin = ax.twinx()
            twin.plot(xs, [l["lines_kept"] or 0 for l in budget], "s:", color="gray", label="index lines kept")
            twin.set_ylabel("index lines kept")
            twin.legend(loc="lower right", fontsize=8)
        ax.legend(loc="upper left", fontsize=8)
        ax.set_title("Context block against store size (budget curve)")
        save(fig, PLOTS[0])
    if search:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        xs = [l["memories"] for l in search]
        ax.plot(xs, [l["p50_ms"] for l in search], "o-", label="p50")
        ax.plot(xs, [l["p95_ms"] for l in search], "s--", label="p95")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("memories in the store")
        ax.set_ylabel("ms per Memory.search (BM25, k=5)")
        ax.set_title("Search latency against store size")
        ax.legend(fontsize=8)
        save(fig, PLOTS[1])
    if sweep:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for vectors in sorted({str(l.get("vectors")) for l in sweep}):
            points = sorted((l for l in sweep if str(l.get("vectors")) == vectors), key=lambda l: l["threshold"])
            ax.plot([l["false_recall_rate"] for l in points], [l["hit_rate"] for l in points], "o-",
                    label=f"search, vectors {vectors}")
            for l in points:
                ax.annotate(f"{l['threshold']:g}", (l["false_recall_rate"], l["hit_rate"]),
                            textcoords="offset points", xytext=(4, 3), fontsize=7)
        for l in _lines_where(runs, eval="recall"):
            if "hit_rate" in l and "false_recall_rate" in l:
                ax.plot([l["false_recall_rate"]], [l["hit_rate"]], "*", markersize=12,
                        label=f"prompt recall (hook), vectors {l.get('vectors')}")
        ax.set_xlabel("false recall rate (prompts needing no memory that get one)")
        ax.set_ylabel("hit rate (prompts whose memory is found)")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title("Recall against false recall, by relevance threshold")
        ax.legend(fontsize=7, loc="lower right")
        save(fig, PLOTS[2])
    return notes


def write(root: Path, specs: list, folder: Path, invocation: str) -> Path:
    """Write ``root/docs/benchmarks.md`` (and the plots) from the stored
    lines of ``specs``; returns the document's path."""
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    runs = {spec.name: stored(folder, spec.name) for spec in specs}
    metas = [meta for _lines, meta in runs.values() if meta and meta.get("load_start") is not None]
    latest = max(metas, key=lambda m: m["started"]) if metas else None
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Benchmarks and evaluations", "",
           f"Written by `benchmarks/run_all.py` — last by `{invocation}` on {now}. Generated: do not edit by "
           "hand; rerun instead. `make bench` runs everything (it takes a long while on a loaded machine); "
           "`.venv/bin/python benchmarks/run_all.py --only NAME` reruns one run and rewrites this page from "
           "the stored lines of the others, so each section below gives its own command, date and load. "
           "The raw JSON lines of each run are in [`docs/benchmarks/`](benchmarks/) (`NAME.jsonl`, and "
           "`NAME.meta.json` for the command, timing, machine and stderr tail). Times are wall-clock on a "
           "shared machine: compare ratios measured in one run, not absolute figures across runs.", "",
           "`compare_basic_memory` (memdir side by side with basic-memory) runs only when basic-memory's "
           "virtualenv `.bench/basic-memory` exists — `python benchmarks/compare_basic_memory.py --install` "
           "builds it (it needs a Python ≥ 3.12; see that script's help); otherwise its section says it "
           "was skipped. `make bench` runs it at 1,000 notes only: basic-memory indexes a few notes per "
           "second here (its `ingest_s` below), so 10,000 notes take the better part of an hour — "
           "`python benchmarks/compare_basic_memory.py --sizes 10000` runs them.", ""]
    if latest:
        m = latest["machine"]
        commits = sorted({meta.get("commit") or "?" for meta in metas})
        out += ["## Machine", "", "| | |", "|---|---|", f"| CPU | {m.get('cpu')} |", f"| cores | {m.get('cores')} |",
                f"| RAM | {m.get('ram_gib')} GiB |", f"| OS | {m.get('os')} |", f"| Python | {m.get('python')} |",
                f"| commit(s) measured | {', '.join(commits)} |", "",
                "(Of the latest run; a run made on another machine says so in its section.)", ""]
    out += ["## Summary", "", "| run | status | JSON lines | seconds | started | load 1/5/15 min, start → end |",
            "|---|---|---|---|---|---|"]
    for spec in specs:
        lines, meta = runs[spec.name]
        if meta is None:
            out.append(f"| [{spec.name}](#{spec.name}) | not run yet | | | | |")
            continue
        status = meta["status"] + (f": {meta['reason']}" if meta.get("reason") else "")
        if meta.get("last_attempt"):
            status += f" (latest attempt {meta['last_attempt'].get('status')})"
        load = load_text(meta)
        out.append(f"| [{spec.name}](#{spec.name}) | {cell(status)} | {len(lines)} | {cell(meta.get('seconds'))} "
                   f"| {meta['started']} | {load} |")
    out += ["", "## Curves", ""]
    captions = {PLOTS[0]: "Budget curve: bytes of the context block and index lines kept against the number "
                          "of memories, at the default budget (evals/l0).",
                PLOTS[1]: "Search latency (p50, p95) against store size (bench_search).",
                PLOTS[2]: "Recall against false recall on the recall evaluation's held-out prompts, one point "
                          "per relevance threshold (recall_sweep); stars: the prompt recall the hook runs "
                          "(eval_recall, eval_recall_bm25)."}
    for name, note in plots(docs, runs).items():
        out += [f"![{captions[name]}]({name})", "", f"*{captions[name]}*", ""] if not note else \
               [f"- {captions[name]} — not drawn: {note}.", ""]
    for spec in specs:
        lines, meta = runs[spec.name]
        out += [f"## {spec.name}", ""]
        what = spec.about or purpose(root, spec.script)
        if what:
            out += [f"*{what}* (`{spec.script}`)", ""]
        if meta is None:
            out += ["Not run yet.", ""]
            continue
        out += [f"- command: `{meta['command']}`", f"- started {meta['started']}"
                + (f", {meta['seconds']} s" if "seconds" in meta else "")
                + (f", load {load_text(meta)}" if meta.get("load_start") else "")
                + (f", commit {meta.get('commit')}" if meta.get("commit") else ""),
                f"- status: **{meta['status']}**" + (f" — {meta['reason']}" if meta.get("reason") else "")]
        if meta.get("last_attempt"):
            tried = meta["last_attempt"]
            out.append(f"- latest attempt: **{tried.get('status')}** on {tried.get('started')}"
                       + (f" — {tried['reason']}" if tried.get("reason") else "")
                       + "; the figures below are from the last successful run above")
        if latest and meta.get("machine") and meta["machine"] != latest["machine"]:
            out.append(f"- machine: {cell(meta['machine'])}")
        out.append("")
        out += [block for table in tables(lines) for block in (table, "")]
        if meta.get("text_lines"):
            out += ["Other output:", "", "```", *meta["text_lines"], "```", ""]
        if meta["status"] in ("failed", "timeout") and meta.get("stderr_tail"):
            out += ["Last lines of stderr:", "", "```", *meta["stderr_tail"], "```", ""]
        elif meta["status"] == "ok" and not lines and meta.get("stderr_tail"):
            out += ["It printed no figures; stderr said:", "", "```", *meta["stderr_tail"][-5:], "```", ""]
    document = docs / "benchmarks.md"
    document.write_text("\n".join(out).rstrip() + "\n", encoding="utf-8")
    return document
