"""Deleting memories through the gateway (DESIGN §1.2, §5): one memory, with a tombstone unless another
live memory holds its value (:func:`holder`: deleting a duplicate never freezes the survivor), the old
ones (:func:`prune`) and a whole layer (:func:`clear`) — each in one
:meth:`~memdir.layer.layer.Layer.transaction`, through
:meth:`~memdir.layer.transaction.Transaction.apply`. A rejection (:func:`memdir.gateway.changes.set_status`)
tombstones its candidate the same way (:func:`delete_tombstoned`).
"""

from __future__ import annotations

import os

from ..errors import InvalidInput, NotFound, StoreError
from ..files.fsio import read_foreign
from ..files.memfile import MemoryRecord, plain_text
from ..files.scan import stat_key
from ..layer.index import whole_days
from ..layer.journal import now_utc
from ..layer.layer import Layer
from ..text.names import asked_name, normalize_name
from ..tombstones.match import Tombstone, holds_any, make, match, value_runs
from .compare import NO_CHECK, unchanged
from .fields import reason_text
from .forgotten import delete_held

TYPE_CHECKING = False  # as typing.TYPE_CHECKING: a delete's results are built by the functions that return them
if TYPE_CHECKING:  # (hot46: a write, which loads this module, builds none of results.memories' classes)
    from ..results.memories import DeleteResult, PruneCandidate


def delete(layer: Layer, name: str, *, actor: str, reason: str | None = None, tombstone: bool = True,
           action: str = "delete", session: str | None = None, holders=(),
           expect_digest: str | None | bool = NO_CHECK) -> DeleteResult:
    """Delete one memory; with ``tombstone`` (the default) its value may never be written again until a person
    lifts the tombstone — unless another live memory holds that value (:func:`holder`: of this layer, or of
    ``holders``, ``(scope, record)`` of the session's other layers): deleting a duplicate never freezes the
    survivor, and the result names it (``kept_by``). ``expect_digest``: compare-and-set, the file's digest
    the caller read (a promotion deletes only the version it promoted, the panel only the version its page
    showed: :func:`memdir.gateway.compare.unchanged`). Raises :class:`NotFound`,
    :class:`Conflict` (the memory changed, or went, since ``expect_digest``)."""
    from ..results.memories import DeleteResult

    key, reason = normalize_name(name).name, reason_text(layer.settings, reason)
    with layer.transaction(actor, session) as tx:
        entry = tx.fresh(key)
        if entry is None and (held := layer.held_file(tx.scan, key)) is not None and expect_digest is NO_CHECK:
            return delete_held(tx, key, held, action, reason)
        unchanged(entry, expect_digest, key, action)  # gone since it was read: a Conflict saying so
        if entry is None:
            raise NotFound(f"memory not found: {asked_name(name, key)} in the {layer.scope} layer")
        kept_by = holder(tx, key, entry.record, holders) if tombstone else None
        if not tombstone or kept_by:
            tx.apply(key, None, action, reason=reason, data={"kept_by": kept_by} if kept_by else None)
            return DeleteResult(key, layer.scope, None, action, kept_by)
        stone = delete_tombstoned(tx, key, entry.record, action, reason)
        return DeleteResult(key, layer.scope, stone.id, action)


def holder(tx, key: str, record: MemoryRecord, holders=()) -> str | None:
    """``scope:name`` of a live memory (active: not a candidate, which waits on review, nor superseded) other
    than ``key`` — of ``tx``'s layer, then of
    ``holders`` (``(scope, record)``) — whose value the tombstone of ``record`` would match
    (:func:`memdir.tombstones.match.match`), or None."""
    stone = make(key, record.description, record.body, tx.actor, None)
    here = [(tx.layer.scope, entry.record) for name, entry in sorted(tx.scan.entries.items()) if name != key]
    for scope, other in [*here, *holders]:
        if other.status == "active" and match([stone], other.description, other.body, title=other.title) is not None:
            return f"{scope}:{other.name}"
    return None


def holders_of(layers, record: MemoryRecord, actor: str, indexed=None) -> list[tuple[str, MemoryRecord]]:
    """``(scope, record)`` of the memories of ``layers`` (the session's others) whose value the tombstone of
    ``record`` may match: :func:`holder`'s ``holders``. Each layer is glanced at
    (:meth:`memdir.layer.layer.Layer.glance`: nothing taken in) and a file is parsed only when neither the search
    index's text of it nor its bytes rule it out (:func:`memdir.tombstones.match.holds_any`: the description's runs,
    or the body's when the tombstone would forget the body on its own): ``indexed(layer
    directory)`` (:attr:`memdir.session.Session.indexed` of the home; None: no index) gives a layer's texts, and a file whose stat key is
    still the one indexed and whose text lacks a run is passed over unread; any other file (not indexed, changed
    since, or whose text holds the runs) is read, and the file is the truth (:func:`may_hold_value`). A forget
    of one memory so reads only the few files that may hold its value, not every file of another layer
    (issue 28 §7). An unreadable layer holds nothing this delete can see."""
    runs = value_runs(make(record.name, record.description, record.body, actor, None).description, record.body)
    out: list[tuple[str, MemoryRecord]] = []
    for other in layers:
        try:
            found = other.glance()
        except StoreError:
            continue
        texts = indexed(other.path) if runs is not None and indexed is not None else None
        for name, filename in list(found.names.items()):
            if runs is not None and not (_may_hold_indexed(other.path, filename, found, texts, runs)
                                         and may_hold_value(other.path / filename, runs, other.settings.max_file_bytes)):
                continue
            entry = found.entries.get(name)
            if entry is not None:
                out.append((other.scope, entry.record))
    return out


def _may_hold_indexed(directory, filename: str, found, texts, runs: tuple[frozenset[str], ...]) -> bool:
    """False when ``texts`` (:func:`memdir.search.filetexts.layer_texts` of the layer at ``directory``, or None)
    holds the memory of ``filename`` under the stat key the file has now and that text holds none of ``runs``
    (alternatives: :func:`memdir.tombstones.match.value_runs`);
    True otherwise (no index, a file it never read, changed since, or a text holding them: the bytes judge)."""
    known = texts.get(filename) if texts else None
    if known is None or known[1] is None:
        return True
    state = found.files.get(filename)
    if state is not None:
        key = state[0]
    else:  # named by the glance without being read: its stat now
        try:
            key = stat_key(os.lstat(os.path.join(directory, filename)))
        except OSError:
            return True
    return tuple(known[0]) != tuple(key) or holds_any(known[1], runs)


def may_hold_value(path, runs: tuple[frozenset[str], ...], limit: int) -> bool:
    """Whether the memory file at ``path`` (a :class:`~pathlib.Path`, read up to ``limit`` bytes) may hold a value holding every run of
    one of ``runs`` (alternatives: :func:`memdir.tombstones.match.value_runs`), without parsing it: False only for a file
    whose every letter is known from its bytes (:func:`memdir.files.memfile.plain_text`) and whose letters and
    digits, run together, lack one of each (:func:`memdir.tombstones.match.holds_any`). True when it cannot be read
    (the parse then says what it holds)."""
    data = read_foreign(path, limit, follow=False).data
    text = None if data is None else plain_text(data, path.name[:-3])
    return text is None or holds_any(text, runs)


def delete_tombstoned(tx, key: str, record: MemoryRecord, action: str, reason: str | None) -> Tombstone:
    """Tombstone the value, then delete (the journal line commits both). When the delete fails the new tombstone
    is taken back; when the process is killed in between, ``memdir verify`` names the tombstone no event refers
    to and ``--repair`` removes it (the memory is still there: "before")."""
    tombstones = tx.layer.tombstone_file
    known = {stone.id for stone in tombstones.all()}
    before = tx.layer.stones_now()
    stone = tombstones.add(key, record.description, record.body, tx.actor, reason, tx.layer.journal.clock(), action)
    tx.layer.stone_added(before)  # no other live memory holds the value (holder): no file needs judging again
    try:
        tx.apply(key, None, action, reason=reason, data={"tombstone": stone.id})
    except BaseException:
        if stone.id not in known:
            try:
                tombstones.lift(stone.id)
            except (StoreError, NotFound):
                pass  # left for `memdir verify --repair`, which names and removes it
        raise
    return stone


def prune_candidates(layer: Layer, older_than_days: int) -> list[PruneCandidate]:
    """Unpinned memories whose last update is ≥ ``older_than_days`` whole days old."""
    if isinstance(older_than_days, bool) or not isinstance(older_than_days, int) or older_than_days < 1:
        raise InvalidInput("older_than_days must be an integer >= 1")
    from ..results.memories import PruneCandidate

    now = now_utc()
    out = []
    for entry in layer.scan().entries.values():
        record = entry.record
        stamp = record.updated or record.created
        if stamp is None or record.pinned:
            continue
        days = whole_days(stamp, now)
        if days >= older_than_days:
            out.append(PruneCandidate(record.name, record.description, layer.scope, days))
    return sorted(out, key=lambda c: c.name)


def prune(layer: Layer, older_than_days: int, *, actor: str, session: str | None = None) -> list[PruneCandidate]:
    """Delete (without tombstones) what :func:`prune_candidates` lists; returns the deleted."""
    candidates, done = prune_candidates(layer, older_than_days), []
    if not candidates:
        return done
    with layer.transaction(actor, session) as tx:
        for candidate in candidates:
            entry = tx.fresh(candidate.name)
            if entry is None or entry.record.pinned:
                continue  # changed since the dry run: leave it
            tx.apply(candidate.name, None, "prune", reason=f"older than {older_than_days} days")
            done.append(candidate)
    return done


def clear(layer: Layer, *, actor: str, session: str | None = None) -> int:
    """Delete every memory of the layer in one lock window (no tombstones; tombstones already recorded stay).
    Returns how many were deleted."""
    if not layer.path.exists():
        return 0
    count = 0
    with layer.transaction(actor, session) as tx:
        tx.require_full()
        for name in sorted(tx.scan.entries):
            tx.apply(name, None, "clear", reason="clear")
            count += 1
        tx.reindex = True
    return count
