"""``memdir verify [--repair]``: every layer's journal checked; the home made consistent again (DESIGN §5).

:func:`verify` checks each layer of the home — its journal's lines, sequence, hash chain, version objects
and anchored head, and the tombstones against the journal — and reports a layer's place that holds
something other than a directory; it never raises for bad data. :func:`repair` finishes or undoes what
killed writers cut, journals hand edits and rebuilds ``MEMORY.md``, then verifies. ``doctor``
(:func:`memdir.operations.maintenance.doctor`) reports :func:`verify`'s findings among its problems.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import StoreError
from ..files.fsio import unwritable, writable_hint
from ..files.layout import (
    ANCHOR_FILE,
    DAMAGED_FILE,
    LAYER_FILE,
    WRITER_FILE,
    is_memory_file_name,
    symlink_refusal,
)
from ..files.scan import bytes_digest, count_files
from ..gateway.changes import finish_interrupted
from ..layer import chain, leftovers
from ..layer.drift import (
    describe,
    orphan_tombstones,
    restore_tombstones,
    tombstone_drift,
)
from ..layer.layer import home_layers
from ..layer.team import home_team_layers
from ..paths import PROJECTS_DIR, user_layer_dir
from ..results.maintenance import LayerCheck, VerifyResult
from ..session import Session
from ..settings import Settings
from . import moves


def verify(home: Path, settings: Settings | None = None) -> VerifyResult:
    """Check every layer's journal under ``home`` (the team layers' local
    journals too): line syntax, sequence, the
    hash chain, every version object's digest, the anchored head (a journal
    cut short, emptied, deleted or with its last line edited), tombstones
    no journal event refers to (a delete killed before its commit) and
    tombstones the journal records that are missing or edited. Each layer is
    asked where its journal is (:class:`memdir.layer.layer.Layer`, ``meta``: a team
    layer's is in ``<home>/team/<key>``). ``settings``: the session's (default: the defaults). Never
    raises for bad data."""
    settings = settings if settings is not None else Settings()
    checks = [_check(lambda layer: _check_layer(layer, home), layer) for layer in home_layers(home, settings)]
    checks += _not_directories(home)
    return VerifyResult(tuple(checks + [_check(_check_team, layer) for layer in home_team_layers(home, settings)]))


def _not_directories(home: Path) -> list[LayerCheck]:
    """A layer's place (``_user``, ``projects/<key>``) holding something that
    is not a directory: a layer replaced by a file is reported, never skipped."""
    places = [user_layer_dir(home)]
    try:
        with os.scandir(Path(home) / PROJECTS_DIR) as listing:
            places += [Path(item.path) for item in listing if not item.name.startswith(".")]
    except OSError:
        pass
    return [LayerCheck(str(path), False, 0, error=f"{path} is not a directory: a layer was replaced by a file "
                                                  "(restore the layer directory from a backup, or remove it)")
            for path in places if os.path.lexists(path) and not path.is_dir()]


def _check_team(layer) -> LayerCheck:
    """A team layer's local journal (in the home): chain,
    objects, anchor. Its tombstones are the repository's, mostly forgotten
    by other people, so no journal here refers to them: no orphan check."""
    result = chain.verify(layer.journal)
    problem = result.error if not result.ok else layer.journal.check_anchor()
    return LayerCheck(str(layer.meta.parent), problem is None, result.events, result.bad_seq, result.bad_line, problem)


def _check(check, layer) -> LayerCheck:
    """``check(layer)``; a layer that cannot be read is reported as such, and the others still checked."""
    try:
        return check(layer)
    except (StoreError, OSError) as exc:
        where = layer.meta.parent if check is _check_team else layer.path
        return LayerCheck(str(where), False, 0, error=f"cannot check this layer: {getattr(exc, 'strerror', None) or exc}")


def _check_layer(layer, home: Path) -> LayerCheck:
    path, journal = layer.path, layer.journal
    refusal = symlink_refusal(path)
    if refusal:  # never followed, not even to read
        return LayerCheck(str(path), False, 0, None, None, refusal)
    result = chain.verify(journal)
    if not result.ok:
        remedy = (f" (restore {journal.path} from a backup, or `memdir verify --repair` keeps it whole in "
                  f"{DAMAGED_FILE} and chains its lines again)") if chain.damaged(journal) else ""
        return LayerCheck(str(path), False, result.events, result.bad_seq, result.bad_line, result.error + remedy)
    note = None
    if (state := unwritable(layer.meta, f"the home {home}")) is not None:  # reindex's words: so, not wrong
        note = f"{state}: no change can be journaled there (to write, {writable_hint(path)})"
    problem = journal.check_anchor()
    if problem is not None:
        problem += (" (restore the journal from a backup, or `memdir verify --repair` keeps it whole in "
                    f"{DAMAGED_FILE} and chains its lines again)" if chain.repairable(journal) else
                    f" (restore the journal from a backup; if it was cut on purpose, delete "
                    f"{layer.meta / ANCHOR_FILE} to accept it as it is)")
    elif (problem := (None if note else journal.anchor_refusal(write=False))  # unwritable: the note says so
          or _unjournaled(layer, result.events)) is not None:
        pass
    else:
        try:
            stones = layer.tombstone_file
            orphans, drift = orphan_tombstones(journal, stones), tombstone_drift(journal, stones)
        except StoreError as exc:
            orphans, drift, problem = [], [], str(exc)
        if drift:
            problem = describe(drift[0]) + (f" (and {len(drift) - 1} more)" if len(drift) > 1 else "")
        elif orphans:
            problem = (f"tombstone {orphans[0].id} ({orphans[0].name}) belongs to no journaled delete "
                       f"(a delete cut before its commit); `memdir verify --repair` removes it")
    return LayerCheck(str(path), problem is None, result.events, error=problem, note=note)


def _unjournaled(layer, events: int) -> str | None:
    """Why a layer with no journal event is not fine: it holds version
    objects (the journal and its anchor were deleted), or memory files while
    memdir has described it (``layer.json``: the journal was, once)."""
    if events:
        return None
    try:
        with os.scandir(layer.journal.objects) as listing:
            stored = {item.name for item in listing if not item.name.startswith(".")}
    except OSError:
        stored = set()
    objects = len(stored)
    files = count_files(layer.path) if (layer.meta / LAYER_FILE).is_file() else 0
    if not objects and not files:
        return None
    if _first_write_cut(layer, stored):
        return None  # as a write cut later in a layer's life: the next write journals its file
    return (f"the journal is missing but the layer holds {objects} version object(s) and {files} memory file(s): "
            f"it was deleted with its anchor (restore {layer.journal.path} from a backup)")


def _first_write_cut(layer, stored: set[str]) -> bool:
    """True when the layer's first write was cut between its file and its journal line (a SIGKILL; or it is
    under way): a writer holds or died holding the lock (its mark, :class:`memdir.layer.leftovers.WriterMark`)
    and every version object is the bytes of a memory file still there — nothing of the journal was lost.
    (Before break28 ``memdir verify`` called that "the journal deleted with its anchor" and said to restore
    it from a backup, while doctor said ok and the next command journaled the file.)"""
    if not (layer.meta / WRITER_FILE).is_file() or not stored:
        return False
    try:
        with os.scandir(layer.path) as listing:
            present = {bytes_digest(Path(item.path)) for item in listing
                       if is_memory_file_name(item.name) and item.is_file(follow_symlinks=False)}
    except OSError:
        return False
    return stored <= present


def repair(session: Session) -> VerifyResult:
    """Bring every layer of the home to a consistent state — cut torn journal
    tails, finish or undo changes a killed writer cut (tombstones of deletes
    that never committed, files renamed aside, writes not journaled), remove
    leftover temp files older than the lock timeout, journal hand edits,
    finish two-step changes cut between their steps
    (:func:`memdir.gateway.changes.finish_interrupted`), rebuild ``MEMORY.md``
    — then :func:`verify`. A journal whose lines were changed by hand (the chain broken, the
    anchored head edited) is kept whole and chained again first (:func:`memdir.layer.chain.rechain`). A layer
    whose journal lost lines at its end (shorter than its anchored head) or whose objects are missing is
    left as it is (its files are not journaled as hand edits over it) and stays reported; so does a layer
    this user cannot read or write (the others are still repaired). Raises
    :class:`LockTimeout`."""
    for layer in [*home_layers(session.home, session.settings), *home_team_layers(session.home, session.settings)]:
        try:
            _repair_layer(layer, session.settings.lock_timeout)
        except StoreError:
            continue  # reported by the verify below
    try:  # a promote or team approval cut between the team write and the copy's removal spans two layers
        moves.finish(session)
    except StoreError:
        pass  # the layer that cannot be read is reported by the verify below
    checked = verify(session.home, session.settings)
    return VerifyResult(checked.layers, repaired=True)


def _repair_layer(layer, lock_timeout: float) -> None:
    with layer.locked():
        layer.journal.repair()
        chain.rechain(layer.journal)  # lines changed by hand: kept whole, chained again as they read (not a cut end)
        if layer.scope == "team":  # its local journal only: the rest is its next change's (a person's, in git)
            return
        if layer.journal.check_anchor() or not chain.verify(layer.journal).ok:
            return
        for stone in orphan_tombstones(layer.journal, layer.tombstone_file):
            layer.tombstone_file.lift(stone.id)
        restore_tombstones(layer.journal, layer.tombstone_file)
        layer.refresh_index()  # first: a file renamed aside by a cut delete comes back
        leftovers.remove_stale(layer, lock_timeout)
        finish_interrupted(layer)



__all__ = ["repair", "verify"]
