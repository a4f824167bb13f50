"""Which tombstones refuse a write and which only warn: who writes decides (DESIGN §5). The gateway
(:mod:`memdir.gateway.changes`) calls :func:`check_forgotten` inside the transaction of every write,
restore, approve and team resolve. :class:`Guard` is what the session's other layers bring to a write.
What only a person does with a tombstone is here too: :func:`lift_tombstone`, and :func:`delete_held`
(a file a tombstone holds back, :mod:`memdir.layer.held`, deleted)."""

from __future__ import annotations

from pathlib import Path

from ..errors import NotFound, Refused, TombstoneRefused
from ..files.scan import Scan
from ..files.scan import load as load_file
from ..layer.succession import explain_tombstone
from ..tombstones.match import Tombstone, match, qualified
from ..tombstones.match import check as refuse_forgotten
from .fields import reason_text

TYPE_CHECKING = False  # as typing.TYPE_CHECKING: a delete's result is built where it is returned
if TYPE_CHECKING:  # (hot46: a write, which loads this module, builds none of results.memories' classes)
    from ..results.memories import DeleteResult


class Guard(list):
    """What the session's layers other than the one written bring to a write
    (:func:`memdir.operations.lookup.guard` gathers it): the list itself is their tombstones
    (:func:`check_forgotten`); ``live`` their memories as ``(scope, scan)`` (a
    :class:`memdir.files.scan.Scan` per layer, parsed on demand), which an exact duplicate is looked for
    in (:func:`memdir.gateway.duplicates.check_duplicate`), ``passed`` the ``(scope, name)`` of those a
    write may copy (a memory it moves); ``skipped`` says which layers could not be read (a warning for
    the result)."""

    skipped: tuple[str, ...] = ()
    live: tuple[tuple[str, Scan], ...] = ()
    passed: tuple[tuple[str, str], ...] = ()


def check_forgotten(tx, entry, description: str, body: str, name: str, guard: list[Tombstone] = (),
                    title: str | None = None, whole: str | None = None) -> None:
    """The tombstone check of a write of ``description`` + ``body`` (and ``title``, read as a description:
    :func:`memdir.tombstones.match.match`) as memory ``name`` in transaction ``tx``
    over the memory of ``entry`` (a scan entry or None); ``guard``: the session's other layers' tombstones
    (:func:`memdir.operations.lookup.guard`). Who writes decides what a match does (DESIGN §5):

    * the agent, consolidation, an import: every match (:func:`memdir.tombstones.match.match`) of the
      layer's and ``guard``'s tombstones is refused;
    * a person: a match of the written layer's own tombstones is refused (the team layer's too, when the
      team layer is written: a live memory beside its own tombstone in the repository would contradict
      itself; the refusal names the lift command); one of another layer's — the team layer's when a
      personal layer is written — is written with a warning naming it: a person's own write is never
      blocked by a tombstone another layer holds;
    * anyone: a forgotten fact with a qualifier (:func:`memdir.tombstones.match.qualified`: "Test database
      port is 5433") is another fact, written with a warning naming the tombstone.

    ``whole``: the body given before the body limit cut it (:func:`memdir.gateway.fields.uncut_body`), refused as
    ``body`` is: a forgotten body cut to the limit is not the forgotten body, and would pass.
    Warnings go to ``tx.warnings``. Raises :class:`TombstoneRefused` (told why a superseded memory holds the
    value: :func:`memdir.layer.succession.explain_tombstone`)."""
    own = tx.layer.tombstones()
    if tx.actor == "human":
        binding, others = list(own), list(guard)
    else:
        binding, others = [*own, *guard], []
    try:
        refuse_forgotten(binding, description, body, name=name, actor=tx.actor, title=title)
        if whole is not None:
            refuse_forgotten(binding, description, whole, name=name, actor=tx.actor, title=title)
    except TombstoneRefused as exc:
        raise explain_tombstone(exc, entry, tx) from None
    found = match(others, description, body, title=title)
    if found is not None:
        # a refusal's text, loaded when there is one to give: off a write's path
        from ..tombstones.refusals import caution

        stone, why = found
        whose = "the team layer's" if stone.team else "another layer's"
        tx.warnings.append(caution(stone, why, f"it is a person's own write and the tombstone is {whose}"))
    elif (near := qualified([*binding, *others], description, body)) is not None:
        from ..tombstones.refusals import caution

        tx.warnings.append(caution(*near, "a qualifier makes it another fact"))


def delete_held(tx, key: str, path: Path, action: str, reason: str | None) -> DeleteResult:
    """Delete the file of memory ``key`` held back (a forgotten value put back: :mod:`memdir.layer.held`), as a
    person settles it: the file goes (its bytes kept as a version), journaled; the tombstone that holds it back
    stays, so nothing new is tombstoned; a team tombstone removed from the repository unlifted
    (:attr:`Tombstone.vanished`) that holds it has its file written back (the result names it). Raises
    :class:`NotFound` when the file no longer parses as ``key``."""
    from ..results.memories import DeleteResult

    state = load_file(path, max_bytes=tx.layer.settings.max_file_bytes)  # read as it is, not held back
    if state is None or state.entry is None or state.name != key:
        raise NotFound(f'memory not found: "{key}" in the {tx.layer.scope} layer')
    tx.scan.entries[key] = state.entry  # a memory of this transaction's scan, so the one way a file goes applies
    tx.scan.names[key] = path.name
    record = state.entry.record
    removed = [stone for stone in tx.layer.tombstones() if stone.vanished]
    # Held by a team tombstone git took away unlifted (a revert of the forget): forgetting the value again puts
    # the tombstone's file back in the repository, to commit, so every clone has it in force again.
    found = match(removed, record.description, record.body, title=record.title) if removed else None
    if found is not None:
        tx.layer.tombstone_file.write_back(found[0])
    restored = {"tombstone": found[0].id} if found else {}
    tx.apply(key, None, action, reason=reason, data={"held_back": True, **restored})
    return DeleteResult(key, tx.layer.scope, found[0].id if found else None, action)


def lift_tombstone(layer, tombstone_id: str, *, actor: str, reason: str | None = None) -> Tombstone:
    """Lift a tombstone (human path only), journaled (a team tombstone removed unlifted,
    :attr:`Tombstone.vanished`: its journal line says ``removed_by: git``). Raises :class:`NotFound`."""
    if actor != "human":
        from ..tombstones.refusals import ONLY_A_PERSON_LIFTS

        raise Refused(ONLY_A_PERSON_LIFTS)
    with layer.transaction(actor) as tx:
        stone = layer.tombstone_file.lift(tombstone_id)
        try:
            # a team tombstone git took away (Tombstone.vanished): the person here accepts its removal
            removed = {"removed_by": "git"} if stone.vanished else {}
            tx.events.append(layer.journal.append(actor, "tombstone-lift", stone.name, None, None, data={
                "tombstone": stone.id, **removed}, reason=reason_text(layer.settings, reason)))
        except BaseException:  # not committed (a full disk, a short write): the value stays forgotten
            layer.tombstone_file.put_back(stone)
            raise
        tx.changed = True
    return stone


__all__ = ["Guard", "check_forgotten", "delete_held", "lift_tombstone"]
