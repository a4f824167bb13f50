"""Other systems' memories in: reading their formats and importing them (DESIGN §11).

``sources`` (Claude Code's auto memory, dsh-auto-memory, a directory of
Markdown files, the MCP memory graph, basic-memory), ``run`` (importing:
idempotent, origin ``import``, through the tombstones and the gateway).

May import: the standard library and the packages before it (through
:mod:`memdir.operations`).

Must not import: search, consolidation, render, tools, api, integrations.
"""
