"""What a refusal by a tombstone says (DESIGN §5), in one place: :func:`refusal` (the message a person reads),
:func:`caution` (the warning of a write let through beside a tombstone), :func:`outcome` (the line of an item a
consolidation or an import leaves out), :func:`forgotten_by` (who forgot it, when and why), :func:`lift_command` and
:data:`ONLY_A_PERSON_LIFTS`. What matches is :mod:`memdir.tombstones.match`, which loads this module only to refuse.

A tombstone here is any object with :class:`memdir.tombstones.match.Tombstone`'s fields (``id``, ``name``, ``actor``,
``reason``, ``ts``, ``team``, ``file``, ``scope``, ``action``).
"""

from __future__ import annotations

import re

from ..text.printable import one_line


def lift_command(tombstone_id: str = "ID", scope: str | None = None) -> str:
    """The command a person lifts a tombstone with: ``memdir tombstone lift t-…``, with ``--scope`` of the
    layer that holds it when ``scope`` is given (``memdir tombstone lift t-… --scope project``): the same
    value forgotten in two layers is one id in each, and the command without a scope is refused then."""
    return f"memdir tombstone lift {tombstone_id}" + (f" --scope {scope}" if scope else "")


# Why anyone but a person is refused the lift (the gateway and the operation both ask).
ONLY_A_PERSON_LIFTS = f"only a person can lift a tombstone ({lift_command()})"


# The journal's action that made a tombstone, as a listing or refusal says it.
_DONE = {"delete": "deleted", "forget": "forgotten", "prune": "pruned", "clear": "cleared"}


def forgotten_by(stone) -> str:
    """Who forgot ``stone``'s value, when and why, as a refusal tells it, with the act the journal names
    (``deleted by human on 2026-11-02`` for a ``memdir delete``, ``forgotten by human …`` for a ``memdir
    forget`` or a tombstone that does not say: ``forgotten by human on 2026-11-02: the host was retired``); for a team tombstone (its file keeps no actor, time
    nor reason) what git says of its file: ``forgotten in the team layer (added by Ana Lima on
    2026-11-02)``, ``(not committed yet)`` or plain ``forgotten in the team layer`` outside git;
    ``forgotten by an unknown actor`` for a tombstone file that lost its actor."""
    # Tombstones that older versions made by a forget carry the reason "forgotten", a default that says nothing.
    # Actor and reason on one line: a refusal is a tool's result, and a tombstone file edited by hand could
    # otherwise add lines of its own to it (break33).
    reason = one_line(stone.reason) if stone.reason and stone.reason.strip().lower() != "forgotten" else ""
    day = stone.ts[:10] if re.fullmatch(r"\d{4}-\d{2}-\d{2}", stone.ts[:10]) else ""
    if stone.actor:  # the act as the journal names it: `memdir delete` deleted, `memdir forget` forgot (trial28)
        who = f"{_DONE.get(stone.action or '', 'forgotten')} by {one_line(stone.actor)}" + (f" on {day}" if day else "")
    elif stone.team:
        who = "forgotten in the team layer" + _committed(stone.file)
    else:
        who = "forgotten by an unknown actor" + (f" on {day}" if day else "")
    return who + (f": {reason}" if reason else "")


def _committed(file: str | None) -> str:
    """Who added a team tombstone's ``file`` and when, as git's history says (`` (added by A on D)``),
    `` (not committed yet)`` when git has no commit of it, ``""`` outside a git work tree."""
    if not file:
        return ""
    from pathlib import Path

    from .. import git
    from ..errors import StoreError

    path = Path(file)
    try:
        git.run(path.parent, "rev-parse", "--is-inside-work-tree")
    except (StoreError, OSError):
        return ""
    commits = git.log(path.parent, path)
    if not commits:
        return " (not committed yet)"
    first = commits[-1]
    # git's author of a team file is whatever its committer set: one printable line, as every shown field
    return f" (added by {one_line(first.author)[:80]} on {one_line(first.date[:10])})"


def caution(stone, why: str, because: str) -> str:
    """The warning of a write let through beside a tombstone it matches (``why``, from :func:`match` or
    :func:`qualified`), ``because`` saying why it was let through: the tombstone, who forgot it, and how a
    person lifts it."""
    return (f"written though it matches a forgotten value ({why}; tombstone {stone.id}, memory {stone.name!r}, "
            f"{forgotten_by(stone)}), because {because}; `{lift_command(stone.id, stone.scope)}` lifts the tombstone")


def refusal(stone, why: str, lift: str | None = None) -> str:
    """The message a refused write shows a person: the tombstone, how the
    value matched it (``why``, from :func:`match`), who forgot it
    (:func:`forgotten_by`) and how a person lifts it: ``lift``, the words of the interface that shows it
    (the panel's Lift button), else the command (:func:`lift_command`) — the one message, each
    interface's way to act on it."""
    lift = lift if lift is not None else f"`{lift_command(stone.id, stone.scope)}`"
    return (f"refused: this matches a forgotten value ({why}; tombstone {stone.id}, memory {stone.name!r}, "
            f"{forgotten_by(stone)}). A person can lift it with {lift}")


def outcome(stone, why: str) -> str:
    """The short line of an item a batch leaves out for a tombstone (a
    consolidation proposal, an imported memory, a pending finding): how it
    matched and how a person lifts it."""
    return (f"matches a forgotten value ({why}; tombstone {stone.id}, {stone.name!r}); "
            f"a person can lift it with `{lift_command(stone.id, stone.scope)}`")


__all__ = ["ONLY_A_PERSON_LIFTS", "caution", "forgotten_by", "lift_command", "outcome", "refusal"]
