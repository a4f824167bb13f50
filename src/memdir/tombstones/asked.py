"""Whether a search asks for a forgotten memory: the tombstones whose name or description holds every word of a
query (newuser46: after ``memdir forget lunch``, ``memdir search lunch`` said only "No memories match 'lunch'.",
as though nothing had ever been said of lunch). A search never shows a forgotten value; it says that a tombstone
matches, by its id alone, and how a person sees and lifts it (:func:`hint`).

One rule for every search: :func:`memdir.search.ranking.find` (the CLI's ``memdir search``, the ``memory_search``
tool, :meth:`memdir.Memory.search`) puts :func:`matching`'s answer on the page as ``forgotten``; the renderer says
:func:`hint`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.values import normalize_value
from .refusals import lift_command

_WORD = re.compile(r"\w+")
MAX_SAID = 3  # tombstone ids a hint names at most (the rest counted)
READ_STONES = 8192  # tombstone readings kept (two per tombstone: its words, its search terms)


def _words(text: str) -> set[str]:
    """The words of ``text`` as a tombstone compares values (:func:`normalize_value`: case, width, marks folded);
    a name's ``-`` and ``_`` split it into words."""
    return set(_WORD.findall(normalize_value(text.replace("_", " "))))


def matching(stones, query: str, terms=None) -> list[dict]:
    """``[{"id": …, "scope": …, "lift": …}]`` of ``stones`` (``(scope, stone)`` pairs, a stone an object with ``id``,
    ``name``, ``description``: a :class:`memdir.tombstones.match.Tombstone`) whose name and description hold every word
    of ``query``, in the order given; ``[]`` for a query without a word. ``terms`` (text → set of terms, optional; a
    function of the text alone, kept from one call to the next): a second reading of both, as search reads words
    (stems, compounds: ``listen 5433`` and ``postgres port`` match "Dev PostgreSQL listens on 5433" as a search of
    them found it; try48), the query's set empty for a query of no content word; a stone matches by either reading.
    A stone's readings are made once per process (:func:`_read`, by its text: a tombstone written or lifted since is
    read as it is), not again on every search. ``lift``: the command a person lifts it with
    (:func:`memdir.tombstones.refusals.lift_command`, ``memdir tombstone lift t-… --scope project``), the one
    :func:`hint` quotes (ux49: ``--json`` gave no way to lift). Nothing of the forgotten text is returned."""
    readings = [(_words, _words(query))]
    if terms is not None:
        readings.append((terms, terms(query)))
    readings = [(read, asked) for read, asked in readings if asked]
    return [{"id": s.id, "scope": scope, "lift": lift_command(s.id, scope)} for scope, s in stones
            if any(asked <= _read(read, f"{s.name} {s.description}") for read, asked in readings)]


@lru_cache(maxsize=READ_STONES)
def _read(read, text: str) -> frozenset[str]:
    """``read(text)``, kept (by the reading and the text) for the next search: :func:`matching` compares every
    tombstone on every first page, and reading a text as search does is the cost (bench_tombstone_hint)."""
    return frozenset(read(text))


def hint(forgotten: list[dict], shown_query: str) -> str:
    """What a search says of :func:`matching`'s ``forgotten`` (``""`` for none): ``1 forgotten memory matches
    'lunch', tombstone t-…: a search never shows it; `memdir tombstones` does, and only a person lifts it
    (`memdir tombstone lift t-… --scope project`) so it can be saved again``; at most :data:`MAX_SAID` ids. ``shown_query``: the query as the page quotes it."""
    if not forgotten:
        return ""
    ids = [f["id"] for f in forgotten[:MAX_SAID]]
    more = f" and {len(forgotten) - MAX_SAID} more" if len(forgotten) > MAX_SAID else ""
    one = len(forgotten) == 1
    lift = forgotten[0]["lift"] if one else lift_command()  # the command :func:`matching` gives each
    it = "it" if one else "them"
    return (f"{len(forgotten)} forgotten {'memory matches' if one else 'memories match'} {shown_query}, "
            f"tombstone{'' if one else 's'} {', '.join(ids)}{more}: a search never shows {it}; `memdir tombstones` "
            f"does, and only a person lifts {'it' if one else 'one'} (`{lift}`) so it can be saved again")


__all__ = ["MAX_SAID", "hint", "matching"]
