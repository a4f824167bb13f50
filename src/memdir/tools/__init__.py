"""The tools a model calls (DESIGN §7, §10).

``specs`` (the one table of the eleven memory tools: descriptions, JSON schemas,
MCP annotations, argument checking), ``handlers`` (running a tool for a
session, and composing status and doctor once for the tools and the facade:
the lowest package that may ask search and consolidation both). The text of
each result is :mod:`memdir.render`'s. Below the facade, so
:meth:`memdir.Memory.call_tool` can use it.

May import: the standard library and the packages before it.

Must not import: api, integrations.

``TOOLS`` (the table with the default limits) and ``tool_specs`` /
``tool_schemas`` are re-exported here from :mod:`.specs`; running a tool is
:func:`memdir.tools.handlers.run_tool` or :meth:`memdir.Memory.call_tool`.
"""

__all__ = ["TOOLS", "TOOL_NAMES", "ToolSpec", "tool_schemas", "tool_specs"]


def __getattr__(name: str):
    # Loaded on first use: `from memdir.tools import render` (the CLI's hook path) stays light.
    if name not in __all__:
        raise AttributeError(f"module 'memdir.tools' has no attribute {name!r}")
    from . import specs

    if name == "TOOLS":
        return specs.tool_specs()  # with the default limits; a session's own: tool_specs(session.settings)
    return getattr(specs, name)
