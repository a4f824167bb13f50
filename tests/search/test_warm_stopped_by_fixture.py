"""The test fixtures stop the warm search processes a test started (tests/conftest.py ``stop_warm_under``):
before, one launched for a home other than ``isolated_home`` (a test's own ``tmp_path/"home"``) lived on
until its 30-minute idle exit."""

from __future__ import annotations

from memdir.search import warm
from tests.conftest import _warm_processes, stop_warm_under, wait_until


def test_a_warm_process_under_the_tests_tmp_path_is_stopped(tmp_path):
    home = tmp_path / "home"  # not isolated_home: the fixture's own stop_warm(home) does not see it
    home.mkdir()
    pid = warm.launch(home)
    assert pid is not None
    wait_until(lambda: warm.listening(home), "the warm process listening")
    assert _warm_processes(tmp_path) == [(pid, home.resolve())]  # control: found while it runs
    assert _warm_processes(tmp_path / "elsewhere") == []  # another test's root holds none of it
    assert stop_warm_under(tmp_path) == 1
    wait_until(lambda: not _warm_processes(tmp_path), "the warm process gone")
    assert not warm.listening(home)


def test_the_runs_warm_process_outside_any_tmp_path_is_found_by_its_mark(tmp_path):
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from tests.conftest import RUN_MARK

    base = Path(tempfile.mkdtemp(prefix="mw", dir="/tmp"))  # as short_home makes one: outside tmp_path
    home = base / "h"
    home.mkdir()
    try:
        pid = warm.launch(home)
        assert pid is not None
        wait_until(lambda: warm.listening(home), "the warm process listening")
        assert _warm_processes(tmp_path) == []  # not under this test's tmp_path
        mark = os.environ[RUN_MARK]
        assert (pid, home.resolve()) in _warm_processes(None, mark)  # but this run's (what pytest_sessionfinish stops)
        assert _warm_processes(None, mark + "-another-run") == []  # control: not another run's
        assert warm.stop(home)  # this one only: stop_warm_under(None, mark) would stop any other test's too
        wait_until(lambda: (pid, home.resolve()) not in _warm_processes(None, mark), "the warm process gone")
    finally:
        warm.stop(home)
        shutil.rmtree(base, ignore_errors=True)
