"""Other systems' memories in and out: reading their formats, importing them, exporting (DESIGN §11).

``sources`` (Claude Code's auto memory, dsh-auto-memory, a directory of
Markdown files, basic-memory, memdir's JSON lines),
``folders`` (which files of a folder are read), ``claude_mem`` (claude-mem's
SQLite database), ``mcp_memory`` (the MCP memory server's knowledge graph), ``run`` (importing: idempotent, origin ``import``, through
the tombstones and the gateway, new memories in batches), ``outcomes`` (what an import did), ``export`` (memories out as plain files).

May import: the standard library and the packages before it (through
:mod:`memdir.operations`).

Must not import: search, consolidation, render, tools, api, integrations.
"""
