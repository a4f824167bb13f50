"""What is injected into the agent's prompt: the context block and the pending findings (DESIGN §6, §7).

``context`` (the ``<memory_context>`` block within its byte budget),
``pending`` (the agent extractor's findings, the ``<memory_pending>`` block),
``recalled`` (what recall already injected in a session: each body once),
``shown`` (the digest kept of what was shown: the session start computes it without ``recalled``).
All on the hooks' hot path: no YAML, no SQLite, no filelock (its import alone ≈ 45 ms): the one lock
here, the session record's, is a plain ``flock`` (``recalled``).

May import: the standard library and the packages before it; on the hot path
only the base modules, ``text`` and ``files.layout``/``files.fsio``.

Must not import: operations and every package after it.
"""
