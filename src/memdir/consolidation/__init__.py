"""memdir.consolidation."""
