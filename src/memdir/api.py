"""The ``Memory`` facade: the one object every adapter (CLI, hooks, MCP, any
other harness) talks to.

A ``Memory`` is bound to a home, an optional project root and an *actor*
(who is calling: ``agent`` for tools a model calls, ``human`` for the CLI and
panel, ``extracted`` for consolidation, ``import``). The actor, never the
payload, decides a memory's ``origin`` and what it may do: only a person
approves candidates or lifts tombstones.

Two layers are visible to a session: the user layer (facts about the person,
every project) and the session's project layer. Nothing in one project's layer
is ever read from another project.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .store import context as context_mod
from .store import gateway as store
from .store.history import HistoryEntry, history as layer_history, records_as_of, version_bytes
from .store.layer import Layer
from .store.scan import Entry, Malformed
from .store.errors import InvalidInput, LockTimeout, NotFound, Refused, ScopeError, StoreError
from .store.index import is_current, is_stale, is_visible, ordered, score
from .store.journal import now_utc
from .store.memfile import MemoryRecord, format_time, parse_time
from .store.names import normalize_name
from .store.paths import layer_dirs, user_layer_dir
from .store.session import Session, open_session
from .store.settings import Settings
from .store.vocabulary import SCOPES

_LINK = re.compile(r"\[\[([^\[\]\n]{1,80})\]\]")
MAX_LINKS = 3


def _state(record: MemoryRecord, now: datetime, stale_after_days: int) -> str:
    if record.status != "active":
        return record.status
    if not is_current(record, now):
        return "expired" if record.valid_until and record.valid_until <= now else "not-yet-valid"
    if record.disabled:
        return "muted"
    if is_stale(record, stale_after_days, now):
        return "stale"
    return "active"


@dataclass(frozen=True)
class MemoryInfo:
    """A memory as list and search show it. Times are ISO-8601 UTC strings."""

    name: str
    scope: str
    type: str
    description: str
    title: str | None
    pinned: bool
    disabled: bool
    importance: int
    status: str
    state: str
    origin: str | None
    created: str | None
    updated: str | None
    valid_from: str | None = None
    valid_until: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def info_of(record: MemoryRecord, scope: str, now: datetime, stale_after_days: int = 0) -> MemoryInfo:
    """The :class:`MemoryInfo` of a record."""
    fmt = lambda t: format_time(t) if t else None  # noqa: E731
    return MemoryInfo(
        name=record.name, scope=scope, type=record.type, description=record.description,
        title=record.title, pinned=record.pinned, disabled=record.disabled,
        importance=record.effective_importance, status=record.status,
        state=_state(record, now, stale_after_days), origin=record.origin,
        created=fmt(record.created), updated=fmt(record.updated), valid_from=fmt(record.valid_from),
        valid_until=fmt(record.valid_until), supersedes=record.supersedes, superseded_by=record.superseded_by,
    )


@dataclass(frozen=True)
class ListResult:
    """``memories`` in index order per scope (user first) and files that are not memories."""

    memories: list[MemoryInfo]
    malformed: list[Malformed] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"memories": [m.to_dict() for m in self.memories],
                "malformed": [{"path": m.path, "error": m.error} for m in self.malformed]}


@dataclass(frozen=True)
class ReadResult:
    """A memory's full text, its scope and up to 3 linked memories (name, description)."""

    record: MemoryRecord
    scope: str
    linked: list[dict]

    def to_dict(self) -> dict:
        r = self.record
        return {"name": r.name, "scope": self.scope, "type": r.type, "title": r.title,
                "description": r.description, "body": r.body, "pinned": r.pinned,
                "disabled": r.disabled, "status": r.status, "origin": r.origin,
                "created": format_time(r.created) if r.created else None,
                "updated": format_time(r.updated) if r.updated else None,
                "reads": r.reads, "linked": self.linked}


class Memory:
    """Long-term memory for one session: the user layer plus one project layer.

    Open with :meth:`open`. Every method raises only :class:`memdir.MemdirError`
    subclasses. Scopes are ``"user"`` and ``"project"``; ``scope=None`` means
    "where it already is" for reads and updates (user first, then project) and
    ``project`` for new memories.
    """

    def __init__(self, session: Session):
        self.session = session

    # The session's parts, for adapters that show them.
    home = property(lambda self: self.session.home, doc="The memdir home (absolute).")
    settings = property(lambda self: self.session.settings, doc="The merged :class:`Settings`.")
    project_root = property(lambda self: self.session.project_root, doc="The canonical project root, or None.")
    project_error = property(lambda self: self.session.project_error, doc="Why there is no project root.")
    actor = property(lambda self: self.session.actor, doc="Who writes: human, agent, extracted or import.")

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, home: str | os.PathLike | None = None, project: str | os.PathLike | None = None, *,
             actor: str = "agent", session: str | None = None, settings: Settings | None = None,
             use_cwd: bool = True, **overrides: Any) -> "Memory":
        """Open the memory of ``project`` (a directory; default ``MEMDIR_PROJECT``,
        else the working directory when ``use_cwd``) under ``home`` (default
        ``MEMDIR_HOME`` / ``$DSH_HOME/memory`` / the platform data dir), as
        ``actor``, for the agent session ``session`` (an id kept in the journal).

        A project directory that does not exist is refused (:class:`ScopeError`).
        ``$HOME``, ``/`` or no project at all do not fail here: project-scope
        calls then raise :class:`ScopeError` saying how to set one, and the user
        layer still works. ``overrides`` are settings (``context_max_bytes=…``)
        applied over config file and environment. See
        :func:`memdir.store.session.open_session`.
        """
        return cls(open_session(home, project, actor=actor, session_id=session, settings=settings,
                                overrides=overrides, use_cwd=use_cwd))

    def as_actor(self, actor: str) -> "Memory":
        """The same memory seen by another actor (e.g. consolidation's ``extracted``)."""
        return Memory(self.session.as_actor(actor))

    # ------------------------------------------------------------ layers

    def layer(self, scope: str) -> Layer:
        """The layer for ``scope``. Raises :class:`ScopeError` / :class:`InvalidInput`."""
        return self.session.layer(scope)

    def scopes(self) -> list[str]:
        """The scopes this session can use, user first."""
        return list(self.session.scopes())

    def _scopes_for(self, scope: str | None) -> list[str]:
        return list(self.session.scopes_for(scope))

    def _find(self, name: str, scope: str | None) -> tuple[Layer, Entry]:
        key = normalize_name(name).name
        for candidate in self._scopes_for(scope):
            layer = self.layer(candidate)
            entry = layer.scan().entries.get(key)
            if entry is not None:
                return layer, entry
        where = f"the {scope} layer" if scope else "any layer"
        raise NotFound(f'memory not found: "{key}" in {where} (list the names with memory_list or `memdir list`)')

    def _guard(self, target: Layer) -> list:
        stones = []
        for scope in self.scopes():
            layer = self.layer(scope)
            if layer is not target:
                stones.extend(layer.tombstones())
        return stones

    # ------------------------------------------------------------ tools

    def write(self, name: str, description: str, type: str = "project", body: str = "", *,
              title: str | None = None, scope: str | None = None, pinned: bool | None = None,
              disabled: bool | None = None, importance: int | None = None, status: str | None = None,
              valid_from: str | datetime | None = None, valid_until: str | datetime | None = None,
              supersedes: str | None = None, reason: str | None = None,
              extra: dict | None = None, expect_digest: str | None | bool = False) -> store.WriteResult:
        """Create or update a memory (``memory_write``). See :func:`memdir.store.write`.

        ``scope`` None: where the memory already is, else the user layer for
        ``type="user"`` (facts about the person hold in every project), else
        the project layer.

        Limits: title 80, description 160, body 2000 characters by default
        (cut, with a warning in the result). Secrets are redacted and counted.
        ``status="candidate"`` proposes without publishing. Raises
        :class:`InvalidInput`, :class:`ScopeError`, :class:`TombstoneRefused`.
        """
        if scope is None:
            key = normalize_name(name).name
            scope = next((s for s in self.scopes() if self.layer(s).lookup(key)), None) or (
                "user" if type == "user" and self.settings.enable_user_scope else "project")
        layer = self.layer(scope)
        return store.write(
            layer, actor=self.actor, name=name, description=description, type=type, body=body,
            title=title, pinned=pinned, disabled=disabled, importance=importance, status=status,
            valid_from=_time_arg(valid_from, "valid_from"), valid_until=_time_arg(valid_until, "valid_until"),
            supersedes=supersedes, extra=extra, session=self.session.id, reason=reason, guard=self._guard(layer),
            expect_digest=expect_digest,
        )

    def read(self, name: str, scope: str | None = None, *, count: bool = True) -> ReadResult:
        """A memory's full text (``memory_read``); bumps ``reads``/``last_read``
        and lists up to 3 ``[[linked]]`` memories. Raises :class:`NotFound`."""
        layer, entry = self._find(name, scope)
        if count:
            try:
                store.touch(layer, entry.record.name, session=self.session.id, actor=self.actor)
                entry = layer.scan().entries.get(entry.record.name, entry)
            except (StoreError, LockTimeout):
                pass  # counting a read is best-effort (seed §A8): a read-only home still reads
        linked = []
        for match in _LINK.finditer(entry.record.body):
            if len(linked) >= MAX_LINKS:
                break
            try:
                _, other = self._find(match.group(1), None)
            except (NotFound, InvalidInput):
                continue
            if other.record.name != entry.record.name and all(l["name"] != other.record.name for l in linked):
                linked.append({"name": other.record.name, "description": other.record.description})
        return ReadResult(entry.record, layer.scope, linked)

    def list(self, scope: str | None = None, *, include_all: bool = False,
             as_of: str | datetime | None = None, valid_at: str | datetime | None = None) -> ListResult:
        """Memories per scope, user first, in index order (``memory_list``).

        Default: active and current memories, muted and stale ones included
        (they are out of the index, not out of the store). ``include_all``
        adds candidates, superseded and expired ones. ``as_of`` shows what the
        journal held at that time; ``valid_at`` what was true in the world then.
        """
        now = now_utc()
        as_of_t = _time_arg(as_of, "as_of")
        valid_t = _time_arg(valid_at, "valid_at")
        stale = self.settings.stale_after_days
        memories: list[MemoryInfo] = []
        malformed: list[Malformed] = []
        for scope_name in self._scopes_for(scope):
            layer = self.layer(scope_name)
            if as_of_t is not None:
                records = records_as_of(layer, as_of_t)
            else:
                scan = layer.scan()
                malformed.extend(scan.malformed)
                records = [e.record for e in scan.entries.values()]
            if valid_t is not None:
                records = [r for r in records if r.status != "candidate"
                           and (r.valid_from is None or r.valid_from <= valid_t)
                           and (r.valid_until is None or valid_t < r.valid_until)]
            elif not include_all:
                moment = as_of_t or now
                records = [r for r in records if is_current(r, moment)]
            for record in ordered(records, now):
                memories.append(info_of(record, scope_name, now, stale))
        return ListResult(memories, malformed)

    def delete(self, name: str, scope: str | None = None, *, reason: str | None = None) -> dict:
        """Delete a memory and tombstone its value (``memory_delete``): the same
        value is refused from then on, from every path, until a person lifts the
        tombstone. Returns ``{"name", "scope", "tombstone"}``. Raises :class:`NotFound`."""
        layer, entry = self._find(name, scope)
        stone = store.delete(layer, entry.record.name, actor=self.actor, reason=reason, session=self.session.id)
        return {"name": entry.record.name, "scope": layer.scope, "tombstone": stone.id if stone else None}

    def forget(self, name: str, scope: str | None = None, *, reason: str | None = None) -> dict:
        """"The user says this is wrong": delete with a tombstone, journaled as ``forget``."""
        layer, entry = self._find(name, scope)
        stone = store.delete(layer, entry.record.name, actor=self.actor, reason=reason or "forgotten",
                             action="forget", session=self.session.id)
        return {"name": entry.record.name, "scope": layer.scope, "tombstone": stone.id if stone else None}

    def prune(self, older_than_days: int, scope: str | None = None, *, dry_run: bool = True) -> dict:
        """Memories not updated for ≥ ``older_than_days`` whole days, pinned ones
        kept (``memory_prune``). A dry run unless ``dry_run=False``. Pruning
        leaves no tombstone. Returns ``{"dry_run", "deleted", "candidates"}``."""
        found: list[store.PruneCandidate] = []
        deleted = 0
        for scope_name in self._scopes_for(scope):
            layer = self.layer(scope_name)
            if dry_run:
                found.extend(store.prune_candidates(layer, older_than_days))
            else:
                done = store.prune(layer, older_than_days, actor=self.actor, session=self.session.id)
                found.extend(done)
                deleted += len(done)
        return {"dry_run": dry_run, "deleted": deleted,
                "candidates": [asdict(c) for c in found]}

    def clear(self, scope: str | None = None, *, confirm: bool = False) -> dict:
        """Delete every memory of ``scope`` (all session scopes when None), one
        lock window per layer (``memory_delete_all``). Needs ``confirm=True``.
        Tombstones stay. Returns ``{"scopes": [{"scope", "deleted"}]}``."""
        if confirm is not True:
            from .store.errors import ConfirmationRequired

            raise ConfirmationRequired("memory_delete_all requires confirm=true (destructive); ask the user first")
        out = []
        for scope_name in self._scopes_for(scope):
            out.append({"scope": scope_name, "deleted": store.clear(self.layer(scope_name), actor=self.actor,
                                                                    session=self.session.id)})
        return {"scopes": out}

    # ------------------------------------------------------------ context

    def context(self, max_bytes: int | None = None) -> str:
        """The context block for the system prompt: user then project index,
        fenced as data, with the memory policy, within ``max_bytes`` UTF-8
        bytes (default the ``context_max_bytes`` setting, 4096). ``""`` when
        there is nothing to show."""
        return context_mod.session_block(self.session, max_bytes)


    # ------------------------------------------------------------ history and trust

    def _sync(self, scope: str | None) -> None:
        """Journal hand edits first, so history shows them (best effort: a
        read-only home still answers from the journal it has)."""
        for scope_name in self._scopes_for(scope):
            layer = self.layer(scope_name)
            if layer.path.is_dir():
                try:
                    layer.refresh_index()
                except (StoreError, LockTimeout):
                    pass

    def history(self, name: str, scope: str | None = None) -> list[HistoryEntry]:
        """Every content version of ``name`` (also of a deleted memory), oldest first."""
        self._sync(scope)
        for scope_name in self._scopes_for(scope):
            versions = layer_history(self.layer(scope_name), name)
            if versions:
                return versions
        raise NotFound(f"no history for {normalize_name(name).name!r}")

    def _history_layer(self, name: str, scope: str | None) -> Layer:
        for scope_name in self._scopes_for(scope):
            if layer_history(self.layer(scope_name), name):
                return self.layer(scope_name)
        raise NotFound(f"no history for {normalize_name(name).name!r}")

    def show(self, name: str, version: int, scope: str | None = None) -> str:
        """The text of version ``version`` (1-based) of ``name``."""
        layer = self._history_layer(name, scope)
        return version_bytes(layer, name, version).decode("utf-8", "replace")

    def restore(self, name: str, version: int, scope: str | None = None) -> store.WriteResult:
        """Write version ``version`` of ``name`` back as a new journaled event
        (works for deleted memories). A tombstoned value stays refused."""
        layer = self._history_layer(name, scope)
        return store.restore(layer, name, int(version), actor=self.actor, guard=self._guard(layer),
                             session=self.session.id)

    def tombstones(self, scope: str | None = None) -> list[dict]:
        """Tombstones in force: ``{"id", "scope", "name", "description", "actor", "reason", "ts"}``."""
        out = []
        for scope_name in self._scopes_for(scope):
            for stone in self.layer(scope_name).tombstones():
                out.append({"id": stone.id, "scope": scope_name, "name": stone.name,
                            "description": stone.description, "actor": stone.actor,
                            "reason": stone.reason, "ts": stone.ts})
        return out

    def lift_tombstone(self, tombstone_id: str, *, reason: str | None = None) -> dict:
        """Lift a tombstone (a person only). Raises :class:`Refused`, :class:`NotFound`."""
        if self.actor != "human":
            raise Refused("only a person can lift a tombstone (memdir tombstone lift ID)")
        for scope_name in self.scopes():
            layer = self.layer(scope_name)
            if any(s.id == tombstone_id for s in layer.tombstones()):
                stone = store.lift_tombstone(layer, tombstone_id, actor=self.actor, reason=reason)
                return {"id": stone.id, "scope": scope_name, "name": stone.name}
        raise NotFound(f"no tombstone {tombstone_id!r}; see `memdir tombstones`")

    def review(self, scope: str | None = None) -> list[MemoryInfo]:
        """Candidates waiting for a person, per scope."""
        return [m for m in self.list(scope, include_all=True).memories if m.status == "candidate"]

    def approve(self, name: str, scope: str | None = None, *, reason: str | None = None) -> dict:
        """Publish a candidate (a person only); a tombstoned value is refused."""
        layer, entry = self._find(name, scope)
        target = store.set_status(layer, entry.record.name, approve=True, actor=self.actor, reason=reason,
                                  guard=self._guard(layer), session=self.session.id)
        return {"name": target, "scope": layer.scope, "approved": entry.record.name}

    def reject(self, name: str, scope: str | None = None, *, reason: str | None = None) -> dict:
        """Reject a candidate (a person only): its value is tombstoned."""
        layer, entry = self._find(name, scope)
        store.set_status(layer, entry.record.name, approve=False, actor=self.actor, reason=reason,
                         session=self.session.id)
        return {"name": entry.record.name, "scope": layer.scope, "rejected": True}

    def pin(self, name: str, value: bool = True, scope: str | None = None) -> bool:
        """Pin or unpin; False when nothing changed."""
        layer, entry = self._find(name, scope)
        return store.set_flag(layer, entry.record.name, flag="pinned", value=value, actor=self.actor,
                              session=self.session.id)

    def mute(self, name: str, value: bool = True, scope: str | None = None) -> bool:
        """Mute (hide from the index, keep listed) or unmute; False when nothing changed."""
        layer, entry = self._find(name, scope)
        return store.set_flag(layer, entry.record.name, flag="disabled", value=value, actor=self.actor,
                              session=self.session.id)

    def repair(self) -> list[dict]:
        """Bring every layer of this home to a consistent state: cut torn journal
        tails, journal hand edits, rebuild ``MEMORY.md``. Returns what
        :meth:`verify` then says."""
        for path in layer_dirs(self.home):
            scope = "user" if path == user_layer_dir(self.home) else "project"
            Layer(path, scope, self.settings).refresh_index()
        return self.verify()

    def verify(self) -> list[dict]:
        """Check every layer's journal chain and objects under this home.
        Returns one dict per layer: ``{"layer", "ok", "events", "bad_seq", "error"}``."""
        out = []
        for path in layer_dirs(self.home):
            from .store.journal import Journal
            from .store.layout import META_DIR

            result = Journal(path / META_DIR).verify()
            out.append({"layer": str(path), "ok": result.ok, "events": result.events,
                        "bad_seq": result.bad_seq, "bad_line": result.bad_line, "error": result.error})
        return out

    # ------------------------------------------------------------ adapters' entry points

    def search(self, query: str, k: int = 5, scope: str | None = None, *, include_muted: bool = False):
        """Ranked search over the session's memories (``memory_search``); see
        :func:`memdir.search.search`. Needs no extra; BM25 only without ``vectors``."""
        from .search.ranking import search

        return search(self, query, k=k, scope=scope, include_muted=include_muted)

    memory_search = search

    def recall(self, prompt: str, k: int = 3, max_bytes: int | None = None) -> str:
        """The per-prompt recall block (``<memory_recall>``), or ``""``; see
        :func:`memdir.search.recall`."""
        from .search.ranking import recall

        return recall(self, prompt, k=k, max_bytes=max_bytes)

    def tool_schemas(self) -> list[dict]:
        """The memory tools as OpenAI-style function definitions; see :mod:`memdir.tools`."""
        from .tools.handlers import tool_schemas

        return tool_schemas(self)

    def call_tool(self, name: str, arguments: dict | None = None) -> str:
        """Run one memory tool and return the text a model should see."""
        from .tools.handlers import call_tool

        return call_tool(self, name, arguments or {})

    def consolidate(self, transcript, **options):
        """Turn a session transcript into memory changes; see :func:`memdir.consolidate.consolidate`."""
        from .consolidation.consolidate import consolidate

        return consolidate(self, transcript, **options)

    def journal_receipt(self, scope: str, data: dict):
        """Journal one consolidation receipt in ``scope``'s layer (no file changes)."""
        return store.receipt(self.layer(scope), data, actor=self.actor, session=self.session.id)

    # ------------------------------------------------------------ status

    def status(self) -> dict:
        """Home, project, per-layer counts, malformed files and budget use."""
        now = now_utc()
        layers = []
        for scope_name in self.scopes():
            layer = self.layer(scope_name)
            scan = layer.scan()
            records = [e.record for e in scan.entries.values()]
            layers.append({
                "scope": scope_name, "path": str(layer.path), "memories": len(records),
                "visible": sum(1 for r in records if is_visible(r, now, self.settings.stale_after_days)),
                "candidates": sum(1 for r in records if r.status == "candidate"),
                "tombstones": len(layer.tombstones()),
                "malformed": [{"path": m.path, "error": m.error} for m in scan.malformed],
                "fallback_parsed": [str(e.path) for e in scan.entries.values() if e.fallback],
                "no_frontmatter": [str(e.path) for e in scan.entries.values() if e.no_frontmatter],
            })
        block = self.context()
        return {
            "home": str(self.home), "project_root": str(self.project_root) if self.project_root else None,
            "project_error": self.project_error, "layers": layers,
            "context_bytes": len(block.encode("utf-8")), "context_budget": self.settings.context_max_bytes,
            "search": _search_mode(self.settings),
        }


def _search_mode(settings: Settings) -> str:
    try:
        from .search.ranking import search_mode
    except ImportError:
        return "none"
    return search_mode(settings)


def _time_arg(value: str | datetime | None, label: str) -> datetime | None:
    if value is None or value == "":
        return None
    parsed = parse_time(value)
    if parsed is None:
        raise InvalidInput(f"{label}: cannot read {value!r} as a time (use ISO-8601, e.g. 2026-11-30T12:00:00Z)")
    return parsed


__all__ = ["Memory", "MemoryInfo", "ListResult", "ReadResult", "info_of", "SCOPES", "score"]
