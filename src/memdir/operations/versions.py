"""A memory's versions: its history, the text of one version, and a version (or a team commit) written back
(DESIGN §5).

Split from :mod:`memdir.operations.memories` along the seam of time: those operations change a memory as it
is now, these read the journal's versions of it (a deleted memory's too) and restore one through the gateway.
Hand edits are journaled first (:func:`_sync`), so a history shows them.
"""

from __future__ import annotations

from contextlib import suppress

from ..errors import InvalidInput, LockTimeout, NotFound, StoreError
from ..gateway import changes as gateway
from ..gateway.compare import NO_CHECK
from ..layer.history import damage as layer_damage
from ..layer.history import earlier_versions, version_bytes, version_number
from ..layer.history import history as layer_history
from ..layer.layer import Layer
from ..results.memories import HistoryResult, RestoreResult, VersionResult
from ..session import Session
from ..text.names import asked_name, normalize_name
from . import team as teamops
from .lookup import (
    did_you_mean,
    guard,
    history_name,
    same_name_elsewhere,
    spelled_as_other,
    unsearched,
)


def _sync(session: Session, scope: str | None, name: str | None = None) -> list[Layer]:
    """Journal hand edits first, so history shows them (best effort: a
    read-only home still answers from the journal it has). With ``name``: only the layers where a file
    of that memory may have moved by hand (:meth:`memdir.layer.layer.Layer.name_moved`), so a history
    parses none of the files placed by hand in another layer; returns the layers left as they are."""
    key = None
    if name is not None:
        try:
            key = normalize_name(name).name
        except InvalidInput:
            key = None  # no memory name: the lookup says so; every layer taken up as before
    left = []
    for layer in session.layers(scope):
        if layer.path.is_dir():
            try:
                if key is None or layer.name_moved(key):
                    layer.refresh_index()
                else:
                    left.append(layer)
            except (StoreError, LockTimeout):
                pass
    return left


def _history_layer(session: Session, name: str, scope: str | None) -> tuple[Layer, str, list]:
    """The layer, file name (:func:`memdir.operations.lookup.history_name`: an older memdir's too) and
    versions of memory ``name``: the first of the session's layers that has versions of it."""
    other, damaged = None, []
    for layer in session.layers(scope):
        refusal = spelled_as_other(layer, name)
        if refusal is not None:
            other = other or refusal
            continue
        try:
            stored = history_name(layer, name)
            versions = layer_history(layer, stored)
        except StoreError:
            continue  # an unreadable layer: the others still answer
        if versions:
            return layer, stored, versions
        damaged += [f"{layer.scope} layer: {why}" for why in layer_damage(layer, stored)]
    if other is not None:
        raise NotFound(other)
    # Its only versions may be on a damaged line: "no history" alone would say it never existed.
    raise NotFound(f"no history for {asked_name(name)}" + unsearched(session, scope)
                   + "".join(f"; {why}" for why in damaged)
                   + ("" if damaged else did_you_mean(normalize_name(name).name, session.layers(scope))))


def history(session: Session, name: str, scope: str | None = None) -> HistoryResult:
    """Every content version of ``name`` (also of a deleted memory), oldest
    first, hand edits included, and those it had under the names a gateway rename took it from (``earlier``).
    Raises :class:`NotFound`."""
    left = _sync(session, scope, name)
    try:
        layer, stored, versions = _history_layer(session, name, scope)
    except NotFound:
        if not left:
            raise
        # not found under its name: a title or an older memdir's name may be a hand-placed file's, which only
        # a take-up journals (every other layer taken up, as before this looked by name first)
        for other in left:
            with suppress(StoreError, LockTimeout):
                other.refresh_index()
        layer, stored, versions = _history_layer(session, name, scope)
    commits = teamops.commits(session, layer, stored) if layer.scope == "team" else ()
    also = same_name_elsewhere(session, layer.scope, stored, layer.scope)  # every other layer read: no hot path
    return HistoryResult(stored, layer.scope, tuple(versions), commits, layer_damage(layer, stored),
                         tuple(earlier_versions(layer, stored)), also)


def show(session: Session, name: str, version: int | str, scope: str | None = None) -> VersionResult:
    """The text of version ``version`` (1-based; ``3``, ``"3"`` or ``"v3"``,
    :func:`memdir.layer.history.version_number`) of ``name``. Raises :class:`NotFound`, :class:`InvalidInput`."""
    version = version_number(version)
    layer, stored, _ = _history_layer(session, name, scope)
    text = version_bytes(layer, stored, version).decode("utf-8", "replace")
    return VersionResult(stored, layer.scope, version, text)


def restore(session: Session, name: str, version: int | str | None = None, scope: str | None = None, *,
            commit: str | None = None, reactivate: bool = False,
            expect_digest: str | None | bool = NO_CHECK) -> RestoreResult:
    """Write version ``version`` (``3``, ``"3"`` or ``"v3"``, :func:`memdir.layer.history.version_number`)
    of ``name`` back as a new journaled event
    (works for deleted memories); a tombstoned value stays refused. With
    ``commit``: the team memory as git holds it at that commit. ``expect_digest`` (for a version and a
    commit alike): the digest of the live version the caller read (None: it was deleted when read);
    another, or one written since, is not replaced (:func:`memdir.gateway.compare.unchanged`). Raises :class:`NotFound`,
    :class:`TombstoneRefused`, :class:`InvalidInput`, :class:`Conflict` (changed since read)."""
    if commit is not None:
        if version is not None:
            raise InvalidInput("give a version or a commit, not both")
        return teamops.restore_commit(session, name, commit, expect_digest=expect_digest)
    if version is None:
        raise InvalidInput("restore needs a version (the memory's history lists them) or a git commit")
    version = version_number(version)
    layer, stored, _ = _history_layer(session, name, scope)
    stones = guard(session, layer)
    result = gateway.restore(layer, stored, version, actor=session.actor, guard=stones, session=session.id,
                             reactivate=reactivate, expect_digest=expect_digest)
    return RestoreResult(result.name, result.scope, version, result.operation, result.digest,
                         warnings=(*result.warnings, *stones.skipped))  # the gateway's: a copy, a redaction


__all__ = ["history", "restore", "show"]
