"""Stable command path ``python -m memdir.hooks CLIENT EVENT`` (claude-code,
codex, gemini, cursor).

``memdir install CLIENT`` writes this command into the client's settings, so
it must not move when the code does. The hooks themselves are
:mod:`memdir.integrations.claude_code.hooks`.
"""

import sys

from memdir.integrations.claude_code.hooks import main

if __name__ == "__main__":
    sys.exit(main())
