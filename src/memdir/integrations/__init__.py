"""Integrations: the ways in (DESIGN §10).

``cli`` (the ``memdir`` command: ``main`` parses, dispatches, maps errors and
serves the hot-path ``context``; ``common`` is what its command modules
share), ``mcp`` (the MCP server over stdio and its wire), ``claude_code``
(the hooks and the installer of Claude Code's settings), ``anthropic_sdk`` (the
handler of the Claude API's memory tool), ``panel`` (the web panel). Each translates: it builds a session
(:func:`memdir.session.open_session`), calls the facade or an operation, and
prints a renderer's text. None decides a rule of the store.

May import: everything before it, the standard library, ``mcp``/
``mcp_types``/``anyio`` (``mcp`` extra) and ``starlette``/``jinja2``/
``uvicorn`` (``panel`` extra), ``anthropic`` (``anthropic`` extra). The CLI starts the other integrations through
their one entry function (``serve_stdio``, ``hooks.handle``,
``install.install``, ``panel.app.serve``).

Must not import: another integration's helpers or rules (the CLI's command
modules share only ``cli.common``).
"""
