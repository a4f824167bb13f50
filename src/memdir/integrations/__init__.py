"""memdir.integrations."""
