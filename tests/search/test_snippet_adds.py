"""A result's snippet shows the body's passage; a memory whose body is empty, or only its description again,
has none (newuser36: `memdir search` printed such a memory's description twice, once as its snippet)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memdir import Memory


@pytest.fixture
def bm25(isolated_home, project):
    return Memory.open(home=isolated_home, project=project, search_vectors="off")


def test_a_bodiless_memory_has_no_snippet_beside_one_with_a_body(bm25):
    bm25.write("kafka-ret", "Kafka retention is seven days on the events topic", "project", "")
    bm25.write("kafka-twice", "Kafka partitions number twelve per topic", "project",
               "Kafka partitions number twelve per topic")
    bm25.write("kafka-lag", "Kafka consumer lag alert", "project", "Page the on-call when Kafka lag passes 10k.")
    hits = {h.name: (h.description, h.snippet) for h in bm25.search("kafka", k=10)}
    assert hits == {
        "kafka-ret": ("Kafka retention is seven days on the events topic", ""),
        "kafka-twice": ("Kafka partitions number twelve per topic", ""),
        "kafka-lag": ("Kafka consumer lag alert", "Page the on-call when Kafka lag passes 10k."),  # control
    }


def test_the_cli_says_a_bodiless_memorys_description_once(isolated_home, project):
    env = dict(os.environ, MEMDIR_HOME=str(isolated_home), MEMDIR_SEARCH_VECTORS="off")
    cli = [sys.executable, "-m", "memdir"]
    for name, description, body in (("kafka-ret", "Kafka retention is seven days on the events topic", ""),
                                    ("kafka-lag", "Kafka consumer lag alert", "Page the on-call when lag passes 10k.")):
        subprocess.run([*cli, "write", name, "-d", description, "-b", body], cwd=project, env=env, check=True,
                       capture_output=True)
    out = subprocess.run([*cli, "search", "kafka"], cwd=project, env=env, check=True, capture_output=True,
                         text=True).stdout
    assert out.count("Kafka retention is seven days on the events topic") == 1
    assert "  Page the on-call when lag passes 10k." in out.splitlines()  # control: a body's passage shown
