"""The version of memdir, in one place: the package (``memdir.__version__``),
``memdir --version``, the MCP server's ``serverInfo`` and the build
(``pyproject.toml`` reads it from here) all take it from this module."""

import os  # already loaded by every interpreter's start: importing it costs nothing

VERSION = "0.1.0"
PACKAGE = os.path.dirname(os.path.abspath(__file__))  # the directory of the memdir package this process runs

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
    package = PACKAGE
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



_how: list[tuple[str, bool]] = []  # this process's install_source(), once read


def install_source() -> tuple[str, bool]:
    """How this memdir was installed: ``(checkout directory, editable)`` for an install from a clone
    (``pip install -e .``, as the README says, is editable; ``pip install .`` is not), ``("", False)``
    for anything else (a registry, a wheel, no package metadata: the code runs from ``src`` on the
    path, or the checkout is gone). Read from the PEP 610 record ``direct_url.json`` that pip leaves in
    the distribution's metadata, once per process (an install does not change under it). Of the ``memdir``
    records on ``sys.path``, the first that belongs to the package this process imported (:func:`_belongs`) is
    read, not merely the first: a stale ``src/memdir.egg-info`` a build left, first on the path with
    ``PYTHONPATH=src``, named the registry's package to a checkout's editable install. Never raises."""
    if _how:
        return _how[0]
    how = ("", False)
    try:
        from importlib.metadata import distributions

        for dist in distributions(name="memdir"):
            found = _belongs(dist, PACKAGE)
            if found is not None:
                how = found
                break
    except (ImportError, OSError, ValueError, AttributeError, TypeError):  # no metadata or a bad one: pip's default
        how = ("", False)
    _how.append(how)
    return how


def _belongs(dist, package: str) -> tuple[str, bool] | None:
    """What the ``memdir`` distribution record ``dist`` (:class:`importlib.metadata.Distribution`) says of how the
    package in the directory ``package`` was installed — ``(checkout directory, editable)``, or ``("", False)``
    when it names no checkout that is still there — or None when the record is not that package's. It is when its
    ``direct_url.json`` names a directory the package lies in (an editable install: the package is the checkout's
    ``src/memdir``), or when its file list holds ``memdir/__init__.py`` at the package's place (a regular install:
    ``RECORD``). A build's ``memdir.egg-info`` in ``src`` has neither (its ``SOURCES.txt`` names the checkout's
    paths). Raises what reading the record raises (OSError, ValueError)."""
    import json
    from urllib.parse import unquote, urlparse

    record = json.loads(dist.read_text("direct_url.json") or "{}")
    url, info = urlparse(record.get("url") or ""), record.get("dir_info")
    directory = unquote(url.path) if url.scheme == "file" else ""
    real = os.path.realpath(package)
    within = bool(directory) and os.path.commonpath([real, os.path.realpath(directory)]) == os.path.realpath(directory)
    listed = any(str(f) == "memdir/__init__.py" and os.path.realpath(dist.locate_file(f)) == os.path.join(
        real, "__init__.py") for f in dist.files or ())
    if not (within or listed):
        return None
    # A checkout moved or deleted since cannot install anything: the registry's command is then the one left.
    if directory and isinstance(info, dict) and os.path.isfile(os.path.join(directory, "pyproject.toml")):
        return directory, info.get("editable") is True
    return "", False


def install_command(extras: str) -> str:
    """The shell command that adds the optional ``extras`` (``"search"``, ``"search,mcp"``) to this
    memdir the way it was installed (:func:`install_source`): ``pip install -e '<checkout>[search]'``
    for an editable install from a clone, ``pip install '<checkout>[search]'`` for a plain install from
    one, else ``pip install 'memdir[search]'``. Every message that names a missing extra says it
    (left32: from a clone, ``pip install 'memdir[mcp]'`` asks a registry for a package it may not have)."""
    import shlex

    directory, editable = install_source()
    if not directory:
        return f"pip install 'memdir[{extras}]'"
    return f"pip install {'-e ' if editable else ''}{shlex.quote(f'{directory}[{extras}]')}"
