"""File names that differ only by case (left25, item 2): macOS and Windows — where a team's clone lands —
take ``Deploy.md`` and ``deploy.md`` for one file. memdir's names are lower-case, but a person's or a
teammate's ``Deploy.md`` arrives by hand or by a pull. Before, a write of ``deploy`` wrote ``deploy.md`` and
then removed ``Deploy.md`` (there: the file just written), and a new memory's file replaced a twin that is
no memory (there: its bytes gone). The rule is ``files.layout.case_twins``; ``Transaction.apply`` — every
writer's one path (write, rename, import, restore, sync) — renames the memory's own twin in one rename,
refuses a new file a twin takes, and leaves a pulled twin beside its memory, reported by the scan."""

from __future__ import annotations

import sys
import time

import pytest

from memdir.errors import Conflict

FRONT = "---\nname: {name}\ndescription: {description}\ntype: project\n---\n{body}\n"
_EVENTS: list = []
_HOOKED = []


def _record(event, args):
    if event in ("os.rename", "os.remove") and _HOOKED:
        _EVENTS.append((event, *(str(a).rsplit("/", 1)[-1] for a in args[:2])))


@pytest.fixture
def renames():
    """The file renames and removals the process makes (an audit hook: the real calls, nothing faked)."""
    if not _HOOKED:
        sys.addaudithook(_record)
        _HOOKED.append(True)
    _EVENTS.clear()
    return _EVENTS


@pytest.fixture
def layer(person):
    person.write("seed", "a seed", "project", "")
    return person.session.layer("project").path


def test_the_memorys_own_twin_is_renamed_once_never_written_beside_and_removed(person, layer, renames):
    (layer / "Deploy.md").write_text(FRONT.format(name="Deploy", description="Deploys on Fridays", body="by hand"))
    renames.clear()
    done = person.write("deploy", "Deploys weekly", "project", "the pipeline")
    assert done.operation == "updated"
    assert sorted(p.name for p in layer.glob("*.md")) == ["MEMORY.md", "deploy.md", "seed.md"]
    assert "Deploys weekly" in (layer / "deploy.md").read_text()
    # before: ('os.rename', 'Deploy.md', '.Deploy.md.<random>.del') after deploy.md was written — on macOS and
    # Windows, the file just written renamed aside and removed
    moved = [e for e in renames if e[0] == "os.rename" and e[1] == "Deploy.md"]
    assert moved == [("os.rename", "Deploy.md", "deploy.md")]
    history = person.history("deploy")
    assert [person.show("deploy", v.version).text.endswith("by hand\n") for v in history.versions] == [True, False]


def test_a_new_file_a_twin_takes_is_refused_naming_it(person, layer):
    big = FRONT.format(name="notes", description="too big", body="x" * 300_000)  # over the size ceiling
    (layer / "Notes.md").write_text(big)
    with pytest.raises(Conflict) as refused:
        person.write("notes", "Notes of the week", "project", "")
    assert str(refused.value) == (
        f"cannot write 'notes': {layer / 'Notes.md'} (a file that is no memory) differs from notes.md only by case, "
        "and macOS and Windows take the two for one file (a write there would replace it, a clone there keeps only "
        "one); rename or remove Notes.md first, or choose another name")
    assert (layer / "Notes.md").read_text() == big and not (layer / "notes.md").exists()
    with pytest.raises(Conflict):  # a rename to it as well
        person.write("notes", rename_from="seed")
    assert (layer / "seed.md").exists()
    # control: another name is written
    assert person.write("notes-2", "Notes of the week", "project", "").operation == "created"


def test_a_pulled_twin_beside_its_memory_keeps_its_text_and_is_reported(person, layer):
    pulled = FRONT.format(name="ci", description="CI on tags", body="a teammate's")
    (layer / "ci.md").write_text(FRONT.format(name="ci", description="CI on every push", body="mine"))
    (layer / "Ci.md").write_text(pulled)
    assert person.write("ci", "CI on every push and tag", "project", "mine").operation == "updated"
    assert (layer / "Ci.md").read_text() == pulled  # left as it is
    assert "CI on every push and tag" in (layer / "ci.md").read_text()  # control: the memory itself written
    problems = [p.error for p in person.doctor().problems if p.path.endswith("Ci.md")]
    assert problems == ["duplicate of ci.md (same name 'ci'); its name differs from ci.md's only by case: macOS "
                        "and Windows keep one of the two in a clone — move its text into ci.md (or another "
                        "memory) and remove it"]
    person.delete("ci")  # neither text is lost: both are versions
    texts = [person.show("ci", v.version).text for v in person.history("ci").versions if v.digest]
    assert any("a teammate's" in t for t in texts) and any("CI on every push and tag" in t for t in texts)


def test_an_import_of_twins_keeps_both(person, tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "Deploy.md").write_text(FRONT.format(name="Deploy", description="Deploys on Fridays", body="upper"))
    (source / "deploy.md").write_text(FRONT.format(name="deploy", description="Deploys weekly", body="lower"))
    person.import_from("dir", str(source), scope="project")
    listed = sorted((m.name, m.description) for m in person.list().memories)
    assert listed == [("deploy", "Deploys on Fridays"), ("deploy-2", "Deploys weekly")]  # neither lost


def test_a_team_conflict_in_a_case_twin_is_resolved_by_one_rename(tmp_path, renames):
    """The kind on another path: ``team resolve`` wrote ``deploy.md`` and then removed the conflicted ``Deploy.md``
    (there: the resolved memory)."""
    from tests.teamgit import shared_repository

    a, _ = shared_repository(tmp_path)
    conflicted = ("---\nname: deploy\ntype: project\n<<<<<<< ours\ndescription: Deploys on Tuesday\n=======\n"
                  "description: Deploys on Thursday\n>>>>>>> theirs\n---\nthe runbook\n")
    (a.team_dir / "Deploy.md").write_text(conflicted)
    renames.clear()
    done = a.memory().team_resolve("deploy", "theirs")
    assert done.path == str(a.team_dir / "deploy.md")
    assert sorted(p.name for p in a.team_dir.glob("*.md") if p.name != "README.md") == ["deploy.md"]
    assert "description: Deploys on Thursday" in (a.team_dir / "deploy.md").read_text()
    # before: ('os.rename', 'Deploy.md', '.Deploy.md.<random>.del') after deploy.md was written (on macOS: the memory)
    assert [e for e in renames if "Deploy.md" in e[1:]] == [("os.rename", "Deploy.md", "deploy.md")]


def test_a_large_layers_writes_keep_its_listing_and_still_refuse_a_twin_placed_since(person, layer):
    """In a layer past the sweep threshold a write's quick scan stands in while the directory is unchanged, and
    so does the listing the last transaction left (``Layer._listing``): the second of two new memories lists
    the directory 0 times (before: once per write, an import's thousands of writes each reading a directory of
    thousands of names). A file that no memory holds placed by hand since changes the directory: the next write
    lists it again, and a new memory whose file it would take is refused while another name is written."""
    from memdir.files.sweeps import SWEEP_ALWAYS_MAX

    for i in range(SWEEP_ALWAYS_MAX + 20):
        (layer / f"hand-{i:04d}.md").write_text(FRONT.format(name=f"hand-{i:04d}", description=f"hand {i}",
                                                             body="by hand"))
    person.write("taken-in", "the write that takes the hand files in", "project", "")
    listed: list[str] = []

    def count(event, args):
        if event == "os.listdir" and str(args[0]) == str(layer):
            listed.append(event)

    sys.addaudithook(count)
    person.write("alpha", "a first new memory", "project", "")
    listed.clear()
    assert person.write("beta", "a second new memory", "project", "").operation == "created"
    assert listed == []
    time.sleep(0.05)  # a person's hand, not the same clock tick as the write before
    big = FRONT.format(name="gamma", description="too big", body="x" * 300_000)  # over the size ceiling: no memory
    (layer / "Gamma.md").write_text(big)
    with pytest.raises(Conflict) as refused:
        person.write("gamma", "Gamma of the week", "project", "")
    assert "Gamma.md (a file that is no memory) differs from gamma.md only by case" in str(refused.value)
    assert len(listed) == 1 and (layer / "Gamma.md").read_text() == big and not (layer / "gamma.md").exists()
    assert person.write("gamma-2", "Gamma of the week", "project", "").operation == "created"  # the control
    assert (layer / "gamma-2.md").exists()
    listed.clear()
    with pytest.raises(Conflict):  # the refused write left no listing that forgets Gamma.md
        person.write("gamma", "Gamma again", "project", "")
