"""memdir: long-term memory for LLM coding agents.

Memories are Markdown files with YAML frontmatter; a derived ``MEMORY.md``
index per layer is injected into the system prompt under a byte budget.

    >>> from memdir import Memory
    >>> mem = Memory.open(home="/tmp/mem", project=".")
    >>> mem.write("db-port", "Dev DB listens on 5433", "project", "Moved on 2026-11-02.")
    >>> print(mem.context())

The names in ``__all__`` are the public API (a test checks that the package
exposes exactly these): the facade, a write's value (:class:`MemoryChange`),
its settings, a memory's record, the error tree and every result type a
:class:`Memory` method returns; everything raises only :class:`MemdirError`
subclasses (the tree is drawn in :mod:`memdir.errors`). The packages, in the
order in which each may import only those before it (``docs/architecture.md``):

    errors vocabulary version settings paths git   the base modules
    text           printable, fence, redaction, names, function words
    files          durable writes, frontmatter, one memory file, a layer's files
    tombstones     what a forgotten value matches; the tombstone files
    layer          one layer: lock, transaction, journal, history, MEMORY.md, team
    session results  who asks about which project; every operation's result
    gateway        the one write path
    prompt         the context block and pending findings (the hooks' hot path)
    operations     lookup, the memory tools, a person's decisions, team, upkeep
    importing      other systems' memories in
    search         the FTS5 index kept in step, ranking, recall, optional vectors
    consolidation  transcripts, gate, extractors, proposals, queue, ingest
    render tools   one text per result; the tool table, running a tool
    api            the Memory facade
    integrations   cli/, mcp/, claude_code/, anthropic_sdk/, panel/
"""

from .errors import (
    ConfirmationRequired,
    Conflict,
    InstallError,
    InvalidInput,
    InvalidName,
    LockTimeout,
    MemdirError,
    MissingExtra,
    ModelError,
    NotFound,
    Refused,
    ScopeError,
    StoreError,
    TombstoneRefused,
)

# What a Memory method returns, by the module that defines it (tests/test_public_api.py checks the list is whole).
_RESULTS = {
    "memdir.results.memories": ("ClearResult", "DeleteResult", "HistoryResult", "ListResult", "PruneResult",
                                "ReadResult", "RestoreResult", "VersionResult", "WriteResult"),
    "memdir.results.trust": ("Candidate", "Decision", "FlagResult", "LiftResult", "ReviewResult", "TombstoneList"),
    "memdir.results.maintenance": ("DoctorResult", "JournalResult", "StatusResult", "VerifyResult"),
    "memdir.gateway.edits": ("EditResult",),
    "memdir.operations.team": ("Promoted", "Resolved", "TeamConflict", "TeamInit", "TeamStatus",
                               "TeamTrust"),
    "memdir.operations.relocate": ("LayerMove", "OrphanLayer"),
    "memdir.operations.sync": ("SyncInit", "SyncReport", "SyncStatus"),
    "memdir.operations.contested": ("SyncConflict",),
    "memdir.importing.run": ("ImportReport",),
    "memdir.importing.export": ("ExportReport",),
    "memdir.search.ranking": ("SearchResult",),
    "memdir.search.recall": ("RecallResult",),
    "memdir.consolidation.proposals": ("ConsolidationReport",),
    "memdir.operations.findings": ("FindingsDropped", "FindingsResult"),
}

__all__ = [
    "Memory", "MemoryChange", "BodyEdit", "Settings", "MemoryRecord", "MemdirError", "InvalidInput", "InvalidName", "ScopeError",
    "NotFound", "Refused", "TombstoneRefused", "ConfirmationRequired", "Conflict", "LockTimeout",
    "StoreError", "ModelError", "MissingExtra", "InstallError", "__version__",
    *(name for names in _RESULTS.values() for name in names),
]

# Imported on first use: `import memdir` stays cheap for the hooks; the facade loads YAML.
_LAZY = {"Memory": ("memdir.api", "Memory"), "MemoryChange": ("memdir.gateway.fields", "MemoryChange"),
         "BodyEdit": ("memdir.gateway.edits", "BodyEdit"),
         "Settings": ("memdir.settings", "Settings"),
         "MemoryRecord": ("memdir.files.memfile", "MemoryRecord"), "__version__": ("memdir.version", "VERSION"),
         **{name: (module, name) for module, names in _RESULTS.items() for name in names}}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'memdir' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    return getattr(importlib.import_module(module), attribute)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
