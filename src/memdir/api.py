"""The ``Memory`` facade: a session plus the operations (DESIGN §8).

Every adapter — the CLI, the hooks, the MCP server, any other harness — talks
to memdir through a :class:`Memory`. It holds a
:class:`~memdir.session.Session` (home, settings, project root, actor,
session id; built by :func:`~memdir.session.open_session`, the one rule
for all of them) and forwards each method to the module that owns the
operation, which returns a typed result (:mod:`memdir.results`):

==========================  ===========================================
methods                     module
==========================  ===========================================
write apply read list       :mod:`memdir.operations.memories` (the tools)
delete forget prune clear
history show restore        :mod:`memdir.operations.versions`
tombstones lift_tombstone   :mod:`memdir.operations.trust` (what a person decides)
review approve reject
dismiss candidate pin mute
team_init team_status       :mod:`memdir.operations.team` (the team layer)
team_trust team_untrust
team_conflict team_resolve promote
sync_init sync              :mod:`memdir.operations.sync` (the person's layers through git)
sync_status sync_resolve
import_from                 :mod:`memdir.importing.run` (readers: :mod:`memdir.importing.sources`)
export                      :mod:`memdir.importing.export`
status doctor               :mod:`memdir.tools.handlers` (the store's status with search's and
                            consolidation's parts)
journal                     :mod:`memdir.operations.maintenance`
verify repair               :mod:`memdir.operations.verify`
context                     :mod:`memdir.prompt.context`
pending                     :mod:`memdir.prompt.pending`
search recall               :mod:`memdir.search`
consolidate                 :mod:`memdir.consolidation`
tool_schemas call_tool      :mod:`memdir.tools`
==========================  ===========================================

The actor, never the payload, decides a memory's ``origin`` and what may be
done: only a person approves candidates or lifts tombstones. A session sees
the user layer and its own project's layer, never another project's.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import InvalidInput
from .gateway.fields import MemoryChange
from .operations import memories as operations
from .session import Session, open_session
from .settings import Settings

if TYPE_CHECKING:  # loaded on first use by the methods that return them (a CLI command pays for its own)
    from .consolidation.proposals import ConsolidationReport
    from .gateway.edits import BodyEdit, EditResult
    from .importing.export import ExportReport
    from .importing.run import ImportReport
    from .operations.contested import SyncConflict
    from .operations.findings import FindingsDropped, FindingsResult
    from .operations.relocate import LayerMove, OrphanLayer
    from .operations.sync import SyncInit, SyncReport, SyncStatus
    from .operations.team import (
        Promoted,
        Resolved,
        TeamConflict,
        TeamInit,
        TeamStatus,
        TeamTrust,
    )
    from .results.maintenance import (
        DoctorResult,
        JournalResult,
        StatusResult,
        VerifyResult,
    )
    from .results.memories import (
        ClearResult,
        DeleteResult,
        HistoryResult,
        ListResult,
        PruneResult,
        ReadResult,
        RestoreResult,
        VersionResult,
        WriteResult,
    )
    from .results.trust import (
        Decision,
        FlagResult,
        LiftResult,
        ReviewResult,
        TombstoneList,
    )
    from .search.hits import SearchResult
    from .search.recall import RecallResult


def _layer_texts(home, layer_dir):
    """:func:`memdir.search.filetexts.layer_texts` (a :attr:`memdir.session.Session.indexed`), search loaded when
    first asked."""
    from .search.filetexts import layer_texts

    return layer_texts(home, layer_dir)


class Memory:
    """Long-term memory for one session: the user layer plus one project layer.

    Open with :meth:`open`. Every method raises only :class:`memdir.MemdirError`
    subclasses. Scopes are ``"user"``, ``"team"`` (the repository's shared
    layer, when it has one) and ``"project"``; ``scope=None`` means
    "where it already is" for reads and updates (user first, then project) and
    ``project`` for new memories (``user`` for ``type="user"``).
    """

    def __init__(self, session: Session):
        self.session = session
        if session.indexed is None:  # a forget's sieve reads the index's texts before any file (holders_of)
            session.indexed = _layer_texts

    # The session's parts, for adapters that show them.
    home = property(lambda self: self.session.home, doc="The memdir home (absolute).")
    settings = property(lambda self: self.session.settings, doc="The merged :class:`Settings`.")
    project_root = property(lambda self: self.session.project_root, doc="The canonical project root, or None.")
    project_error = property(lambda self: self.session.project_error, doc="Why there is no project root.")
    actor = property(lambda self: self.session.actor, doc="Who writes: human, agent, extracted or import.")

    @classmethod
    def open(cls, home: str | os.PathLike | None = None, project: str | os.PathLike | None = None, *,
             actor: str = "agent", session: str | None = None, settings: Settings | None = None,
             use_cwd: bool = True, **overrides: Any) -> "Memory":
        """Open the memory of ``project`` (a directory; default ``MEMDIR_PROJECT``,
        else the working directory; with ``use_cwd=False``, ``project`` alone)
        under ``home`` (default ``MEMDIR_HOME`` / ``$DSH_HOME/memory`` / the
        platform data dir), as ``actor``, for the agent session ``session``
        (an id kept in the journal).

        A project directory that does not exist is refused (:class:`ScopeError`).
        ``$HOME``, ``/`` or no project at all do not fail here: project-scope
        calls then raise :class:`ScopeError` saying how to set one, and the user
        layer still works. ``overrides`` are settings (``context_max_bytes=…``)
        applied over config file and environment. See
        :func:`memdir.session.open_session`.
        """
        return cls(open_session(home, project, actor=actor, session_id=session, settings=settings,
                                overrides=overrides, use_cwd=use_cwd))

    def as_actor(self, actor: str) -> "Memory":
        """The same memory seen by another actor (e.g. consolidation's ``extracted``)."""
        return Memory(self.session.as_actor(actor))

    def scopes(self) -> list[str]:
        """The scopes this session can use, user first."""
        return list(self.session.scopes())

    # ------------------------------------------------------------ the tools

    def write(self, name: str, description: str | None = None, type: str | None = None, body: str | None = None, *,
              scope: str | None = None, **fields: Any) -> WriteResult:
        """Create or update a memory (``memory_write``): ``mem.write("db-port", "Dev PostgreSQL listens on
        5433", "project", "body", scope="user")``. ``fields`` are those of :class:`~memdir.MemoryChange`
        (``title``, ``pinned``, ``importance``, ``status``, ``valid_until``, ``rename_from``, ``clear``…);
        an unknown one raises :class:`InvalidInput` naming it. A description, type or body left None keeps
        the memory's; a new memory needs a description (type by default its layer's: ``user`` in the user
        layer, else ``project``); ``body=""`` empties the body. See :meth:`apply` and :func:`memdir.operations.memories.write`."""
        return operations.write(self.session, MemoryChange.of(name, description, type, body, **fields), scope)

    def apply(self, change: MemoryChange, scope: str | None = None) -> WriteResult:
        """Write a prepared :class:`~memdir.MemoryChange` into ``scope`` (None: where the memory is, else
        by its type), as :meth:`write` does. Raises :class:`InvalidInput` when ``change`` is not one."""
        if not isinstance(change, MemoryChange):
            raise InvalidInput(f"apply takes a MemoryChange (got {type(change).__name__}); "
                               "Memory.write takes the fields as keywords")
        return operations.write(self.session, change, scope)

    def edit(self, name: str, change: BodyEdit, scope: str | None = None) -> EditResult:
        """Change part of ``name``'s body (``memory_edit``): replace one unique piece of text, or insert
        lines (:class:`~memdir.BodyEdit`); see :func:`memdir.operations.memories.edit`."""
        from .gateway.edits import BodyEdit
        if not isinstance(change, BodyEdit):
            raise InvalidInput(f"edit takes a BodyEdit (got {type(change).__name__})")
        return operations.edit(self.session, name, change, scope)

    def read(self, name: str, scope: str | None = None, *, count: bool = True) -> ReadResult:
        """A memory's full text and its links (``memory_read``); see :func:`memdir.operations.memories.read`."""
        return operations.read(self.session, name, scope, count=count)

    def list(self, scope: str | None = None, *, include_all: bool = False,
             as_of: str | datetime | None = None, valid_at: str | datetime | None = None) -> ListResult:
        """Memories in index order (``memory_list``); see :func:`memdir.operations.memories.list_memories`."""
        return operations.list_memories(self.session, scope, include_all=include_all, as_of=as_of, valid_at=valid_at)

    def delete(self, name: str, scope: str | None = None, *, reason: str | None = None,
               expect_digest: str | None | bool = False) -> DeleteResult:
        """Delete a memory, tombstoning its value (``memory_delete``); see :func:`memdir.operations.memories.delete`.
        ``expect_digest``: the digest of the version you read (``digest`` of :meth:`read`, ``file_digest`` of
        :meth:`list`); when the memory
        changed or went since, nothing is deleted and :class:`memdir.errors.Conflict` says so (False, the
        default: not checked)."""
        return operations.delete(self.session, name, scope, reason=reason, expect_digest=expect_digest)

    def forget(self, name: str, scope: str | None = None, *, reason: str | None = None,
               expect_digest: str | None | bool = False) -> DeleteResult:
        """"The user says this is wrong": delete with a tombstone, journaled as ``forget``; ``expect_digest``
        as for :meth:`delete`."""
        return operations.delete(self.session, name, scope, reason=reason, forget=True, expect_digest=expect_digest)

    def prune(self, older_than_days: int, scope: str | None = None, *, dry_run: bool = True) -> PruneResult:
        """Old unpinned memories, deleted only with ``dry_run=False`` (``memory_prune``)."""
        return operations.prune(self.session, older_than_days, scope, dry_run=dry_run)

    def clear(self, scope: str | None = None, *, confirm: bool = False) -> ClearResult:
        """Delete every memory of ``scope`` (``memory_delete_all``); needs ``confirm=True``."""
        return operations.clear(self.session, scope, confirm=confirm)

    def history(self, name: str, scope: str | None = None) -> HistoryResult:
        """Every content version of ``name``, also of a deleted memory (``memory_history``)."""
        from .operations import versions
        return versions.history(self.session, name, scope)

    def show(self, name: str, version: int | str, scope: str | None = None) -> VersionResult:
        """The text of version ``version`` (1-based; ``3`` or ``"v3"``) of ``name``."""
        from .operations import versions
        return versions.show(self.session, name, version, scope)

    def restore(self, name: str, version: int | str | None = None, scope: str | None = None, *,
                commit: str | None = None, reactivate: bool = False,
                expect_digest: str | None | bool = False) -> RestoreResult:
        """Write version ``version`` of ``name`` back (``memory_restore``), or a
        team memory as git holds it at ``commit``; a tombstoned value stays refused,
        an active version over a superseded memory needs ``reactivate``. ``expect_digest`` (a version's
        restore and a commit's alike): the digest of the live version you read (None: it was deleted when
        you read it): a memory changed, gone or written again since is not replaced
        (:class:`memdir.errors.Conflict`); False (the default): not checked."""
        from .operations import versions
        return versions.restore(self.session, name, version, scope, commit=commit, reactivate=reactivate,
                                expect_digest=expect_digest)

    # ------------------------------------------------------------ the team layer

    def team_init(self) -> TeamInit:
        """Create or adopt the repository's team directory; see :func:`memdir.operations.team.init`."""
        from .operations import team as teamops
        return teamops.init(self.session)

    def team_trust(self) -> TeamTrust:
        """Let this repository's team memory reach the agent in this clone; see :func:`memdir.operations.team.trust`."""
        from .operations import team as teamops
        return teamops.trust(self.session)

    def team_untrust(self) -> TeamTrust:
        """Take back :meth:`team_trust`; see :func:`memdir.operations.team.untrust`."""
        from .operations import team as teamops
        return teamops.untrust(self.session)

    def team_status(self) -> TeamStatus:
        """Team memories changed and not committed (``git status``), conflicts, pending candidates."""
        from .operations import team as teamops
        return teamops.status(self.session)

    def team_conflict(self, name: str) -> TeamConflict:
        """Both sides of each conflict hunk of team memory ``name``, before a person chooses; see
        :func:`memdir.operations.team.conflict`."""
        from .operations import team as teamops
        return teamops.conflict(self.session, name)

    def team_resolve(self, name: str, side: str | None = None, fields: dict[str, str] | None = None) -> Resolved:
        """Settle a team memory's merge conflict by ``side`` (``ours`` | ``theirs``), or per field (``fields``:
        field → side; ``side`` for the rest); see :func:`memdir.operations.team.resolve`."""
        from .operations import team as teamops
        return teamops.resolve(self.session, name, side, fields)

    def sync_init(self, remote: str, layers: str | None = None) -> "SyncInit":
        """Make the sync repository for a private git ``remote`` and the ``layers`` chosen (``user`` |
        ``user,projects``; None: ``user``, or what an existing sync repository has); see :func:`memdir.operations.sync.init`."""
        from .operations import sync

        return sync.init(self.session, remote, layers)

    def sync(self) -> "SyncReport":
        """Export, commit, fetch, merge, import, push the synced layers; see :func:`memdir.operations.sync.sync`."""
        from .operations import sync

        return sync.sync(self.session)

    def sync_status(self) -> "SyncStatus":
        """The sync state without the network; see :func:`memdir.operations.sync.status`."""
        from .operations import sync

        return sync.status(self.session)

    def sync_conflict(self, name: str, scope: str = "user") -> "SyncConflict":
        """Both values of each conflicting field of ``name``; see :func:`memdir.operations.sync.show_conflict`."""
        from .operations import sync

        return sync.show_conflict(self.session, name, scope)

    def sync_resolve(self, name: str, scope: str = "user", side: str | None = None,
                     fields: dict[str, str] | None = None) -> Resolved:
        """Settle a sync conflict of ``name`` in ``scope`` per field; see :func:`memdir.operations.sync.resolve`."""
        from .operations import sync

        return sync.resolve(self.session, name, scope, side, fields)

    def import_from(self, kind: str, path: str | None = None, *, scope: str | None = None, dry_run: bool = False,
                    progress=None, include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()) -> ImportReport:
        """Import memories from another system (``claude-code``, ``dsh``, ``dir``,
        ``mcp-memory``, ``basic-memory``, ``claude-mem``) as origin ``import``; idempotent, through
        the tombstones, never overwriting a changed memory. ``progress(done, total)``
        is told of each item (the protocol of :mod:`memdir.render.progress`); ``include`` and
        ``exclude`` are shell patterns for the files of a folder (:mod:`memdir.importing.folders`).
        See :mod:`memdir.importing.run`."""
        # imported here, as export's: a write, read or search loads no importer (the importing package)
        from .importing import run as imports
        from .importing.items import gather

        where, items = gather(self.session, kind, path, include=include, exclude=exclude)
        return imports.run(self.session, kind, where, items, scope=scope, dry_run=dry_run, progress=progress)

    def export(self, directory: str, *, scope: str | None = None, format: str = "memdir",
               with_history: bool = False) -> ExportReport:
        """Write the memories (of ``scope``, else every layer) into the new or empty ``directory`` as
        ``memdir`` files, a ``claude-code`` auto memory folder or ``jsonl``; ``with_history`` adds every
        stored version. See :mod:`memdir.importing.export`."""
        from .importing.export import export as export_memories

        return export_memories(self.session, directory, scope=scope, format=format, with_history=with_history)

    def promote(self, name: str) -> Promoted:
        """Move a personal project memory into the team layer (a person only)."""
        from .operations import team as teamops
        return teamops.promote(self.session, name)

    # ------------------------------------------------------------ what a person decides

    def tombstones(self, scope: str | None = None) -> TombstoneList:
        """The tombstones in force; see :func:`memdir.operations.trust.tombstones`."""
        from .operations import trust
        return trust.tombstones(self.session, scope)

    def lift_tombstone(self, tombstone_id: str, *, reason: str | None = None, scope: str | None = None) -> LiftResult:
        """Lift a tombstone (a person only) of any layer, or of ``scope``'s only;
        see :func:`memdir.operations.trust.lift_tombstone`."""
        from .operations import trust
        return trust.lift_tombstone(self.session, tombstone_id, reason=reason, scope=scope)

    def review(self, scope: str | None = None) -> ReviewResult:
        """Candidates waiting for a person, each with what approving it does and the digest of what is
        shown; see :func:`memdir.operations.trust.review`."""
        from .operations import trust
        return trust.review(self.session, scope)

    def findings(self) -> FindingsResult:
        """The project's pending findings still to show (:func:`memdir.operations.findings.findings`)."""
        from .operations import findings

        return findings.findings(self.session)

    def drop_findings(self, ids: list[str] | tuple[str, ...], scope: str | None = None) -> FindingsDropped:
        """Remove pending findings by id (``"all"``: every one), all or none; a ``scope`` other than the
        project's is refused (:func:`memdir.operations.findings.drop_findings`)."""
        from .operations import findings

        return findings.drop_findings(self.session, ids, scope)

    def candidate(self, name: str, scope: str | None = None, *, as_approved: bool = False) -> ReadResult:
        """A candidate's own text (a team candidate's too: the one waiting in the home); with
        ``as_approved``, as approving it writes it (:func:`memdir.operations.trust.candidate`)."""
        from .operations import trust
        return trust.candidate(self.session, name, scope, as_approved=as_approved)

    def approve(self, name: str, scope: str | None = None, *, reason: str | None = None,
                digest: str | None = None, edit: MemoryChange | None = None) -> Decision:
        """Publish a candidate (a person only); a tombstoned value is refused; with ``digest`` (from
        :meth:`review`), only when it is still what was shown; ``edit`` corrects it first
        (:func:`memdir.operations.trust.approve`)."""
        from .operations import trust
        return trust.approve(self.session, name, scope, reason=reason, digest=digest, edit=edit)

    def reject(self, name: str, scope: str | None = None, *, reason: str | None = None,
               digest: str | None = None) -> Decision:
        """Reject a candidate (a person only): the fact is wrong, its value is tombstoned."""
        from .operations import trust
        return trust.reject(self.session, name, scope, reason=reason, digest=digest)

    def dismiss(self, name: str, scope: str | None = None, *, reason: str | None = None,
                digest: str | None = None) -> Decision:
        """Dismiss a candidate (a person only): dropped with no tombstone; the same proposal is not
        proposed again."""
        from .operations import trust
        return trust.dismiss(self.session, name, scope, reason=reason, digest=digest)

    def pin(self, name: str, value: bool = True, scope: str | None = None, *,
            expect_digest: str | None | bool = False) -> FlagResult:
        """Pin (``value=False``: unpin) a memory; pinned memories lead the index. ``expect_digest`` as for
        :meth:`delete`."""
        from .operations import trust
        return trust.set_flag(self.session, name, "pinned", value, scope, expect_digest=expect_digest)

    def mute(self, name: str, value: bool = True, scope: str | None = None, *,
             expect_digest: str | None | bool = False) -> FlagResult:
        """Mute (``value=False``: unmute): out of the index, still listed. ``expect_digest`` as for
        :meth:`delete`."""
        from .operations import trust
        return trust.set_flag(self.session, name, "disabled", value, scope, expect_digest=expect_digest)

    # ------------------------------------------------------------ reading for the prompt

    def context(self, max_bytes: int | None = None) -> str:
        """The context block for the system prompt: user then project index,
        fenced as data, with the memory policy, within ``max_bytes`` UTF-8
        bytes (default the ``context_max_bytes`` setting, 4096). ``""`` when
        there is nothing to show. See :func:`memdir.prompt.context.session_block`."""
        from .prompt.context import session_block
        return session_block(self.session, max_bytes)

    def search(self, query: str, k: int = 5, scope: str | None = None, *, include_muted: bool = False,
               type: str | list[str] | None = None, origin: str | list[str] | None = None,
               pinned: bool | None = None, since: str | None = None, until: str | None = None,
               offset: int = 0, min_score: float | None = None) -> list[SearchResult]:
        """Ranked search over the session's memories (``memory_search``): a
        list of :class:`~memdir.search.hits.SearchResult` — those scoring at
        least the relevance threshold and those sharing a content word with
        the query (or, given ``min_score``, those reaching it as recall reads the query: 0.5 is recall's decision, 0
        every memory ranked; :func:`memdir.search.ranking.search`) — best first, after
        ``offset``; ``type``/``origin``/``pinned``/``since``/``until`` filter
        (see :class:`~memdir.search.ranking.Filters`). Needs the ``search``
        extra (:class:`MissingExtra` otherwise). Raises :class:`InvalidInput` for a query that is not
        text or is blank (:func:`memdir.search.query.checked_query`). See :func:`memdir.search.ranking.find`."""
        from .search.query import checked_query
        from .search.ranking import find

        return find(self.session, checked_query(query), k=k, scope=scope, include_muted=include_muted, type=type, origin=origin,
                    pinned=pinned, since=since, until=until, offset=offset, min_score=min_score)

    def recall(self, prompt: str, k: int = 3, max_bytes: int | None = None, *, once: bool = False) -> str:
        """The per-prompt recall block (``<memory_recall>``), or ``""``; see
        :func:`memdir.search.recall.recall`. Followed by the agent
        extractor's pending findings (``<memory_pending>``) of this project
        when this session has not been shown them yet (:meth:`pending`; only
        an agent's recall counts as a showing), the two within ``max_bytes``
        UTF-8 bytes together (default the ``recall_max_bytes`` setting).
        ``once``: as the prompt hooks give it, for a harness that keeps the
        block in its conversation: a body this session (opened with a
        ``session`` id) was given earlier, unchanged, is only named, and the
        bodies given are recorded; :meth:`conversation_restarted` after a
        compaction gives them whole again; :meth:`session_ended` at the
        session's end counts each body given so as a read (as a
        ``memory_read`` would). Without a session id, bodies every time."""
        return self.recall_result(prompt, k=k, max_bytes=max_bytes, once=once).block

    def pending(self, *, once_per_session: bool = False, mark: bool = True) -> str:
        """The ``<memory_pending>`` block of this project, or ``""``: what the
        person said in an earlier session that the agent extractor left for
        the agent to save (:mod:`memdir.prompt.pending`). ``mark`` counts the
        showing (an item expires after two sessions or a covering write)."""
        from .prompt.pending import session_pending

        return session_pending(self.session, once_per_session=once_per_session, mark=mark)

    def recall_result(self, prompt: str, k: int = 3, max_bytes: int | None = None, *,
                      once: bool = False) -> RecallResult:
        """:meth:`recall` with the memories recalled: a
        :class:`~memdir.search.recall.RecallResult` whose ``block`` is what
        :meth:`recall` returns (the pending block included, both within
        ``max_bytes``) and whose ``memories`` are those of the recall block;
        see :func:`memdir.search.recall.recall_with_pending`. ``once``: as
        :meth:`recall`'s (the bodies given are recorded as shown, and as given
        but not yet read: :meth:`session_ended` counts them as reads)."""
        from .search.recall import mark_recalled, recall_with_pending

        result = recall_with_pending(self.session, prompt, k=k, max_bytes=max_bytes, once=once)
        if once:
            mark_recalled(self.session, result)
        return result

    def conversation_restarted(self) -> None:
        """The conversation of this session was compacted or cleared: what
        :meth:`recall` gave ``once`` is given whole again (the hooks do this on
        a compaction, :mod:`memdir.prompt.recalled`). Never raises."""
        from .prompt import recalled

        recalled.clear(self.session.home, self.session.id, self.session.root_path)

    def session_ended(self) -> int:
        """This session (opened with a ``session`` id) ended: each body :meth:`recall` or :meth:`recall_result`
        gave ``once`` since the last call counts as one read of its memory (reads and ``last_read``, by the rule
        a ``memory_read`` counts by; DESIGN §4), as the hooks count at a client's session end. Call it once the
        conversation is over (or at each turn's end: nothing is counted twice); a body recall only named (the
        conversation held it already) was not given, and is not counted. Returns how many memories were counted (0 without a session
        id or with nothing given); see :func:`memdir.operations.memories.count_recalled`."""
        from .operations.memories import count_recalled

        return count_recalled(self.session)

    # ------------------------------------------------------------ tools and consolidation

    def tool_schemas(self) -> list[dict]:
        """The memory tools as OpenAI-style function definitions; see :mod:`memdir.tools`."""
        from .tools.specs import tool_schemas

        return tool_schemas(self.session.settings)

    def call_tool(self, name: str, arguments: dict | str | None = None) -> str:
        """Run one memory tool and return the text a model should see (a
        mistake comes back as text starting with ``Error:``)."""
        from .tools.handlers import run_tool

        return run_tool(self.session, name, arguments).text

    def consolidate(self, transcript, **options) -> ConsolidationReport:
        """Turn a session transcript into memory changes; see
        :func:`memdir.consolidation.consolidate.consolidate`."""
        from .consolidation.consolidate import consolidate

        return consolidate(self.session, transcript, **options)

    # ------------------------------------------------------------ maintenance

    def status(self) -> StatusResult:
        """Home, project, per-layer counts, unreadable files, budget use, the search state and the
        consolidation extractor in effect (the same line as :meth:`doctor`); see
        :func:`memdir.tools.handlers.status`."""
        from .tools.handlers import status

        return status(self.session)

    def doctor(self, notes: tuple[str, ...] = ()) -> DoctorResult:
        """:meth:`status` plus every journal's check, with the problems found,
        which consolidation extractor is in effect and why, and ``notes`` an
        integration adds (Claude Code hooks registered twice); ``warnings``: a project-scope install whose hooks
        would read another home (:func:`memdir.operations.installed.home_warnings`; ``memdir doctor`` adds the
        clients' trust warnings, read from their files by the integrations); see
        :func:`memdir.tools.handlers.doctor`."""
        from .tools.handlers import doctor

        return doctor(self.session, tuple(notes))

    def move_layer(self, old: str, new: str | None = None, *, reason: str | None = None,
                   force: bool = False) -> LayerMove:
        """Re-key a moved project's layer to ``new`` (default this project); ``force`` also takes the layer of a
        project that still exists; see :func:`memdir.operations.relocate.move`."""
        from .operations import relocate

        return relocate.move(self.session, old, new, reason=reason, force=force)

    def orphans(self, match: bool = False) -> list[OrphanLayer]:
        """Project layers whose project no longer exists; with ``match``, each
        compared with this project (asks git). See :func:`memdir.operations.maintenance.orphans`."""
        from .operations import maintenance
        root = self.session.project_root  # never its own project's layer, whatever its layer.json says
        return maintenance.orphans(self.session.home, root if match else None, live=root)

    def moved_away(self, listed: ListResult, scope: str | None = None) -> list[OrphanLayer]:
        """The orphaned layers holding memories when ``listed`` (a :meth:`list` result of ``scope``, None: every
        layer) shows none of this project's layer: where its memories are if the project moved; see
        :func:`memdir.operations.maintenance.moved_away`."""
        from .operations import maintenance
        return maintenance.moved_away(self.session, listed, scope)

    def journal(self, scope: str | None = None, *, actor: str | None = None, action: str | None = None,
                name: str | None = None, limit: int = 200, everything: bool = False) -> JournalResult:
        """Journal events of the session's layers, newest first, consolidation receipts only with
        ``everything``; see :func:`memdir.operations.maintenance.journal`."""
        from .operations import maintenance
        return maintenance.journal(self.session, scope, actor=actor, action=action, name=name, limit=limit,
                                   everything=everything)

    def verify(self) -> VerifyResult:
        """Check every layer's journal chain and objects under this home."""
        from .operations import verify
        return verify.verify(self.session.home, self.session.settings)

    def repair(self) -> VerifyResult:
        """Cut torn journal tails, journal hand edits, rebuild every ``MEMORY.md``; then verify."""
        from .operations import verify
        return verify.repair(self.session)



__all__ = ["Memory"]
