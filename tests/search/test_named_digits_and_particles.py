"""A hostile tester's two tokenization findings on main (break44), each with its control.

1. A name with its digits written on (``x86``, ``s3``, ``k8s``, ``sha256``, ``python3``, ``gpt4``, ``log4j``,
   ``ec2``) inside a compound joined by ``_`` or ``-`` is a term of its own (:func:`memdir.search.tokenize.tokens`):
   ``x86`` and ``s3`` found nothing beside "CI builds x86_64 binaries" and "dumps go to the s3-bucket", and
   ``sha256``, ``python3``, ``gpt4``, ``log4j`` found theirs at 0.06 only (by ``sha``, ``python``…), below
   memories that merely share the prefix word.
2. A name whose one-letter particle an apostrophe sets apart (``O'Brien``, ``D’Angelo``) is also the compound
   written without it (:mod:`memdir.search.oneword`): ``obrien`` and ``dangelo`` found nothing beside "Talk to
   O'Brien". ``I'll`` is no ``ill``, ``don't`` no ``dont`` and ``c'est`` no ``cest`` (the name's capital tells it).
3. A binary size's unit written on its number (``2GiB``, ``512MiB``) is that unit's word, as ``16GB`` and ``2 GiB``
   were: the camel-case split read ``GiB`` as ``Gi`` and ``B``, so ``GiB`` and ``gigabytes`` listed only the memory
   writing "16 GB" beside "Each tenant gets 3GiB", ``megabytes`` found nothing beside "heap is 512MiB", and ``3
   GiB`` found it at 0.12.

Index schema 33; an index of 32 is tokenized again in place when opened. Vectors off, real SQLite in a temp home,
the CLI as a subprocess, the MCP SDK's client on the real server.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.tokenize import tokens

from .ranked import top
from .surfaces import cli_search, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("arch", "CI architecture", "project", "CI builds x86_64 binaries only.")
    mem.write("dumps", "Backups bucket", "project", "Nightly dumps go to the s3-bucket named acme-dumps.")
    mem.write("cluster", "Cluster naming", "project", "The cluster is called blue-k8s in eu-west.")
    mem.write("checks", "Release checks", "project", "Verify the sha256-sum of every tarball.")
    mem.write("venv", "Virtualenv package", "project", "Install python3-venv on new Debian hosts.")
    mem.write("logging", "Logging dependency", "project", "Pin log4j-core to the patched release.")
    mem.write("sha-one", "Old digests", "project", "The legacy mirror still lists sha1 digests.")
    mem.write("python-two", "Legacy interpreter", "project", "The old cron box runs python 2 scripts.")
    mem.write("payments", "Payments owner", "project", "Talk to O'Brien about payment refunds.")
    mem.write("qa", "QA lead", "project", "Ask D’Angelo before a release.")
    mem.write("illness", "Sick days", "project", "Report being ill to the office manager.")
    mem.write("quota", "Disk quota", "project", "Each tenant gets 3GiB of storage.")
    mem.write("heap", "Heap size", "project", "The worker heap is 512MiB.")
    mem.write("ram", "Build box", "project", "The build box has 16 GB of RAM.")
    mem.write("french", "Note en français", "project", "C'est le port du serveur de test.")
    mem.write("coffee", "Coffee machine", "project", "The coffee machine is on the third floor.")
    return mem


def test_a_name_with_its_digits_inside_a_compound_is_a_term():
    assert tokens("x86_64") == ["x8664", "64", "x86"]  # was x8664 64: no x86
    assert tokens("s3-bucket") == ["s3bucket", "bucket", "s3"]
    assert tokens("blue-k8s") == ["bluek8", "blue", "k8"] and tokens("k8s") == ["k8"]
    assert tokens("sha256-sum") == ["sha256sum", "sha", "sum", "sha256"]
    assert tokens("gpt-4") == ["gpt4", "gpt"]  # control: the whole already is the name
    assert tokens("sha256") == ["sha256", "sha"] and tokens("2026-11-02") == ["20261102", "2026", "11", "1102"]


def test_a_one_letter_particle_set_apart_by_an_apostrophe():
    assert tokens("O'Brien") == ["o", "obrien", "brien"] and tokens("D’Angelo") == ["d", "dangelo", "angelo"]
    assert tokens("I'll") == ["i", "ll"] and tokens("don't") == ["don", "t"]  # controls: no ill, no dont
    assert tokens("user's") == ["user", "s"] and tokens("A's") == ["a", "s"]
    assert tokens("c'est") == ["c", "est"] and tokens("n'est") == ["n", "est"]  # controls: a French elision, no cest


def test_a_binary_unit_written_on_its_number_is_its_word():
    assert tokens("2GiB") == ["2gib", "2", "gigabyt"] and tokens("2 GiB") == ["2", "gigabyt"]  # was 2gib 2 gi
    assert tokens("512MiB") == ["512mib", "512", "megabyt"] and tokens("GiB") == ["gigabyt"]  # was gigabyt gi
    assert tokens("16GB") == ["16gb", "16", "gigabyt"]  # control: as before
    assert tokens("HiBernate") == ["hibern", "hi", "bernat"]  # control: no unit inside a word


def test_a_size_is_found_however_its_unit_is_written(store):
    assert top(store, "3 GiB") == [("quota", 1.0), ("ram", 0.0)]  # was quota at 0.12; ram shares gigabytes only
    assert sorted(top(store, "gigabytes")) == [("quota", 0.99), ("ram", 0.99)]  # was ram alone
    assert top(store, "megabytes") == [("heap", 1.0)] and top(store, "512 MiB") == [("heap", 1.0)]  # was nothing, 0.1
    assert top(store, "16GB") == [("ram", 1.0), ("quota", 0.0)]  # control: 16 is the build box's


def test_the_names_are_found_by_their_own_spelling(store):
    assert top(store, "x86") == [("arch", 1.0)]  # was nothing
    assert top(store, "s3") == [("dumps", 1.0)]  # was nothing
    assert top(store, "k8s") == [("cluster", 1.0)]  # was nothing
    # was checks at 0.06 (by sha), no stronger than sha-one; the other sha shares a word only: weak
    assert top(store, "sha256") == [("checks", 1.0), ("sha-one", 0.05)]
    assert top(store, "python3") == [("venv", 1.0), ("python-two", 0.05)]  # was venv at 0.06 (by python)
    assert top(store, "log4j") == [("logging", 1.0)]  # was logging at 0.06
    assert top(store, "sha1") == [("sha-one", 1.0), ("checks", 0.05)]  # control: the other sha
    assert top(store, "x64") == [] and top(store, "s4") == []  # controls: no other name


def test_a_name_is_found_written_without_its_apostrophe(store):
    assert top(store, "obrien") == [("payments", 1.0)]  # was nothing
    assert top(store, "dangelo") == [("qa", 1.0)]  # was nothing
    assert top(store, "O'Brien") == [("payments", 1.0)] and top(store, "brien") == [("payments", 1.0)]
    assert top(store, "I'll") == [] and top(store, "ill") == [("illness", 1.0)]  # control: I'll is no ill
    assert top(store, "thanks, that works") == []  # control: still nothing
    assert top(store, "cest") == [] and top(store, "serveur") == [("french", 1.0)]  # control: an elision no word


def test_an_index_of_schema_32_is_tokenized_again(store):
    assert top(store, "x86") == [("arch", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    ids = dict(conn.execute("SELECT name, id FROM docs WHERE name IN ('arch', 'payments')").fetchall())
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("ci build x8664 64 binari onli", ids["arch"]))
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("talk to o brien about payment refund", ids["payments"]))
    conn.execute("PRAGMA user_version = 32")  # 32's terms: no x86, no obrien
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    bodies = dict(conn.execute("SELECT rowid, body FROM fts WHERE rowid IN (?, ?)", tuple(ids.values())).fetchall())
    assert "x86" in bodies[ids["arch"]].split() and "obrien" in bodies[ids["payments"]].split()
    assert top(store, "x86") == [("arch", 1.0)] and top(store, "obrien") == [("payments", 1.0)]
    assert top(store, "coffee") == [("coffee", 1.0)]  # control: the other rows as before


@pytest.mark.slow
def test_the_cli_and_the_mcp_tool_read_them_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "x86") == [("arch", 1.0)] and cli_search(env, "obrien") == [("payments", 1.0)]
    assert cli_search(env, "x64") == []  # control
    named, particle, none = mcp_search(isolated_home, project, "s3", "dangelo", "I'll")
    assert "dumps" in named and "cluster" not in named
    assert "qa" in particle and "payments" not in particle
    assert "illness" not in none
