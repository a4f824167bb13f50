"""Free variants of a name: a candidate's (``-candidate``), consolidation's ``-v2``, an import's
``-import`` and its colliding names' ``-2``, and the distinct name a refusal of a name suggests
(``C# tips`` → ``c-sharp-tips``): one rule, :func:`free_name`, for every writer. (Moved out of
:mod:`memdir.gateway.fields`, which still forwards these names.)
"""

from __future__ import annotations

from collections.abc import Callable, Container

from ..errors import InvalidInput, InvalidName
from ..text.names import MAX_NAME_CHARS, normalize_name, raw_name

MAX_CANDIDATES = 99  # candidates pending for one memory before a further proposal is refused
# Symbols spelled out when two names differ only in them (C++ / C#).
_SPELLED = {"+": " plus ", "#": " sharp ", "&": " and ", "@": " at ", "%": " percent ", "*": " star ",
            ".": " dot ", "/": " slash ", "=": " equals ", "<": " lt ", ">": " gt "}


def free_name(base: str, suffix: str, taken: Callable[[str], bool] | None = None, *,
              most: int | None = None) -> str | None:
    """The first of ``<base>-<suffix>``, ``<base>-<suffix>-2``, ``<base>-<suffix>-3``… (with an empty
    ``suffix``: ``<base>``, ``<base>-2``…) that ``taken`` (a predicate on a name; None: nothing is taken)
    does not hold: the one rule of every free variant of a name — a candidate's
    (:func:`candidate_name`), consolidation's ``-v2``, an import's ``-import`` candidate and its
    colliding names, the distinct name a refusal suggests (:func:`distinct_name`).

    ``base`` is a normalized name (:func:`memdir.text.names.normalize_name`). It is cut for the whole
    tail, so that every name stays within :data:`~memdir.text.names.MAX_NAME_CHARS` (64) characters,
    and a ``-`` the cut leaves at its end is dropped: the result is a valid normalized name, its own
    normalization (``-candidate-11`` after a 64-character base keeps 51 of its characters). Returns
    None when the first ``most`` names are all taken (the caller says why); ``most`` None: no bound,
    so ``taken`` must hold finitely many names."""
    number = 1
    while most is None or number <= most:
        tail = (f"-{suffix}" if suffix else "") + (f"-{number}" if number > 1 else "")
        name = base[:MAX_NAME_CHARS - len(tail)].rstrip("-") + tail
        if taken is None or not taken(name):
            return name
        number += 1
    return None


def candidate_name(target: str, taken: Callable[[str], bool]) -> str:
    """The name of a candidate proposing a change to memory ``target`` (a normalized name): the first
    ``<target>-candidate[-N]`` (:func:`free_name`) that ``taken`` does not hold — a caller lets its own
    pending candidate for ``target`` through, so a further proposal changes it. Raises
    :class:`InvalidInput` when :data:`MAX_CANDIDATES` are pending."""
    name = free_name(target, "candidate", taken, most=MAX_CANDIDATES)
    if name is None:
        raise InvalidInput(f"too many candidates pending for {target!r}; review them first (memdir review)")
    return name


def distinct_name(raw: str, taken: Container[str]) -> str:
    """A name for ``raw`` that normalizes to no name in ``taken`` (a container of normalized names,
    holding ``raw``'s own): its symbols spelled out (``C# tips`` → ``c-sharp-tips``), else the
    first free ``-2``, ``-3``… variant (:func:`free_name`)."""
    spelled = "".join(_SPELLED.get(c, c) for c in raw_name(raw))
    try:
        candidate = normalize_name(spelled).name
    except InvalidName:
        candidate = None
    if candidate is not None and candidate not in taken:
        return candidate
    base = normalize_name(raw).name
    return free_name(base, "", lambda name: name == base or name in taken)


__all__ = ["MAX_CANDIDATES", "candidate_name", "distinct_name", "free_name"]
