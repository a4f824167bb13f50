"""Acceptance tests for the memory-atlas properties (issue 13 item 2)."""
