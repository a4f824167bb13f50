"""Typed results of every operation (DESIGN §8).

Each operation of :mod:`memdir.operations.memories`, :mod:`memdir.operations.trust`
and :mod:`memdir.operations.maintenance` returns one of these frozen dataclasses,
defined by kind: :mod:`.memories` (a memory listed, read, written, deleted, pruned,
cleared; its history and versions), :mod:`.trust` (tombstones, candidates and a
person's decisions, pins and mutes) and :mod:`.maintenance` (the journal, the
home's projects, status, verify and doctor). This package holds their base,
:class:`Result`: ``to_dict()`` is their JSON form (what ``--json`` prints): times
as ISO-8601 UTC strings, tuples as lists. The text a person or a model reads is
made from them by one renderer per type (:mod:`memdir.render.memories`); adapters
never read a result by key. The public names are ``memdir``'s (``memdir.WriteResult``).

May import: the standard library and the packages before it (base modules,
text, files, tombstones, layer, session). This ``__init__`` imports none of its
modules (each imports :class:`Result` from here).

Must not import: gateway, prompt, operations and every package after them.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from datetime import datetime
from pathlib import Path

from ..files.memfile import format_time

_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass → its field names, in order


def _plain(value):
    """``value`` JSON-ready: a dataclass as a dict of its fields (as :func:`dataclasses.asdict` gives,
    without its deep copies: a list of 10,000 memories is walked once), times ISO-8601 UTC, paths as
    text, tuples as lists."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Result:
    """Base of the typed results: :meth:`to_dict` gives the JSON form."""

    def to_dict(self) -> dict:
        """Every field by name, JSON-ready (times ISO-8601 UTC, paths as text)."""
        return _plain(self)
