"""``memdir doctor`` on a home whose vectors an older memdir embedded (a new-user trial, after an upgrade):
the index held 2 vectors but no ``vectors.used`` mark (:mod:`memdir.search.used`, newer than they), and doctor
said of the warm process "none starts until this home's index holds a vector" (now: "this home's index holds no
vector yet; the next session start builds them") while the first prompt hook,
which counts the index's vectors (:func:`memdir.search.vectors.pending`), started one. Doctor now asks the
index by the hook's count, and finding a vector leaves the mark (so the SessionStart hook's stat agrees)."""

from __future__ import annotations

import sqlite3

import pytest

from memdir import Memory
from memdir.search import index, used, vectors, warm

NONE_STARTS = "this home's index holds no vector yet; the next session start builds them"
NEXT_STARTS = "the one the next session start or prompt hook starts"


def _warm_notes(mem) -> list[str]:
    return [n for n in mem.doctor().notes if "warm search process" in n]


def _store_vector(home, blob: bytes) -> None:
    """What an older memdir left: a vector row for the memory's head, and no mark."""
    with sqlite3.connect(index.db_path(home)) as conn:
        ((doc, digest),) = conn.execute("SELECT id, digest FROM docs WHERE status = 'active'").fetchall()
        conn.execute("INSERT OR REPLACE INTO vectors (id, digest, model, vec) VALUES (?, ?, ?, ?)",
                     (doc, digest, vectors.MODEL_ID, blob))
        conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    conn.close()


def _hook_count(home) -> int:
    """The prompt hook's count of current vectors (every layer), read as it reads them."""
    conn = sqlite3.connect(index.db_path(home))
    try:
        return vectors.pending(conn)[0]
    finally:
        conn.close()


@pytest.mark.slow
def test_doctor_counts_vectors_an_older_memdir_embedded(isolated_home, project, runtime, monkeypatch):
    monkeypatch.setattr(vectors, "installed", lambda: True)
    writer = Memory.open(home=isolated_home, project=project, search_vectors="off")  # embeds nothing itself
    writer.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    assert [h.name for h in writer.search("postgresql")] == ["db-port"]  # the index holds its head
    on = Memory.open(home=isolated_home, project=project, search_vectors="on")
    path = warm.socket_path(isolated_home)
    # Control: no vector at all — true that none is there, by the hook's count too.
    assert _hook_count(isolated_home) == 0
    assert any(NONE_STARTS in n for n in _warm_notes(on))
    _store_vector(isolated_home, b"\0" * (vectors.VEC_BYTES - 4))  # a damaged blob is no vector to the hook
    assert _hook_count(isolated_home) == 0 and any(NONE_STARTS in n for n in _warm_notes(on))
    assert not (isolated_home / used.VECTORS_MARK).exists()
    _store_vector(isolated_home, b"\0" * vectors.VEC_BYTES)  # a sound one, embedded before the mark existed
    assert _hook_count(isolated_home) == 1  # the first prompt hook would start a warm process
    assert not warm.has_used_vectors(isolated_home)  # ... which the SessionStart hook's stat did not know
    (note,) = _warm_notes(on)
    assert note.startswith(f"no warm search process listens at {path} now (a running `memdir mcp` serves it, or "
                           f"{NEXT_STARTS})"), note
    assert NONE_STARTS not in note
    assert (isolated_home / used.VECTORS_MARK).exists() and warm.has_used_vectors(isolated_home)  # now it does
