"""Once per session through the Python API (issue 28 item 3): a harness that keeps each recall block in
its conversation asks ``Memory.recall(prompt, once=True)``, as the prompt hooks do; a compaction is
``Memory.conversation_restarted()``. Real store, real index, words alone (no model needed)."""

from __future__ import annotations

from memdir import Memory

TTL_BODY = "The session cache in Redis uses a TTL of 900 seconds."
TTL_PROMPT = "what TTL should the redis session cache use?"
DEPLOY_BODY = "Deploy with make ship from the release branch."
DEPLOY_PROMPT = "how do we deploy from the release branch?"


def _store(isolated_home, project, session: str | None) -> Memory:
    mem = Memory.open(home=isolated_home, project=project, session=session)
    mem.write("redis-ttl", "Redis cache TTL for sessions", "project", TTL_BODY)
    mem.write("deploy-box", "How to deploy", "project", DEPLOY_BODY)
    return mem


def test_a_body_given_once_is_then_only_named_until_the_conversation_restarts(isolated_home, project):
    mem = _store(isolated_home, project, "s-1")
    first = mem.recall(TTL_PROMPT, once=True)
    assert TTL_BODY in first and DEPLOY_BODY not in first
    again = mem.recall(TTL_PROMPT, once=True)
    assert TTL_BODY not in again and "given earlier in this session, unchanged: redis-ttl" in again
    other = mem.recall(DEPLOY_PROMPT, once=True)  # control: another memory's body is still given in full
    assert DEPLOY_BODY in other and TTL_BODY not in other
    mem.conversation_restarted()
    assert TTL_BODY in mem.recall(TTL_PROMPT, once=True)


def test_without_once_or_without_a_session_id_every_recall_gives_the_body(isolated_home, project):
    mem = _store(isolated_home, project, "s-2")
    assert TTL_BODY in mem.recall(TTL_PROMPT) and TTL_BODY in mem.recall(TTL_PROMPT)  # not asked: as before
    assert TTL_BODY in mem.recall(TTL_PROMPT, once=True)  # … and recall without once recorded nothing
    assert TTL_BODY not in mem.recall(TTL_PROMPT, once=True)
    anonymous = Memory.open(home=isolated_home, project=project)
    assert TTL_BODY in anonymous.recall(TTL_PROMPT, once=True) and TTL_BODY in anonymous.recall(TTL_PROMPT, once=True)


def test_another_session_starts_fresh(isolated_home, project):
    mem = _store(isolated_home, project, "s-3")
    assert TTL_BODY in mem.recall(TTL_PROMPT, once=True)
    assert TTL_BODY not in mem.recall(TTL_PROMPT, once=True)
    later = Memory.open(home=isolated_home, project=project, session="s-4")
    assert TTL_BODY in later.recall(TTL_PROMPT, once=True)
