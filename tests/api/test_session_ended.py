"""The library's session end counts what recall gave as reads (DESIGN §4: index order uses the days since the later
of the last read and the last update). ``Memory.recall_result(prompt, once=True)`` records each body it gives as
given, not read, as the prompt hooks do; the hooks count them at a client's session end, and the library had no
end: its givings were never counted. ``Memory.session_ended()`` counts them, each giving once. Real store, real
index, words alone (no model needed)."""

from __future__ import annotations

from memdir import Memory
from memdir.layer.journal import now_utc
from tests.api.test_recall_once import (
    DEPLOY_BODY,
    DEPLOY_PROMPT,
    TTL_BODY,
    TTL_PROMPT,
    _store,
)


def _reads(mem: Memory) -> dict:
    """name -> (reads, last read) as the project layer records them."""
    return dict(mem.session.layer("project").usage.counts())


def test_session_ended_counts_each_body_given_once_as_a_read(isolated_home, project):
    mem = _store(isolated_home, project, "lib-1")
    result = mem.recall_result(TTL_PROMPT, once=True)
    assert TTL_BODY in result.block and [m.name for m in result.memories if m.shown] == ["redis-ttl"]
    assert _reads(mem) == {}  # before: and so it stayed, the library having no end
    assert mem.session_ended() == 1
    reads, last = _reads(mem)["redis-ttl"]
    assert reads == 1 and last.date() == now_utc().date()
    assert "deploy-box" not in _reads(mem)  # control: a memory recall did not give is not counted
    assert mem.session_ended() == 0 and _reads(mem)["redis-ttl"][0] == 1  # counted once
    # a body only named (given earlier, unchanged) is no giving; another body given is
    assert TTL_BODY not in mem.recall_result(TTL_PROMPT, once=True).block
    assert DEPLOY_BODY in mem.recall(DEPLOY_PROMPT, once=True)
    assert mem.session_ended() == 1
    assert _reads(mem)["redis-ttl"][0] == 1 and _reads(mem)["deploy-box"][0] == 1


def test_without_once_or_a_session_id_nothing_is_left_to_count(isolated_home, project):
    mem = _store(isolated_home, project, "lib-2")
    assert TTL_BODY in mem.recall_result(TTL_PROMPT).block  # not once: nothing recorded
    assert mem.session_ended() == 0 and _reads(mem) == {}
    anonymous = Memory.open(home=isolated_home, project=project)
    assert TTL_BODY in anonymous.recall_result(TTL_PROMPT, once=True).block  # no id: nothing to record under
    assert anonymous.session_ended() == 0 and _reads(mem) == {}
    assert TTL_BODY in mem.recall(TTL_PROMPT, once=True)  # control: the same session, once: counted
    assert mem.session_ended() == 1 and _reads(mem)["redis-ttl"][0] == 1
