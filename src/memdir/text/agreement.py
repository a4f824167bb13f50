"""A verb agreeing with a counted subject: ``1 layer holds``, ``2 layers hold``; ``1 line was``, ``3 lines were``.

The noun's own form is :mod:`memdir.text.plural`'s rule; this is the verb's. Pure, standard library only.
"""

from __future__ import annotations

IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do"}
"""Verbs whose form with a plural subject is not the singular form without its ``-s``."""
_ES = ("sses", "ches", "shes", "xes", "zes", "oes")  # passes, matches, pushes, fixes, goes: "-es" is the ending


def agreeing(count: int, verb: str) -> str:
    """``verb``, given as it goes with one (``holds``, ``was``), as it agrees with ``count`` subjects: itself
    for exactly 1, else its plural form (:data:`IRREGULAR`, else without its ``-es`` after s, ch, sh, x, z or o,
    else without its ``-s``; a verb with no ``-s``, as ``can``, is the same for any count).
    Example: ``agreeing(2, "holds")`` → ``"hold"``, ``agreeing(0, "was")`` → ``"were"``."""
    if count == 1:
        return verb
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(_ES):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


__all__ = ["IRREGULAR", "agreeing"]
