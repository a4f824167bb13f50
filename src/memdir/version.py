"""The version of memdir, in one place: the package (``memdir.__version__``),
``memdir --version``, the MCP server's ``serverInfo`` and the build
(``pyproject.toml`` reads it from here) all take it from this module."""

VERSION = "0.1.0"

_identity: list[str] = []  # this process's code_identity(), once computed


def code_identity(now: bool = False) -> str:
    """Which code this process runs: ``"<VERSION> <package directory> <files>:<bytes>:<newest mtime ns>"``
    over every ``.py`` file of the installed package (an upgrade changes the version or the files,
    an edit of an editable install the files' sizes or times). Taken once per process, when first
    asked (the code it loaded); ``now``: of the files as they are now. A warm process answers with
    it, and a hook ignores a warm process whose code is not its own (:mod:`memdir.search.warm`).
    About 1 ms (a stat of each file: no file is read). Never raises."""
    if _identity and not now:
        return _identity[0]
    import os

    package = os.path.dirname(os.path.abspath(__file__))
    count = size = newest = 0
    stack = [package]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            stack.append(entry.path)
                    elif entry.name.endswith(".py"):
                        st = entry.stat()
                        count, size, newest = count + 1, size + st.st_size, max(newest, st.st_mtime_ns)
        except OSError:
            continue
    identity = f"{VERSION} {package} {count}:{size}:{newest}"
    if not _identity:
        _identity.append(identity)
    return identity if now else _identity[0]
