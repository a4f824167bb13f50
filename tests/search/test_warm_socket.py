"""Where the warm process's socket lives (issue 28 item 5): a path that always fits ``sockaddr_un``,
in a private per-user directory, and ``doctor`` saying why the warm path is off.

Real sockets, real directories; the model is never loaded (a bad request is answered at once)."""

from __future__ import annotations

import json
import os
import signal
import socket

import pytest

from memdir import Memory
from memdir import runtime as sockets
from memdir.search import warm
from memdir.version import install_command


def _bad_request(path) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(str(path))
        sock.sendall(b'{"query": 1}\n')
        return json.loads(sock.makefile("rb").readline())


def test_a_home_path_over_100_bytes_still_gets_a_warm_process(tmp_path, runtime):
    run, _tmp = runtime
    long_home = tmp_path / ("h" * 60) / ("o" * 60) / "home"
    short_home = tmp_path / "h2"
    assert len(os.fsencode(str(long_home))) > 150
    path = warm.socket_path(long_home, create=True)
    assert path is not None and str(path).startswith(run + "/memdir/") and len(os.fsencode(str(path))) <= 100
    assert oct(os.stat(os.path.join(run, "memdir")).st_mode & 0o777) == "0o700"
    assert warm.socket_path(short_home) != path  # each home its own socket
    assert warm.socket_path(long_home / ".." / "home") == path  # one home, however it is spelled
    server = warm.WarmServer(long_home).start()
    try:
        assert server.listening.wait(10)
        from memdir.version import code_identity

        # a real answer over the socket, naming the code the server runs
        assert _bad_request(path) == {"error": "bad request", "code": code_identity()}
    finally:
        server.close()
    assert not path.exists()


def test_a_runtime_directory_others_may_enter_is_not_used(runtime):
    run, tmp = runtime
    os.chmod(run, 0o755)  # not private: the /tmp fallback instead
    path = warm.socket_path("/some/home", create=True)
    assert path is not None and str(path).startswith(os.path.join(tmp, f"memdir-{os.getuid()}") + "/")
    os.chmod(run, 0o700)  # control: private again, used again
    assert str(warm.socket_path("/some/home", create=True)).startswith(run + "/memdir/")


def test_a_socket_directory_open_to_others_turns_the_warm_path_off_when_the_cache_one_is_refused_too(
        runtime, monkeypatch):
    run, tmp = runtime
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    mine = os.path.join(tmp, f"memdir-{os.getuid()}")
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)  # another user may have made it so: never trusted
    cache = os.path.join(os.path.dirname(run), "cache")
    os.mkdir(cache, 0o777)
    os.chmod(cache, 0o777)  # the last place's parent open to others: refused as well
    assert warm.socket_path("/some/home", create=True) is None
    directory, why = warm.runtime_dir()
    assert (directory, why) == (None, f"XDG_RUNTIME_DIR is not set; {mine} may be entered by other users (mode 755); "
                                      f"cache directory: {cache} may be written by other users (mode 777)")
    assert not os.path.exists(os.path.join(cache, "memdir-run"))  # passed over, nothing made in it
    os.chmod(cache, 0o700)  # control: the cache directory this user's alone, its memdir-run is used
    assert warm.runtime_dir(create=True) == (os.path.join(cache, "memdir-run"), None)
    os.chmod(mine, 0o700)  # control: /tmp's private again, it comes first again
    assert warm.runtime_dir() == (mine, None)


def HOOKS(hook, dense):  # a process runs prompt hooks, as launch's and memdir mcp's do (else doctor says it does not)
    return {}


def _warm_notes(mem) -> list[str]:
    return [n for n in mem.doctor().notes if "warm search process" in n]


@pytest.mark.slow
def test_doctor_says_why_the_warm_path_is_off(isolated_home, project, runtime, monkeypatch):
    from memdir.search import used, vectors

    monkeypatch.setattr(vectors, "installed", lambda: True)  # the extra's presence is each case's to say
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    off = mem.doctor()
    assert off.status.search == "bm25"
    assert [n for n in off.notes if "warm search process" in n] == [
        "the warm search process is off: search_vectors = off (set by MEMDIR_SEARCH_VECTORS or settings); recall "
        "and search rank by words alone"]
    on = Memory.open(home=isolated_home, project=project, search_vectors="on")
    auto = Memory.open(home=isolated_home, project=project, search_vectors="auto")
    monkeypatch.setattr(vectors, "installed", lambda: False)
    for setting, opened in (("on", on), ("auto", auto)):
        assert _warm_notes(opened) == [
            (f"the warm search process is off: search_vectors = {setting} but the vectors extra is not installed "
             f"({install_command('vectors')}); recall and search rank by words alone")]
    monkeypatch.setattr(vectors, "installed", lambda: True)
    path = warm.socket_path(isolated_home)
    # No vector in the index yet: the next session start builds them and starts one (warm.launch_if_useful).
    assert (isolated_home / "index.sqlite").exists()  # doctor's status synced it
    assert _warm_notes(on) == [
        f"no warm search process listens at {path}: this home's index holds no vector yet; the next session start "
        "builds them in the background and starts one (`memdir reindex` builds them now); until then a fresh "
        "prompt hook recalls by words alone"]
    (isolated_home / used.VECTORS_MARK).touch()  # what storing a vector leaves (memdir.search.used.note)
    (notes,) = _warm_notes(on)
    assert notes.startswith(f"no warm search process listens at {path} now (a running `memdir mcp` serves it, or "
                            "the one the next session start or prompt hook starts)")
    (isolated_home / warm.LOG_FILE).write_text("warm search process: exits after 1800 s idle\n")
    assert _warm_notes(on)[0].endswith(f"; last line of {isolated_home / warm.LOG_FILE}: warm search process: "
                                       "exits after 1800 s idle")
    server = warm.WarmServer(isolated_home, hooks=HOOKS).start()  # control: one listens, no note
    try:
        assert server.listening.wait(10)
        assert _warm_notes(on) == []
    finally:
        server.close()
    run, tmp = runtime
    os.chmod(run, 0o755)  # neither runtime directory is private, the cache one too long: no socket at all
    os.makedirs(os.path.join(tmp, f"memdir-{os.getuid()}"), mode=0o755)
    os.chmod(os.path.join(tmp, f"memdir-{os.getuid()}"), 0o755)
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(tmp, "c" * 100))
    (notes,) = _warm_notes(on)
    assert notes.startswith("the warm search process is off: no socket directory (") and "may be entered by other " \
        "users (mode 755)" in notes


def test_doctor_says_when_the_warm_process_cannot_load_the_model(isolated_home, project, runtime, monkeypatch):
    import time

    from memdir.search import vectors

    monkeypatch.setattr(vectors, "installed", lambda: True)
    monkeypatch.setattr(vectors, "importable", lambda: False)  # the engine fails to load
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    server = warm.WarmServer(isolated_home, hooks=HOOKS).start()
    try:
        assert server.listening.wait(10)
        assert _warm_notes(mem) == [] and server._loader is None  # doctor's probe starts no load (it did: warm41)
        # a request that needs the model starts its load (a prompt hook's)
        assert warm.request(isolated_home, {"query": "", "layers": [], "generation": -1}, timeout=30) is not None
        deadline = time.monotonic() + 30
        while not server.failed and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.failed
        notes = mem.doctor().notes
        assert any(f"the warm search process at {warm.socket_path(isolated_home)} cannot load the embedding model"
                   in n for n in notes)
        assert not any("no warm search process listens" in n for n in notes)  # control: it does listen
    finally:
        server.close()
    assert any("no warm search process listens" in n for n in mem.doctor().notes)  # and now none does


def test_a_client_names_the_directory_the_server_binds_in(runtime):
    """Audit: with ``$XDG_RUNTIME_DIR/memdir`` not made yet and ``/tmp/memdir-<uid>`` there, a client
    (doctor, hooks) named the /tmp socket while the server bound in the runtime directory."""
    run, tmp = runtime
    os.mkdir(os.path.join(tmp, f"memdir-{os.getuid()}"), 0o700)
    mine = os.path.join(run, "memdir")
    client = warm.socket_path("/some/home")
    assert not os.path.exists(mine)  # a client makes nothing
    server = warm.socket_path("/some/home", create=True)
    assert client == server and str(server).startswith(mine + "/")
    assert warm.socket_path("/some/home") == server
    os.chmod(run, 0o755)  # control: a runtime directory others may enter is passed over by both, to /tmp
    fallback = warm.socket_path("/some/home")
    assert fallback == warm.socket_path("/some/home", create=True)
    assert str(fallback).startswith(os.path.join(tmp, f"memdir-{os.getuid()}") + "/")


def test_a_runtime_directory_too_long_for_a_socket_is_passed_over(runtime, monkeypatch):
    run, tmp = runtime
    deep = os.path.join(run, "r" * 90)
    os.mkdir(deep, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", deep)
    path = warm.socket_path("/some/home", create=True)
    assert str(path).startswith(os.path.join(tmp, f"memdir-{os.getuid()}") + "/") and len(str(path)) <= 100
    monkeypatch.setenv("XDG_RUNTIME_DIR", run)  # control: a short one is used
    assert str(warm.socket_path("/some/home", create=True)).startswith(run + "/memdir/")


def test_dead_sockets_of_gone_homes_are_swept_and_a_live_one_stays(runtime, tmp_path):
    """Issue 28 trial: the runtime directory kept the socket of every home that ever had a warm process.
    A socket nothing listens on (its process gone) is removed when a warm process starts or a hook finds
    its home's socket dead; one a live process holds is never removed, nor a fresh one (bound, not yet
    listening), nor anything that is not a socket."""
    run, _tmp = runtime
    directory = os.path.join(run, "memdir")
    os.makedirs(directory, 0o700, exist_ok=True)
    old = __import__("time").time() - 2 * sockets.SWEEP_GRACE

    def bound(name: str, listen: bool) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(os.path.join(directory, name))
        if listen:
            sock.listen(1)
        os.utime(os.path.join(directory, name), (old, old))
        return sock

    gone = bound("0" * 16 + ".sock", listen=False)
    gone.close()  # the process of a deleted home: its file stays, nothing listens
    live = bound("1" * 16 + ".sock", listen=True)
    fresh = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fresh.bind(os.path.join(directory, "2" * 16 + ".sock"))  # just bound: inside the grace
    with open(os.path.join(directory, "notes.txt"), "w") as other:
        other.write("not a socket")
    try:
        assert sockets.dead(os.path.join(directory, "0" * 16 + ".sock")) is True
        assert sockets.dead(os.path.join(directory, "1" * 16 + ".sock")) is False
        # a hook of a home whose socket is dead: its request finds it refused and sweeps
        home = tmp_path / "home"
        home.mkdir()
        mine = warm.socket_path(home, create=True)
        dying = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        dying.bind(str(mine))
        dying.close()
        os.utime(mine, (old, old))
        assert warm.request(home, {"query": ""}) is None
        assert sorted(os.listdir(directory)) == ["1" * 16 + ".sock", "2" * 16 + ".sock", "notes.txt"]
        assert sockets.swept() == []  # nothing more to remove: the live, the fresh and the file stay
    finally:
        live.close()
        fresh.close()


def test_a_stored_vector_marks_its_home_as_having_used_vectors(tmp_path):
    import sqlite3

    from memdir.search import used

    home = tmp_path / "home"
    home.mkdir()
    assert not warm.has_used_vectors(home)
    memory = sqlite3.connect(":memory:")  # control: an index in memory has no home to mark
    used.note(memory)
    assert not any(tmp_path.rglob(used.VECTORS_MARK)) and not warm.has_used_vectors(home)
    conn = sqlite3.connect(str(home / "index.sqlite"))
    used.note(conn)
    assert used.noted(home) and warm.has_used_vectors(home)
    assert oct((home / used.VECTORS_MARK).stat().st_mode & 0o777) == "0o600"
    conn.close()
    memory.close()


@pytest.mark.slow
def test_a_file_that_is_not_a_socket_at_the_socket_path_is_left_alone_and_doctor_says_so(
        isolated_home, project, runtime, monkeypatch, capsys):
    """``_bind`` unlinked whatever sat at the socket path, a regular file too. Only a socket left by a process
    that died is removed; anything else stays, the warm process does not listen, and doctor says why."""
    from memdir.search import used, vectors

    monkeypatch.setattr(vectors, "installed", lambda: True)
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    (isolated_home / used.VECTORS_MARK).touch()
    path = warm.socket_path(isolated_home, create=True)
    path.write_text("someone's notes\n")
    server = warm.WarmServer(isolated_home).start()
    try:
        assert not server.listening.wait(1.0)
        reason = (f"{path} is a regular file, not a socket, so no warm process can listen there (memdir removes only "
                  "a socket it left; move that file away)")
        assert server.refused == reason and path.read_text() == "someone's notes\n"  # kept, not unlinked
        assert _warm_notes(mem) == [f"no warm search process listens for this home: {reason}; a fresh prompt hook "
                                    "recalls by words alone"]
    finally:
        server.close()
    assert path.read_text() == "someone's notes\n"
    before = signal.getsignal(signal.SIGTERM)
    assert warm.main([str(isolated_home), "--idle", "5"]) == 0  # a standalone one exits at once, saying why
    assert capsys.readouterr().out.rstrip().endswith(f"0 answered: {reason}")
    # Its SIGTERM handler is put back: it was left set, and the test run then ignored SIGTERM (a CI timeout's)
    assert signal.getsignal(signal.SIGTERM) is before and before is not None
    path.unlink()
    path.mkdir()  # a directory, and a symbolic link to a file: left alone too
    assert sockets.cleared(path).startswith(f"{path} is a directory, not a socket") and path.is_dir()
    path.rmdir()
    path.symlink_to(isolated_home / "elsewhere")
    assert sockets.cleared(path).startswith(f"{path} is a symbolic link, not a socket") and path.is_symlink()
    path.unlink()
    dying = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # control: a socket its process left is removed
    dying.bind(str(path))
    dying.close()
    assert path.is_socket() and sockets.cleared(path) is None and not path.exists()
    dying = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dying.bind(str(path))
    dying.close()
    server = warm.WarmServer(isolated_home, hooks=HOOKS).start()  # and a server binds in its place
    try:
        assert server.listening.wait(10) and server.refused is None and path.is_socket()
        assert _warm_notes(mem) == []
    finally:
        server.close()


# ---------------------------------------------------------------- a runtime directory no socket can be made in

# Run as root, the child drops the capabilities that bypass file modes, so ``chmod 0500`` binds it as it
# binds any other user (tests/faults/test_faults.py does the same).
UNPRIVILEGED = (["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
                if os.geteuid() == 0 else [])

_CHILD = r"""
import json, os, sys
from pathlib import Path
from memdir import Memory, runtime
from memdir.search import warm, warmth, vectors
home, project, tmp = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
runtime.SHARED_TMP = tmp  # the test's own /tmp (a fallback shared with every other run otherwise)
vectors.installed = lambda: True  # the extra's presence is not this test's question
WAIT = 60.0  # seconds to wait for the listening and the answer: a bound on waiting (a loaded machine), not a timing
# doctor's probe waits as long: its 0.5 s (warm.ANSWER_TIMEOUT) is for a process of its own, not a serving thread
# sharing this process and a loaded machine with the model's load (it said "no warm search process listens")
warmth.PROBE_TIMEOUT = WAIT
out = {"client": str(warm.socket_path(home)), "runtime_dir": runtime.runtime_dir()}
if sys.argv[4] == "serve":  # a real warm process's socket, and a real request over it
    server = warm.WarmServer(home, hooks=lambda hook, dense: {}).start()
    out["listening"] = server.listening.wait(WAIT)
    out["server"] = str(server.path)
    # not a hook's 0.5 s (warm.ANSWER_TIMEOUT): the serving thread shares a loaded machine with the model's load
    out["answer"] = warm.request(home, {"query": "", "layers": [], "generation": -1}, timeout=WAIT) is not None
    if server._loader is not None:  # the request started the model's load: doctor would say it is still loading
        server._loader.join(WAIT)
mem = Memory.open(home=home, project=project, search_vectors="on", use_cwd=False)
out["notes"] = [n for n in mem.doctor().notes if "warm search process" in n]
if sys.argv[4] == "serve":
    server.close()
print(json.dumps(out))
"""


def _child(home, project, tmp, mode: str) -> dict:
    """The warm process's directory, a request and doctor's notes, seen by a process the file modes bind."""
    import subprocess
    import sys

    done = subprocess.run([*UNPRIVILEGED, sys.executable, "-c", _CHILD, str(home), str(project), tmp, mode],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_read_only_socket_directory_falls_back_to_tmp_and_doctor_says_why_when_none_is_left(
        isolated_home, project, runtime):
    """Audit (issue 28 item 5): ``$XDG_RUNTIME_DIR/memdir`` private but read-only — the warm process could not
    bind there and stopped ("stopped (asked, SIGTERM, or another server answers)"), nothing fell back to
    ``/tmp/memdir-<uid>``, and doctor said the next session start would start one. Now a directory no socket
    can be made in is passed over by the server and its clients alike, and doctor names each one and why."""
    run, tmp = runtime
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on", use_cwd=False)
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    from memdir.search import used

    (isolated_home / used.VECTORS_MARK).touch()
    preferred, fallback = os.path.join(run, "memdir"), os.path.join(tmp, f"memdir-{os.getuid()}")
    os.mkdir(preferred, 0o700)
    try:
        os.chmod(preferred, 0o500)  # private, but no socket can be made in it
        got = _child(isolated_home, project, tmp, "serve")
        assert got["listening"] and got["answer"]  # a real warm process, answering over its socket
        assert got["server"] == got["client"] and got["server"].startswith(fallback + "/")
        assert got["runtime_dir"] == [fallback, None] and got["notes"] == []  # on: nothing to say
        assert oct(os.stat(fallback).st_mode & 0o777) == "0o700"
        # neither directory takes a socket: the warm path is off, and doctor says exactly why
        os.chmod(fallback, 0o500)
        cache = os.path.join(os.path.dirname(run), "cache")  # and the last place's parent read-only too
        os.makedirs(cache, exist_ok=True)  # the model's graphs may be cached there already (platformdirs)
        os.chmod(cache, 0o500)
        got = _child(isolated_home, project, tmp, "doctor")
        why = (f"{preferred} cannot be written by this user (mode 500); {fallback} cannot be written by this user "
               f"(mode 500); cannot create {cache}/memdir-run ({cache} cannot be written by this user (mode 500))")
        assert got["runtime_dir"] == [None, why]
        assert got["notes"] == [f"the warm search process is off: no socket directory ({why}); recall ranks by "
                                "words alone"]
        os.chmod(fallback, 0o700)
        os.chmod(preferred, 0o700)  # control: the preferred directory, writable again, is used again
        got = _child(isolated_home, project, tmp, "serve")
        assert got["listening"] and got["answer"] and got["server"].startswith(preferred + "/")
        assert got["server"] == got["client"] and got["notes"] == []
    finally:
        os.chmod(preferred, 0o700)
        os.chmod(fallback, 0o700) if os.path.isdir(fallback) else None
        cache = os.path.join(os.path.dirname(run), "cache")
        os.chmod(cache, 0o700) if os.path.isdir(cache) else None


@pytest.mark.slow
def test_a_runtime_directory_memdir_cannot_create_its_directory_in_is_passed_over_by_client_and_server(
        isolated_home, project, runtime):
    """``$XDG_RUNTIME_DIR`` private but read-only, ``memdir`` not made yet: the server could not make it and
    went to /tmp while a client named the socket it would have made there."""
    run, tmp = runtime
    os.chmod(run, 0o500)
    try:
        got = _child(isolated_home, project, tmp, "serve")
        fallback = os.path.join(tmp, f"memdir-{os.getuid()}")
        assert got["listening"] and got["answer"] and got["server"] == got["client"]
        assert got["server"].startswith(fallback + "/") and not os.path.exists(os.path.join(run, "memdir"))
    finally:
        os.chmod(run, 0o700)
    assert str(warm.socket_path("/some/home")).startswith(run + "/memdir/")  # control: writable, named again


def test_a_fallback_owned_by_another_user_is_refused(runtime, monkeypatch):
    run, tmp = runtime
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    mine = os.path.join(tmp, f"memdir-{os.getuid()}")
    os.mkdir(mine, 0o700)
    real = os.lstat

    def lstat(path, *args, **kwargs):  # the owner a directory made by someone else would have
        st = real(path, *args, **kwargs)
        if os.fspath(path) != mine:
            return st
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid + 1, *st[5:]))

    monkeypatch.setattr(os, "lstat", lstat)
    cache_run = os.path.join(os.path.dirname(run), "cache", "memdir-run")
    assert warm.runtime_dir(create=True) == (cache_run, None)  # the cache directory's, not the warm path off
    assert sockets.chosen() == (cache_run, ["XDG_RUNTIME_DIR is not set",
                                            f"{mine} belongs to another user (uid {os.getuid() + 1})"])
    assert oct(os.lstat(cache_run).st_mode & 0o777) == "0o700"
    monkeypatch.setattr(os, "lstat", real)  # control: this user's own
    assert warm.runtime_dir(create=True) == (mine, None)


def test_a_refused_bind_is_said_in_the_log_and_doctor_quotes_it(isolated_home, project, runtime, monkeypatch,
                                                                capsys):
    """A directory that looks usable where the bind is refused all the same (a security module, say): the
    warm process says why it ended, and doctor says it could not bind rather than "the next one starts"."""
    import errno

    from memdir.search import used, vectors

    monkeypatch.setattr(vectors, "installed", lambda: True)
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on", use_cwd=False)
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    (isolated_home / used.VECTORS_MARK).touch()
    path = warm.socket_path(isolated_home, create=True)

    def refuse(self, address):
        raise PermissionError(errno.EACCES, "Permission denied")

    allowed = socket.socket.bind
    monkeypatch.setattr(socket.socket, "bind", refuse)
    assert warm.main([str(isolated_home), "--idle", "5"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.endswith(f"0 answered: cannot listen at {path} (Permission denied)")
    (isolated_home / warm.LOG_FILE).write_text(line + "\n")  # where launch() sends it
    assert _warm_notes(mem) == [f"no warm search process listens at {path}: the last one could not bind there (last "
                                f"line of {isolated_home / warm.LOG_FILE}: {line}); a fresh prompt hook recalls by "
                                "words alone"]
    monkeypatch.setattr(socket.socket, "bind", allowed)  # control: the bind allowed, one listens, no note
    server = warm.WarmServer(isolated_home, hooks=HOOKS).start()
    try:
        assert server.listening.wait(10) and server.refused is None
        assert _warm_notes(mem) == []
    finally:
        server.close()


def test_a_named_pipe_at_the_socket_path_is_named_once_as_what_it_is(isolated_home, project, runtime, monkeypatch):
    """A FIFO at the socket path was "a file that is not a socket, not a socket" in doctor's note."""
    from memdir.search import used, vectors

    monkeypatch.setattr(vectors, "installed", lambda: True)
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    (isolated_home / used.VECTORS_MARK).touch()
    path = warm.socket_path(isolated_home, create=True)
    os.mkfifo(path)
    reason = (f"{path} is a named pipe (FIFO), not a socket, so no warm process can listen there (memdir removes only "
              "a socket it left; move that file away)")
    assert sockets.cleared(path) == reason and path.is_fifo()  # left where it is
    notes = _warm_notes(mem)
    assert notes == [(f"no warm search process listens for this home: {reason}; a fresh prompt hook recalls by words "
                      "alone")] and notes[0].count("not a socket") == 1
    path.unlink()
    path.write_text("notes\n")  # control: a regular file is named as before
    assert sockets.cleared(path).startswith(f"{path} is a regular file, not a socket, so")
