"""The consolidation queue: transcripts waiting to be consolidated (DESIGN §10).

Claude Code's SessionEnd and PreCompact hooks have about 1.5 s, far less than
a model call, so they only :func:`append` a line to
``$MEMDIR_HOME/queue/consolidate.jsonl`` and :func:`spawn_drain`: a detached
``memdir consolidate --queue`` that :func:`drain` s the queue and logs one
line per transcript to ``$MEMDIR_HOME/logs/consolidate.log``.

* A line is ``{"transcript_path", "cwd", "session_id", "event", "ts"}`` (in that order) in ASCII JSON (a lone
  surrogate — a path whose name is not UTF-8, as Python decodes it — is an escape that reads back
  the same; as UTF-8 it could not be written and the transcript was not queued), written with one ``write`` on an ``O_APPEND`` descriptor, so concurrent hooks
  never interleave, under a shared ``flock`` and only while the file is still
  the queue; a drain that moves the queue aside takes that lock exclusively
  before reading it, so a line is never written into a file already read.
  A disk that fills mid-line leaves a torn line and a clear error (the transcript was not queued);
  the drain reads the next line past it, never losing that one with it.
* One drain runs at a time (``queue/drain.lock``, an OS lock a killed drain
  releases). It :func:`claim` s the queue by moving it aside atomically
  (``consolidate.jsonl.<pid>.work``), so hooks can keep appending, together
  with any work file a drain that died left behind, and drains again until
  the queue stays empty. A drain that finds another one running leaves the
  queue to it. A transcript queued twice is consolidated once (the newest
  line wins), and consolidation itself skips a transcript it has a receipt for.
* A transcript whose extractor failed (the model answered HTTP 500, timed out;
  status ``failed``) is kept in ``consolidate.jsonl.retry`` and tried by the
  next drain (the next session's end: the model may be back), at most
  :data:`MAX_ATTEMPTS` times in all; one that cannot be read, or raised, is not.
* Each line's project is its ``cwd`` (:func:`memdir.session.open_session`
  with that directory alone).

The hooks import this module: it loads nothing heavy until :func:`drain`.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

QUEUE_FILE = "consolidate.jsonl"
LOG_FILE = "consolidate.log"
RETRY_FILE = QUEUE_FILE + ".retry"  # lines whose extractor failed, for the next drain (not a work file)
# Every queued line opens with this (append's first key); no value holds it, json.dumps escaping each quote.
RECORD_START = '{"transcript_path"'
MAX_ATTEMPTS = 3  # drains that try a transcript whose extractor failed (a 500, a timeout) before it is let go


def queue_path(home: Path) -> Path:
    """``$MEMDIR_HOME/queue/consolidate.jsonl``."""
    return Path(home) / "queue" / QUEUE_FILE


def log_path(home: Path) -> Path:
    """``$MEMDIR_HOME/logs/consolidate.log``."""
    return Path(home) / "logs" / LOG_FILE


def _append_line(path: Path, data: bytes) -> None:
    from ..files.fsio import ensure_dir  # late: the hook that queues imports little

    ensure_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _is_queue(fd: int, path: Path) -> bool:
    """True while the open file ``fd`` is still the queue at ``path`` (not
    moved aside by a drain, not deleted after it)."""
    here = os.fstat(fd)
    try:
        there = os.stat(path)
    except FileNotFoundError:
        return False
    return here.st_nlink > 0 and (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _append_queued(path: Path, data: bytes) -> None:
    """Append ``data`` to the queue so no drain can lose it: the line is
    written under a shared lock, only while the file is still the queue; a
    drain takes the lock exclusively after moving the queue aside, so it
    reads only after every line already headed there is written (a hook
    paused between opening the queue and writing once wrote into a work file
    the drain had read and deleted)."""
    from ..files.fsio import ensure_dir  # late: the hook that queues imports little

    ensure_dir(path.parent)
    for _ in range(100):  # each retry means a drain moved the queue in between: rare, never many
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if fcntl is None:  # no flock (Windows): the queue cannot be moved while a hook has it open
                os.write(fd, data)
                return
            fcntl.flock(fd, fcntl.LOCK_SH)
            if _is_queue(fd, path):
                _write_whole(fd, data)
                return
        finally:
            os.close(fd)
    raise OSError(errno.EAGAIN, "the consolidation queue kept moving while a line was queued", str(path))


def _write_whole(fd: int, data: bytes) -> None:
    """One ``write`` of ``data``; a short one raises ``OSError(ENOSPC)``: on a regular file it means the disk
    filled mid-line (tmpfs, ext4 write what fits and return the count), and the torn line it leaves is no
    queued transcript (:func:`_entries` reads past it)."""
    written = os.write(fd, data)
    if written < len(data):
        raise OSError(errno.ENOSPC, f"short write ({written} of {len(data)} bytes)")


def _settle(path: Path) -> None:
    """Wait until no hook is writing into ``path`` (a queue just moved aside)."""
    if fcntl is None:
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        os.close(fd)  # closing releases the lock


def append(home: Path, transcript_path: str, *, cwd: str | None = None, session_id: str | None = None,
           event: str | None = None) -> None:
    """Queue one transcript for consolidation (one atomic append under the
    queue's shared lock: :func:`_append_queued`), in ASCII JSON: any text is queued. ``session_id``:
    as :func:`memdir.session.bounded_id` keeps it. Raises :class:`~memdir.errors.StoreError` when the disk is
    full or the quota spent (also when it filled mid-line): the transcript was not queued, and the message says
    how to consolidate it later; ``OSError`` otherwise."""
    from ..session import bounded_id  # the session id's rule (a hook's session already applied it)

    entry = {"transcript_path": transcript_path, "cwd": cwd, "session_id": bounded_id(session_id), "event": event,
             "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    try:
        _append_queued(queue_path(home), (json.dumps(entry) + "\n").encode("ascii"))
    except OSError as exc:
        from ..files.fsio import full_disk

        if full_disk(exc) is None:
            raise
        from ..errors import StoreError

        state = "the disk is full" if exc.errno == errno.ENOSPC else "the disk quota is spent"
        raise StoreError(f"transcript {transcript_path} was not queued for consolidation: {state} "
                         f"({errno.errorcode[exc.errno]}; {exc.strerror or exc}; {queue_path(home)}); once there "
                         f"is room, `memdir consolidate {transcript_path}` consolidates it") from exc


def log_line(home: Path, text: str) -> None:
    """Append one timestamped line, secrets redacted, to the consolidation log (0600)."""
    from ..layer.journal import iso_micro, now_utc
    from ..text.redact import redact

    _append_line(log_path(home), f"{iso_micro(now_utc())} {redact(text).text}\n".encode("utf-8", "replace"))


def spawn_drain(home: Path, extractor: str | None = None) -> int:
    """Start ``memdir consolidate --queue`` detached from this process (its
    own session on POSIX, a detached process on Windows; stdin the null
    device, output appended to the log) and return its pid."""
    import subprocess

    logfile = log_path(home)
    from ..files.fsio import ensure_dir  # late: the hook that queues imports little

    ensure_dir(logfile.parent)
    command = [sys.executable, "-m", "memdir", "consolidate", "--queue", "--home", str(home)]
    if extractor:
        command += ["--extractor", extractor]
    detach = ({"start_new_session": True} if os.name == "posix"
              else {"creationflags": getattr(subprocess, "DETACHED_PROCESS", 0)})
    fd = os.open(logfile, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "ab") as log:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True,
                                   **detach)
    return process.pid


def claim(home: Path) -> list[Path]:
    """Move the queue aside (atomically) so hooks can keep appending, and pick
    up the work files a drain that died left behind. Call with the drain lock
    held (then every other work file is an orphan). Returns the files to drain."""
    queue = queue_path(home)
    claimed = sorted(queue.parent.glob(QUEUE_FILE + ".*.work")) if queue.parent.is_dir() else []
    work = queue.with_name(f"{QUEUE_FILE}.{os.getpid()}.work")
    try:
        os.replace(queue, work)
        claimed.append(work)
    except FileNotFoundError:
        pass
    for path in claimed:
        _settle(path)  # a line a hook is writing into it lands before the drain reads
    return claimed


class Drained:
    """One transcript of a drain: its ``project`` (the queued ``cwd``), the
    run's ``status`` (``error`` when it could not run), changes ``applied``
    (a dry run's: the changes the real run would make) and the ``error``, if any. (A plain value class: the hooks import this
    module, and ``dataclasses`` alone costs more than queueing a line.)"""

    __slots__ = ("transcript_path", "project", "status", "applied", "error")

    def __init__(self, transcript_path: str, project: str | None, status: str, applied: int = 0,
                 error: str | None = None):
        self.transcript_path, self.project, self.status = transcript_path, project, status
        self.applied, self.error = applied, error

    def __eq__(self, other) -> bool:
        return isinstance(other, Drained) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"Drained({self.to_dict()!r})"

    def to_dict(self) -> dict:
        return {"transcript_path": self.transcript_path, "project": self.project, "status": self.status,
                "applied": self.applied, "error": self.error}


def drain(home: Path, *, extractor: str | None = None, dry_run: bool = False) -> list[Drained]:
    """Consolidate every queued transcript once (the newest line per path
    wins), as the person (actor ``human`` opening, ``extracted`` writing),
    until the queue stays empty, and the transcripts an earlier drain's extractor failed on (once, first). Each
    is logged; a bad line or a failing transcript (whatever it raised) is logged, reported as ``error`` and
    dropped from the queue, never fatal to the rest; one whose extractor failed (status ``failed``) is kept
    for the next drain, up to :data:`MAX_ATTEMPTS` tries. Returns ``[]``
    at once when another drain is running (it will take these lines too)."""
    from filelock import FileLock, Timeout

    lock_path = queue_path(home).parent / "drain.lock"
    from ..files.fsio import ensure_dir  # late: the hook that queues imports little

    ensure_dir(lock_path.parent)
    lock = FileLock(str(lock_path), mode=0o600)
    results: list[Drained] = []
    while True:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return results
        try:
            retry = _take_retries(home) if not results else []  # once per drain: a retry waits for the next one
            while files := [*retry, *claim(home)]:
                retry = []
                results.extend(_drain_files(home, files, extractor, dry_run))
        finally:
            lock.release()
        # A hook may have queued a line, and seen this lock, between the last claim and the release.
        if not queue_path(home).exists():
            return results


def _take_retries(home: Path) -> list[Path]:
    """The retry file (:data:`RETRY_FILE`) moved aside as this drain's work file, or ``[]`` when there is none.
    Call with the drain lock held."""
    retry = queue_path(home).with_name(RETRY_FILE)
    work = retry.with_name(f"{QUEUE_FILE}.{os.getpid()}-retry.work")
    try:
        os.replace(retry, work)
    except FileNotFoundError:
        return []
    return [work]


def _drain_files(home: Path, files: list[Path], extractor: str | None, dry_run: bool) -> list[Drained]:
    from .transcripts.turns import jsonl_lines  # split at "\n" alone: a path may hold U+2028 (names26)

    entries: dict[str, dict] = {}
    for path in files:
        for raw in jsonl_lines(path.read_text(encoding="utf-8", errors="replace")):
            if not raw.strip():
                continue
            start = raw.rfind(RECORD_START)
            if start > 0:  # a line torn by a full disk (its hook said so), then the next one glued on: read that
                log_line(home, "skipped a torn queue line (the disk filled while it was written)")
                raw = raw[start:]
            try:
                item = json.loads(raw)
                entries[str(item["transcript_path"])] = item
            except (ValueError, KeyError, TypeError):
                log_line(home, "skipped a malformed queue line")
    results, retries = [], []
    if entries:  # loaded only when there is work: a drain of an empty queue stays cheap
        from ..errors import MemdirError
        from ..session import open_session
        from ..text.redact import tally
        from .consolidate import consolidate
    for transcript, item in entries.items():
        cwd = item.get("cwd") or None
        beyond = 0  # found, and not written for a cap: over-limit proposals and what the extractor left out
        redacted = ""  # the secrets redacted from the transcript, by kind: "basic-auth×1,github-token×2"
        try:
            session = open_session(home, cwd, actor="human", session_id=item.get("session_id"), use_cwd=False)
            hooked = item.get("event") in ("SessionEnd", "PreCompact")  # a session's end or compaction, not a turn's
            report = consolidate(session, transcript, extractor=extractor, dry_run=dry_run, under_hooks=hooked)
            row = Drained(transcript, cwd, report.status, report.changes, report.error)  # a dry run's: it would make
            beyond = report.beyond_limit
            redacted = tally(report.redaction_kinds, ",")
        except MemdirError as exc:
            row = Drained(transcript, cwd, "error", 0, str(exc))
        except OSError as exc:
            row = Drained(transcript, cwd, "error", 0, f"{exc.strerror or exc}")
        except Exception as exc:  # noqa: BLE001 - one transcript that breaks a reader must not block the queue
            row = Drained(transcript, cwd, "error", 0, f"{type(exc).__name__}: {str(exc)[:200]}")
        attempts = _attempts(item) + 1
        again = row.status == "failed" and not dry_run and attempts < MAX_ATTEMPTS
        if again:  # the extractor failed (a 500, a timeout): the transcript's facts wait for the next drain
            retries.append({**item, "attempts": attempts})
        log_line(home, f"{row.status} applied={row.applied}" + (f" not_applied_over_limit={beyond}" if beyond else "")
                 + (f" redacted={redacted}" if redacted else "") + f" event={item.get('event')} {transcript}"
                 + (f" error={row.error}" if row.error else "")
                 + (f" (tried again by the next drain: attempt {attempts} of {MAX_ATTEMPTS})" if again else ""))
        results.append(row)
    if retries:  # written before the work files go: a drain killed in between tries them once more, never less
        _append_line(queue_path(home).with_name(RETRY_FILE),
                     "".join(json.dumps(item) + "\n" for item in retries).encode("ascii"))
    for path in files:
        try:
            path.unlink()
        except OSError:
            pass
    return results


def _attempts(item: dict) -> int:
    """How many drains have tried the queued ``item`` (0 for a line a hook wrote)."""
    value = item.get("attempts")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


__all__ = ["MAX_ATTEMPTS", "RETRY_FILE", "Drained", "append", "claim", "drain", "log_line", "log_path", "queue_path", "spawn_drain"]
