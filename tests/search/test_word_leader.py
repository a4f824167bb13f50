"""A prompt ranked by words alone: the memory whose words lead the store's is its memory (issue 28, recall46).

With vectors off (or no warm process answering the prompt hook) every bar that lowers the threshold (agreed,
nearest, crossed, kin) reads a cosine, so recall returned a memory only at 0.5: "add a new feature flag for the
checkout page" and the note on feature flags (0.32, the next memory 0.03) and "How should I install python packages
here?" in the evaluation's store (0.30, the next 0.06) recalled nothing. The first memory by score, standing
:data:`~memdir.search.relevance.WORD_LEAD` above the next and :data:`~memdir.search.relevance.WORD_RATIO` times its
score, whose head holds :data:`~memdir.search.relevance.WORD_HEAD` of the prompt's weight, is returned from
:data:`~memdir.search.relevance.WORD_THRESHOLD` (:func:`~memdir.search.relevance.led_by_words`). Controls: two
memories tied ("cut a 3.0 release": the merge freeze and the release note), a leader sharing one word ("what does this
project do?" and the sprint status note: tests/search/test_workspace_words.py), a leader not far enough ahead ("turn on
the new checkout flag for local testing": 0.23 against the dev database note's 0.14), a memory with a cosine, a head
holding less, a caller's own bar, an explicit search (unchanged), and chat.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from memdir import Memory
from memdir.search import ranking, relevance
from memdir.search.relevance import (
    THRESHOLD,
    WORD_HEAD,
    WORD_LEAD,
    WORD_RATIO,
    WORD_SHARED,
    WORD_THRESHOLD,
    Evidence,
    bar,
    led_by_words,
    word_leader,
)
from tests.conftest import run_cli
from tests.search.densestub import dense_as
from tests.search.surfaces import block_names, hook_block, lexical_env

EVALS = Path(__file__).resolve().parents[2] / "evals" / "recall" / "memories"
NOTES = ("python-installs", "timezone-utc", "release-tagging", "merge-freeze", "tabs-go", "s3-bucket", "pg-port",
         "ci-runner", "structlog-logging", "redis-sessions", "feature-flags", "staging-deploy", "oom-worker")
TASK = "add a new feature flag for the checkout page"
TIED = "cut a 3.0 release"
CLOSE = "turn on the new checkout flag for local testing"


def _ev(**kw) -> Evidence:
    """The evidence of :data:`TASK` for the note on feature flags, vectors off (this file's store)."""
    base = {"coverage": 0.39, "head": 0.37, "mass": 1.2, "cosine": None, "matched": ("featur", "flag"),
            "shared": ("featur", "flag"), "query": 3.10, "missing": 2.64, "word_lead": (0.291, 11.4)}
    base.update(kw)
    return Evidence(**base)


def test_the_constants():
    assert (WORD_THRESHOLD, WORD_LEAD, WORD_RATIO, WORD_HEAD, WORD_SHARED) == (0.2, 0.2, 3.0, 0.2, 2)


def test_the_leader_by_words_has_the_word_bar():
    assert led_by_words(_ev()) and bar(_ev()) == WORD_THRESHOLD == 0.2
    assert relevance.returned(_ev(), 0.319) and not relevance.returned(_ev(), 0.19)
    assert led_by_words(_ev(word_lead=(0.2, 3.0)))  # both at their bounds


def test_controls_keep_the_threshold():
    assert bar(_ev(word_lead=None)) == THRESHOLD  # not first, or a memory had a cosine: no lead was read
    assert bar(_ev(word_lead=(0.19, 11.4))) == THRESHOLD  # the next memory within WORD_LEAD
    assert bar(_ev(word_lead=(0.25, 2.9))) == THRESHOLD  # the next memory over a third of its score
    assert bar(_ev(head=0.19, near=0.9)) == THRESHOLD  # its head holds less; one sentence holding it is not enough
    assert bar(_ev(shared=("flag",))) == THRESHOLD  # one word shared: one word's luck ("is it down?", none at all)
    assert bar(_ev(cosine=0.85, lead=-0.02)) == THRESHOLD  # a memory with a vector, another nearer: meaning decides
    assert bar(_ev(), min_score=0.7) == 0.7 and bar(_ev(), min_score=0.0) == 0.0  # a caller's own bar stands
    assert bar(_ev(pointed=True)) == math.inf  # a thing of the conversation: never, as before


def test_the_leader_is_the_first_by_score_and_its_lead_over_the_next():
    assert word_leader({3: 0.3, 5: 0.06, 8: 0.02}) == (3, (0.3 - 0.06, 0.3 / 0.06))
    assert word_leader({4: 0.3}) == (4, (0.3, math.inf)) == word_leader({4: 0.3, 6: 0.0})  # alone: its whole score
    assert word_leader({1: 0.353, 2: 0.353}) is None and word_leader({}) is None  # tied, or nothing


def _store(home: Path, project: Path) -> Memory:
    """:data:`NOTES` of the evaluation's memories as this project's, vectors off."""
    mem = Memory.open(home=home, project=project, search_vectors="off", actor="human")
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    for name in NOTES:
        shutil.copy(EVALS / f"{name}.md", layer / f"{name}.md")
    return mem


def test_recall_and_a_search_at_the_threshold_return_the_leader_and_nothing_for_a_tie(isolated_home, project):
    mem = _store(isolated_home, project)
    first, second = ranking.ranked(mem.session, TASK, pool=12, min_score=0.0)[0][:2]
    assert (first.memory.name, round(first.score, 2), round(second.score, 2)) == ("feature-flags", 0.32, 0.03)
    assert [m.name for m in mem.recall_result(TASK).memories] == ["feature-flags"]
    assert [h.name for h in mem.search(TASK, min_score=THRESHOLD)] == ["feature-flags"]
    close = ranking.ranked(mem.session, CLOSE, pool=12, min_score=0.0)[0][:2]  # control: ahead, not far enough
    assert [(h.memory.name, round(h.score, 2)) for h in close] == [("feature-flags", 0.23), ("pg-port", 0.14)]
    assert mem.recall_result(CLOSE).memories == ()
    tied = ranking.ranked(mem.session, TIED, pool=12, min_score=0.0)[0][:2]  # control: two memories lead together
    assert sorted(h.memory.name for h in tied) == ["merge-freeze", "release-tagging"]
    assert round(tied[0].score, 3) == round(tied[1].score, 3) > WORD_THRESHOLD
    assert mem.recall_result(TIED).memories == () and mem.search(TIED, min_score=THRESHOLD) == []
    assert mem.recall_result("how's the weather today?").memories == ()  # control: chat
    words = "How should I install python packages here?"  # control: over the threshold, as before
    assert [m.name for m in mem.recall_result(words).memories] == ["python-installs"]


def test_an_explicit_search_is_unchanged(isolated_home, project):
    mem = _store(isolated_home, project)
    found = [(h.name, round(h.score, 2)) for h in mem.search(TASK)]
    assert found[0] == ("feature-flags", 0.32) and len(found) > 1  # every memory sharing a word, at its own score


def test_with_cosines_the_words_lead_is_not_read(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project)
    dense_as(monkeypatch, mem, {}, rest=0.80)  # every memory at one cosine: nothing stands out in meaning
    assert all(h.evidence.word_lead is None for h in ranking.ranked(mem.session, TASK, pool=12, min_score=0.0)[0])
    assert mem.recall_result(TASK).memories == ()  # with a cosine meaning has its say: no lead of the words read
    assert [m.name for m in mem.recall_result("the image worker crash").memories] == ["oom-worker"]  # control


def test_the_prompt_hook_and_cli_recall_return_the_leader(isolated_home, project):
    _store(isolated_home, project)
    env = lexical_env(isolated_home, project)
    assert block_names(hook_block(project, env, TASK)) == ["feature-flags"]
    assert block_names(hook_block(project, env, TIED, session="s2")) == []  # control: tied

    done = run_cli("recall", TASK, "--json", env=env, cwd=project)
    assert done.returncode == 0, done.stderr
    assert [m["name"] for m in json.loads(done.stdout)["memories"]] == ["feature-flags"]
    done = run_cli("recall", TIED, "--json", env=env, cwd=project)
    assert done.returncode == 0 and json.loads(done.stdout)["memories"] == []


BROAD = ("why do people use feature flags?", "can you explain what a feature flag is in general?",
         "in general, how do s3 buckets work?", "could you explain how redis sessions work in general?")


def test_a_question_anyone_could_ask_reads_no_lead():
    """break47: a question asking how a kind of thing works or why people use it, or saying "in general", is asked
    broadly (general.asks_broadly); one pointing at the project's own thing, or a task, is not."""
    from memdir.search.general import asks_broadly

    assert all(asks_broadly(q) for q in BROAD) and asks_broadly("how does S3 multipart upload work?")
    assert not any(asks_broadly(q) for q in (TASK, "How should I install python packages here?",
                                             "how does our staging deploy work?", "thanks, that fixed the redis session bug"))


def test_recall_of_a_broad_question_leaves_the_leader_and_the_task_keeps_it(isolated_home, project):
    """break47: with vectors off "why do people use feature flags?" recalled feature-flags (0.37, the next 0.03), "in
    general, how do s3 buckets work?" s3-bucket (0.43), by the word lead; main recalled nothing. Controls, same store:
    the task and a question on the project's own deploy still recall their note."""
    mem = _store(isolated_home, project)
    first = ranking.ranked(mem.session, BROAD[0], pool=12, min_score=0.0)[0][0]
    assert (first.memory.name, round(first.score, 2), first.evidence.word_lead) == ("feature-flags", 0.37, None)
    assert [q for q in BROAD if mem.recall_result(q).memories] == []
    assert [m.name for m in mem.recall_result(TASK).memories] == ["feature-flags"]
    assert [m.name for m in mem.recall_result("how does our staging deploy work?").memories] == ["staging-deploy"]
    env = lexical_env(isolated_home, project)
    assert block_names(hook_block(project, env, BROAD[0], session="s3")) == []
    assert block_names(hook_block(project, env, TASK, session="s4")) == ["feature-flags"]


REMARKS = ("I love the new feature, thanks! the flag looks great", "lol the worker in the image is funny",
           "great job on the session, redis is awesome")
ASKS = ("Add the new feature. Put it behind a flag.", "thanks, now add a feature flag for the checkout page",
        "thanks, but the image worker still crashes", "great, can you bump redis sessions?", TASK,
        "How should I install python packages here?", "Great. Is the staging deploy down")
ASKED = ("feature-flags", "feature-flags", "oom-worker", "redis-sessions", "feature-flags", "python-installs",
         "staging-deploy")


def test_a_remark_of_the_chat_is_told_from_a_request_or_a_question():
    """recall47: thanks, praise or laughter with no request, question or trouble is a remark (conversation.remarks);
    the same words around a request, a question or a trouble are not."""
    from memdir.search.conversation import remarks

    assert [q for q in REMARKS if remarks(q)] == list(REMARKS)
    assert [q for q in ASKS if remarks(q)] == []
    assert not remarks("the worker in the image is failing")  # no praise word: not read at all


def test_recall_of_a_remark_leaves_the_leader_and_the_tasks_keep_it(isolated_home, project):
    """recall47: with vectors off each remark's first memory shares two words of its head and leads the store by
    words (feature-flags 0.34, oom-worker 0.48, redis-sessions 0.44; the next 0.03 or none): int46 recalled each by the
    word lead, main nothing. Controls, same store: requests and questions holding the same praise words still recall
    their note (the first four under the threshold, by the lead), on the API and the prompt hook."""
    mem = _store(isolated_home, project)
    firsts = [ranking.ranked(mem.session, q, pool=12, min_score=0.0)[0][0] for q in REMARKS]
    assert [(h.memory.name, round(h.score, 2)) for h in firsts] == [
        ("feature-flags", 0.34), ("oom-worker", 0.48), ("redis-sessions", 0.44)]
    assert [q for q in REMARKS if ranking.ranked(mem.session, q, pool=12, min_score=THRESHOLD)[0]] == []
    assert [q for q in REMARKS if mem.recall_result(q).memories] == []
    assert [[m.name for m in mem.recall_result(q).memories] for q in ASKS] == [[n] for n in ASKED]
    led = ranking.ranked(mem.session, ASKS[3], pool=12, min_score=THRESHOLD)[0]  # the control read the lead
    assert [(h.memory.name, h.evidence.word_lead is not None) for h in led] == [("redis-sessions", True)]
    env = lexical_env(isolated_home, project)
    assert block_names(hook_block(project, env, REMARKS[0], session="s5")) == []
    assert block_names(hook_block(project, env, REMARKS[1], session="s6")) == []
    assert block_names(hook_block(project, env, ASKS[0], session="s7")) == ["feature-flags"]
    assert block_names(hook_block(project, env, ASKS[3], session="s8")) == ["redis-sessions"]
