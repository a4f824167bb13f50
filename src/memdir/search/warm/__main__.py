"""``python -m memdir.search.warm HOME [--idle SECONDS]``: a standalone warm process (:func:`memdir.search.warm.server.main`),
ended through :func:`memdir.search.warm.server.leave` (never an interpreter teardown during a model load)."""

from .server import leave, main

raise SystemExit(leave(main()))
