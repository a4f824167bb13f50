"""The tools a model calls and the text every result reads as (DESIGN §7, §10).

``specs`` (the one table of the ten memory tools: descriptions, JSON schemas,
MCP annotations, argument checking), ``handlers`` (running a tool for a
session), ``render`` (one text per result type, used by the tools and the
CLI alike). Below the facade, so :meth:`memdir.Memory.call_tool` can use it.

May import: the standard library, :mod:`memdir.store` and :mod:`memdir.search`.

Must not import: api, integrations, consolidation (the renderer reads a
consolidation report by its attributes).
"""
