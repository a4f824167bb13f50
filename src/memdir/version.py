"""The version of memdir, in one place: the package (``memdir.__version__``),
``memdir --version``, the MCP server's ``serverInfo`` and the build
(``pyproject.toml`` reads it from here) all take it from this module."""

VERSION = "0.1.0"
