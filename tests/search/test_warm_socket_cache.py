"""The warm process's third place (misc46): with ``$XDG_RUNTIME_DIR`` unset and ``/tmp/memdir-<uid>`` refused
(another user's, a symbolic link, open to others) the warm path was off, and every prompt hook ranked by words.
Now the socket lives in ``<user cache dir>/memdir-run`` (made 0700, its path checked against ``sockaddr_un``),
and ``memdir doctor`` and ``memdir status`` say which directory is used and why each one before it was refused.

Real directories, a real WarmServer and a real request over its socket; the model is never loaded."""

from __future__ import annotations

import json
import os
import socket

import pytest

from memdir import Memory
from memdir import runtime as sockets
from memdir.render import maintenance
from memdir.search import warm


def _dirs(runtime) -> tuple[str, str, str]:
    """``(the /tmp fallback, the cache directory, its memdir-run)`` of the ``runtime`` fixture."""
    run, tmp = runtime
    cache = os.path.join(os.path.dirname(run), "cache")
    return os.path.join(tmp, f"memdir-{os.getuid()}"), cache, os.path.join(cache, sockets.CACHE_RUN)


def _refuse(kind: str, mine: str, elsewhere: str, monkeypatch) -> str:
    """Make ``/tmp/memdir-<uid>`` (``mine``) refused as ``kind``; returns the reason said for it."""
    if kind == "another user":
        os.mkdir(mine, 0o700)
        real = os.lstat

        def lstat(path, *args, **kwargs):  # the owner a directory made by someone else would have
            st = real(path, *args, **kwargs)
            if os.fspath(path) != mine:
                return st
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid + 1, *st[5:]))

        lstat.real = real
        monkeypatch.setattr(os, "lstat", lstat)
        return f"{mine} belongs to another user (uid {os.getuid() + 1})"
    if kind == "symlink":  # even to a private directory of this user's: a link can be swapped
        os.mkdir(elsewhere, 0o700)
        os.symlink(elsewhere, mine)
        return f"{mine} is a symbolic link (to {elsewhere}), not a directory"  # not only "not a directory" (break48)
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)
    return f"{mine} may be entered by other users (mode 755)"


def _restore(kind: str, mine: str, monkeypatch) -> None:
    """The control: ``/tmp/memdir-<uid>`` a private directory of this user's again."""
    if kind == "another user":
        monkeypatch.setattr(os, "lstat", os.lstat.real)
    if kind == "symlink":
        os.unlink(mine)
        os.mkdir(mine, 0o700)
    os.chmod(mine, 0o700)


@pytest.mark.parametrize("kind", ["another user", "symlink", "mode"])
def test_a_refused_tmp_directory_is_passed_over_for_the_cache_directory(runtime, monkeypatch, kind):
    _run, tmp = runtime
    mine, cache, cache_run = _dirs(runtime)
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    why = _refuse(kind, mine, os.path.join(tmp, "elsewhere"), monkeypatch)
    client = warm.socket_path("/some/home")  # named before the server makes it, as a prompt hook would
    assert not os.path.exists(cache)  # a client makes nothing
    server = warm.socket_path("/some/home", create=True)
    assert client == server and str(server) == os.path.join(cache_run, sockets._name("/some/home"))
    assert oct(os.lstat(cache_run).st_mode & 0o777) == "0o700" and len(os.fsencode(str(server))) <= 100
    assert sockets.chosen() == (cache_run, ["XDG_RUNTIME_DIR is not set", why])
    assert sockets.private_dir() == (cache_run, None)  # the session records go where the sockets go
    if kind == "symlink":
        assert os.listdir(os.path.join(tmp, "elsewhere")) == []  # nothing made through the link
    _restore(kind, mine, monkeypatch)  # control: /tmp's private again, it comes first again
    assert warm.socket_path("/some/home", create=True) == warm.socket_path("/some/home")
    assert str(warm.socket_path("/some/home")).startswith(mine + "/")
    assert sockets.chosen() == (mine, ["XDG_RUNTIME_DIR is not set"])


def test_a_cache_directory_too_long_for_a_socket_or_open_to_others_is_passed_over(runtime, monkeypatch):
    _run, tmp = runtime
    mine, cache, cache_run = _dirs(runtime)
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)
    deep = os.path.join(tmp, "c" * 80)
    monkeypatch.setenv("XDG_CACHE_HOME", deep)
    assert warm.socket_path("/some/home", create=True) is None and not os.path.exists(deep)
    why = (f"XDG_RUNTIME_DIR is not set; {mine} may be entered by other users (mode 755); the cache directory {deep} "
           f"is too long for a socket path (over {sockets.MAX_SOCKET_PATH} bytes)")
    assert sockets.runtime_dir() == (None, why)
    monkeypatch.setenv("XDG_CACHE_HOME", cache)  # control: a short one is used
    assert str(warm.socket_path("/some/home", create=True)).startswith(cache_run + "/")
    os.chmod(cache, 0o775)  # the cache directory group-writable: its memdir-run could be swapped
    assert sockets.chosen()[0] is None
    assert sockets.chosen()[1][-1] == f"cache directory: {cache} may be written by other users (mode 775)"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ~/.cache, as platformdirs has it
    assert sockets.user_cache_dir() == os.path.expanduser("~/.cache")


def test_the_cache_directory_is_platformdirs_own(monkeypatch, tmp_path):
    """The rule is platformdirs' (``user_cache_dir``), written out: a prompt hook's thin client imports neither it
    nor pathlib."""
    import platformdirs

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sockets.user_cache_dir() == platformdirs.user_cache_dir() == str(tmp_path / "xdg")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert sockets.user_cache_dir() == platformdirs.user_cache_dir() == os.path.expanduser("~/.cache")


def _request(path) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        sock.sendall(b'{"query": 1}\n')
        return json.loads(sock.makefile("rb").readline())


def test_a_warm_process_serves_from_the_cache_directory_and_doctor_and_status_say_why(isolated_home, project,
                                                                                      runtime, monkeypatch):
    """The prompt hook keeps its vectors: a real warm process binds in the cache directory, a client finds it
    there, and doctor and status name that directory and why the two before it were passed over."""
    from memdir.search import vectors
    from memdir.version import code_identity

    run, tmp = runtime
    mine, _cache, cache_run = _dirs(runtime)
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)
    monkeypatch.setattr(vectors, "installed", lambda: True)
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on", use_cwd=False)
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    server = warm.WarmServer(isolated_home, hooks=lambda hook, dense: {}).start()
    try:
        assert server.listening.wait(10)
        assert str(server.path).startswith(cache_run + "/") and warm.socket_path(isolated_home) == server.path
        assert _request(warm.socket_path(isolated_home)) == {"error": "bad request", "code": code_identity()}
        assert warm.listening(isolated_home)
        said = (f"warm socket directory: {cache_run} (not used: XDG_RUNTIME_DIR is not set; {mine} may be "
                "entered by other users (mode 755))")
        status = mem.status()
        refused = f"{mine} may be entered by other users (mode 755)"
        assert status.to_dict()["socket_dir"] == {"directory": cache_run, "passed": ["XDG_RUNTIME_DIR is not set", refused]}
        assert said in maintenance.status(status).splitlines()
        from memdir.tools.handlers import run_tool

        assert said in run_tool(mem.session, "memory_status").text.splitlines()  # the MCP tool says it too
        doctor = mem.doctor()
        assert said in maintenance.doctor(doctor).splitlines()
        assert not [n for n in doctor.notes if "warm search process is off" in n]  # control: the warm path is on
    finally:
        server.close()
    monkeypatch.setenv("XDG_RUNTIME_DIR", run)  # control: the first place used, nothing passed over
    lines = maintenance.status(mem.status()).splitlines()
    assert f"warm socket directory: {run}/memdir" in lines and not any("not used" in line for line in lines)
    # none left: said as such, with every reason
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", os.path.join(tmp, "c" * 90))
    lines = maintenance.doctor(mem.doctor()).splitlines()
    assert (f"warm socket directory: none, so no warm search process can run (XDG_RUNTIME_DIR is not set; {mine} may "
            f"be entered by other users (mode 755); the cache directory {os.path.join(tmp, 'c' * 90)} is too long "
            f"for a socket path (over {sockets.MAX_SOCKET_PATH} bytes))") in lines


def test_a_cache_directory_linked_to_nothing_is_said_as_such(runtime, monkeypatch):
    """break50a: a ``~/.cache`` that is a symbolic link to a missing directory was read as "not made yet", then said
    "memdir-run cannot be read (No such file or directory)"; it is said as the link it is, and nothing is made
    through it. Control: the link's target made (this user's, 0700), the socket goes there."""
    mine, cache, cache_run = _dirs(runtime)
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)
    target = os.path.join(os.path.dirname(cache), "gone")
    os.symlink(target, cache)
    why = f"cache directory: {cache} is a symbolic link to {target}, which does not exist"
    assert sockets.chosen(create=True) == (None, ["XDG_RUNTIME_DIR is not set",
                                                  f"{mine} may be entered by other users (mode 755)", why])
    assert sockets.chosen()[1][-1] == why and not os.path.exists(target)
    os.mkdir(target, 0o700)  # control: the link now leads to this user's directory
    assert sockets.chosen(create=True)[0] == cache_run
