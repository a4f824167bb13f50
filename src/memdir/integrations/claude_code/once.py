"""One context block per session start and one recall block per prompt, however many of memdir's hooks the
client runs for the event: memdir installed for Claude Code (or Codex) in both scopes — the user's settings and
a project's — has two hooks for each event, and the client runs both (in parallel: Claude Code 2.1.332, trial30),
so the conversation got the context block twice at each start and the recall block twice at each prompt.

The first hook of an event claims it (:func:`first`); the other finds the claim and stays quiet. The guard is
here, in the hook, and not only in ``memdir install``: the two scopes are often not one person's installs — a
team commits a project's ``.claude/settings.json`` and each member who already has memdir in user scope gets both
with a ``git pull``, and no install runs then (install and ``memdir doctor`` still say so:
:func:`memdir.integrations.claude_code.scopes.twice`, since an older memdir's hook in one scope claims nothing).

An event is known by what the client sends both hooks alike: the session id, the client, the event name, the
``cwd``, the prompt (or a start's ``source``) and the size of the session's transcript at that moment (it grows
from turn to turn). A claim is a file ``<home>/sessions/once/<32 hex of that key>`` (in a home not made yet, the
runtime directory's ``sessions/once/<16 hex of the home>-<32 hex>``: :func:`_place`) holding which hook made it
(:func:`origin`: its interpreter and command line), made whole with ``link`` (one process wins whatever the
timing). A hook that finds another hook's claim younger than :data:`WINDOW` seconds stays quiet; its own earlier
claim (the same prompt sent again, one hook alone) or an old one it takes over and gives its block — so a
single install never loses a block to this guard. The claims of one home live in one directory: two hooks with
different homes (different memories) both give theirs. Claims older than :data:`KEEP` seconds are removed when a
new one is made.

The key (:func:`event_key`) and the place are a contract between memdir versions: two installs of different
versions (a user-scope checkout and the ``memdir`` a project's files run from PATH) hold each other back only
while they compute the same key in the same place; a change to either must keep reading the old one.

Best effort: a session without an id, or a home where the mark cannot be written, lets every hook give its block
(twice is the safe side; none is not). Hot path: standard library ``os``, ``sys`` and ``time`` only.
"""

from __future__ import annotations

import os
import sys
import time

from ...paths import home_path, sha256

# What install and doctor say of memdir's hooks in two scopes, after "<client> runs both" (one wording for each client).
BOTH_RUN = ("memdir's hooks give each block once (the second stays quiet), but an older memdir's hook in either "
            "file does not; keep one")
ONCE_DIR = ("sessions", "once")  # beside the sessions' records (memdir.prompt.recalled)
WINDOW = 30.0   # seconds a claim stands: the two hooks of one event start together (the longest hook timeout is 10 s)
KEEP = 3600.0   # seconds after which a claim is removed (it can no longer silence anything)


def event_key(client: str, event: str, data: dict) -> str | None:
    """The 32-hex key of one event of a session (the module docstring), or None when ``data`` (the hook input,
    translated to Claude Code's fields) has no session id or no ``cwd``."""
    session, cwd = data.get("session_id"), data.get("cwd")
    if not isinstance(session, str) or not session or not isinstance(cwd, str):  # no cwd: the hook does nothing
        return None
    size = -1
    transcript = data.get("transcript_path")
    if isinstance(transcript, str) and transcript:
        try:
            size = os.stat(transcript).st_size
        except (OSError, ValueError):
            size = -1
    what = data.get("prompt", data.get("source", ""))
    parts = [client, event, session, cwd, str(size), str(what)]
    return sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def origin() -> str:
    """Which of memdir's installed hooks this process is: 16 hex of its interpreter and command line
    (``python -m memdir.hooks …`` of a user-scope install, ``memdir hook …`` on PATH of a project's; ``--home``
    with it). The client runs one command once per event (Claude Code runs a command named in two files once), so
    two hooks of one event come from two commands."""
    return sha256("\0".join([sys.executable, *sys.argv]).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def first(home, client: str, event: str, data: dict, mine: str, environ=None, now: float | None = None) -> bool:
    """True unless another of memdir's hooks (another ``mine``: :func:`origin`) claimed the same event (of
    ``client``, hook input ``data`` translated to Claude Code's fields) in ``home`` (None: the default home, read
    from ``environ``) within :data:`WINDOW` seconds; this hook's claim is then made. The same hook claiming again
    is a new event (a person sending the same prompt again) and gets True. True too when the event cannot be known
    (no session id) or the claim cannot be written (a read-only home): the block is then given. Never raises."""
    key = event_key(client, event, data)
    if key is None:
        return True
    try:
        folder, key = _place(home_path(home, environ), key)
        if folder is None:
            return True
        path = os.path.join(folder, key)
        mark = f"{path}.{os.getpid()}.{time.monotonic_ns()}"
    except Exception:  # noqa: BLE001 — no place for a claim: give the block
        return True
    try:
        with open(mark, "x", encoding="ascii") as out:
            out.write(mine)
    except Exception:  # noqa: BLE001 — no room for a claim (a full disk made the file, not its text): give the block
        try:
            os.unlink(mark)  # and leave no empty mark behind (break44b: one per prompt on a full disk)
        except OSError:
            pass
        return True
    now = time.time() if now is None else now
    try:
        for _ in range(3):
            try:
                os.link(mark, path)  # the claim appears whole, its origin in it, or not at all
                _tidy(folder, now)
                return True
            except FileExistsError:
                pass
            try:
                with open(path, encoding="ascii") as held:
                    claimed, age = held.read(), now - os.fstat(held.fileno()).st_mtime
            except FileNotFoundError:
                continue  # taken over by another hook as we looked: try again
            if claimed != mine and age < WINDOW:
                return False  # the other hook of this event gave its block
            # This hook's own earlier claim (the same prompt again), or an old one: taken over by one process.
            try:
                os.rename(path, mark + ".old")
                os.unlink(mark + ".old")
            except FileNotFoundError:
                continue
        return True
    except OSError:
        return True
    finally:
        try:
            os.unlink(mark)
        except OSError:
            pass


def _place(home: str, key: str) -> tuple[str | None, str]:
    """``(folder, file name)`` of the claim ``key`` of ``home``, the folder made: ``<home>/sessions/once`` in a
    home that is there; in a home not made yet (a hook's first run: the first write makes the home, never a claim)
    the runtime directory's ``sessions/once``, the name prefixed with 16 hex of the home's real path (its claims
    apart from another home's). ``(None, key)``: no place (no runtime directory), the block is given. Raises
    OSError when the folder cannot be made."""
    if os.path.isdir(home):
        return _made(home), key
    from ...runtime import private_dir  # standard library only, as this module

    runtime, _why = private_dir(create=True)
    if runtime is None:
        return None, key
    return _made(runtime), sha256(os.path.realpath(home).encode("utf-8", "surrogateescape")).hexdigest()[:16] + "-" + key


def _made(top: str) -> str:
    """``<top>/sessions/once``, each directory made 0700 where it is not there (as the sessions' records make
    theirs: :func:`memdir.prompt.sessionfiles.make_dir`; ``os.makedirs`` gives its mode to the last one only, and
    ``sessions`` was 0755). Raises OSError."""
    from ...prompt.sessionfiles import make_dir  # standard library only, as this module

    folder = top
    for part in ONCE_DIR:
        folder = os.path.join(folder, part)
        make_dir(folder)
    return folder


def _tidy(folder: str, now: float) -> None:
    """Remove the claims in ``folder`` older than :data:`KEEP` seconds. Never raises."""
    try:
        for entry in os.scandir(folder):
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime > KEEP:
                    os.unlink(entry.path)
            except OSError:
                pass
    except OSError:
        pass


__all__ = ["BOTH_RUN", "KEEP", "ONCE_DIR", "WINDOW", "event_key", "first", "origin"]
