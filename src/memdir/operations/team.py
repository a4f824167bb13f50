"""What a person does with the team layer (DESIGN §2, :mod:`memdir.layer.team`).

``init`` creates or adopts the team directory; ``status`` reads ``git
status`` of it; ``resolve`` settles a merge conflict by one side (:mod:`memdir.operations.merges`);
``promote`` moves a personal project memory into the team layer; the agent's
and consolidation's writes for the team become candidates in the home until a person
approves them (:mod:`memdir.operations.candidates`, re-exported here); ``commits``
and :func:`restore_commit` read git's history of a team memory. memdir never
commits or pushes: every change here is left for the person to commit.
A promote or approval cut between its write and its removal: :mod:`memdir.operations.moves`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..errors import (
    Conflict,
    InvalidInput,
    MemdirError,
    NotFound,
    Refused,
    ScopeError,
    StoreError,
)
from ..files import merge as merge_rules
from ..files.conflicts import CONFLICT, MARKER_SIZE, fenced_markers, has_conflict
from ..files.fsio import read_bytes
from ..files.scan import TOO_LARGE
from ..files.trust import make_clone_mark, remove_trust, write_trust
from ..gateway import changes as gateway
from ..gateway.compare import NO_CHECK
from ..gateway.fields import MemoryChange, distinct_name
from ..gitfiles import common_dir, git_dir_holding, git_dir_of
from ..layer.journal import now_utc
from ..layer.team import init as init_dir
from ..layer.team import nested_memory_files
from ..paths import team_meta_dir
from ..results import Result
from ..results.memories import RestoreResult, WriteResult
from ..session import Session
from ..text.names import normalize_name, same_name, spelled_name
from ..tombstones.match import match
from ..tombstones.stones import unlifted_note
from .candidates import (
    REJECTIONS,
    candidates,
    decide,
    pending,
    pending_entries,
    propose,
    tombstone_layers,
)
from .ignored import git_ignores, shared_file  # noqa: F401 — shared_file: re-exported, as before
from .lookup import guard
from .merges import (  # DELETED_ON_ONE_SIDE: git's codes of a file deleted on one side, changed on the other
    DELETED_ON_ONE_SIDE,
    ConflictSides,
    Resolved,
    TeamConflict,
    conflict,
    conflict_hunks_of,
    live_copies,
    renamed_twice,
    resolve,
    stem_name,
)
from .moves import PROMOTED, replaces_another


@dataclass(frozen=True)
class TeamInit(Result):
    """The team directory ``path``: ``created`` (files added), ``adopted``
    (memory files already there, left as they are); the field-by-field merge
    driver: ``merge_driver`` (its command in this clone's ``.git/config``:
    set now when ``merge_driver_set``, else found there), ``merge_driver_error``
    (why it could not be set) and ``merge_driver_line`` (the ``git config``
    line for another clone)."""

    path: str
    created: tuple[str, ...]
    adopted: int
    merge_driver: str | None = None
    merge_driver_set: bool = False
    merge_driver_error: str | None = None
    merge_driver_line: str = merge_rules.DRIVER_LINE
    ignored: tuple[str, ...] = ()  # team files git ignores (git_ignores): never committed, never shared
    ignores_new: tuple[str, ...] = ()  # a memory file and a tombstone not yet written that git would ignore
    repository: bool = True  # False: the project is in no git repository, so there is nothing to commit it to


@dataclass(frozen=True)
class TeamStatus(Result):
    """The team directory ``path``, its uncommitted ``changes`` (from ``git
    status``: :class:`memdir.git.Change`), files with an unresolved
    merge ``conflicts``, this person's ``pending`` candidate names,
    ``git_error`` when git could not answer, and ``merge_driver_missing``: the line saying this clone lacks the
    merge driver and the command that registers it (:func:`merge_driver_missing`), else empty."""

    path: str
    changes: tuple
    conflicts: tuple[str, ...]
    pending: tuple[str, ...]
    git_error: str | None = None  # why git could not say what is uncommitted
    merge_driver_missing: str = ""
    deleted_on_one_side: tuple = ()  # (path, name, tombstone id or "", held back) per memory file git left unmerged
    unlifted: tuple = ()  # Unlifted: a team tombstone read here that git took away, no person lifting it here
    settled: tuple[str, ...] = ()  # paths git still calls conflicted whose file holds no conflict marker: to git add
    fenced: tuple[str, ...] = ()  # paths git still calls conflicted whose markers lie in fenced code: not settled
    ignored: tuple[str, ...] = ()  # memory and tombstone files git ignores (shared_file): never committed
    ignores_new: tuple[str, ...] = ()  # a memory file and a tombstone not yet written that git would ignore
    too_large: tuple[str, ...] = ()  # memory files over max_file_bytes: never read, out of every context (a merge's)
    renamed_twice: tuple = ()  # (name, ours, theirs) per conflicted file both sides renamed to two live memories
    copies: tuple = ()  # groups of live team memories with one text (merges.live_copies), each in the context
    nested: tuple[str, ...] = ()  # *.md files in the team directory's folders (layer.team): read by no one


@dataclass(frozen=True)
class Unlifted(Result):
    """A team tombstone removed unlifted (:attr:`memdir.tombstones.match.Tombstone.vanished`, the rule of
    :mod:`memdir.tombstones.stones`: read here, its
    file gone from the team directory — a teammate's ``git revert`` of the forget, a commit deleting it — and
    nobody lifted it here), so still in force here: tombstone ``tombstone`` of memory ``name``. ``back``: a file
    of that name is in the team directory again (a revert brings it with the tombstone's removal), held back from
    the agent. ``said``: the sentence ``team status`` and ``doctor`` show, with the commands that settle it."""

    name: str
    tombstone: str
    back: bool

    @property
    def said(self) -> str:
        return unlifted_note(self.tombstone, self.name, self.back)  # the one sentence of it (tombstones.stones)

    @classmethod
    def of(cls, layer, stone) -> Unlifted:
        """``stone`` (vanished) of the team ``layer``, with whether its memory's file is back there."""
        return cls(stone.name, stone.id, (layer.path / f"{stone.name}.md").is_file())


@dataclass(frozen=True)
class Promoted(Result):
    """The personal project memory ``name`` moved into the team layer."""

    name: str
    path: str
    operation: str
    redactions: int
    warnings: tuple[str, ...] = ()  # e.g. a layer whose tombstones could not be checked (operations.lookup.guard)


def _team(session: Session):
    return session.layer("team")


def init(session: Session) -> TeamInit:
    """Create the team directory of the session's repository, or adopt it
    as it is (see :func:`memdir.layer.team.init`). A person only. Raises
    :class:`ScopeError` without a project, :class:`Refused` for an agent."""
    if session.actor != "human":
        raise Refused("only a person creates the team layer (memdir team init)")
    session.project()
    _refuse_git_dir(session)
    path = session.layer_dir("team")
    created = init_dir(path)
    adopted = len(_team(session).scan().names)
    done = trust(session)  # what a person creates (or adopts by name) in this clone is theirs to show
    checkout = Path(session.checkout_path)
    try:
        listed = git.status(checkout, path, ignored=True)
    except StoreError:  # not a git work tree (yet), or no git: nothing git ignores to say
        listed = []
    ignored, new = git_ignores(checkout, path, listed)
    return TeamInit(str(path), tuple(created), adopted, done.merge_driver, done.merge_driver_set,
                    done.merge_driver_error, ignored=ignored, ignores_new=new,
                    repository=git_dir_of(session.project_root) is not None)


def _refuse_git_dir(session: Session) -> None:
    """Raise :class:`ScopeError` when the session's directory (where it was started, and the checkout it moved
    up to) lies inside a git directory — a bare repository, a ``.git`` directory, a linked worktree's
    ``worktrees/<name>`` (:func:`memdir.gitfiles.git_dir_holding`): a team layer is files committed from a work
    tree, and one made there is tracked by no git (a bare repository's ``.claude/memory`` sat among its refs)."""
    for where in dict.fromkeys(p for p in (session.source_path, session.checkout_path) if p):
        try:
            real = os.path.realpath(where)
        except (OSError, ValueError):
            continue
        inside = git_dir_holding(real)
        if inside is None:
            continue
        try:  # a linked worktree's git directory: its repository's
            repository = common_dir(inside) or inside
        except (OSError, ValueError):
            repository = inside
        if os.path.basename(repository) == ".git":
            where_to = f"in its work tree, {os.path.dirname(repository)}"
        else:  # a bare repository
            where_to = f"in a checkout of it (`git clone {repository} DIR`, or `git -C {repository} worktree add DIR`)"
        raise ScopeError(f"{real} is inside the git directory {inside}, not a work tree: a team layer is files "
                         f"committed from a checkout's work tree; run `memdir team init` {where_to}")


def register_driver(root) -> tuple[str | None, bool, str | None]:
    """Register the merge driver in the local config of the clone at ``root``
    (its own ``.git/config``: never committed, so each clone does it once),
    run by this Python, which has memdir; a driver the clone already has is
    kept. The one rule of registering it, for ``team init`` and ``team trust`` (what a second clone runs).
    Returns (the command, whether it was set now, why it could not be)."""
    key = f"merge.{merge_rules.DRIVER}"
    there = git.local_config(root, f"{key}.driver")
    if there and not merge_rules.missing_program(there, root):
        return there, False, None  # a driver whose program is gone is registered again (break39)
    command = merge_rules.driver_command(merge_rules.python_program(sys.executable))
    try:
        git.set_local_config(root, f"{key}.name", "memdir: memory files merged field by field")
        git.set_local_config(root, f"{key}.driver", command)
    except StoreError as exc:  # not a git clone yet, or git missing: the line to run later is printed
        return None, False, str(exc)
    return command, True, None


@dataclass(frozen=True)
class TeamTrust(Result):
    """The trust of the team layer ``path`` in this clone: ``trusted`` now, ``changed`` by this
    call, and the repository's identity recorded (``root``, ``remote``, ``first_commit``; None when
    unknown). See :mod:`memdir.files.trust`."""

    path: str
    trusted: bool
    changed: bool
    root: str
    remote: str | None = None
    first_commit: str | None = None
    merge_driver: str | None = None
    merge_driver_set: bool = False
    merge_driver_error: str | None = None


MERGE_DRIVER_FIX = "memdir team trust"  # the one command that registers the merge driver in a clone
TEAM_ATTRIBUTE_FIX = "memdir team init"  # adopts the directory: writes the .gitattributes line it lacks


def team_attributes(session: Session) -> dict[str, dict[str, str]]:
    """What git's attributes say of the team memory files (a probe ``memory.md`` and every ``*.md`` there, at
    most :data:`MAX_PROBED`): ``merge`` (memdir's driver or another) and ``conflict-marker-size`` (the markers
    git's own line merge writes), by the file's path as a string — one ``git check-attr`` for both, made once by
    ``team status``. ``{}`` without a team layer, a git clone, or an answer from git."""
    if not session.has_team() or git_dir_of(session.project_root) is None:
        return {}
    team = Path(session.layer_path("team"))
    return git.attribute_sets(session.project_root, [team / "memory.md", *_memory_files(team)],
                              ("merge", "conflict-marker-size")) or {}


def marker_size_of(found: dict[str, dict[str, str]], path: Path) -> int:
    """The conflict marker size git gives ``path`` in ``found`` (:func:`team_attributes`): its
    ``conflict-marker-size``, :data:`memdir.files.conflicts.MARKER_SIZE` when unset or not a number."""
    value = found.get(str(path), {}).get("conflict-marker-size", "")
    return int(value) if value.isdigit() and 0 < int(value) < 1000 else MARKER_SIZE


def merge_driver_missing(session: Session, found: dict[str, dict[str, str]] | None = None) -> str:
    """The line saying this clone has a team layer but not the field-by-field merge driver in its local git
    config (so two people's edits of one memory conflict on ``updated:``), with the one command that
    registers it (:data:`MERGE_DRIVER_FIX`; :func:`register_driver`); ``""`` when it has it, or there is no
    team layer or no git clone to register it in. Runs ``git config`` once, and ``git check-attr`` unless
    ``found`` (:func:`team_attributes`) has its answer."""
    if not session.has_team() or git_dir_of(session.project_root) is None:
        return ""
    command = git.local_config(session.project_root, f"merge.{merge_rules.DRIVER}.driver")
    if not command:
        return ("this clone has no merge driver for team memory files (git takes it only from the clone's own "
                "config), so two people's edits of one memory conflict on `updated:`; run "
                f"`{MERGE_DRIVER_FIX}` here once to register it")
    gone = merge_rules.missing_program(command, session.project_root)
    if gone:
        return (f"the merge driver registered in this clone runs {gone}, which is not there any more (git then "
                "leaves only this clone's side in a memory file both sides changed, without conflict markers: "
                f"`git add` would drop the other side's text); run `{MERGE_DRIVER_FIX}` here once to register "
                "it again")
    # The driver is registered but the tree no longer names it (a commit removed the team directory's
    # .gitattributes, or another line overrides it): git merges memory files line by line all the same.
    # A line for one file (`db.md merge=binary`, `-merge`, `merge=union`) overrides it for that file alone:
    # git then keeps one side without markers, or joins both sides' lines with no conflict said (break39).
    team = Path(session.layer_path("team"))
    probe = team / "memory.md"
    files = [probe, *_memory_files(team)]
    merges = {path: values.get("merge") for path, values in (found or team_attributes(session)).items()}
    odd = [(path, merges.get(str(path))) for path in files if merges.get(str(path)) not in (None, merge_rules.DRIVER)]
    if not odd:
        return ""
    path, value = odd[0]
    if path == probe:
        return (f"git does not merge team memory files with memdir's driver (merge is {value!r} for them: the "
                f"team directory's .gitattributes lacks `{merge_rules.ATTRIBUTE}` or another line overrides it), "
                f"so two people's edits of one memory conflict on `updated:`; run `{TEAM_ATTRIBUTE_FIX}` to add "
                "the line back, then commit .gitattributes")
    names = ", ".join(p.name for p, _ in odd[:5]) + (f" and {len(odd) - 5} more" if len(odd) > 5 else "")
    return (f"git does not merge {len(odd)} team memory file(s) with memdir's driver ({names}: merge is "
            f"{value!r}, set by a .gitattributes line for them), so a merge of two people's edits keeps one side "
            "without conflict markers or joins both unsaid; remove that line (`git check-attr merge -- FILE` "
            "names its value), then commit .gitattributes")


MAX_PROBED = 5000  # the team memory files whose merge attribute status and doctor ask git for, at most


def _memory_files(team: Path) -> list[Path]:
    """The team directory's ``*.md`` files (at most :data:`MAX_PROBED`), sorted; [] when it does not list."""
    try:
        names = sorted(name for name in os.listdir(team) if name.endswith(".md"))
    except OSError:
        return []
    return [team / name for name in names[:MAX_PROBED]]


def trust(session: Session) -> TeamTrust:
    """Trust the team layer of the session's repository in this clone (a person only), so its
    memories reach the agent: records the clone's path, the repository's identity
    (:func:`memdir.git.identity`, as a project layer's ``layer.json`` does) and the clone's mark
    (:func:`memdir.files.trust.make_clone_mark`) in the home
    (:func:`memdir.files.trust.write_trust`), and registers the field-by-field merge driver in the clone's
    local git config (:func:`register_driver`: a second clone runs only this). Idempotent. Raises
    :class:`Refused` for anyone but a person, :class:`ScopeError` without a team directory, :class:`StoreError`."""
    if session.actor != "human":
        raise Refused("only a person trusts a repository's team memory (memdir team trust)")
    session.check_scope("team")
    root = session.project()
    found = git.identity(root)
    local = team_meta_dir(session.home, root)
    was = session.team_trusted()
    mark = make_clone_mark(root)  # binds the trust to this git directory, known identity or not
    write_trust(local, {"root": str(root), "remote": found.get("remote"), "first_commit": found.get("first_commit"),
                        "clone": mark, "trusted_at": now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")})
    session.forget_trust()
    return TeamTrust(str(session.layer_dir("team")), True, not was, str(root), found.get("remote"),
                     found.get("first_commit"), *register_driver(root))


def untrust(session: Session) -> TeamTrust:
    """Take back :func:`trust`: the team layer's memories reach no agent again. A person only.
    Raises :class:`Refused`, :class:`ScopeError`, :class:`StoreError`."""
    if session.actor != "human":
        raise Refused("only a person takes back the trust of a repository's team memory (memdir team untrust)")
    root = session.project()
    removed = remove_trust(team_meta_dir(session.home, root))
    session.forget_trust()
    return TeamTrust(str(session.layer_dir("team")), False, removed, str(root))


def status(session: Session) -> TeamStatus:
    """The team memories changed and not yet committed, the files with an
    unresolved merge conflict and this person's pending candidates. Raises
    :class:`ScopeError`, :class:`StoreError` (git failed)."""
    session.check_scope("team")
    layer = _team(session)
    try:
        changes, git_error = git.status(Path(session.checkout_path), layer.path, ignored=True), None
    except StoreError as exc:  # not a git work tree (yet), or no git: the rest still answers
        changes, git_error = [], str(exc)
    ignored, ignores_new = git_ignores(Path(session.checkout_path), layer.path, changes) if git_error is None else ((), ())
    changes = [c for c in changes if c.state != "ignored"]
    conflicts = tuple(m.path for m in layer.scan().malformed if m.error == CONFLICT)
    too_large = tuple(m.path for m in layer.scan().malformed if m.error.startswith(TOO_LARGE))
    pending = tuple(sorted(candidates(session).scan().entries))
    pending = (*pending, *sorted(name for name, entry in layer.scan().entries.items()  # candidates in the directory
                                 if entry.record.status == "candidate" and name not in pending))
    one_side = deleted_on_one_side(layer, changes)
    # a conflict settled in the file (memdir team resolve, an editor) is still git's until it is added: say so
    marked = {Path(path).resolve() for path in conflicts}
    marked |= {Path(path).resolve() for path in too_large}  # a merge over the ceiling (files.merge): not settled
    unmarked = [c.path for c in changes if c.state == "conflicted" and c.code not in DELETED_ON_ONE_SIDE
                and (Path(session.checkout_path) / c.path).resolve() not in marked]
    # git's own line merge (no driver) writes markers of the path's conflict-marker-size attribute: read as git
    # wrote them (team40: markers of 10 made a conflicted file "settled, git add it"); one check-attr for the team
    found = team_attributes(session)
    sizes = {path: marker_size_of(found, Path(session.checkout_path) / path) for path in unmarked}
    read = {path: _read(Path(session.checkout_path) / path) for path in unmarked}
    conflicts = (*conflicts, *(str(Path(session.checkout_path) / path) for path in unmarked
                               if has_conflict(read[path], sizes[path])))
    unmarked = [path for path in unmarked if not has_conflict(read[path], sizes[path])]
    # git's own line merge (no driver) leaves a code block's hunk inside the fence, where markers read as text
    fenced = tuple(path for path in unmarked if fenced_markers(read[path], sizes[path]))
    settled = tuple(path for path in unmarked if path not in fenced)
    twice = tuple((stem_name(Path(path).name), *pair) for path in conflicts
                  if (pair := renamed_twice(layer, conflict_hunks_of(path))))
    return TeamStatus(str(layer.path), tuple(changes), conflicts, pending, git_error, merge_driver_missing(session, found),
                      one_side, unlifted(session), settled, fenced, ignored, ignores_new, too_large, twice,
                      live_copies(layer), nested_memory_files(layer.path))


def _read(path: Path) -> bytes:
    """The bytes of the team file at ``path`` (at most the merge's cap), never through a link; ``b""`` when it does
    not read."""
    try:
        return read_bytes(path, merge_rules.MAX_BYTES, follow=False) or b""
    except StoreError:
        return b""


def unlifted(session: Session) -> tuple[Unlifted, ...]:
    """The team tombstones removed unlifted (:class:`Unlifted`), oldest first: the team layer's tombstones
    in force marked :attr:`~memdir.tombstones.match.Tombstone.vanished` (the one rule of it is
    :mod:`memdir.tombstones.stones`), read as results for ``team status`` and ``doctor``. A tombstone forgotten again (the same value has the same id: its file is back) or
    lifted here is not listed. () without a team layer, or when its tombstones cannot be read (doctor reports
    those)."""
    if session.project_root is None or not session.has_team():
        return ()
    try:
        layer = _team(session)
        removed = [stone for stone in layer.tombstones() if stone.vanished]
    except (StoreError, ScopeError):
        return ()
    return tuple(Unlifted.of(layer, stone) for stone in removed)




def deleted_on_one_side(layer, changes) -> tuple[tuple[str, str, str, bool], ...]:
    """Per team memory file git left unmerged because one side deleted it and the other changed it
    (:data:`DELETED_ON_ONE_SIDE`): its path, its memory's name, the id of the team tombstone that
    forgot it by that name ("" when none does: a plain ``git rm``) and whether it is held back. The file
    git left holds no conflict marker; one whose value a tombstone matches is held back meanwhile
    (:mod:`memdir.layer.held`); one changed into another fact (a description saying more) is not, and is
    in use until settled (trial35: team status called such a file held back while the context block
    showed it)."""
    from pathlib import PurePosixPath

    found = []
    stones = None
    for change in changes:
        if change.code not in DELETED_ON_ONE_SIDE or not change.path.endswith(".md"):
            continue
        name = stem_name(PurePosixPath(change.path).name)
        if name is None:
            continue
        if stones is None:
            stones = layer.tombstones()
        stone = next((s for s in stones if s.name == name), None)
        found.append((change.path, name, stone.id if stone else "", name not in layer.scan().entries))
    return tuple(found)


def promote(session: Session, name: str) -> Promoted:
    """Move the personal project memory ``name`` into the team layer (a
    person only): written through the gateway (redaction, the credential
    check, every layer's tombstones as for any write into the team layer:
    :func:`memdir.operations.lookup.guard`), then removed from the project
    layer without a tombstone — only the version promoted: one updated meanwhile is kept, and a warning
    says so. A memory spelled unlike the team memory of its file name (``C# tips``
    where the team has ``C++ tips``: :func:`memdir.text.names.same_name`) is refused with
    :class:`Conflict`, naming the distinct name to rename it to first
    (:func:`memdir.gateway.fields.distinct_name`); so is one whose team memory of that name holds another
    value that came from outside this home (:func:`memdir.operations.moves.replaces_another`: a teammate's,
    pulled with git). Raises
    :class:`Refused`, :class:`NotFound`,
    :class:`Conflict`, :class:`ScopeError`."""
    if session.actor != "human":
        raise Refused("only a person promotes a memory to the team layer (memdir promote NAME --to team)")
    source = session.layer("project")
    key = normalize_name(name).name
    entry = source.scan().entries.get(key)
    if entry is None:
        raise NotFound(f"no project memory {key!r} to promote (memdir list --scope project)")
    record = entry.record
    if record.status == "candidate":
        raise Refused(f"{key!r} is a candidate; approve it first")
    team = _team(session)
    # Asked by its spelling (C# tips), so the team's memory of that file name is updated only when it is the
    # same name (the gateway refuses C# tips over C++ tips); said first with the rename that makes it distinct.
    spelled = spelled_name(key, record.title)
    there = team.scan().entries.get(key)
    if there is not None and not same_name(spelled, there.record.name, there.record.title):
        apart = distinct_name(spelled, {*team.scan().names, *source.scan().names})
        shown = repr(there.record.title) if there.record.title else repr(key)
        raise Conflict(f"cannot promote {spelled!r} ({key}): its file name {key!r} is that of the team memory "
                       f"{shown}, which is another name; rename it first (memdir write {apart} --rename-from {key} "
                       f"--scope project), then promote {apart}")
    if there is not None and replaces_another(team, key, there, record):
        apart = distinct_name(spelled, {*team.scan().names, *source.scan().names})
        raise Conflict(f"cannot promote {key!r}: the team layer has {key!r} ({there.record.description!r}) as git "
                       f"or a hand edit left it, and promoting would replace its text by yours; change it with "
                       f"`memdir write {key} --scope team`, or rename yours first (memdir write {apart} "
                       f"--rename-from {key} --scope project), then promote {apart}")
    promoted = MemoryChange(spelled, record.description, record.type, record.body, title=record.title,
                            pinned=record.pinned, importance=record.importance, valid_from=record.valid_from,
                            valid_until=record.valid_until, extra=record.extra,
                            reason="promoted from the project layer")
    stones = guard(session, team)
    stones.passed = (("project", key),)  # moved, not copied
    result = gateway.write(team, promoted, actor="human", session=session.id, guard=stones, action="promote")
    kept = ()
    try:  # only the version promoted goes: an update that landed meanwhile is kept, never lost
        gateway.delete(source, key, actor="human", tombstone=False, action="promote",
                       reason=PROMOTED, session=session.id, expect_digest=entry.digest)
    except (Conflict, NotFound):
        _forgotten_meanwhile(session, source, team, there, record, result)
        kept = (f"the project memory {key!r} changed while it was promoted, so it was kept: the team layer has the "
                f"version promoted; promote it again (memdir promote {key}) or edit one of them",)
    return Promoted(key, str(team.path / f"{key}.md"), result.operation, result.redactions,
                    (*result.warnings, *stones.skipped, *kept))


def _forgotten_meanwhile(session: Session, source, team, there, record, written: WriteResult) -> None:
    """A promote whose project copy went before its removal: when a tombstone of the project layer now forgets
    the value promoted (a person's forget landed after the promote read it: break34), the team write is taken
    back — the team memory removed (no tombstone), or ``there`` (the team's memory before) written back — and
    :class:`Conflict` raised: a forgotten fact never reaches the team. Else nothing (an edit meanwhile: both kept)."""
    try:
        hit = match(source.tombstones(), record.description, record.body, title=record.title)
    except StoreError:
        hit = None
    if hit is None:
        return
    why = f"forgotten in the project layer while it was promoted (tombstone {hit[0].id})"
    try:
        if there is None:
            gateway.delete(team, written.name, actor="human", tombstone=False, action="promote", reason=why,
                           session=session.id, expect_digest=written.digest)
        else:
            old = there.record
            gateway.write(team, MemoryChange(old.name, old.description, old.type, old.body, title=old.title,
                                             pinned=old.pinned, importance=old.importance, valid_from=old.valid_from,
                                             valid_until=old.valid_until, extra=old.extra, reason=why,
                                             expect_digest=written.digest), actor="human", session=session.id)
        undone = "its team write was taken back"
    except MemdirError as exc:  # the team memory changed since: a person's, kept; said
        undone = f"its team write could not be taken back ({exc}): `memdir delete {written.name} --scope team`"
    raise Conflict(f"the project memory {written.name!r} was {why}; {undone}, nothing was promoted")


def commits(session: Session, layer, name: str) -> tuple:
    """git's commits of team memory ``name``'s file, newest first (``()``
    when git has none)."""
    return tuple(git.log(Path(session.checkout_path), layer.path / f"{normalize_name(name).name}.md"))


def restore_commit(session: Session, name: str, commit: str, *,
                   expect_digest: str | None | bool = NO_CHECK) -> RestoreResult:
    """Write team memory ``name`` back as it was at git ``commit``, through
    the gateway (a new local version, to be committed); a commit from before the memory's file was renamed is
    read at the path it had then (:func:`memdir.git.path_at`), as :func:`commits` lists it. ``expect_digest``: the digest of the live
    memory the caller read (None: there was none), checked in the gateway's transaction as every
    restore's (:func:`memdir.gateway.compare.unchanged`). Raises :class:`NotFound`,
    :class:`TombstoneRefused`, :class:`Refused`, :class:`Conflict` (changed since read)."""
    layer = _team(session)
    key = normalize_name(name).name
    if not commit or commit.startswith("-"):
        raise InvalidInput(f"not a commit: {commit!r}")
    checkout, path = Path(session.checkout_path), layer.path / f"{key}.md"
    try:
        data = git.show(checkout, commit, path)
    except NotFound:  # not there under this name: renamed since (git log --follow lists its earlier commits)
        earlier = git.path_at(checkout, path, commit)
        if earlier is None or earlier == path:
            raise
        data = git.show(checkout, commit, earlier)
    stones = guard(session, layer)
    result = gateway.restore_bytes(layer, key, data, f"git commit {commit[:12]}", actor=session.actor,
                                   guard=stones, session=session.id, expect_digest=expect_digest)
    return RestoreResult(result.name, "team", 0, result.operation, result.digest, commit,
                         (*result.warnings, *stones.skipped))


__all__ = [
    "MERGE_DRIVER_FIX",
    "REJECTIONS",
    "ConflictSides",
    "Promoted",
    "Resolved",
    "TeamConflict",
    "TeamInit",
    "TeamStatus",
    "TeamTrust",
    "candidates",
    "commits",
    "conflict",
    "decide",
    "deleted_on_one_side",
    "git_ignores",
    "init",
    "merge_driver_missing",
    "pending",
    "pending_entries",
    "promote",
    "propose",
    "register_driver",
    "resolve",
    "restore_commit",
    "status",
    "tombstone_layers",
    "trust",
    "untrust",
]
