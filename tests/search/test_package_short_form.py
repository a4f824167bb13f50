"""``pkg`` is the short form of "package" (:data:`memdir.text.words.SHORT_FORMS`), in memories and queries alike
(issue 28, a trial in a fresh home of two memories: "which package manager do we use?" did not recall ``pkg-manager``,
"This project uses pnpm, never npm": search relevance 0.22, cosine 0.805 — the other memory was nearer in meaning,
and of the question's two words the memory held "manager" alone)."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import stemming

from .densestub import notes_store
from .evalstore import needs_vectors

NOTES = [("pkg-manager", "This project uses pnpm, never npm", "The lockfile is pnpm-lock.yaml."),
         ("db-port", "Dev PostgreSQL listens on 5433", "Use port 5433 for the local dev database.")]
QUESTION = "which package manager do we use?"


def test_pkg_stems_as_package():
    assert stemming.stem("pkg") == stemming.stem("package") == stemming.stem("packages") == "packag"
    assert stemming.stem("pack") == "pack"  # control: another word stays itself


def test_words_alone_find_the_short_form_in_a_memorys_name(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    found = mem.search("package manager")
    assert [h.name for h in found] == ["pkg-manager"] and found[0].score >= 0.9
    assert [h.name for h in mem.search("postgres port")] == ["db-port"]  # control: the other memory by its words
    assert mem.search("weather forecast") == []


@pytest.mark.slow
@needs_vectors
def test_real_vectors_a_fresh_home_of_two_recalls_the_package_manager(tmp_path):
    """The trial's store, embedded: the question recalls pkg-manager (db-port is nearer in meaning, by 0.006), an
    unrelated prompt in the same store recalls nothing (control)."""
    from memdir.search.sync import prepare

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=project, search_vectors="on", actor="human")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    prepare(mem.session)
    recalled = mem.recall_result(QUESTION)
    assert [m.name for m in recalled.memories] == ["pkg-manager"] and recalled.memories[0].score >= 0.9
    assert mem.recall_result("what's the weather like today?").memories == ()
    assert [m.name for m in mem.recall_result("which port does the dev database listen on?").memories] == ["db-port"]
