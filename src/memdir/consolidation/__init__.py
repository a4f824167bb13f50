"""Consolidation: from a finished session's transcript to memory changes (DESIGN §7).

``transcripts`` (reading Claude Code JSONL, message lists, plain text),
``gate`` (is anything durable said?), ``proposals`` (what extractors return,
outcomes, the report), ``subjects`` (what a statement is about; drift), the
extractors ``rules`` (offline), ``llm`` (any OpenAI-compatible model),
``command`` (a command the person configures) and ``agent`` (findings left
pending for the next session's agent), ``extractors`` (which one ``auto``
picks and why), ``consolidate`` (one run: snapshot, extract
without a lock, apply under compare-and-set, receipt), ``queue`` (what the
hooks queue and a detached drain consolidates) and ``ingest`` (past Claude
Code sessions).

May import: the standard library, :mod:`memdir.store` (every change goes
through its operations and gateway) and the optional ``openai`` client
(``llm`` extra).

Must not import: search, tools, api, integrations.
"""
