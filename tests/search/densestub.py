"""A store whose dense side is a table: the words are read for real, each memory's cosine is given.

For tests of rules that weigh meaning (crossed scripts, agreement, comparisons, general questions): the cosines
a real embedder would give are written as ``name → cosine``, so a test states exactly the case it is about."""

from __future__ import annotations

from memdir import Memory
from memdir.search import ranking


def notes_store(home, project, notes) -> Memory:
    """A :class:`Memory` of ``home`` and ``project`` (vectors off) holding ``notes``, each
    ``(name, description, body)``, as project memories."""
    mem = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    for name, description, body in notes:
        mem.write(name, description, "project", body)
    return mem


def dense_as(monkeypatch, mem: Memory, table: dict[str, float], rest: float | None = None) -> dict[int, float]:
    """Make :mod:`memdir.search.ranking`'s dense side answer ``table`` (memory name → cosine) for ``mem``'s index,
    every other memory ``rest`` (or no cosine when None). Returns the id → cosine dict it answers from (change it to
    change the next search's cosines) and its ids by name under ``ids``: ``dense_as(...).ids``."""
    from memdir.search.sync import sync

    conn = sync(mem.session.home, mem.session.layers(None))
    ids = {name: i for i, name in conn.execute("SELECT id, name FROM docs")}
    cos = Cosines({ids[name]: c for name, c in table.items()})
    if rest is not None:
        cos.update({i: rest for name, i in ids.items() if name not in table})
    cos.ids = ids
    monkeypatch.setattr(ranking, "_dense", lambda *args, **kwargs: dict(cos))
    return cos


def nearest_store(home, project, monkeypatch, notes, nearest: str, cosine: float) -> Memory:
    """:func:`notes_store` of ``notes`` whose dense side (:func:`dense_as`) gives ``nearest`` the ``cosine`` and
    every other memory 0.80: the one memory standing out of the crowd in meaning, as a paraphrase would."""
    mem = notes_store(home, project, notes)
    dense_as(monkeypatch, mem, {name: cosine if name == nearest else 0.80 for name, _d, _b in notes})
    return mem


class Cosines(dict):
    """id → cosine, with ``ids`` (name → id) beside it."""

    ids: dict[str, int]


def length_embedder(monkeypatch) -> list[list[str]]:
    """Make ``vectors.embed`` answer each text a 384-vector of its length (float32), with a fresh process's
    sentence cache; returns the list each call's texts are appended to (what was embedded, in order)."""
    import numpy as np

    from memdir.search import vectors

    calls: list[list[str]] = []

    def embed(texts, *, query=False):
        calls.append(list(texts))
        return np.array([[float(len(t))] * 384 for t in texts], dtype=np.float32)

    monkeypatch.setattr(vectors, "embed", embed)
    monkeypatch.setattr(vectors, "_sentences", {})
    return calls

