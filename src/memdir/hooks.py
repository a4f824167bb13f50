"""Stable command path ``python -m memdir.hooks claude-code EVENT``.

``memdir install claude-code`` writes this command into Claude Code's
settings, so it must not move when the code does. The hooks themselves are
:mod:`memdir.integrations.claude_code.hooks`.
"""

import sys

from memdir.integrations.claude_code.hooks import main

if __name__ == "__main__":
    sys.exit(main())
