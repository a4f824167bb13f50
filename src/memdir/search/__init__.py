"""memdir.search."""
