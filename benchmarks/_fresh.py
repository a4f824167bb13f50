"""Fresh-process figures at 1,000 and 10,000 memories (issue 28 §7), shared by bench_core and bench_hooks.

A helper of those benchmarks (``_``-prefixed: never run as a benchmark). It writes the
benchmarks' corpus (``_corpus.py``: notes of 100–400 words drawn from one domain's vocabulary,
services, stores, environments and people repeated across notes), seeds a project layer with it
through each source tree's own code (``--src``: this checkout by default; give an older checkout
too to compare in one run), and times fresh processes — each command of each tree in turn,
repeated, so a loaded machine slows both alike. One JSON line per (tree, size, command) and one
ratio line per (tree, command). Or (:func:`run_instructions`) counts each command's instructions
with valgrind instead of timing it: one line per (tree, size, command) with its ratio over
``python -c pass``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus, write_notes  # noqa: E402


SCRIPT = Path(sys.executable).with_name("memdir")  # the console script of this environment's install


CJK_NOTES = [  # (description, body): notes written in Chinese, Japanese and Korean, as a team's may be
    ("生产环境发布只在周二和周四下午进行", "生产环境的发布窗口是每周二和周四下午两点到五点。周五出问题没人值班。"),
    ("日志里不能打印用户手机号和身份证号", "任何日志都不能包含用户的手机号，必须先脱敏。"),
    ("外部決済APIのレート制限は1秒あたり20リクエスト", "超えると429が返るので、リトライは指数バックオフで行う。"),
    ("レビューコメントは日本語で書く", "プルリクエストのレビューは丁寧語で、理由を添えて書く。"),
    ("신규 입사자 개발 환경 세팅은 setup.sh 하나로 끝난다", "신규 입사자는 setup.sh만 실행하면 된다. 도커가 필요하다."),
    ("결제 서비스의 타임아웃은 3초", "결제 API 호출은 3초 안에 응답하지 않으면 재시도한다."),
]


def write_corpus(folder: Path, count: int, seed: int = 7, cjk: float = 0.0) -> None:
    """``count`` memory files of :func:`_corpus.corpus` (``seed``) into ``folder`` (made); with ``cjk`` (a share,
    0–1) that share of them written in Chinese, Japanese and Korean instead (:data:`CJK_NOTES`, numbered)."""
    written = round(count * cjk)
    notes = corpus(count - written, seed)[0]
    notes += [(f"cjk-{i:05d}", f"{d} ({i})", f"{b} {i}") for i, (d, b) in
              ((i, CJK_NOTES[i % len(CJK_NOTES)]) for i in range(written))]
    write_notes(folder, notes, stamp="2026-11-01T00:00:00Z")


SEED = textwrap.dedent("""
    import shutil, sys
    from pathlib import Path
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    for i in range(20):
        mem.write(f"pref-{i:02d}", f"user preference {i}: prefers uv, structlog and small diffs", "user",
                  "Body of a user preference.", scope="user")
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    for path in Path(sys.argv[3]).iterdir():
        shutil.copyfile(path, layer.path / path.name)
    layer.refresh_index()
""")


def _env(src: Path, home: Path, base: Path) -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(src), HOME=str(base),
                MEMDIR_SEARCH_VECTORS="off")


def commands(project: Path, session: str = "bench") -> dict[str, tuple[list[str], str]]:
    """Every fresh-process command timed: name → (argv after the interpreter, stdin)."""
    start = {"session_id": session, "transcript_path": "/nonexistent/t.jsonl", "cwd": str(project),
             "hook_event_name": "SessionStart", "source": "startup"}
    prompt = {**start, "hook_event_name": "UserPromptSubmit",
              "prompt": "which port does the staging redis of billing listen on?"}
    return {
        "python_pass": (["-c", "pass"], ""),
        "cli_write": (["-m", "memdir", "--project", str(project), "write", "{name}", "-d",
                       "bench write of the billing staging redis port", "-b", "Billing staging redis listens on "
                       "6380 since the {n} migration."], ""),
        "context": (["-m", "memdir", "--project", str(project), "context"], ""),
        "list": (["-m", "memdir", "--project", str(project), "list"], ""),
        "list_json": (["-m", "memdir", "--json", "--project", str(project), "list"], ""),
        "status": (["-m", "memdir", "--project", str(project), "status"], ""),
        "session_start": (["-m", "memdir.hooks", "claude-code", "SessionStart"], json.dumps(start)),
        # a resume of the session (Claude Code's and Codex's source resume): the block only when it changed
        "session_resume": (["-m", "memdir.hooks", "claude-code", "SessionStart"],
                           json.dumps({**start, "source": "resume"})),
        # As a person types them: the console script pip wrote next to the interpreter (`memdir ...`),
        # which a project-scope install's hooks run too (`memdir hook claude-code SessionStart`).
        "context_script": ([str(SCRIPT), "--project", str(project), "context"], ""),
        "session_start_script": ([str(SCRIPT), "hook", "claude-code", "SessionStart"], json.dumps(start)),
        "user_prompt_submit": (["-m", "memdir.hooks", "claude-code", "UserPromptSubmit"], json.dumps(prompt)),
        # the same prompt misspelled (three words no memory holds, each a slip from one they hold: search.typos)
        "user_prompt_typo": (["-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                             json.dumps({**prompt, "prompt": "which port does the stagign rediss of biling listen on?"})),
        # a search as typed, in a fresh process (the CLI's first query; an MCP server's first pays the same search)
        "search": (["-m", "memdir", "--project", str(project), "search", "staging redis port"], ""),
        # a query's scripts step alone (search.scripts.of_rows; the hook runs it when the dense side answers):
        # a fresh process opening the index and reading every memory's script
        "scripts_of_rows": (["-c", "import sys; from pathlib import Path; from memdir.search import index, scripts; "
                             "conn = index.connect(Path(sys.argv[1])); conn.execute('BEGIN'); "
                             "scripts.of_rows(conn)", "{home}"], ""),
    }


AGE_NS = 3600 * 10**9  # how far back --aged puts every record of a layer's last sweep (an hour: a new session)


def _metas(home: Path) -> list[Path]:
    """The ``.memdir`` of every layer of ``home`` (user, projects, team)."""
    return [p for p in (home / "_user" / ".memdir", *home.glob("projects/*/.memdir"), *home.glob("team/*/.memdir"))
            if p.is_dir()]


def age_sweeps(home: Path) -> None:
    """Put every record of when a layer of ``home`` was last swept (every file stat'ed) an hour back,
    as a session opened after an hour finds them: ``.memdir/swept``'s mtime (the context's), the
    manifest's ``swept`` (the layer's writes) and the search index's ``swept:<layer>`` (its syncs)."""
    import sqlite3

    for meta in _metas(home):
        swept = meta / "swept"
        if swept.exists():
            st = swept.stat()
            os.utime(swept, ns=(st.st_atime_ns, time.time_ns() - AGE_NS))
        manifest = meta / "manifest.sqlite"
        if manifest.exists():
            with sqlite3.connect(manifest) as conn:
                conn.execute("UPDATE meta SET value = ? WHERE key = 'swept'", (time.time_ns() - AGE_NS,))
    index = home / "index.sqlite"
    if index.exists():
        with sqlite3.connect(index) as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key LIKE 'swept:%'", (time.time_ns() - AGE_NS,))


def settle_sweeps(home: Path, timeout: float = 120.0) -> float:
    """Wait until no background sweep of a layer of ``home`` runs (its ``.memdir/sweep.lock`` is free:
    a tree without one has nothing to wait for); returns the seconds waited."""
    import fcntl

    started = time.perf_counter()
    for lock in (meta / "sweep.lock" for meta in _metas(home)):
        if not lock.exists():
            continue
        fd = os.open(lock, os.O_RDWR)
        try:
            while time.perf_counter() - started < timeout:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    break
                except OSError:
                    time.sleep(0.01)
        finally:
            os.close(fd)
    return time.perf_counter() - started


def hand_edit(home: Path, n: int) -> None:
    """Edit one memory file of ``home``'s project layer by hand as ``sed -i`` does (its description
    changed, written to a new file renamed over it: a new inode, the layer directory's mtime moved) —
    the ``n``-th file in name order, modulo the count."""
    layer = next(home.glob("projects/*"))
    files = sorted(p for p in layer.glob("*.md") if p.name != "MEMORY.md")
    path = files[(n * 7919) % len(files)]
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    lines[at] = f"description: edited by hand, run {n}"
    temp = path.with_name(f".{path.name}.edit")
    temp.write_text("\n".join(lines), encoding="utf-8")
    os.replace(temp, path)


def touch_layer(home: Path) -> None:
    """Move the mtime of ``home``'s project layer directory, no file changed (``touch <layer folder>``, as a
    ``git checkout`` of nothing, a backup tool or an editor's probe leaves it): the stamps every hot path trusts
    no longer hold, and today each one stats every memory file of the layer (issue 28 item 7)."""
    layer = next(home.glob("projects/*"))
    os.utime(layer)


def compile_trees(srcs: list[Path]) -> None:
    """Write the ``.pyc`` files of each tree and of the hot path's dependencies, as installed (pip writes
    them; an install with PYTHONDONTWRITEBYTECODE=1 has none, and each run would compile them)."""
    import compileall
    import importlib.util

    for src in srcs:
        compileall.compile_dir(str(src / "memdir"), quiet=1)
    for package in ("snowballstemmer", "yaml"):
        spec = importlib.util.find_spec(package)
        for where in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(where, quiet=1)


def seed_homes(srcs: list[Path], size: int, work: Path, emit, cjk: float = 0.0) -> dict[int, tuple]:
    """Per tree (its index in ``srcs``): a home of 20 user memories and ``size`` project memories of the
    corpus (written to ``work/corpus-<size>``, a ``cjk`` share of it in CJK scripts, left for the caller to
    remove), seeded by that tree's own code, its search index built once as the first prompt of a
    session would; ``(base, home, project, commands)``."""
    py = sys.executable
    corpus = work / f"corpus-{size}"
    write_corpus(corpus, size, cjk=cjk)
    homes = {}
    for t, src in enumerate(srcs):
        base = work / f"t{t}-{size}"
        project = base / "proj"
        (project / ".git").mkdir(parents=True)
        home = base / "home"
        started = time.perf_counter()
        subprocess.run([py, "-c", SEED, str(home), str(project), str(corpus)], env=_env(src, home, base), check=True)
        seeded = time.perf_counter() - started
        cmds = commands(project)
        argv, stdin = cmds["user_prompt_submit"]
        subprocess.run([py, *argv], input=stdin, text=True, capture_output=True, env=_env(src, home, base),
                       check=True)
        homes[t] = (base, home, project, cmds)
        emit(setup="fresh", tree=str(src), memories=size, seed_s=round(seeded, 1))
    return homes


def instructions(argv: list[str], stdin: str, env: dict) -> int:
    """The instructions one fresh process of ``argv`` (after the interpreter; a console script's path
    runs it as its shebang would: by this interpreter) executes, counted by valgrind's callgrind (exact
    up to a few thousand: noise-free on a loaded machine, unlike wall time). Raises SystemExit when the
    command fails or valgrind is missing."""
    import re

    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *argv],
                          input=stdin, text=True, capture_output=True, env=env)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{argv} failed: {done.stderr[-2000:]}")
    return int(found.group(1))


def run_instructions(srcs: list[Path], sizes: list[int], names: list[str], work: Path, emit,
                     edited: bool = False, touched: bool = False) -> None:
    """Instruction counts of ``names`` (keys of :func:`commands`) in fresh processes, per tree and size,
    each with its ratio over ``python -c pass``: one JSON line each. The steady state of a session: the
    layers swept within the interval (``MEMDIR_SWEEP_INTERVAL`` an hour, after one untimed run of the
    command and a wait for any sweeper it started), so the counts are of the same work every run. ``edited`` /
    ``touched``: the counted run is the first after one memory file was edited by hand (:func:`hand_edit`) / after
    the layer directory's mtime moved (:func:`touch_layer`): the hot path's cost when its stamps no longer hold."""
    if "python_pass" not in names:
        names = ["python_pass", *names]
    compile_trees(srcs)
    for size in sizes:
        homes = seed_homes(srcs, size, work, emit)
        for t, src in enumerate(srcs):
            base, home, project, cmds = homes[t]
            env = dict(_env(src, home, base), MEMDIR_SWEEP_INTERVAL="3600")
            counts = {}
            for name in names:
                argv, stdin = cmds[name]
                # a write's placeholders (cli_write): one name, another text each run, so the counted run changes it
                argv = [a.replace("{name}", "bench-note-00").replace("{home}", str(home)) for a in argv]
                if argv[0] == str(SCRIPT) and not SCRIPT.exists():
                    emit(figure=f"instructions_{name}", tree=str(src), memories=size, skipped=f"no {SCRIPT}")
                    continue
                subprocess.run([sys.executable, *(a.replace("{n}", "warm") for a in argv)], input=stdin, text=True,
                               capture_output=True, env=env)
                settle_sweeps(home)
                if edited:
                    hand_edit(home, len(counts))
                if touched:
                    time.sleep(0.01)
                    touch_layer(home)
                counts[name] = instructions([a.replace("{n}", "counted") for a in argv], stdin, env)
                line = {"figure": f"instructions_{name}", "tree": str(src), "memories": size,
                        "instructions_m": round(counts[name] / 1e6, 1)}
                if edited or touched:
                    line["after"] = "sed -i" if edited else "touch"
                if name != "python_pass":
                    line["over_python_pass"] = round(counts[name] / counts["python_pass"], 2)
                    if name.startswith("context"):
                        line["target_over_python_pass"] = 2.6
                emit(**line)
        shutil.rmtree(work / f"corpus-{size}")


def run(srcs: list[Path], sizes: list[int], names: list[str], repeat: int, work: Path, emit,
        aged: bool = False, edited: bool = False, cjk: float = 0.0, touched: bool = False) -> None:
    """Seed a home per (tree, size) and time ``names`` (keys of :func:`commands`) in fresh processes,
    alternating trees and commands; emit one line per figure and, per tree and command, the ratio of
    the largest size over the smallest (and of ``context`` over ``python -c pass``). ``aged``: before
    each timed run every record of the last sweep is an hour old (:func:`age_sweeps`), and after it
    the run waits, untimed, for a background sweep it started (:func:`settle_sweeps`). ``edited``:
    before each timed run one memory file is edited by hand (:func:`hand_edit`), so the run is the
    first fresh process after a hand edit; ``touched``: before each, the layer directory's mtime moved
    (:func:`touch_layer`), no file changed. ``cjk``: that share of each store's memories written in
    Chinese, Japanese and Korean (:func:`write_corpus`)."""
    py = sys.executable
    results: dict[tuple[str, int, str], list[float]] = {}
    compile_trees(srcs)
    for size in sizes:
        corpus = work / f"corpus-{size}"
        homes = seed_homes(srcs, size, work, emit, cjk=cjk)
        for rep in range(repeat):
            for t, src in enumerate(srcs):
                base, home, project, cmds = homes[t]
                for name in names:
                    argv, stdin = cmds[name]
                    argv = [a.replace("{name}", f"bench-note-{rep % 50:02d}").replace("{n}", str(rep)).replace("{home}", str(home))
                            for a in argv]
                    if aged:
                        age_sweeps(home)
                    if edited:
                        hand_edit(home, rep * len(names) + names.index(name))
                    if touched:
                        touch_layer(home)
                    started = time.perf_counter()
                    done = subprocess.run([py, *argv], input=stdin, text=True, capture_output=True,
                                          env=_env(src, home, base))
                    elapsed = time.perf_counter() - started
                    if done.returncode != 0:
                        raise SystemExit(f"{name} failed in {src}: {done.stderr}")
                    results.setdefault((str(src), size, name), []).append(elapsed)
                    if aged:
                        results.setdefault((str(src), size, f"{name}:settle"), []).append(settle_sweeps(home))
        for t, src in enumerate(srcs):
            for name in names:
                samples = sorted(results[(str(src), size, name)])
                extra = {}
                if aged:
                    waits = sorted(results[(str(src), size, f"{name}:settle")])
                    extra = {"aged": True, "background_wait_max_ms": round(waits[-1] * 1e3, 1)}
                if edited:
                    extra["edited"] = True
                if touched:
                    extra["touched"] = True
                emit(figure=f"fresh_{name}", tree=str(src), memories=size,
                     p50_ms=round(statistics.median(samples) * 1e3, 1),
                     p95_ms=round(samples[min(len(samples) - 1, int(len(samples) * 0.95))] * 1e3, 1),
                     runs=len(samples), **extra)
        shutil.rmtree(corpus)
    small, large = min(sizes), max(sizes)
    for src in srcs:
        for name in names:
            if name == "python_pass":
                continue
            p = {s: statistics.median(results[(str(src), s, name)]) for s in sizes}
            line = {"figure": f"fresh_{name}_scaling", "tree": str(src),
                    f"ratio_{large}_over_{small}": round(p[large] / p[small], 2), "target_ratio": 1.3}
            if name == "context" and "python_pass" in names:
                line["context_over_python_pass"] = {
                    s: round(p[s] / statistics.median(results[(str(src), s, "python_pass")]), 2) for s in sizes}
                line["target_over_python_pass"] = 3.0
            emit(**line)
