"""memdir: long-term memory for LLM coding agents.

Memories are Markdown files with YAML frontmatter; a derived ``MEMORY.md``
index per layer is injected into the system prompt under a byte budget.

    >>> from memdir import Memory
    >>> mem = Memory.open(home="/tmp/mem", project=".")
    >>> mem.write("db-port", "Dev DB listens on 5433", "project", "Moved on 2026-11-02.")
    >>> print(mem.context())

The names below are the public API; everything raises only
:class:`MemdirError` subclasses (see :mod:`memdir.errors`).
"""

from __future__ import annotations

from .store.errors import (
    Conflict, ConfirmationRequired, InvalidInput, InvalidName, LockTimeout, MemdirError, ModelError,
    NotFound, Refused, ScopeError, StoreError, TombstoneRefused,
)

__version__ = "0.1.0"

__all__ = [
    "Memory", "Settings", "MemoryRecord", "MemdirError", "InvalidInput", "InvalidName", "ScopeError",
    "NotFound", "Refused", "TombstoneRefused", "ConfirmationRequired", "Conflict", "LockTimeout",
    "StoreError", "ModelError", "__version__",
]


def __getattr__(name: str):
    # Lazy: `import memdir` stays cheap for the hooks; the facade loads YAML.
    if name == "Memory":
        from .api import Memory

        return Memory
    if name == "Settings":
        from .store.settings import Settings

        return Settings
    if name == "MemoryRecord":
        from .store.memfile import MemoryRecord

        return MemoryRecord
    raise AttributeError(f"module 'memdir' has no attribute {name!r}")
