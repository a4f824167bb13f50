"""``python -m memdir.search.warm HOME [--idle SECONDS]``: a standalone warm process (:func:`memdir.search.warm.server.main`)."""

from .server import main

raise SystemExit(main())
