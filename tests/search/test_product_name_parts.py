"""A part two different product names share is no evidence one is the other (parts50).

Before: with vectors off, "what is the MySQL port?" recalled `db-port` ("The dev PostgreSQL listens on port 5433",
0.45 against the 0.2 bar): ``MySQL`` and ``PostgreSQL`` are split into their parts and share ``sql``. Same kind:
TypeScript/JavaScript (``script``), GitLab/GitHub (``git``). A query term written only as a part of a product name
that a memory holds only as a part of another name now weighs nothing (:func:`memdir.search.parts.parts_weighed`,
:func:`memdir.search.tokenize.name_parts`); a part the memory writes as a word, or of the same name, still counts.

Real SQLite and memory files; each "recalls nothing" beside a control store without the other product that does."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import parts, ranking
from memdir.search.tokenize import name_parts, word_forms

PAIRS = [  # (name, the memory, the prompt naming another product, the control prompt naming its own)
    ("db-port", "The dev PostgreSQL listens on port 5433.", "what is the MySQL port?", "what is the postgres port?"),
    ("js-port", "The JavaScript dev server listens on port 3000.", "what is the TypeScript port?",
     "what is the javascript port?"),
    ("gh-secret", "The GitHub webhook secret is kept in 1Password.", "where is the GitLab secret?",
     "where is the github secret?"),
]


def _store(base, name, body):
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", actor="human", search_vectors="off")
    mem.write(name, body.rstrip("."), "project", body)
    mem.write("fmt", "Formatting", "project", "Run ruff format before each commit.")
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_name_parts_are_the_terms_written_only_inside_product_names():
    assert name_parts("The dev PostgreSQL listens") == {"postgr": {"postgresql"}, "sql": {"postgresql"}}
    assert name_parts("what is the MySQL port?") == {"my": {"mysql"}, "sql": {"mysql"}}
    # Controls: a part also written as a word is no name's part only; identifiers and plain words are no names.
    assert name_parts("PostgreSQL and SQL") == {"postgr": {"postgresql"}}
    assert name_parts("call getUserId on the user_id of a plain word") == {}


def test_a_part_of_another_name_weighs_nothing_and_of_the_same_name_or_a_word_keeps_its_weight():
    weights = {"mysql": 2.0, "sql": 1.5, "port": 1.0}
    names = name_parts("what is the MySQL port?")
    forms = word_forms("what is the MySQL port?")
    assert parts.parts_weighed(weights, "The dev PostgreSQL listens on port 5433.", forms, {"sql"}, names) == {
        "mysql": 2.0, "sql": 0.0, "port": 1.0}
    assert parts.parts_weighed(weights, "MySQL listens on port 3306.", forms, set(), names) is weights
    assert parts.parts_weighed(weights, "Any SQL server listens on port 5433.", forms, set(), names) is weights


@pytest.mark.parametrize("name,body,other,own", PAIRS, ids=[p[0] for p in PAIRS])
def test_another_product_sharing_a_part_recalls_nothing(tmp_path, name, body, other, own):
    mem = _store(tmp_path, name, body)
    assert recalled(mem, other) == []  # was [name]: the shared part counted as the product
    assert recalled(mem, own) == [name]  # control: the store answers the product it holds
    hits, _, _ = ranking.ranked(mem.session, other, pool=10, min_score=0.0)
    scores = {h.memory.name: h.score for h in hits}
    assert scores.get(name, 0.0) < 0.2  # search agrees with recall: below the bar (0.46 before)


def test_the_same_product_written_whole_or_as_its_part_still_recalls(tmp_path):
    mem = _store(tmp_path, "db-port", "The dev Postgres listens on port 5433.")
    assert recalled(mem, "what is the PostgreSQL port?") == ["db-port"]  # postgr: a word of the memory
    assert recalled(mem, "what is the MySQL port?") == []  # control: another product in the same store
