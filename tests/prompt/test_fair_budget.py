"""A fair budget (issue 28 item 4): each layer has a floor of the context block's bytes, what one leaves
unused goes to the others, the marker names the layer that lost lines, and ``status``/``doctor`` say
what the block really holds per layer. Real files under the test's own home."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.prompt.context import layout


def _crowded(isolated_home, project) -> Memory:
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    for i in range(120):
        mem.write(f"user-fact-{i:03d}", f"A fact about the person, number {i:03d}, padded to a fair length",
                  "user", "b")
    for i in range(5):
        mem.write(f"proj-fact-{i}", f"A fact about this project, number {i}", "project", "b")
    return mem


@pytest.mark.slow
@pytest.mark.parametrize("budget", [4096, 8000])
def test_120_user_memories_leave_the_5_project_memories_in(isolated_home, project, budget):
    mem = _crowded(isolated_home, project)
    block = mem.context(budget)
    assert len(block.encode()) <= budget
    assert all(f"(proj-fact-{i}.md)" in block for i in range(5))  # before issue 28: none of the five
    shown_user = block.count("](user-fact-")
    assert shown_user > 5 and "(user-fact-000.md)" in block  # control: the user layer has the rest
    assert f"index lines left out: user {120 - shown_user} — call memory_list" in block  # names the layer
    assert "project" not in block.split("index lines left out:")[1].split("—")[0]  # the project lost none


@pytest.mark.slow
def test_status_and_doctor_say_what_the_block_holds_per_layer(isolated_home, project):
    from memdir.render import memories as render

    mem = _crowded(isolated_home, project)
    shown_user = mem.context().count("](user-fact-")
    status = mem.status()
    layers = {layer.scope: layer for layer in status.layers}
    assert (layers["user"].visible, layers["user"].in_context) == (120, shown_user)
    assert (layers["project"].visible, layers["project"].in_context) == (5, 5)
    text = render.status(status)
    assert f"user: 120 memories (120 in the index, {shown_user} in the context block," in text
    assert "project: 5 memories (5 in the index, 5 in the context block," in text
    doctor = render.doctor(mem.doctor())
    assert f"— user {shown_user} of 120, project 5 of 5 in the index" in doctor


def test_what_one_layer_leaves_unused_goes_to_the_others():
    user = "".join(f"- [u{i}](u{i}.md) — user fact number {i:03d} padded to a fair length\n" for i in range(100))
    project = "- [p0](p0.md) — the one project fact\n"
    text, shown = layout([("user", user), ("project", project)], 2048)
    (_, user_shown, _), (_, project_shown, _) = shown
    assert project_shown == 1 and "(p0.md)" in text
    # the user layer gets far more than half: the project's unused floor went to it
    alone, ((_, user_alone, _),) = layout([("user", user)], 2048)
    assert user_shown >= user_alone - 2 and user_shown > 2 * project_shown
    assert len(text.encode()) <= 2048 and "left out: user " in text and ", project" not in text


def test_a_lone_layer_still_gets_the_whole_budget_and_pins_come_first():
    lines = "".join(f"- [m{i}](m{i}.md) — fact {i:03d} padded to a fair length of words\n" for i in range(60))
    pinned = "- [keep](keep.md) 📌 — pinned by the person\n"
    text, ((scope, shown, total),) = layout([("project", lines + pinned)], 1500)
    assert scope == "project" and total == 61 and "(keep.md) 📌" in text and "(m0.md)" in text
    assert f"…({total - shown} index lines left out: project {total - shown} —" in text
    full, ((_, all_shown, _),) = layout([("project", lines + pinned)], 100_000)
    assert all_shown == 61 and "left out" not in full  # control: a budget that fits it all


def _section(prefix: str, count: int, pinned: range = range(0)) -> str:
    return "".join(f"- [{prefix}{i}]({prefix}{i}.md){' 📌' if i in pinned else ''} — {prefix} fact number {i:03d}: "
                   "a long description line about the build pipeline and its many stages\n" for i in range(count))


def test_pinned_user_lines_rank_first_within_the_user_floor_not_over_the_other_layers():
    # issue 28 audit: 80 user memories (40 pinned), 40 team, 70 project gave user 20, team 0, project 0
    sections = [("user", _section("u", 80, range(40, 80))), ("team", _section("t", 40)),
                ("project", _section("p", 70))]
    text, shown = layout(sections, 4096)
    assert shown == (("user", 8, 80), ("team", 8, 40), ("project", 8, 70))
    assert all(f"(u{i}.md) 📌" in text for i in range(40, 48))  # the user floor holds its pins first
    assert "(u0.md)" not in text and "(t0.md)" in text and "(p0.md)" in text
    assert "left out: user 72, team 32, project 62 —" in text and len(text.encode()) <= 4096
    # control: the same store without pins is just as fair, and its user lines are the first ones
    plain, plain_shown = layout([("user", _section("u", 80))] + sections[1:], 4096)
    assert plain_shown == (("user", 9, 80), ("team", 8, 40), ("project", 8, 70)) and "(u0.md)" in plain


def test_pins_beyond_a_layers_floor_take_what_the_other_layers_leave_unused():
    sections = [("user", _section("u", 80, range(40, 80))), ("team", _section("t", 2)),
                ("project", _section("p", 1))]
    text, shown = layout(sections, 4096)
    assert shown == (("user", 21, 80), ("team", 2, 2), ("project", 1, 1))
    assert all(f"(u{i}.md) 📌" in text for i in range(40, 61)) and "(u39.md)" not in text


def test_the_smallest_budget_shows_every_layers_first_line():
    sections = [("user", _section("u", 80)), ("team", _section("t", 40)), ("project", _section("p", 70))]
    text, shown = layout(sections, 1536)  # the lowest context_max_bytes; before: user 1, team 0, project 0
    assert shown == (("user", 5, 80), ("team", 3, 40), ("project", 3, 70))
    assert all(f"({name}.md)" in text for name in ("u0", "t0", "p0")) and len(text.encode()) <= 1536
    assert "## How to use memory" not in text  # the policy went before a layer did
    # control: one layer alone at the same budget keeps the policy and its lines
    alone, ((_, alone_shown, _),) = layout([("user", _section("u", 80))], 1536)
    assert "## How to use memory" in alone and alone_shown == 2


@pytest.mark.slow
def test_a_store_with_pinned_user_memories_shows_every_layer_and_status_says_so(isolated_home, project):
    import json
    import os
    import subprocess
    import sys

    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    for i in range(40):
        mem.write(f"user-fact-{i:02d}", f"A fact about the person, number {i:02d}, padded to a fair length of words",
                  "user", "b")
    for i in range(20, 40):
        mem.pin(f"user-fact-{i:02d}")
    for i in range(30):
        mem.write(f"proj-fact-{i:02d}", f"A fact about this project, number {i:02d}, padded to a fair length",
                  "project", "b")
    block = mem.context()
    shown_user, shown_project = block.count("](user-fact-"), block.count("](proj-fact-")
    assert (shown_user, shown_project) == (12, 14)  # before: user 22 (every pin first), project 2
    assert "(user-fact-20.md) 📌" in block and "(user-fact-00.md)" not in block  # pins first within the user share
    layers = {layer.scope: layer for layer in mem.status().layers}
    assert (layers["user"].in_context, layers["project"].in_context) == (shown_user, shown_project)
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "source": "startup",
                          "hook_event_name": "SessionStart"})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload,
                          capture_output=True, text=True, timeout=60, cwd=project,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "## User memories" in context and "## Project memories" in context  # control and the fix
    assert "(proj-fact-00.md)" in context and "(user-fact-20.md) 📌" in context
