"""Review reads each candidate's target alone, never a scan of its layer per candidate: with 300 candidates in a
1,500-file layer, ``Memory.review`` stat'ed about 900,000 files (13.5 s) and the panel's ``/review`` timed out
(memdir.operations.trust._find_pending scanned the layer once per candidate; benchmarks/bench_review.py)."""

from __future__ import annotations

import os

from memdir import Memory

NEW = ("deploy-day", "indent", "queue-drain", "log-format")


class _Counted:
    """An ``os.scandir`` entry whose ``stat`` is counted when it is of the watched file."""

    def __init__(self, entry, count):
        self._entry, self._count = entry, count

    def __getattr__(self, name):
        return getattr(self._entry, name)

    def stat(self, *args, **kwargs):
        self._count(self._entry.path)
        return self._entry.stat(*args, **kwargs)


class _Listing:
    def __init__(self, listing, count):
        self._listing, self._count = listing, count

    def __enter__(self):
        self._listing.__enter__()
        return self

    def __exit__(self, *exc):
        return self._listing.__exit__(*exc)

    def __iter__(self):
        return (_Counted(entry, self._count) for entry in self._listing)

    def close(self):
        self._listing.close()


def _stats_of(monkeypatch, path) -> list[str]:
    """Every stat of ``path`` from now on — ``os.stat``, ``os.lstat`` and an ``os.scandir`` entry's ``stat`` —
    one item each (how it was stat'ed)."""
    watched, seen = os.fspath(path), []
    real_stat, real_lstat, real_scandir = os.stat, os.lstat, os.scandir

    def count(how):
        return lambda p: seen.append(how) if os.fspath(p) == watched else None

    def stat(p, *args, **kwargs):
        count("stat")(p)
        return real_stat(p, *args, **kwargs)

    def lstat(p, *args, **kwargs):
        count("lstat")(p)
        return real_lstat(p, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(os, "scandir", lambda *a: _Listing(real_scandir(*a), count("scandir")))
    return seen


def test_a_memory_no_candidate_touches_is_stated_at_most_twice_by_review(person, mem, isolated_home, project,
                                                                        monkeypatch):
    person.write("untouched", "Lint with ruff", "project", "ruff check, never flake8.")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    person.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.")
    mem.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.", status="candidate")
    mem.write("ci", "CI runs on Buildkite", "project", "Pipeline in .buildkite.", status="candidate")
    for name in NEW:
        mem.write(name, f"A proposal about {name}", "project", f"Body of {name}.", status="candidate")
    layer = person.session.layer("project")
    fresh = Memory.open(home=isolated_home, project=project, actor="human")  # as a command or the panel opens it
    with monkeypatch.context() as patched:
        seen = _stats_of(patched, layer.path / "untouched.md")
        shown = fresh.review("project").candidates
    # control: every candidate is shown, the two changes as changes of the memory they change
    assert sorted((c.name, c.change, c.target) for c in shown) == sorted(
        [("db-port-candidate", "change", "db-port"), ("ci-candidate", "change", "ci")]
        + [(name, "new", None) for name in NEW])
    assert len(seen) <= 2, seen  # its listing and one lstat; before, a listing per candidate too (8)
    assert len(seen) >= 1  # control: the listing did stat it, and the count sees it
