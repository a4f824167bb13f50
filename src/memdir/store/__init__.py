"""memdir.store."""
