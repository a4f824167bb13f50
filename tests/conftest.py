"""Shared fixtures: every test runs on real files under its own temp home."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Point MEMDIR_HOME (and HOME) at temp dirs so no test touches real state."""
    home = tmp_path / "memhome"
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    monkeypatch.delenv("MEMDIR_PROJECT", raising=False)
    monkeypatch.delenv("DSH_HOME", raising=False)
    # Where installers and importers find the person's clients (OpenCode's config, Codex's, Claude Code's) when set:
    # unset, they are under the fake HOME below, so no test writes a real client's settings.
    for name in ("XDG_CONFIG_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name in list(os.environ):
        if name.startswith("MEMDIR_") and name not in ("MEMDIR_HOME",):
            monkeypatch.delenv(name, raising=False)
    fake_home = tmp_path / "userhome"
    fake_home.mkdir()
    monkeypatch.setenv("HOME", str(fake_home))
    # A runtime directory of the test's own (short, for sockets): what a home cannot take yet (the session
    # record of a home not made) and the warm process's socket go there, never to one another test shares.
    run_base = tempfile.mkdtemp(prefix="rt", dir="/tmp")
    os.chmod(run_base, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", run_base)
    yield home
    stop_first_builds(tmp_path)  # before the warm processes: a build still running starts one when it is done
    stop_warm(home)
    stop_warm_under(tmp_path)  # a test's other homes too (tmp_path/"home", a CLI run's --home …)
    _wait_sweepers(home)
    shutil.rmtree(run_base, ignore_errors=True)


def _wait_sweepers(home: Path) -> None:
    """Wait (a while) for a detached sweeper a hook or CLI command of this test started
    (memdir.files.sweeps), so none outlives the test's temp home."""
    import fcntl
    import time

    locks = [meta / "sweep.lock" for meta in (home / "_user" / ".memdir", *home.glob("projects/*/.memdir"),
                                              *home.glob("team/*/.memdir"))]
    deadline = time.monotonic() + 60
    for lock in locks:
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            continue
        try:
            while time.monotonic() < deadline:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError:
                    time.sleep(0.05)
        finally:
            os.close(fd)


RUN_MARK = "PYTEST_MEMDIR_RUN"
"""Set by :func:`pytest_sessionstart` in this run's environment, so every process a test starts carries it
(a name without the ``MEMDIR_`` prefix: :func:`isolated_home` clears those): the warm processes of this run
are told from another run's by it (:func:`pytest_sessionfinish`)."""


def _warm_processes(root: Path | None = None, mark: str | None = None) -> list[tuple[int, Path]]:
    """``(pid, home)`` of every live warm search process (``python -m memdir.hooks --warm HOME``:
    :data:`memdir.search.warm.COMMAND`) whose HOME is ``root`` or under it, or (``root`` None) whose
    environment holds :data:`RUN_MARK` = ``mark``: those a test, or this run, started. Read from ``/proc``
    (none found where there is no ``/proc``)."""
    root = Path(os.path.realpath(root)) if root is not None else None
    found = []
    for pid, argv in _processes():
        try:
            if b"memdir.hooks" not in argv or b"--warm" not in argv:
                continue
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rpartition(b")")[2].split()[0]
            if root is None:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if f"{RUN_MARK}={mark}".encode() not in f.read().split(b"\0"):
                        continue
        except (OSError, IndexError):
            continue
        at = argv.index(b"--warm") + 1
        if state == b"Z" or at >= len(argv) or not argv[at]:
            continue
        home = Path(os.path.realpath(os.fsdecode(argv[at])))
        if root is None or home == root or root in home.parents:
            found.append((int(pid), home))
    return found


def _processes():
    """``(pid, argv)`` of every process ``/proc`` lists (argv as bytes; none where there is no ``/proc``); one
    gone meanwhile is left out."""
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                yield pid, f.read().split(b"\0")
        except OSError:
            continue


def stop_warm_under(root: Path | None, limit: float = 10.0, mark: str | None = None) -> int:
    """Stop every warm search process a test started for a home under ``root`` (its ``tmp_path``), whatever
    started it (a hook, a CLI run, a test's own home beside ``isolated_home``) — or, ``root`` None, every one
    this run started (``mark``: :data:`RUN_MARK`'s value; homes outside any ``tmp_path`` too): asked to stop
    (:func:`memdir.search.warm.stop`), then, still there after ``limit`` seconds (one loading its model
    does not answer yet), SIGTERM by its pid. Otherwise each lived until its idle exit (30 minutes) beside
    the rest of the run and after it. Returns how many were found."""
    import signal
    import time

    found = _warm_processes(root, mark)
    if not found:
        return 0
    from memdir.search import warm

    for _, home in found:
        warm.stop(home)
    deadline = time.monotonic() + limit
    while (left := {pid for pid, _ in _warm_processes(root, mark)} & {pid for pid, _ in found}) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:  # gone meanwhile
            pass
    return len(found)


def stop_first_builds(root: Path, limit: float = 10.0) -> int:
    """End every first-session build (``python -m memdir.search.warm.first HOME CWD``:
    :data:`memdir.search.warm.first.COMMAND`, spawned by SessionStart in a home with no index) whose HOME is under
    ``root``: SIGTERM, then waited for up to ``limit`` seconds. A build outliving its test started the warm process
    after the test's stop had looked for one, and each such process (~265 MB, its model loaded) lived until the run
    ended: 26 of them a third of the way through the suite. Returns how many were found (none without ``/proc``)."""
    import signal
    import time

    root = Path(os.path.realpath(root))
    module = b"memdir.search.warm.first"
    found = []
    for pid, argv in _processes():
        at = argv.index(module) + 1 if module in argv else len(argv)
        if at < len(argv) and argv[at]:
            home = Path(os.path.realpath(os.fsdecode(argv[at])))
            if home == root or root in home.parents:
                found.append(int(pid))
    for pid in found:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:  # gone meanwhile
            pass
    deadline = time.monotonic() + limit
    while any(os.path.exists(f"/proc/{pid}") and not _zombie(pid) for pid in found) and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(found)


def _zombie(pid: int) -> bool:
    """True when ``pid`` has exited and waits for its parent to reap it (or cannot be read: gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rpartition(b")")[2].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def stop_warm(home: Path) -> None:
    """Stop the warm search process a prompt hook of this test started, if any (it left
    ``warm.log``): it would otherwise live until idle. One still starting is waited for a while."""
    import time

    if not (home / "warm.log").exists():
        return
    from memdir.search import warm

    deadline = time.monotonic() + 30
    while not warm.stop(home) and time.monotonic() < deadline and "exits after" not in (
            home / "warm.log").read_text(errors="replace"):
        time.sleep(0.2)


@pytest.fixture
def project(tmp_path):
    """A temp project directory (a git work tree root)."""
    root = tmp_path / "work" / "proj"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def mem(isolated_home, project):
    """The facade as an agent sees it, on the temp home and project."""
    from memdir import Memory

    return Memory.open(home=isolated_home, project=project)


@pytest.fixture
def person(isolated_home, project):
    """The facade as a person uses it (the CLI's and the panel's actor, ``human``), on the same
    temp home and project as :func:`mem`."""
    from memdir import Memory

    return Memory.open(home=isolated_home, project=project, actor="human")


@pytest.fixture
def team_repo(isolated_home, tmp_path):
    """The facade as a person uses it (actor ``human``) on a real git repository (``tmp_path/repo``,
    ``git init``) whose team layer is initialised: the setup of a promote or team approval test."""
    from memdir import Memory

    root = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    mem = Memory.open(home=isolated_home, project=root, actor="human")
    mem.team_init()
    return mem


def run_cli(*args, input: str | None = "", env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    """Run the real `memdir` CLI in a subprocess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "memdir.cli", *map(str, args)], input=input, capture_output=True,
        text=True, env=full_env, cwd=cwd, timeout=120,
    )


# `python -m memdir ARGS` as typed (runpy), then every module the run left loaded, on stderr's last line, written
# without importing anything (json would load re), and the CLI's exit status.
_MODULE_RUN = (
    "import runpy, sys\n"
    "sys.argv = ['memdir', *sys.argv[1:]]\n"
    "status = 0\n"
    "try:\n"
    "    runpy.run_module('memdir', run_name='__main__', alter_sys=True)\n"
    "except SystemExit as exc:\n"
    "    status = exc.code\n"
    "sys.stdout.flush()\n"
    "sys.stderr.write('\\n' + ','.join(sorted(sys.modules)) + '\\n')\n"
    "sys.exit(status)\n")


def run_cli_modules(*args, env: dict | None = None) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``python -m memdir ARGS`` in a fresh process, as typed, and list what it imported: ``(done, loaded)``,
    ``done`` the completed process (its exit status the CLI's; its stderr the CLI's, the listing taken off) and
    ``loaded`` the sorted names of every module in ``sys.modules`` when the command returned — the hot-path
    guards (tests/integrations/cli/test_write_imports.py, test_context_hot_path.py) check it. Raises
    :class:`subprocess.TimeoutExpired` after 60 s."""
    done = subprocess.run([sys.executable, "-c", _MODULE_RUN, *map(str, args)], capture_output=True, text=True,
                          timeout=60, check=False, env=dict(os.environ, **(env or {})))
    stderr, _, listing = done.stderr.rstrip("\n").rpartition("\n")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, stderr), listing.split(",")


def interrupt(proc: subprocess.Popen, limit: float = 20.0) -> None:
    """Stop a server process as a person's Ctrl-C does (SIGINT), killing it if it has not exited after ``limit``
    seconds, and reap it."""
    import signal

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_until(predicate, what: str, limit: float = 30.0) -> None:
    """Poll ``predicate`` every 50 ms until it is true; fail the test naming ``what`` after ``limit`` seconds
    (a bound on waiting for another process, not a timed assertion: a slow machine only waits longer)."""
    import time

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail(f"never: {what}")


# The hook of run_prompt_hook with the session record's lock wait (memdir.prompt.sessionfiles.LOCK_WAIT) set
# from argv[1], then run as `python -m memdir.hooks` runs it.
_HOOK_WITH_LOCK_WAIT = (
    "import runpy, sys\n"
    "from memdir.prompt import sessionfiles\n"
    "sessionfiles.LOCK_WAIT = float(sys.argv.pop(1))\n"
    "runpy.run_module('memdir.hooks', run_name='__main__', alter_sys=True)\n")


def run_prompt_hook(project, prompt: str, env: dict | None = None, session: str = "s1", *, timeout: float = 300.0,
                    lock_wait: float | None = None) -> str:
    """Run the real Claude Code UserPromptSubmit hook in a subprocess for ``prompt`` in ``project``;
    returns its stdout ("" when it injects nothing). ``timeout``: seconds the process may take before
    :class:`subprocess.TimeoutExpired` (a bound on waiting: one hook took over 60 s at a load of 38 on 2 cores;
    a test starting many hooks at once gives a bigger one, as each then takes as long as the whole batch). ``lock_wait``: seconds the hook waits for its session record's
    lock instead of :data:`memdir.prompt.sessionfiles.LOCK_WAIT` (None: that), for a test of what the lock
    keeps rather than of how long a hook waits for it."""
    import json

    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                          "prompt": prompt})
    command = ["-m", "memdir.hooks"] if lock_wait is None else ["-c", _HOOK_WITH_LOCK_WAIT, str(lock_wait)]
    done = subprocess.run([sys.executable, *command, "claude-code", "UserPromptSubmit"], input=payload.encode(),
                          capture_output=True, timeout=timeout, env=dict(os.environ, **(env or {})))
    return done.stdout.decode("utf-8")


def pytest_sessionstart(session):
    """Take the code identity of this run (:func:`memdir.version.code_identity`) before any test: a warm process
    answers only an asker of its own code, so every check below compares with the code the run started on."""
    import time

    from memdir.version import code_identity

    code_identity()
    os.environ[RUN_MARK] = f"{os.getpid()}-{time.time_ns()}"


def pytest_sessionfinish(session, exitstatus):
    """Stop the warm processes this run started that are still there: those of a home outside any test's
    ``tmp_path`` (``short_home``, an evaluation store under /tmp) that their fixture's stop did not reach (one
    still loading its model does not answer a stop)."""
    if os.environ.get(RUN_MARK):
        stop_warm_under(None, mark=os.environ[RUN_MARK])


def source_changed() -> str | None:
    """Why warm-process tests fail when memdir's source files changed since this run began (an edit, a checkout or
    a merge in the tree under test): a warm process or hook started since runs the new code, this process the old,
    and neither listens to the other (:mod:`memdir.search.warm`) — every later test that asks one across processes
    fails ("no warm process answered"). None when the files are as they were."""
    from memdir.version import code_identity

    before, now = code_identity(), code_identity(now=True)
    if before == now:
        return None
    return (f"memdir's source changed during this test run (code identity {before!r} at its start, {now!r} now): "
            "a warm process started since runs other code than this process, and neither listens to the other. "
            "Do not edit, check out or merge in the tree while its tests run.")


def warm_why(home: Path) -> str:
    """What the warm process of ``home`` says now, for a test's failure message: whether it listens, its answer to a
    probe (:func:`memdir.search.warm.look`: its state, code and index generation; no model load started, its idle
    time not reset), the last line of its log, and :func:`source_changed`."""
    from memdir.search import warm

    answer = warm.look(home, 5.0)
    try:
        log = (Path(home) / warm.LOG_FILE).read_text(errors="replace").strip().splitlines()[-1:]
    except OSError as exc:
        log = [f"no log ({exc.strerror})"]
    return (f"; listening: {warm.listening(home)}; answer: {answer}; log: {log}"
            + (f"; {changed}" if (changed := source_changed()) else ""))


def asked_until(ask, want: str, home: Path, limit: float) -> str:
    """What ``ask(session)`` (a prompt hook's text for a session id) gives once it holds ``want``: asked every 0.5 s,
    each time in a session of its own, while the warm process of ``home`` may still be loading its model (the hook
    waits a while for it, then ranks by words). Fails the test after ``limit`` seconds with the last text and what
    the warm process says (:func:`warm_why`)."""
    import time

    deadline = time.monotonic() + limit
    while want not in (said := ask(f"s-{time.monotonic_ns()}")):
        if time.monotonic() > deadline:
            pytest.fail(f"never recalled by meaning: {said!r}" + warm_why(home))
        time.sleep(0.5)
    return said


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report says so when memdir's source changed during the run (:func:`source_changed`): the
    cause of every warm-process failure after such a change, not the tests."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and (changed := source_changed()):
        report.sections.append(("memdir source changed", changed))


def pytest_terminal_summary(terminalreporter):
    """Print the fault-injection counts (tests/faults/test_faults.py, issue 10) as one JSON line."""
    import json

    module = sys.modules.get("tests.faults.test_faults")
    if module is not None and module.COUNTS["faults_injected"]:
        terminalreporter.write_line("memdir faults: " + json.dumps(module.COUNTS))


# ---------------------------------------------------------------- hypothesis profiles (issue 13, item 3)

from hypothesis import HealthCheck  # noqa: E402
from hypothesis import settings as _hypothesis
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

# "ci" (the default, in `make test`): a fixed, derandomized run that is the same on every
# machine and quick; "fuzz" (`make fuzz`, HYPOTHESIS_PROFILE=fuzz): 50× the examples, random.
_hypothesis.register_profile("ci", max_examples=100, derandomize=True, deadline=None, database=None,
                             print_blob=True, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
# The long run keeps what it finds (.hypothesis/, git-ignored) so a failure replays on the next run.
_hypothesis.register_profile("fuzz", parent=_hypothesis.get_profile("ci"), max_examples=5000, derandomize=False,
                             database=DirectoryBasedExampleDatabase(".hypothesis/examples"))
_hypothesis.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def scaled(share: float):
    """Hypothesis settings running ``share`` × the profile's ``max_examples``
    (at least 1): a costly property runs fewer examples than a pure one, and
    every property grows with the profile."""
    return _hypothesis(max_examples=max(1, int(_hypothesis.default.max_examples * share)))


def indexed_store(home: Path, project: Path, notes: dict[str, tuple[str, str]], vectors: str = "off"):
    """A :class:`memdir.Memory` on ``home`` read from ``project`` (``search_vectors`` = ``vectors``; actor human)
    whose project layer holds ``notes`` (name → (description, body)), each written through the gateway, and
    whose search index holds them all (embedded in the foreground when ``vectors`` is ``on``)."""
    from memdir import Memory
    from memdir.search.sync import prepare

    mem = Memory.open(home=home, project=project, search_vectors=vectors, actor="human")
    for name, (description, body) in notes.items():
        mem.write(name, description, "project", body)
    prepare(mem.session)
    return mem


def traced(conn, run, keep=lambda sql: not sql.startswith("--")) -> tuple[object, list[str]]:
    """``run()`` with the SQL statements ``conn`` executes meanwhile recorded: ``(run's result, [statement, …])``
    in order, those ``keep`` accepts (by default all but FTS5's own, which begin with ``--``)."""
    seen: list[str] = []
    conn.set_trace_callback(lambda sql: seen.append(sql) if keep(sql) else None)
    try:
        return run(), seen
    finally:
        conn.set_trace_callback(None)


@pytest.fixture
def claude_installed(isolated_home):
    """memdir installed into Claude Code (user scope) in the test's home, by a real ``memdir install`` run
    in-process: a SessionStart hook runs where an install put it, and ``memdir context`` and ``status`` then
    name memdir's MCP tools as the hook does (without an install they name its commands:
    :func:`memdir.prompt.start.mcp_reachable`)."""
    from memdir.integrations.cli.main import main

    assert main(["install", "claude-code"]) == 0
    return isolated_home
