"""Counting a fresh process's stats and parses of a layer's memory files (issue 28 §7: what a hot path does must not
grow with the store). :data:`COUNTING` is Python source for a child process's script, inserted after it has set
``layer_dir`` (the layer directory, a string) and imported ``os`` and ``memdir.files.scan as scan``: ``count()``
starts counting every ``stat``/``lstat`` (also through ``os.scandir``'s entries) of a ``*.md`` file of that
directory but ``MEMORY.md`` into ``stats`` (file names) and every ``scan.parse`` into ``parsed`` (stems);
``stop()`` puts the real functions back."""

# A memory file placed by hand in a layer (``NOTE.format(name=, i=, t=)``): what the counting tests put there.
HAND_NOTE = """---
name: {name}
description: hand note {i} on topic {t}
type: user
---

Note {i}: copied in by hand.
"""

COUNTING = """
stats, parsed = [], []
real_scandir, real_stat, real_lstat, real_parse = os.scandir, os.stat, os.lstat, scan.parse

def mine(path):
    path = os.fspath(path)
    return os.path.dirname(path) == layer_dir and path.endswith('.md') and not path.endswith('MEMORY.md')

class Entry:
    def __init__(self, entry):
        self._entry = entry
    def __getattr__(self, name):
        return getattr(self._entry, name)
    def stat(self, **kw):
        if mine(self._entry.path):
            stats.append(self._entry.name)
        return self._entry.stat(**kw)

class Listing:
    def __init__(self, listing):
        self._listing = listing
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self._listing.close()
    def __iter__(self):
        return (Entry(e) for e in self._listing)
    def close(self):
        self._listing.close()

def counted(real):
    def call(path, *a, **kw):
        if mine(path):
            stats.append(os.path.basename(os.fspath(path)))
        return real(path, *a, **kw)
    return call

def count():
    os.scandir = lambda p='.': Listing(real_scandir(p))
    os.stat, os.lstat = counted(real_stat), counted(real_lstat)
    scan.parse = lambda text, stem: parsed.append(stem) or real_parse(text, stem)

def stop():
    os.scandir, os.stat, os.lstat, scan.parse = real_scandir, real_stat, real_lstat, real_parse
"""


def told_then_run(counts: str, opener: str = "open") -> str:
    """Python source ending a counting wrapper's script (the wrapper runs ``python WRAPPER MODULE ARGS…``): at
    exit of the process it wraps (not of a forked child) it appends the JSON of the expression ``counts`` as one
    line to the file ``$COUNTS_TO``, opened with ``opener`` (the real ``open`` where the wrapper replaced it),
    then it runs ``MODULE`` as ``__main__`` with ``ARGS``. The script must have imported ``atexit``, ``json``,
    ``os``, ``runpy`` and ``sys``."""
    return f"""
main = os.getpid()
def told():
    if os.getpid() == main:  # a forked child's exit: not the counted process
        with {opener}(os.environ["COUNTS_TO"], "a") as out:
            out.write(json.dumps({counts}) + "\\n")
atexit.register(told)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


JOURNAL_FSYNCS = """
from memdir.layer import journal as jmod
target = os.environ["JOURNAL_AT"]
kill_at = int(os.environ.get("KILL_AT") or 0)
counts = {"fsyncs": 0, "lines": 0}
real_fsync, real_line = os.fsync, jmod.Journal._write_line
def fsync(fd):
    try:
        if os.path.exists(target) and os.path.samestat(os.fstat(fd), os.stat(target)):
            counts["fsyncs"] += 1
    except OSError:
        pass
    return real_fsync(fd)
def write_line(self, payload):
    real_line(self, payload)
    if os.fspath(self.path) == target:
        counts["lines"] += 1
        if kill_at and counts["lines"] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
os.fsync, jmod.Journal._write_line = fsync, write_line
"""
"""Python source for a child process's script, after it has imported ``os`` and ``signal``: counts into ``counts``
the fsyncs of the journal at ``$JOURNAL_AT`` (``"fsyncs"``) and the lines written to it (``"lines"``), and
SIGKILLs the process once ``$KILL_AT`` lines are written (0 or unset: never)."""
