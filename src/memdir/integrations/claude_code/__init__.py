"""Claude Code: its hooks and its settings files (DESIGN §10).

``hooks`` (the hook as a process: command line, stdin, the warm relay, exit 0),
``moments`` (what SessionStart, UserPromptSubmit, PostToolUse, SessionEnd, PreCompact do),
``dialects`` (the other clients' event names and fields),
``install`` (``memdir install|uninstall claude-code``), ``scopes`` (memdir's
hooks registered in both the user and the project scope).
"""
