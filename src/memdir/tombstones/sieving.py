"""The sieve a tombstone's runs pass a text through before it is matched (:func:`memdir.tombstones.match.needed_runs`):
whether a text holds every run of letters and digits a matching value holds, read without parsing it. Moved from
:mod:`memdir.tombstones.match` (left44a), which imports it as it was.
"""

from __future__ import annotations

import re

from ..text.values import normalize_value
from .reading import seen

_NOT_RUN = re.compile(r"[^a-z0-9]+")


def holds_runs(text: str, runs: frozenset[str]) -> bool:
    """Whether ``text`` (a memory's name, description and body, in any order) holds every run of ``runs``
    (:func:`needed_runs`), its blanks, punctuation and other scripts aside: False only when a run is missing, and
    then no value of that memory matches the tombstone the runs came from (the sieve's one rule: of a file's bytes,
    :func:`memdir.gateway.deletion.may_hold_value`, and of the search index's text of it). Normalized as
    :func:`words` reads a value (ASCII text: lower-cased, which is all :func:`normalize_value` does to it)."""
    return sieve(text)(runs)


def sieve(text: str):
    """:func:`holds_runs` of ``text`` for many tombstones: ``passes(runs)`` (runs: :func:`needed_runs`, None
    passes), ``text`` normalized once — as written and as a reader sees it (:func:`memdir.tombstones.reading.seen`:
    ``<b>pass</b>word`` holds the run ``password``), a run found in either passing."""
    shown = seen(text)
    squeezed = _NOT_RUN.sub("", text.lower() if text.isascii() else normalize_value(text))
    if shown != text:
        squeezed += " " + _NOT_RUN.sub("", shown.lower() if shown.isascii() else normalize_value(shown))
    return lambda runs: runs is None or all(run in squeezed for run in runs)


__all__ = ["holds_runs", "sieve"]
