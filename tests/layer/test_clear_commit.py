"""`clear` and `prune` commit per memory (issue 10, trial item 2): a clear event
is a delete in the journal's heads, so no read or repair afterwards journals a
phantom ``external-delete``, and a SIGKILL at any file operation of a clear
repairs each memory to before or after."""

from __future__ import annotations

import os
import shutil
import signal

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.faults.test_faults import seed, state

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)


def _actions(layer) -> list[tuple[str, str | None]]:
    return [(e.action, e.name) for e in layer.journal.events()]


def test_reads_and_repair_after_clear_journal_nothing(isolated_home, project, person):
    for name in ("a", "b"):
        person.write(name, f"{name} fact", "project")
    person.write("u", "a user fact", "user")
    assert run_cli("--project", project, "clear", "--scope", "project", "--yes").returncode == 0
    layer = person.session.layer("project")
    assert _actions(layer)[-2:] == [("clear", "a"), ("clear", "b")]  # control: clear is journaled per memory
    seen = len(layer.journal.events())
    out = run_cli("--project", project, "history", "a")
    assert "clear" in out.stdout and "external-delete" not in out.stdout
    assert run_cli("--project", project, "verify", "--repair").returncode == 0
    assert len(layer.journal.events()) == seen
    # The next write of the same value is a create, not "unchanged".
    assert person.write("a", "a fact", "project").operation == "created"


def _kill_at(n: int) -> None:
    hits = [0]
    for attr in ("replace", "rename", "unlink", "write"):
        original = getattr(os, attr)

        def wrapper(*args, _original=original, **kwargs):
            hits[0] += 1
            if hits[0] == n:
                os.kill(os.getpid(), signal.SIGKILL)
            return _original(*args, **kwargs)

        setattr(os, attr, wrapper)


def test_a_kill_at_every_file_operation_of_clear_repairs_each_memory_to_before_or_after(tmp_path, project):
    home = tmp_path / "home"
    seed(home, project)
    pristine = tmp_path / "pristine"
    shutil.copytree(home, pristine)
    before = state(home, project)["project"]
    assert len(before) == 4
    cuts = 0
    for n in range(1, 40):
        shutil.rmtree(home)
        shutil.copytree(pristine, home)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _kill_at(n)
                Memory.open(home=home, project=project, actor="human").clear("project", confirm=True)
            except BaseException:  # noqa: BLE001
                code = 3
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        if not os.WIFSIGNALED(status):
            assert os.WEXITSTATUS(status) == 0
            break  # the clear ran to its end
        cuts += 1
        mem = Memory.open(home=home, project=project, actor="human")
        assert mem.repair().ok, n
        layer = mem.session.layer("project")
        now = state(home, project)["project"]
        assert all(now[name] == before[name] for name in now), n  # each one kept is as it was
        heads = {k: v for k, v in layer.journal.heads().items() if v}
        assert heads == {name: e.digest for name, e in layer.scan().entries.items()}, n
        seen = len(layer.journal.events())
        for name in before:
            mem.history(name)
        mem.verify()
        assert len(layer.journal.events()) == seen, n  # no phantom event from a read or a check
        gone = sorted(set(before) - set(now))
        if gone:  # a memory the journal calls cleared is written again as new
            description, body = before[gone[0]][:2]
            assert mem.write(gone[0], description, "project", body).operation == "created", n
    assert cuts >= 6
