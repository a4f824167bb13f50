"""What a search cannot see: memory files of its layers that the layer's reader refused (not valid UTF-8, over the
file ceiling, no frontmatter it can read), named in the search's note, so a person asking for a memory such a file
holds is told why it is not found rather than "no memories match" alone (break19: a hand-edited file with one bad
byte was invisible to search, said only by ``memdir list`` and ``memdir doctor``). The index's ``files`` table keeps
each file's error as :mod:`memdir.search.sync` last read it.
"""

from __future__ import annotations

import sqlite3

from ..errors import StoreError
from ..layer.held import held_kind
from ..session import Session
from ..text.plural import counted
from ..text.printable import one_line
from .index import layer_key
from .sync import answering

SHOWN = 3  # files named in a note; the rest are counted
# The refused files of some layers: a seek in the index's partial index of them (search.schema.ERRORS_OF_FILES).
REFUSED = "SELECT file, error FROM files WHERE error IS NOT NULL AND layer IN ({}) ORDER BY layer, file"


def note(session: Session, scope: str | None) -> str:
    """``"2 memory files cannot be read, so no search finds what they hold: a.md (file is not valid UTF-8), …;
    memdir doctor"`` for the files of ``scope``'s layers (None: every layer of the session) whose last read failed
    (never one held back — a merge conflict, a forgotten value put back, :func:`memdir.layer.held.held_kind` —,
    which the agent never sees named: ``doctor`` and the line before the context block say those), at most :data:`SHOWN` named (file names and errors on one printable line each); ``""`` when there is none or
    the index cannot say. One small query of the index as the search's sync has just left it (one the index
    cannot take, read-only or locked: its in-memory copy the search answered from, :func:`memdir.search.sync.answering`)."""
    keys = [layer_key(session.home, layer.path) for layer in session.layers(scope)]
    try:
        conn = answering(session.home)
        rows = conn.execute(REFUSED.format(",".join("?" * len(keys))), keys).fetchall()
        rows = [(file, error) for file, error in rows if held_kind(error) is None]  # held back: never named
    except (sqlite3.Error, OSError, StoreError):
        return ""
    if not rows:
        return ""
    named = ", ".join(f"{one_line(file)} ({one_line(error)})" for file, error in rows[:SHOWN])
    more = f" and {len(rows) - SHOWN} more" if len(rows) > SHOWN else ""
    return (f"{counted(len(rows), 'memory file')} cannot be read, so no search finds what "
            f"{'it holds' if len(rows) == 1 else 'they hold'}: {named}{more}; memdir doctor")


__all__ = ["REFUSED", "SHOWN", "note"]
