"""Exact duplicates: the same description and body under another name (issue 24 §5).

The one rule of what an exact duplicate is (:func:`memdir.files.memfile.duplicate_key`: the same value,
:func:`memdir.text.values.value_of` — description and body with case, Unicode form, spacing and accents
read alike, the rule of a tombstone's strictest match, so ``delete`` and the copy warning agree on which
memory holds a value; what was written, not what it means: a reworded fact is consolidation's business; a layer keeps its digest per file,
:func:`memdir.files.memfile.text_digest`), which memories a write is compared with (the live memories of
its own layer and, through :class:`~memdir.gateway.forgotten.Guard`, of the session's other visible
layers — found by that digest, :func:`memdir.files.scan.holding`, so a write reads only the copies, not
every memory), and what a match does, by who writes: the agent and consolidation are refused, naming the
memory that holds the text; a person and an import are warned, naming it. ``memdir doctor`` lists the
groups that exist (:func:`duplicate_groups`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import Refused
from ..files.memfile import MemoryRecord, duplicate_key, text_digest
from ..files.scan import Scan, holding
from .forgotten import Guard

REFUSED_ACTORS = frozenset({"agent", "extracted"})
"""Who is refused a duplicate: a model's writes (the agent's tools, consolidation). A person's own
write and an import of their files are warned: the copy may be on purpose, and nothing is lost."""


def holder(description: str, body: str, scans: Iterable[tuple[str, Scan]],
           skip: Iterable[tuple[str, str]] = ()) -> tuple[str, str] | None:
    """``(scope, name)`` of the first active memory of ``scans`` (``(scope, scan)`` of layers, in order;
    within one, by name) whose :func:`~memdir.files.memfile.duplicate_key` is that of ``description`` +
    ``body``, those of ``skip`` (``(scope, name)``: the memory being written, the one it changes or
    replaces) passed over; None when none is. Only the memories whose file's text digest matches are
    read (:func:`memdir.files.scan.holding`)."""
    key, passed = duplicate_key(description, body), set(skip)
    text = text_digest(description, body)
    for scope, found in scans:
        for name in holding(found, text, key):  # a file not read yet: read, parsed only when it may hold key
            if (scope, name) in passed:
                continue
            entry = found.entries.get(name)  # read now: the digest only names candidates
            if entry is not None and entry.record.status == "active" \
                    and duplicate_key(entry.record.description, entry.record.body) == key:
                return scope, entry.record.name
    return None


def check_duplicate(tx, name: str, description: str, body: str, old: MemoryRecord | None,
                    guard=(), skip: Iterable[str] = ()) -> None:
    """The duplicate check of a write of ``description`` + ``body`` as memory ``name`` in transaction ``tx``
    over ``old`` (the record it changes, or None); ``guard``: what the session's other layers bring
    (:class:`~memdir.gateway.forgotten.Guard`: their scans, ``live``, and the memories of theirs the write
    may share its text with, ``passed``: a memory it moves; a plain list of tombstones brings none);
    ``skip``: names of ``tx``'s layer the write may share its text with (the memory a candidate changes, a
    rename's source, the memory it supersedes). A write that keeps
    ``old``'s text makes no new duplicate and is not checked. A match refuses the agent and consolidation
    (:data:`REFUSED_ACTORS`) and warns anyone else (``tx.warnings``). Raises :class:`Refused` naming the
    memory (name and scope) that holds the text."""
    if old is not None and duplicate_key(old.description, old.body) == duplicate_key(description, body):
        return
    scope = tx.layer.scope
    live, passed = (guard.live, guard.passed) if isinstance(guard, Guard) else ((), ())
    found = holder(description, body, [(scope, tx.scan), *live],
                   [(scope, name), *((scope, s) for s in skip), *passed])
    if found is None:
        return
    where, other = found
    if tx.actor in REFUSED_ACTORS:
        raise Refused(f"not written: memory {other!r} ({where}) already holds this description and body; "
                      f"update {other!r} instead of writing a copy under another name")
    tx.warnings.append(f"memory {other!r} ({where}) holds the same description and body; {name!r} is a copy "
                       f"of it (memdir doctor lists duplicates)")


class TextHolders(dict):
    """A layer's file states by file name (:attr:`memdir.files.scan.Scan.files`: a plain dict of them)
    that also knows which files hold each text digest, kept as files are set and popped: its
    ``text_holders(text)`` answers :func:`memdir.files.scan.holding` (the file names whose
    :attr:`~memdir.files.scan.FileState.text` is ``text`` or not known) without a pass over every file —
    what a batch of writes (:func:`memdir.gateway.writing.write_batch`) puts in its transaction's scan,
    so its duplicate checks stay linear in the batch (10,000 files: a pass each was 9-19 ms a write)."""

    def __init__(self, files: dict):
        super().__init__(files)
        self._texts: dict[str, set[str]] = {}
        self._unknown: set[str] = set()
        for filename, state in self.items():
            self._note(filename, state)

    def _note(self, filename: str, state) -> None:
        if state.text is not None:
            self._texts.setdefault(state.text, set()).add(filename)
        elif state.name:
            self._unknown.add(filename)

    def _forget(self, filename: str) -> None:
        state = dict.get(self, filename)
        if state is not None:
            self._texts.get(state.text, set()).discard(filename)
            self._unknown.discard(filename)

    def __setitem__(self, filename: str, state) -> None:
        self._forget(filename)
        super().__setitem__(filename, state)
        self._note(filename, state)

    def __delitem__(self, filename: str) -> None:
        self._forget(filename)
        super().__delitem__(filename)

    def pop(self, filename: str, *default):
        """As :meth:`dict.pop`."""
        self._forget(filename)
        return super().pop(filename, *default)

    def text_holders(self, text: str) -> list[str]:
        """The file names whose state's text digest is ``text`` or not known (in no order)."""
        return [*self._texts.get(text, ()), *self._unknown]


def duplicate_groups(members: Iterable[tuple[str, str, str, object]]) -> list[tuple[tuple[str, str], ...]]:
    """The groups of active memories of ``members`` (``(scope, name, status, key)``) that are exact
    duplicates of each other, each as ``(scope, name)`` pairs in the order given, groups in the order of
    their first member; memories with no copy are left out. ``key`` is each memory's text digest
    (:func:`~memdir.files.memfile.text_digest`, equal exactly when the
    :func:`~memdir.files.memfile.duplicate_key` are: what a layer keeps per file, so ``status`` finds
    copies without reading every memory) — or, for every one alike, its duplicate key."""
    groups: dict[object, list[tuple[str, str]]] = {}
    for scope, name, status, key in members:
        if status == "active":
            groups.setdefault(key, []).append((scope, name))
    return [tuple(group) for group in groups.values() if len(group) > 1]


__all__ = ["REFUSED_ACTORS", "TextHolders", "check_duplicate", "duplicate_groups", "duplicate_key", "holder"]
