"""Files held back: an active memory whose value a tombstone of its own layer matches, of any name (DESIGN §5, §10).

No write path lets a forgotten value back in (:func:`memdir.tombstones.match.check`), but a file can come
back without one: a person copies an old file back, a backup is restored, or — in the team layer — git
stops a pull on a modify/delete conflict (one person forgot the memory, another changed it) and leaves
the changed file, without a conflict marker, which a ``git add`` then commits for everyone. Such a file
is treated as one with conflict markers is (:mod:`memdir.files.scan`): it is not a memory of the layer —
never in ``MEMORY.md``, the context block, search, recall, ``list`` or the agent's tools — and is
reported (``doctor``: a problem, with the two commands that settle it) until a person deletes it
(``memdir delete NAME --scope S``: :func:`memdir.gateway.changes.delete` removes the file, the tombstone
stays) or lifts the tombstone (``memdir tombstone lift ID``: the file is a memory again). Both are
journaled.

The verdict is taken when a file is parsed (:meth:`HoldsBack.holder`, given to
:func:`memdir.files.scan.load`), so it is kept with the file's state wherever that is kept (the
manifest, the search index's rows, ``MEMORY.md`` built from the visible set): the hot path matches
nothing. When the tombstones change — memdir adds or lifts one, a ``git pull`` brings one —
:func:`memdir.files.layout.judged` says so (the tombstones' mtime against the one the files were last
judged with, ``.memdir/held.stamp``), and the files whose verdict the tombstones as they are may change are
judged again (:func:`may_change`: those holding a name a tombstone names or a value one forgets — an exact copy,
by the manifest's index of text digests —, and those held back, which a lift may release); every other file's
state stands — it is not held, and no tombstone names its memory or its value. So the
first read after a pulled tombstone parses a few files, not the layer (at 2,000 memories it parsed all
2,000: 0.66 s). In a fresh process the manifest's states are taken up with those few judged again
(:meth:`HoldsBack._judge_restored`); when none of their verdicts moved, the new judgement is recorded at
once and ``MEMORY.md`` stays fresh, else the process's first transaction (the context block's rebuild, a
write) takes up those names alone (:meth:`HoldsBack.take_up_moved`: journaled as the whole sweep would —
a memory held back leaves, one released comes back —, their ``MEMORY.md`` lines moved, the judged files'
states saved, the judgement recorded), no other file stat'ed. The search index keeps the stones key it
judged with too (:func:`memdir.search.follow.judge_again`) and reads those files again itself.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InvalidInput, LockTimeout, StoreError
from ..files import background
from ..files.conflicts import CONFLICT
from ..files.fsio import atomic_write
from ..files.layout import (
    HELD_FILES_FILE,
    held_files_text,
    judged_key,
    read_held_files,
    record_judged,
    rekey_judged,
    stones_key,
)
from ..files.scan import HELD, FileState, Malformed, settle
from ..files.scan import load as load_file
from ..text.names import normalize_name
from ..tombstones.match import (
    bodies_held,
    by_body,
    match,
    needed_runs,
    sieve,
)
from .drift import settle_tombstones


def held_reason(stone, why: str, name: str, scope: str) -> str:
    """What a file held back says (its :class:`memdir.files.scan.Malformed` error, as ``doctor`` and
    ``list`` show it): the tombstone, how it matched, and the two commands that settle it."""
    # a held file's text: the hooks' path holds none back
    from ..tombstones.refusals import lift_command

    # A vanished team tombstone (a `git revert` of the forget, a teammate's lift): said in few words, so the
    # doctor's line (printable.LINE_BYTES) still holds both commands.
    gone = ", its file left the repository unlifted" if stone.vanished else ""
    return (f"{HELD}: it holds a value forgotten as {stone.name!r} ({why}; tombstone {stone.id}{gone}); the agent never "
            f"sees it until a person settles it: `memdir delete {name} --scope {scope}` removes it, "
            f"`{lift_command(stone.id, scope)}` keeps it")


def may_change(name: str | None, error: str | None, named, text: str | None = None, values=frozenset()) -> bool:
    """Whether the verdict on a file — ``name``, the memory it holds (None when it is not one), ``error``
    why not, ``text`` the text digest of its value (:func:`memdir.files.memfile.text_digest`; None: not known) —
    may differ under tombstones naming ``named`` (a set of names) and forgetting ``values`` (their digests,
    :attr:`memdir.tombstones.match.Tombstone.digest`) from the one it was given under other tombstones: it holds
    a memory a tombstone names, or a value one forgets (an exact copy under another name: it may be held back
    now), or it is held back (a lift may release it). Any other file is not held under those tombstones, as it
    was not: a file is held back by a tombstone of any name when it is parsed (:meth:`HoldsBack.holder`), but a
    tombstone of a personal layer the gateway adds comes only where no live memory of another name holds its
    value — its delete and reject make none then (:func:`memdir.gateway.deletion.holder`), a sync deletes those
    its tombstones forget (:mod:`memdir.gateway.synced`). One that comes another way — ``tombstones.json``
    put back from a backup, or rebuilt from the journal (:func:`memdir.layer.drift.restore_tombstones`) — may find
    a copy already judged visible; an exact copy is found by its text digest (the manifest's index of texts),
    a reworded one is judged when its file changes."""
    if name is None:
        return error is not None and error.startswith(HELD)
    return name in named or (text is not None and text in values)


def held_names(found, among=None) -> frozenset[str]:
    """The names whose file is still on disk but held back in ``found`` (a :class:`memdir.files.scan.Scan`, its
    ``files``: kept in step by a transaction's writes): a
    file with an unresolved merge conflict (:data:`memdir.files.conflicts.CONFLICT`) or a forgotten value put
    back (:data:`memdir.files.scan.HELD`), named by its file name (``db-port.md`` → ``db-port``). Such a memory
    is not gone: the journal's sweep records no ``external-delete`` of it (:func:`memdir.layer.commit.sweep`);
    its last version stays its head, and what settles it — ``team resolve``, ``delete`` (which keeps the
    file's bytes as a version first: :func:`memdir.layer.commit.preserve`), a tombstone lift, a hand edit —
    is journaled as what it is. One pass over the scan's malformed files (few); ``among`` (names): of those
    names' files alone (``name.md``), none other looked at."""
    names = set()
    if among is not None:
        return frozenset(name for name in among if (state := found.files.get(f"{name}.md")) is not None
                         and state.error is not None and held_kind(state.error) is not None)
    for filename, _what in _held_files(found):
        try:
            names.add(normalize_name(filename.removesuffix(".md")).name)
        except InvalidInput:
            continue
    return frozenset(names)


def _held_files(found) -> list[tuple[str, str]]:
    """``(file name, kind)`` of each file of ``found`` held back (kind: ``conflict`` or ``held``,
    :data:`memdir.files.layout.HELD_KINDS`): its malformed files, each still in its ``files`` with that error
    (a transaction's write drops or replaces the state of a file it wrote; its malformed list stays as scanned)."""
    out = []
    for bad in found.malformed:
        if not isinstance(bad, Malformed):
            continue
        kind = held_kind(bad.error)
        filename = Path(bad.path).name
        if kind and (state := found.files.get(filename)) is not None and state.error == bad.error:
            out.append((filename, kind))
    return out


def held_kind(error: str) -> str | None:
    """The kind of :data:`memdir.files.layout.HELD_KINDS` a file's ``error`` says it is held back for, or None
    (a file the reader refused for what it is: :mod:`memdir.search.unread` names those, never one held back)."""
    return "conflict" if error == CONFLICT else "held" if error.startswith(HELD) else None


def held_counts(found) -> dict[str, int]:
    """How many files of ``found`` (a :class:`memdir.files.scan.Scan`, its ``files``) are held back, by kind of
    :data:`memdir.files.layout.HELD_KINDS`: ``conflict`` (an unresolved merge conflict), ``held`` (a forgotten
    value put back)."""
    counts = {"conflict": 0, "held": 0}
    for _filename, kind in _held_files(found):
        counts[kind] += 1
    return counts


class HoldsBack:
    """The held-back rule of :class:`memdir.layer.layer.Layer` (which supplies ``path``, ``meta``,
    ``scope`` and ``tombstones()``)."""

    # True: every file is judged again when the tombstones move (stone_names None), not only those a tombstone
    # names. The team layer's (memdir.layer.team): a teammate's clone writes a value under another name before
    # the forget reaches it, the gateway there lets it through, and git merges both — a tombstone can arrive
    # with a live memory of another name already holding its value, which a personal layer's never does.
    judge_all_again = False
    _judged_with: int | None = None  # the stones key this object's cached file states were judged with
    _moved: tuple[frozenset[str], frozenset[str]] | None = None  # (names, files) judged again, verdicts moved

    def holder(self):
        """``hold(record)`` for :func:`memdir.files.scan.load`: the reason a memory is held back (a
        :data:`~memdir.files.scan.HELD` text) when it is active and a tombstone of this layer, of any name,
        matches its value (:func:`memdir.tombstones.match.match`; those of its own name first, so the reason
        names the memory put back), else None. Any name: a file put back (a copy, a backup, git's
        modify/delete) keeps its name, but a copy under another name — a person's, the agent's file tool
        writing into the layer's directory, which the gateway would have refused — is the same forgotten value
        (break34). Which files are judged *again* when the tombstones move is :meth:`stone_names`' question.
        None instead of a function when the layer has no tombstone (or they cannot be read: a write then
        reports them)."""
        try:
            stones = self.tombstones()
        except StoreError:
            return None
        if not stones:
            return None
        scope, named = self.scope, {}
        for stone in stones:
            named.setdefault(stone.name, []).append(stone)
        # A file is held back by a tombstone of any name, those of its own name first (the reason names that
        # one): a forgotten value written into the layer's directory under another name — a person's copy, the
        # agent's own file tool — is a back door the gateway's refusal of that write does not close (break34).
        # Another name's tombstone is matched only when the file's text holds its runs (needed_runs: a cheap
        # sieve no match passes by): matching each file against every tombstone made a cold scan of 2,000
        # files with 60 tombstones 2.7 times as long (benchmarks/bench_held_names.py).
        # The sieve reads the description's words alone (a tombstone keeps no body in clear): a tombstone that
        # forgets a body (its body digest: memdir.tombstones.match.body_digest) is looked up by the file's.
        runs_of = [(stone, needed_runs(stone.description)) for stone in stones]
        bodies = by_body(stones)

        def hold(record) -> str | None:
            if record.status != "active":
                return None
            passes = sieve(f"{record.name}\n{record.title or ''}\n{record.description}\n{record.body}")
            among = [*named.get(record.name, ()),
                     *(stone for stone, runs in runs_of if stone.name != record.name and passes(runs))]
            if bodies:
                among += [stone for stone in bodies_held(bodies, record.description, record.body) if stone not in among]
            hit = match(among, record.description, record.body, title=record.title) if among else None
            return None if hit is None else held_reason(hit[0], hit[1], record.name, scope)

        return hold

    def judge(self, state):
        """``state`` (a :class:`memdir.files.scan.FileState` of a file parsed without a verdict), or the state
        of its file held back when :meth:`holder` says so; None and states of no memory as they are."""
        if state is None or state.entry is None or (hold := self.holder()) is None:
            return state
        why = hold(state.entry.record)
        return state if why is None else FileState(state.key, state.digest, None, why)

    def stone_names(self) -> set[str] | None:
        """The names the layer's tombstones name; None when they cannot be read, or when a tombstone may arrive
        while a file of another name holds its value (:attr:`judge_all_again`): every file is judged again then."""
        keys = self.stone_keys()
        return None if keys is None else keys[0]

    def stone_keys(self) -> tuple[set[str], frozenset[str]] | None:
        """``(the names the layer's tombstones name, the digests of the values they forget)``, what
        :func:`may_change` asks; None as for :meth:`stone_names`."""
        if self.judge_all_again:
            return None
        try:
            stones = self.tombstones()
        except StoreError:
            return None
        return {stone.name for stone in stones}, frozenset(stone.digest for stone in stones)

    def to_judge(self, holders) -> set[str] | None:
        """Of ``holders`` — ``(file name, the name it holds or None, why not[, its text digest])`` of files
        judged with other tombstones — the file names :func:`may_change` says must be judged again, and those the
        manifest records as holding a value a tombstone forgets (:meth:`memdir.layer.lookups.Lookups.rows_judged_by`
        by the tombstones' digests: the caller's rows may lack the text digest, as the search index's do); None
        when the tombstones or the manifest cannot be read (every file is judged again)."""
        keys = self.stone_keys()
        if keys is None:
            return None
        named, values = keys
        recorded = self.manifest.rows_judged_by([], HELD, sorted(values)) if values else []
        if recorded is None:
            return None
        again = {row[0] for row in holders
                 if may_change(row[1], row[2], named, row[3] if len(row) > 3 else None, values)}
        return again | {f for f, name, error, text in recorded if may_change(name, error, named, text, values)}

    def _unjudge(self, known):
        """Before a scan after the tombstones moved (:meth:`stones_moved`): the cached states (``files``)
        and ``known`` (:func:`memdir.files.scan.scan`'s hints, or None) without the files to judge again
        (:meth:`to_judge`), so the scan parses those alone; every file's when the tombstones cannot be read.
        Returns the hints left (None: none)."""
        states = [(f, st.name, st.error, st.text) for f, st in self.files.items()]
        hinted = [(f, hint[5], hint[6], hint[7] if len(hint) > 7 else None) for f, hint in known.items()] if known else []
        again = self.to_judge(states + hinted)
        self._unsaved_judgement = True  # recorded by the next full save (_record_judged)
        if again is None:
            self.files, self._hints_left, self._moved = {}, False, None
            return None
        self._moved = (frozenset(row[1] for row in states + hinted if row[0] in again and row[1] is not None),
                       frozenset(again))
        for filename in again:
            self.files.pop(filename, None)
        return {f: hint for f, hint in known.items() if f not in again} if known else known

    def _judge_restored(self, files, names, cache, key: int) -> bool:
        """In a fresh process taking up the manifest's states (``files``, the scan's
        :class:`memdir.layer.rows.Rows`; ``names``, its :class:`memdir.layer.rows.Names`; ``cache``, the
        layer's copy of ``files``) after the tombstones moved (``key``: the stones key now): the files
        :meth:`to_judge` names, found by the manifest's index of names, read and judged again, into
        ``files``, ``names`` and ``cache``;
        the others stand. When no verdict moved, the judgement is recorded
        (:func:`memdir.files.layout.record_judged`); else the next transaction takes up the names whose
        verdict moved and those files' states (:meth:`take_up_moved`), and its save records it. False when the
        tombstones or the manifest cannot be read (the caller scans every file)."""
        keys = self.stone_keys()
        named, values = keys if keys is not None else (None, None)
        rows = None if keys is None else self.manifest.rows_judged_by(sorted(named), HELD, sorted(values))
        if rows is None:
            return False
        again = {f: (name, error) for f, name, error, text in rows if may_change(name, error, named, text, values)}
        hold, moved, touched = self.holder(), set(), set()
        for filename, before in again.items():
            state = load_file(self.path / filename, max_bytes=self.settings.max_file_bytes, hold=hold)
            if state is None:  # gone since (the directory's mtime says no: a race) — as a scan would find it
                files.pop(filename, None)
                cache.pop(filename, None)
            else:
                files[filename] = cache[filename] = state
            now = (None, None) if state is None else (state.name, state.error)
            held = {n for n in (before[0], now[0]) if n is not None}
            moved |= held if now != before else set()
            touched |= held
        for name in touched:  # which file holds each name whose files moved: scan.settle's rule over them
            held = {row[0] for row in self.manifest.name_rows(name) or ()} | again.keys()
            winner = settle(self.path, [(f, files[f].name, files[f].error) for f in sorted(held)
                                        if f in files and files[f].name == name])[0].get(name)
            if winner is not None:
                names[name] = winner
            elif name in names:
                del names[name]
        self._moved = (frozenset(moved), frozenset(again)) if moved else None
        if moved:
            self._unsaved_judgement = True
        else:
            record_judged(self.meta, key)
        return True

    def take_up_moved(self, tx=None) -> bool:
        """Take up what :meth:`_judge_restored` (or :meth:`_unjudge`) found moved — a memory held back leaves, one released comes
        back (a tombstone lifted or added by another process, a ``git pull`` of the team layer) — as the
        layer's whole sweep would, for those names alone: ``tx`` (a
        :class:`memdir.layer.transaction.Transaction` over the manifest's states, not a full sweep) journals
        them (:func:`memdir.layer.commit.sweep` of those names: a memory held back is no ``external-delete``,
        one released whose bytes are not its head is an ``external-edit``), touches their ``MEMORY.md`` lines and
        saves the states of the files judged again, whose save then records the judgement
        (:meth:`_record_judged`); no other file is stat'ed or read, nor the journal decoded (at 10,000
        memories the whole sweep was about 420 ms of the first ``memdir context`` after a lift). Without
        ``tx``: a transaction of its own, never waiting (the context block's rebuild); False when it could not
        run (a busy or read-only layer) or warned. Nothing when no verdict moved. In a full sweep, the names
        are touched alone: a memory released whose bytes are its head is named by no event, and ``MEMORY.md``
        built from the manifest's line keys left its line out (before: the lift of a tombstone put back by a
        sync — the file unchanged since it was last a memory — never brought its line back)."""
        if tx is None:
            try:  # a reader's write nobody asked for: into a layer directory that is there only
                with background.scope(), self.transaction("human", wait=False) as own:
                    own.reindex = True  # MEMORY.md follows the verdicts even when no event names them
            except (StoreError, LockTimeout):
                return False
            return not own.warnings
        if self._moved is None:
            return True
        names, files = self._moved
        names = names | {st.name for f in files if (st := tx.scan.files.get(f)) is not None and st.name is not None}
        if not tx.full:
            tx.sync_external(names)
            tx.files_changed.update(files)
            tx.judged_again = True
        tx.touched.update(names)  # a memory released whose bytes are its head: no event names it, its line comes back
        tx.reindex = True
        return True

    def take_up_stones(self) -> bool:
        """After the tombstones moved (:meth:`stones_moved`: a lift or forget in another process, a ``git pull``)
        in a process that has not scanned this layer: the manifest's states taken up with the files whose verdict
        they may move read and judged again (:meth:`_judge_restored`), and the names whose verdict moved taken up
        alone (:meth:`take_up_moved`, a transaction of its own, never waiting) — no other file stat'ed or read;
        the judgement is then recorded (:meth:`stones_moved` says False). For a first reader (the context block,
        the search index's sync, ``list``, ``read``) that would otherwise judge or sweep the whole layer. False
        when the manifest does not hold the layer as it is, the tombstones cannot be read, or the layer is busy
        or cannot be written (the caller scans as before)."""
        if self._restore() is None:  # Layer: the manifest's states, the few files judged again
            return False
        return self._moved is None or self.take_up_moved()

    def stones_moved(self) -> bool:
        """Whether the tombstones changed since this object's cached file states were judged (when it has
        none: since the manifest's were, :func:`memdir.files.layout.judged`); then the files :meth:`to_judge`
        names are judged again, the others' states stand. Three stats at most."""
        basis = self._judged_with if self._judged_with is not None else judged_key(self.meta)
        return stones_key(self.path) != basis

    def _judging(self) -> int:
        """Before a scan that judges every file it reads: the stones key it judges with, kept."""
        self._judged_with = stones_key(self.path)
        return self._judged_with

    def _record_judged(self, saved_all: bool) -> None:
        """After the manifest was saved (``saved_all``: every file's state, a full sweep's or whole), when
        the states saved were judged with the tombstones as they still are: record it
        (:func:`memdir.files.layout.record_judged`), so the next process trusts them. States judged again
        since the last such save (``_unsaved_judgement``) wait for a full save, or one that took up the names
        whose verdict moved (:meth:`take_up_moved`)."""
        if saved_all:
            self._unsaved_judgement, self._moved = False, None
        key = stones_key(self.path)
        if not self._unsaved_judgement and self._judged_with == key and judged_key(self.meta) != key:
            record_judged(self.meta, key)

    def stone_added(self, before: int) -> None:
        """A tombstone this layer's transaction added after it found that its value is held by no other live
        memory of the layer (:func:`memdir.gateway.changes.delete`): the files judged with ``before`` (the
        stones key before the add) need no new judgement — their states stay judged, with the new key."""
        if self._judged_with == before:
            self._judged_with = stones_key(self.path)

    def settle_stones(self) -> None:
        """Under the layer lock, when ``tombstones.json`` was written after the journal (a change cut before
        its journal line, or a sync or a person writing it): :func:`memdir.layer.drift.settle_tombstones`,
        which gives it the journal's mtime, and the judgement follows that key
        (:func:`memdir.files.layout.rekey_judged`): this object's states judged with the key before stand
        when no tombstone was lifted or put back; a judgement recorded under the key it takes, of other
        tombstones, is dropped. Raises :class:`StoreError`."""
        before = self.stones_now()
        lifted, restored = settle_tombstones(self.journal, self.tombstone_file)
        after, same = self.stones_now(), not lifted and not restored
        if same and self._judged_with == before:
            self._judged_with = after
        rekey_judged(self.meta, before, after, same)

    def judged_state(self, filename: str, key: tuple[int, int, int]):
        """The state of ``filename`` this object parsed (a :class:`memdir.files.scan.FileState` with its entry or
        its reason), when its stat key is ``key`` (size, ctime ns, inode) and it was judged with the tombstones as
        they are now; else None. So a reader after this layer's take-up (the search index's sync of the file whose
        verdict a lift elsewhere moved) does not read and parse the file again."""
        state = self.files.get(filename)
        if state is None or state.key != key or (state.entry is None and state.error is None):
            return None
        return state if self._judged_with is not None and self._judged_with == stones_key(self.path) else None

    def stones_now(self) -> int:
        """The layer's stones key now (:func:`memdir.files.layout.stones_key`)."""
        return stones_key(self.path)

    def note_held(self, found, swept: bool, changed=None) -> None:
        """Keep :data:`memdir.files.layout.HELD_FILES_FILE` in step with ``found`` (this layer's scan, as the
        index was written from it; ``swept``: every file of it looked at): the counts of its files held back, so
        the context block can say that a memory waits for a person without reading a file
        (:func:`memdir.prompt.context.held_note`); removed when none is. A transaction that swept nothing changes
        only the files it wrote, never into one held back (but for verdicts taken up: :meth:`take_up_moved`):
        with none held, one open and nothing else. Derived,
        like ``MEMORY.md``; raises :class:`StoreError` when it cannot be written. ``changed`` (file names), when
        the manifest holds ``found`` but for those files (a transaction over its states): the files held back
        it records, those replaced by their states in ``found`` — not every file's state made (at 10,000
        memories: about 60 ms of each write of a layer with a file held back)."""
        before = held_files_text(read_held_files(self.meta))
        if not swept and not before and self._moved is None:  # a verdict taken up may hold a file back
            return
        rows = None if swept or changed is None else self.manifest.error_rows()
        if rows is None:
            counts = held_counts(found)
        else:
            counts = {"conflict": 0, "held": 0}
            now = [(f, st.error) for f in changed if (st := found.files.get(f)) is not None and st.name is None]
            for _filename, error in [(f, e) for f, e in rows if f not in changed] + now:
                if error is not None and (kind := held_kind(error)) is not None:
                    counts[kind] += 1
        data = held_files_text(counts)
        if before == data:
            return
        path = self.meta / HELD_FILES_FILE
        try:
            if data:
                atomic_write(path, data, sync=False)
            else:
                path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None

    def held_file(self, found, name: str) -> Path | None:
        """The file of ``found`` (a :class:`memdir.files.scan.Scan` of this layer) held back that holds
        memory ``name``, by its file name (``name.md``) or its reason; None when there is none."""
        for bad in found.malformed:
            if isinstance(bad, Malformed) and bad.error.startswith(HELD) and (
                    Path(bad.path).name == f"{name}.md" or f"`memdir delete {name} --scope " in bad.error):
                return Path(bad.path)
        return None


__all__ = ["HoldsBack", "held_counts", "held_kind", "held_names", "held_reason"]
