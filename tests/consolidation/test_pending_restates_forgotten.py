"""A fact said again after it was forgotten is kept as a pending finding marked with its tombstone (newuser46).

"Remember: lunch is on Fridays." said after `memdir forget lunch` was kept pending and shown to the agent for two
sessions; the agent's save was then refused by the tombstone, and nothing told the person. Only a person decides
whether a forgotten fact comes back, so the finding stays (the person said it again), and: the agent's block says
the user forgot it and that memdir refuses its save until a person lifts the tombstone (with the command); the
consolidation's notes, `memdir review` and `memdir doctor` say the same to the person. Controls: a finding of
another fact carries no such mark; the forgotten value is refused until the lift the mark names, then saved."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from memdir import Memory
from memdir.prompt import pending
from tests.conftest import run_cli
from tests.consolidation.test_consolidate import cc_transcript

SAID = "Remember: lunch is on Fridays."
OTHER = "Remember that the API key rotates every 90 days."


def test_a_restated_forgotten_fact_is_kept_marked_and_said_to_agent_and_person(tmp_path, isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("lunch", "Team lunch is on Fridays", "project", "At the Thai place.")
    person.forget("lunch")
    [stone] = person.session.layer("project").tombstones()
    at = datetime.fromisoformat(stone.ts)
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", SAID, stamp(60)), ("assistant", "Noted.", stamp(70)),
                         ("user", OTHER, stamp(80)), ("assistant", "Noted.", stamp(90)))
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    report = agent.consolidate(path, mode="always", extractor="agent")
    lift = f"memdir tombstone lift {stone.id} --scope project"
    said = (f"restates a memory the user forgot (tombstone {stone.id}); only a person brings it back, by lifting the "
            f"tombstone (`{lift}`)")
    items = pending.load(agent.session.layer_path("project"))
    assert [(i["text"], i.get("tombstone")) for i in items] == [
        (SAID, {"id": stone.id, "scope": "project"}), (OTHER, None)]  # control: the other fact unmarked
    assert [n for n in report.notes if n.startswith("pending finding kept")] == [(
        f"pending finding kept ({SAID}): it restates forgotten memory 'lunch' (tombstone {stone.id}); the agent is "
        f"told not to save it and to tell you: only a person brings it back, by lifting the tombstone (`{lift}`)")]

    block = run_cli("context", "--project", project).stdout
    [line] = [x for x in block.splitlines() if "lunch is on Fridays" in x]
    assert line.endswith(f"“{SAID}” — {said}; do not save it, tell the user")
    [other] = [x for x in block.splitlines() if "API key rotates" in x]
    assert other.endswith(f"“{OTHER}”")  # control: no mark
    review = run_cli("review", "--project", project).stdout.splitlines()
    assert review[review.index(next(x for x in review if SAID in x)) + 1] == f"    {said}"
    assert not any("forgot" in x for x in review[review.index(next(x for x in review if OTHER in x)):][:2])
    found = json.loads(run_cli("review", "--json", "--project", project).stdout)["findings"]
    assert [(f["text"], f["forgotten"]) for f in found] == [(SAID, said), (OTHER, "")]  # --json: the same, a field
    doctor = run_cli("doctor", "--project", project).stdout.splitlines()
    assert f"    “{SAID}” — {said}" in doctor and f"    “{OTHER}”" in doctor

    refused = agent.call_tool("memory_write", {"name": "lunch", "description": "Team lunch is on Fridays",
                                               "type": "project", "body": "At the Thai place."})
    assert stone.id in refused and lift in refused  # the forgotten value itself: refused, as the mark says
    assert run_cli("tombstone", "lift", stone.id, "--scope", "project", "--project", project).returncode == 0
    assert "Memory created: lunch" in agent.call_tool("memory_write", {"name": "lunch", "description": SAID[10:],
                                                                       "type": "project"})  # lifted: saved again


STANDUP = "Remember: standup is on Mondays."


def test_a_lifted_tombstones_finding_loses_its_mark_and_a_still_forgotten_one_keeps_it(tmp_path, isolated_home,
                                                                                        project):
    """rev49c: after `memdir tombstone lift`, the finding restating the lifted value still said "do not save it"
    in the agent's block, `review` and `review --json`. Control in the same run: the other forgotten fact, its
    tombstone still in force, keeps its mark."""
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    person.write("lunch", "Team lunch is on Fridays", "project", "At the Thai place.")
    person.write("standup", "Team standup is on Mondays", "project", "In room 4.")
    person.forget("lunch")
    person.forget("standup")
    stones = {s.name: s for s in person.session.layer("project").tombstones()}
    at = datetime.fromisoformat(max(s.ts for s in stones.values()))
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", SAID, stamp(60)), ("assistant", "Noted.", stamp(70)),
                         ("user", STANDUP, stamp(80)), ("assistant", "Noted.", stamp(90)))
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    agent.consolidate(path, mode="always", extractor="agent")
    layer_dir = agent.session.layer_path("project")
    marks = lambda: [(i["text"], (i.get("tombstone") or {}).get("id")) for i in pending.load(layer_dir)]
    assert marks() == [(SAID, stones["lunch"].id), (STANDUP, stones["standup"].id)]  # both forgotten: both marked

    done = run_cli("tombstone", "lift", stones["lunch"].id, "--scope", "project", "--project", project)
    assert done.returncode == 0, done.stderr
    assert marks() == [(SAID, None), (STANDUP, stones["standup"].id)]  # lifted: unmarked; control: still marked
    block = run_cli("context", "--project", project).stdout
    [line] = [x for x in block.splitlines() if "lunch is on Fridays" in x]
    assert line.endswith(f"“{SAID}”")  # no "restates a memory the user forgot", no "do not save it"
    [other] = [x for x in block.splitlines() if "standup is on Mondays" in x]
    assert other.endswith(f"“{STANDUP}” — restates a memory the user forgot (tombstone {stones['standup'].id}); only a "
                          f"person brings it back, by lifting the tombstone (`memdir tombstone lift "
                          f"{stones['standup'].id} --scope project`); do not save it, tell the user")
    found = json.loads(run_cli("review", "--json", "--project", project).stdout)["findings"]
    assert [(f["text"], bool(f["forgotten"])) for f in found] == [(SAID, False), (STANDUP, True)]
