"""memdir.tools."""
