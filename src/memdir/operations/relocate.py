"""Moved and renamed projects: orphaned layers, and re-keying one.

A project layer is keyed on its canonical root (:func:`memdir.paths.project_key`),
so ``mv proj proj2`` or a fresh clone elsewhere starts an empty layer and the
old one — whose ``layer.json`` names a root that no longer exists — is
orphaned. :func:`memdir.operations.maintenance.orphans` lists those layers with their memory counts and,
where it can tell, the project they belong to: the same git remote URL
(``remote.origin.url``) or the same first commit, as recorded in ``layer.json``
when the layer was made (:func:`memdir.git.identity`). :func:`move` re-keys a layer to a
new root through :func:`memdir.gateway.changes.move_layer` (journaled), refusing
to overwrite a target that holds memories.

A layer is orphaned only when no live project maps to it (:func:`live_keys`): its directory name is the
key (:func:`memdir.paths.project_key`, the one scheme every memdir has used: the same slug rule, with or
without a pattern, and the same 12 hex digits) of no directory known here — not the root its ``layer.json``
records, not the session's project, not a root another layer of the home records. A layer whose
``layer.json`` names a root that is gone but whose key is a live project's (a layer directory copied or
renamed by hand for a clone or a second checkout, a home copied from another machine) is that project's
layer, not an orphan: :func:`misrecorded` lists it, and its next change records the live root
(:func:`memdir.files.layout.describe_layer`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import Conflict, MemdirError, NotFound, Refused, StoreError
from ..files.layout import META_DIR, described_root, read_layer_info
from ..files.scan import count_files
from ..gateway.fields import reason_text
from ..git import identity
from ..paths import PROJECTS_DIR, project_key, project_layer_dir, project_root
from ..results import Result
from ..settings import Settings
from ..text.plural import counted


@dataclass(frozen=True)
class OrphanLayer(Result):
    """A project layer whose recorded root is gone: its key (directory
    name), the root it names, how many memory files it holds, and
    ``belongs_to``/``because`` when the session's project has the same
    remote URL or first commit (else None)."""

    key: str
    root: str | None
    memories: int
    belongs_to: str | None = None
    because: str | None = None


@dataclass(frozen=True)
class LayerMove(Result):
    """A re-keyed layer: the keys ``moved_from`` and ``moved_to``, the new
    project ``root`` and the count of memory files that moved."""

    moved_from: str
    moved_to: str
    root: str
    memories: int


def _memory_files(layer: Path) -> int:
    try:
        return count_files(layer)  # the scan's rule: not MEMORY.md, not a dot-file, not a link
    except StoreError:  # an unreadable layer lists as holding none: the listing of the others must not fail
        return 0


def _match(info: dict, ours: dict) -> str | None:
    for key, label in (("remote", "same git remote"), ("first_commit", "same first commit")):
        if info.get(key) and info.get(key) == ours.get(key):
            return f"{label} {info[key]}"
    return None


def live_keys(home: Path, project_root: Path | None = None) -> dict[str, str]:
    """``{key: root}`` for every live project this home knows of: the session's ``project_root`` (when
    given) and each root a ``layer.json`` of the home records (project layers, team layers and their
    candidates) that is still a directory, by the key memdir gives it (:func:`project_key`). A layer
    directory whose name is a key here belongs to a live project, whatever its own ``layer.json`` says."""
    from ..files.layout import META_DIR
    from ..layer.team import CANDIDATE_DIR
    from ..paths import TEAM_DIR

    roots = [str(project_root)] if project_root is not None else []
    for kind in (PROJECTS_DIR, TEAM_DIR):
        base = Path(home) / kind
        for path in sorted(base.iterdir()) if base.is_dir() else ():
            for meta in (path / META_DIR, path / CANDIDATE_DIR / META_DIR):
                root = (read_layer_info(meta) or {}).get("root")
                if isinstance(root, str) and root:
                    roots.append(root)
    found: dict[str, str] = {}
    for root in roots:
        if root not in found.values() and Path(root).is_dir():
            found.setdefault(project_key(root), root)
    return found


@dataclass(frozen=True)
class MisrecordedLayer(Result):
    """A live project's layer whose ``layer.json`` names another root: its ``key``, the ``recorded``
    root and the live ``root`` its key is of."""

    key: str
    recorded: str
    root: str

    @property
    def note(self) -> str:
        """One line for ``memdir doctor``: what is wrong and what settles it."""
        return (f"layer {self.key} is the layer of {self.root} (its key), though its layer.json names {self.recorded}: "
                f"not orphaned; its next change records {self.root} (nothing to move)")


def misrecorded(projects, live: dict[str, str]) -> list[MisrecordedLayer]:
    """:class:`MisrecordedLayer` for each :class:`~memdir.results.maintenance.ProjectInfo` of ``projects`` whose key
    is a live project's (``live``: :func:`live_keys`) but whose recorded root is another one."""
    return [MisrecordedLayer(info.key, info.root, live[info.key]) for info in projects
            if info.root and info.key in live and info.root != live[info.key]]


@dataclass(frozen=True)
class StrandedLayer(Result):
    """A project layer a ``memdir move-layer`` was cut in, between its journal line and its rename: its
    ``layer.json`` names the living project ``root`` it was moving to, its directory still has the old
    ``key``; ``memories`` files no session reads until the move is finished."""

    key: str
    root: str
    memories: int

    @property
    def problem(self) -> tuple[str, str]:
        """``(what, why and the command that finishes it)`` for ``memdir doctor``."""
        why = (f"{counted(self.memories, 'memory')} of {self.root}, recorded there by a move cut before its "
               f"directory was renamed: memdir move-layer {self.key} {self.root} finishes it")
        return (f"layer {self.key}", why)


def stranded(projects, live: dict[str, str]) -> list[StrandedLayer]:
    """:class:`StrandedLayer` for each :class:`~memdir.results.maintenance.ProjectInfo` of ``projects`` whose
    journal ends with a ``move`` to the root its ``layer.json`` records — a living project not its key's — while
    its key is no live project's (``live``: :func:`live_keys`): no session opens it, it is neither orphaned nor
    misrecorded, and without this its memories were seen nowhere. A layer copied by hand (no such ``move``) is
    not one."""
    from ..layer.journal import Journal

    found = []
    for info in projects:
        if not info.root or not info.exists or info.key in live or project_key(info.root) == info.key:
            continue
        try:
            last = Journal(Path(info.path) / META_DIR).last_event()
        except MemdirError:
            continue
        if last is not None and last.action == "move" and last.data.get("to_root") == info.root:
            found.append(StrandedLayer(info.key, info.root, _memory_files(Path(info.path))))
    return found


def orphans_of(gone, project_root: Path | None = None, home: Path | None = None) -> list[OrphanLayer]:
    """:class:`OrphanLayer` for each :class:`~memdir.results.maintenance.ProjectInfo`
    in ``gone`` (layers whose recorded root no longer exists: the rule is
    :func:`memdir.operations.maintenance.projects`), with its memory count; with
    ``project_root``, each matched against that project's :func:`identity`, as its layers recorded it
    (``layer.json``, where each layer keeps it: the project layer's, else, in ``home``, the team layers' of the
    same key — a repository known here by its team layer alone has no project layer)."""
    from ..layer.layer import Layer
    from ..layer.team import home_team_layers

    ours = identity(project_root) if project_root is not None else {}
    team: dict[str, list] = {}
    if project_root is not None and home is not None:
        for layer in home_team_layers(home, Settings()):
            if layer.root is not None:
                team.setdefault(project_key(layer.root), []).append(layer)
    found = []
    for info in gone:
        because = None
        if project_root is not None:
            layers = [Layer(Path(info.path), "project", Settings()), *team.get(info.key, ())]
            because = next((why for layer in layers if (why := _match(read_layer_info(layer.meta) or {}, ours))),
                           None)
        found.append(OrphanLayer(info.key, info.root, _memory_files(Path(info.path)),
                                 str(project_root) if because else None, because))
    return found


@dataclass(frozen=True)
class GoneCheckout(Result):
    """The local side of a team layer (``<home>/team/<key>``: its journal, version objects and this person's
    candidates, :func:`memdir.paths.team_meta_path`) of a git worktree that was removed (``git worktree remove``
    or ``prune``: the worktree's git directory its ``layer.json`` recorded, :func:`memdir.git.identity`, is gone)
    and is no live project's: ``key``, ``path``, the ``root`` it recorded, its journal ``events`` and the
    ``candidates`` waiting there. Not an orphan to move (:class:`OrphanLayer`): no checkout takes it over."""

    key: str
    path: str
    root: str
    events: int
    candidates: int

    @property
    def note(self) -> str:
        """One line for ``memdir doctor``: what it is, what it holds, that no checkout uses it, how it goes."""
        waiting = (f" and {counted(self.candidates, 'team candidate')} of yours waiting for review"
                   if self.candidates else "")
        return (f"team journal {self.path}: of {self.root}, a git worktree that was removed; no checkout here uses "
                f"it. It holds {counted(self.events, 'journal event')} (with the versions of the team memories "
                f"written there: one not committed before the worktree went is only there){waiting}. A worktree "
                f"added again at {self.root} takes it up again; if none will be and nothing in it is wanted, "
                f"remove it: rm -r {self.path}")


def gone_checkouts(home: Path, projects, live: dict[str, str]) -> list[GoneCheckout]:
    """:class:`GoneCheckout` for each :class:`~memdir.results.maintenance.ProjectInfo` of ``projects``
    (:func:`memdir.operations.maintenance.projects`) known by its team layer alone (no ``projects/<key>``),
    whose recorded root is gone, whose key no live project has (``live``: :func:`live_keys`) and whose
    ``layer.json`` recorded a linked worktree's git directory that is gone too. A clone moved or deleted, or a
    worktree deleted without ``git worktree prune`` (its git directory stays), is not one: an orphan still.
    Nothing is removed: a worktree added again at the root uses its journal."""
    from ..layer.journal import Journal
    from ..layer.team import CANDIDATE_DIR
    from ..paths import TEAM_DIR

    found = []
    for info in projects:
        local = Path(home) / TEAM_DIR / info.key
        if not info.root or info.exists or info.key in live or Path(info.path).is_dir() or not local.is_dir():
            continue
        metas = (local / META_DIR, local / CANDIDATE_DIR / META_DIR)
        recorded = [(read_layer_info(meta) or {}).get("worktree") for meta in metas]
        if not any(isinstance(r, str) and r and not Path(r).exists() for r in recorded):
            continue
        events = 0
        for meta in metas:
            try:
                last = Journal(meta).last_event() if meta.is_dir() else None
            except MemdirError:  # a damaged journal: `memdir verify` says so; counted as none here
                last = None
            events += last.seq if last is not None else 0
        found.append(GoneCheckout(info.key, str(local), info.root, events, _memory_files(local / CANDIDATE_DIR)))
    return found


def _source(home: Path, old: str) -> Path:
    """The layer named by ``old``: a key under ``projects/``, or the old
    project root (its key computed as memdir does)."""
    base = Path(home) / PROJECTS_DIR
    for candidate in (base / old, base / project_key(old.rstrip("/\\") or old)):
        if candidate.is_dir() and candidate.parent == base:
            return candidate
    raise NotFound(f"no project layer {old!r} under {base} (give a layer key from `memdir doctor` "
                   "or the project's old path)")


def move(session, old: str, new: str | None = None, *, reason: str | None = None, force: bool = False) -> LayerMove:
    """Re-key the project layer ``old`` (key or old root) to the project
    ``new`` (a directory; default the session's project). An existing
    target layer with no memories and no journal is replaced; one that holds
    either is refused (:class:`Conflict`). A layer whose recorded root still
    exists belongs to a living project (``new`` is a copy of it, not its new
    place): refused (:class:`Refused`) unless ``force``. ``reason`` is
    journaled as every reason is (:func:`memdir.gateway.fields.reason_text`).
    Raises :class:`NotFound`, :class:`ScopeError`, :class:`Conflict`,
    :class:`Refused`, :class:`StoreError`, :class:`InvalidInput` (a reason
    that is not text)."""
    from ..gateway.changes import move_layer
    from ..layer.layer import Layer

    reason = reason_text(session.settings, reason)  # refused before anything is moved or cleared
    home = session.home
    source = _source(home, old)
    root = project_root(new) if new else session.project()  # $HOME and / refused as a session refuses them
    target = project_layer_dir(home, root)
    if target == source:
        raise Conflict(f"layer {source.name} already belongs to {root}")
    if target.exists():
        journaled = Layer(target, "project", session.settings).journal.stat_key()  # where the layer keeps it
        if _memory_files(target) or (journaled is not None and journaled[0]):
            raise Conflict(f"the project {root} already has a layer with memories ({target}); memdir does not "
                           "overwrite it — move or clear its memories first")
    recorded = described_root(source)
    live = live_keys(home)
    owner = live.get(source.name) or (recorded if recorded and Path(recorded).is_dir() else None)
    # A layer recording the very project it moves to, under a key no live project has: a move cut before its
    # rename (stranded): finishing it takes nothing from anyone.
    if owner and not force and not (source.name not in live and owner == str(root)):
        recorded = owner
        raise Refused(f"layer {source.name} belongs to {recorded}, which still exists: moving it would take that "
                      f"project's {counted(_memory_files(source), 'memory')} away from it. To start {root} with some of "
                      "them, copy them (memdir read NAME there, memdir write here); to move the layer anyway, "
                      "pass --force")
    if target.exists():
        try:
            shutil.rmtree(target)
        except OSError as exc:
            raise StoreError(f"cannot clear the empty layer {target}: {exc.strerror or exc}") from None
    count = _memory_files(source)
    move_layer(Layer(source, "project", session.settings), target, root, actor=session.actor, reason=reason,
               info=identity(root))
    return LayerMove(source.name, target.name, str(root), count)


__all__ = ["GoneCheckout", "LayerMove", "MisrecordedLayer", "OrphanLayer", "StrandedLayer", "gone_checkouts",
           "live_keys", "misrecorded", "move", "orphans_of", "stranded"]
