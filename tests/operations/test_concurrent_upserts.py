"""Two agents saving the same memory name at once: the later ``memory_write`` replaced the earlier one's version
without being told (hostile testers, tools40). The gateway's result names the version an update replaced
(:class:`memdir.results.memories.ReplacedVersion`); a session that never read nor wrote that version, written while it
ran, is warned — the version's number, time and writer — and the version stays in history. Real concurrency:
two sessions in two threads through ``memory_write``, started together at a barrier."""

from __future__ import annotations

import threading
import time

from memdir import Memory


def _next_second() -> None:
    """Wait for the next whole second: files keep whole seconds, and a version written in the second a session
    began is not counted as written while it ran (the warning is left unsaid rather than said falsely)."""
    now = time.time()
    time.sleep(1.02 - (now - int(now)))


def _args(day: str) -> dict:
    return {"name": "deploy-day", "description": f"Deploys go out on {day}", "type": "project", "body": f"{day}."}


def _sessions(home, project) -> tuple[Memory, Memory]:
    """Two agent sessions on ``home`` and ``project`` (vectors off), begun before the next whole second
    (:func:`_next_second`), so that what each writes is written while the other ran."""
    one, other = (Memory.open(home=home, project=project, search_vectors="off") for _ in range(2))
    _next_second()
    return one, other


def _together(home, project, work) -> dict:
    """Two sessions (:func:`_sessions`), one for "Tuesdays" and one for "Thursdays", each running
    ``work(session, day)`` in its own thread, started together at a barrier: ``{day: what its work returned}``."""
    sessions = dict(zip(("Tuesdays", "Thursdays"), _sessions(home, project)))
    barrier, answers = threading.Barrier(2), {}

    def run(day):
        barrier.wait()
        answers[day] = work(sessions[day], day)

    threads = [threading.Thread(target=run, args=(day,)) for day in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_of_two_concurrent_upserts_the_later_is_told_it_replaced_the_earlier(isolated_home, project):
    answers = _together(isolated_home, project, lambda session, day: session.call_tool("memory_write", _args(day)))
    first, later = sorted(answers, key=lambda day: "updated" in answers[day])
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    v1, _ = person.history("deploy-day").versions
    assert answers[first] == "Memory created: deploy-day (project)"  # control: the first says nothing of replacing
    assert answers[later] == (
        "Memory updated: deploy-day (project)\n"
        f"warning: 'deploy-day' was written by another writer while this session ran: this write replaced version 1, "
        f"written at {v1.ts[:19]}Z by agent, which this session had not read (it is kept in the memory's history)")
    assert person.read("deploy-day", count=False).record.description == f"Deploys go out on {later}"
    assert f"description: Deploys go out on {first}\n" in person.show("deploy-day", 1).text  # kept in history


def test_controls_a_session_that_wrote_or_read_the_version_it_replaces_is_not_told(isolated_home, project):
    one, other = _sessions(isolated_home, project)
    assert one.call_tool("memory_write", _args("Tuesdays")) == "Memory created: deploy-day (project)"
    assert one.call_tool("memory_write", _args("Mondays")) == "Memory updated: deploy-day (project)"  # its own
    other.call_tool("memory_read", {"name": "deploy-day"})  # seen: replacing it is no surprise
    assert other.call_tool("memory_write", _args("Fridays")) == "Memory updated: deploy-day (project)"
    # and the same write by a session that had not read it is told (the rule, in the same setup)
    told = one.call_tool("memory_write", _args("Sundays"))
    assert told.startswith("Memory updated: deploy-day (project)\nwarning: 'deploy-day' was written by another "
                           "writer while this session ran: this write replaced version 3, written at ")


def test_a_version_older_than_the_session_is_not_told(isolated_home, project):
    """Control: a memory written before the session began (the ordinary update of a known memory) says nothing."""
    Memory.open(home=isolated_home, project=project, search_vectors="off").call_tool("memory_write", _args("Tuesdays"))
    _next_second()
    later = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert later.call_tool("memory_write", _args("Fridays")) == "Memory updated: deploy-day (project)"


# ---------------------------------------------------------------- a batch of writes (tools41)


def _batch(mem, *days: tuple[str, str]):
    """``mem``'s session writes ``days`` (name, day) in one batch into the project layer."""
    from memdir.gateway.fields import MemoryChange
    from memdir.gateway.writing import BatchWrite
    from memdir.operations.memories import write_batch

    what = {"deploy-day": "Deploys", "release-day": "Releases"}
    return write_batch(mem.session, [BatchWrite(MemoryChange.of(name, f"{what[name]} go out on {day}", "project",
                                                                f"{day}.")) for name, day in days], "project")


def test_each_item_of_a_batch_that_replaced_another_writers_version_says_so(isolated_home, project):
    """Two writers: one writes a batch of two names; the other replaces one of them; the first's next batch
    warns on that item (naming the version, time and writer), not on the one only it wrote (control), nor
    on a second write of the same name within that batch (its own)."""
    one, other = _sessions(isolated_home, project)
    made = _batch(one, ("deploy-day", "Tuesdays"), ("release-day", "Mondays"))
    assert [(r.operation, r.warnings) for r in made] == [("created", ()), ("created", ())]
    assert other.call_tool("memory_write", _args("Thursdays")).startswith(  # told too: it replaced one's
        "Memory updated: deploy-day (project)\nwarning: 'deploy-day' was written by another writer")
    again = _batch(one, ("deploy-day", "Fridays"), ("release-day", "Wednesdays"), ("deploy-day", "Sundays"))
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    v2 = person.history("deploy-day").versions[1]
    told = (f"'deploy-day' was written by another writer while this session ran: this write replaced version 2, "
            f"written at {v2.ts[:19]}Z by agent, which this session had not read (it is kept in the memory's history)")
    assert [(r.name, r.operation, r.warnings) for r in again] == [
        ("deploy-day", "updated", (told,)), ("release-day", "updated", ()), ("deploy-day", "updated", ())]
    assert again[0].to_dict()["warnings"] == [told]  # its JSON says it too
    assert again[0].to_dict()["replaced"]["by"] == "agent"
    assert person.read("deploy-day", count=False).record.description == "Deploys go out on Sundays"


def test_two_concurrent_batches_the_later_is_told_per_item(isolated_home, project):
    """Real concurrency: two sessions' batches of the same two names, started together at a barrier; the
    layer's lock orders them; every item of the later batch replaced a version of the earlier one's and says
    so, the earlier batch's say nothing (control)."""
    # the layer made first: a batch into a layer not made yet writes one by one until one makes it
    Memory.open(home=isolated_home, project=project, actor="human").write("ci", "CI runs on Jenkins", "project")
    answers = _together(isolated_home, project,
                        lambda session, day: _batch(session, ("deploy-day", day), ("release-day", day)))
    first, later = sorted(answers, key=lambda day: answers[day][0].operation == "updated")
    assert [(r.operation, r.warnings) for r in answers[first]] == [("created", ()), ("created", ())]
    assert [r.operation for r in answers[later]] == ["updated", "updated"]
    for result in answers[later]:
        (warning,) = result.warnings
        assert warning.startswith(f"{result.name!r} was written by another writer while this session ran: this "
                                  "write replaced version 1, written at ") and warning.endswith(" by agent, which "
                                  "this session had not read (it is kept in the memory's history)")


def test_an_import_batch_says_which_item_replaced_another_writers_memory(tmp_path, isolated_home, project):
    """``memdir import`` writes its new memories in batches: a name another writer saved between the import's
    look and its batch is replaced, and that item's line says so (the CLI's report, rendered from the outcome);
    the other new item says nothing (control)."""
    from memdir.render.team import import_report

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "deploy-day.md").write_text("---\ndescription: Deploys go out on Tuesdays\n---\nTuesdays.\n")
    (notes / "release-day.md").write_text("---\ndescription: Releases go out on Mondays\n---\nMondays.\n")
    (notes / "zz-junk.md").write_bytes(b"---\ndescription: \xff\xfe\n---\n")  # settled at once: the others wait
    Memory.open(home=isolated_home, project=project, actor="human").write("ci", "CI runs on Jenkins", "project")
    importer = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    other = Memory.open(home=isolated_home, project=project, search_vectors="off")
    _next_second()
    wrote: list[str] = []

    def progress(done, total):  # the junk file settled: the new items wait in the batch; another writer saves one
        if done == 1 and not wrote:
            wrote.append(other.call_tool("memory_write", _args("Thursdays")))

    report = importer.import_from("dir", str(notes), scope="project", progress=progress)
    assert wrote == ["Memory created: deploy-day (project)"]
    by_name = {o.name: o for o in report.outcomes if o.name}
    told = by_name["deploy-day"].detail
    assert told.startswith("'deploy-day' was written by another writer while this session ran: this write replaced "
                           "version 1, written at ") and told.endswith(" by agent, which this session had not read "
                                                                       "(it is kept in the memory's history)"), told
    assert by_name["release-day"].detail == ""  # control
    text = import_report(report)
    assert "deploy-day (project)  ← deploy-day.md  — 'deploy-day' was written by another writer" in text
    assert "release-day (project)  ← release-day.md\n" in text


def test_a_batch_over_a_hand_edit_is_not_told_of_another_writer_but_over_an_agents_version_is(isolated_home, project):
    """flaky48: a person's edit in place keeps the ``updated`` and ``origin`` of the version it changed — here the
    batch session's own, written after the second it began — so the batch over it was told "written by another
    writer … by agent" of its own version. The edit is marked ``outside`` and told as the kept edit only; control
    in the same batch: the name another agent wrote meanwhile is warned of, naming that version."""
    import subprocess
    import sys

    one, other = _sessions(isolated_home, project)
    made = _batch(one, ("deploy-day", "Tuesdays"), ("release-day", "Mondays"))
    assert [(r.operation, r.warnings) for r in made] == [("created", ()), ("created", ())]
    path = one.session.layer_dir("project") / "deploy-day.md"
    edited = path.read_text(encoding="utf-8").replace("Tuesdays.", "Tuesdays, by hand.")
    subprocess.run([sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])", str(path), edited],
                   check=True, timeout=60)
    assert other.call_tool("memory_write", {"name": "release-day", "description": "Releases go out on Thursdays",
                                            "type": "project", "body": "Thursdays."}).startswith(
        "Memory updated: release-day (project)\nwarning: 'release-day' was written by another writer")
    again = _batch(one, ("deploy-day", "Fridays"), ("release-day", "Wednesdays"))
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    hand, v2 = person.history("deploy-day").versions[1], person.history("release-day").versions[1]
    assert hand.action == "external-edit"
    told = (f"'release-day' was written by another writer while this session ran: this write replaced version 2, "
            f"written at {v2.ts[:19]}Z by agent, which this session had not read (it is kept in the memory's history)")
    assert [(r.name, r.operation, r.warnings) for r in again] == [
        ("deploy-day", "updated", ()), ("release-day", "updated", (told,))]
    assert (again[0].replaced.outside, again[1].replaced.outside) == (True, False)
    assert again[0].kept_edit is not None and again[0].kept_edit.version == 2  # the edit is told as kept
