"""Claude Code: its hooks and its settings files (DESIGN §10).

``hooks`` (SessionStart, UserPromptSubmit, SessionEnd, PreCompact),
``install`` (``memdir install|uninstall claude-code``), ``scopes`` (memdir's
hooks registered in both the user and the project scope).
"""
