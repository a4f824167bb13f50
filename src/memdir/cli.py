"""Stable command path ``python -m memdir.cli``: the ``memdir`` command.

Earlier installs registered the MCP server as ``python -m memdir.cli mcp`` in
agents' settings files; this module keeps that command working. The command
line itself is :mod:`memdir.integrations.cli.main`.
"""

import sys

from memdir.integrations.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
