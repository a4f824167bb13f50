"""Integrations: the ways in — CLI, Claude Code hooks, MCP server, installer (DESIGN §10).

``cli`` (parsing, dispatch, error mapping and the hot-path ``context``),
``cli_common``, ``cli_core``, ``cli_search``, ``cli_integrations``,
``cli_consolidate`` (the commands), ``hooks`` (Claude Code hooks),
``mcp_server`` (the MCP server), ``install`` (Claude Code settings). Each
translates: it builds a session (:func:`memdir.session.open_session`),
calls the facade or an operation, and prints a renderer's text. None decides
a rule of the store.

May import: everything below (store, search, consolidation, tools, api), the
standard library, and ``mcp``/``mcp_types``/``anyio`` (``mcp`` extra). The
CLI starts the other integrations through their one entry function
(``serve_stdio``, ``hooks.handle``, ``install.install``).

Must not import: another integration's helpers or rules (the CLI's command
modules share only ``cli_common``).
"""
