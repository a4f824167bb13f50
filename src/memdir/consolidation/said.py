"""A person's turn split into sentences, with what a request pointing back carries read once (take46), and the
number a person reads for a turn (:func:`turn_number`)."""

from __future__ import annotations

import bisect
from collections.abc import Callable


class Sentences(list):
    """A person's turn as :func:`memdir.consolidation.gate.sentences` returns it: a list of str that also keeps
    which of its sentences a request pointing back carries (:meth:`carriers`), read once for the whole turn and
    again only after the list changed (any assignment, insertion or removal), so
    :func:`memdir.consolidation.gate.said_before` over every sentence of a turn costs the turn's length, not its
    square (take46: a turn of 4,000 sentences, the gate: 53 to 113 s on main, 0.8 to 1.1 s here, loaded machine:
    benchmarks/bench_said_before.py)."""

    __slots__ = ("_carried",)

    def __init__(self, *args):
        super().__init__(*args)
        self._carried = None

    def carriers(self, carries: Callable[[str], bool]) -> list[int]:
        """The indexes of the sentences ``carries`` is true for, ascending (the turn read once: the same
        predicate always, :func:`memdir.consolidation.gate._carries`)."""
        if self._carried is None:
            self._carried = [j for j, s in enumerate(self) if carries(s)]
        return self._carried

    def before(self, i: int, carries: Callable[[str], bool], most: int) -> list[str]:
        """The last ``most`` sentences before sentence ``i`` that ``carries`` is true for, in order (a binary
        search in :meth:`carriers`)."""
        carried = self.carriers(carries)
        end = bisect.bisect_left(carried, i)
        return [self[j] for j in carried[max(0, end - most):end]]



def _forgetting(name: str):
    """``list.<name>``, forgetting what :meth:`Sentences.carriers` read first (the list changes)."""
    change = getattr(list, name)

    def method(self, *args, **kwargs):
        self._carried = None
        return change(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name in ("__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend", "insert", "pop", "remove",
              "clear", "sort", "reverse"):
    setattr(Sentences, _name, _forgetting(_name))
del _name




def turn_number(index: int) -> int:
    """The number every output gives the message at ``index`` (0-based, of
    :attr:`memdir.consolidation.transcripts.Transcript.turns`): counted from 1, as a person counts, in the text of
    ``consolidate --explain``, its ``--json`` (``gate.hits[].turn``, ``gate.withdrawn[].turn``) and the
    extractors' notes alike (ux49: the text counted from 1, the JSON from 0)."""
    return index + 1


__all__ = ["Sentences", "turn_number"]
