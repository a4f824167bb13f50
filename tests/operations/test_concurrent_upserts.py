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


def test_of_two_concurrent_upserts_the_later_is_told_it_replaced_the_earlier(isolated_home, project):
    sessions = {day: Memory.open(home=isolated_home, project=project, search_vectors="off")
                for day in ("Tuesdays", "Thursdays")}
    _next_second()
    barrier, answers = threading.Barrier(2), {}

    def save(day):
        barrier.wait()
        answers[day] = sessions[day].call_tool("memory_write", _args(day))

    threads = [threading.Thread(target=save, args=(day,)) for day in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
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
    one = Memory.open(home=isolated_home, project=project, search_vectors="off")
    other = Memory.open(home=isolated_home, project=project, search_vectors="off")
    _next_second()
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
