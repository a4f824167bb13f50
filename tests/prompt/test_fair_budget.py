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


def _session_start(project, **env) -> str:
    """The ``additionalContext`` the SessionStart hook prints (a real subprocess, JSON on stdin)."""
    import json
    import os
    import subprocess
    import sys

    payload = json.dumps({"session_id": "s1", "cwd": str(project), "source": "startup",
                          "hook_event_name": "SessionStart"})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload,
                          capture_output=True, text=True, timeout=60, cwd=project,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off", **env))
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.slow
def test_status_and_doctor_say_what_the_block_holds_per_layer(isolated_home, project, claude_installed):
    from memdir.render import maintenance

    mem = _crowded(isolated_home, project)
    injected = _session_start(project)
    shown_user = injected.count("](user-fact-")
    assert shown_user == 22 and injected.count("](proj-fact-") == 5
    # control: `memdir context` has no tools note to leave room for, and one user line more; status says
    # what the agent receives (the audit: status described this block, not the hook's)
    assert mem.context().count("](user-fact-") == 23
    status = mem.status()
    layers = {layer.scope: layer for layer in status.layers}
    assert (layers["user"].visible, layers["user"].in_context) == (120, shown_user)
    assert (layers["project"].visible, layers["project"].in_context) == (5, 5)
    text = maintenance.status(status)
    assert f"user: 120 memories (120 in the index, {shown_user} in the context block," in text
    assert "project: 5 memories (5 in the index, 5 in the context block," in text
    doctor = maintenance.doctor(mem.doctor())
    # the same words as status's layer lines: of the memories in the index, those in the context block; doctor
    # names what each layer leaves out of it (the user layer), and no project, which leaves none out (control)
    assert (f"— user {shown_user} of 120, project 5 of 5 in the context block; left out of the block: user "
            f"{120 - shown_user} memories (`memdir context` shows what it holds)\n") in doctor
    assert f"context: {status.context_bytes} of {status.context_budget} bytes — user {shown_user} of 120, " \
           "project 5 of 5 in the context block\n" in text + "\n"


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
    assert shown == (("user", 4, 80), ("team", 3, 40), ("project", 4, 70))  # equal bytes (before: 5, 3, 3)
    assert all(f"({name}.md)" in text for name in ("u0", "t0", "p0")) and len(text.encode()) <= 1536
    assert "## How to use memory" not in text  # the policy went before the layers' floors did
    # control: one layer alone at the same budget has its floor (512 bytes: four lines), then the policy's first rules
    alone, ((_, alone_shown, _),) = layout([("user", _section("u", 80))], 1536)
    assert alone_shown == 4 and "## How to use memory\n- Save a memory (memory_write)" in alone
    assert "- If the user says a memory is wrong" not in alone  # the rules that did not fit are left out


@pytest.mark.slow
def test_a_store_with_pinned_user_memories_shows_every_layer_and_status_says_so(isolated_home, project, claude_installed):
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
    context = _session_start(project)
    assert "## User memories" in context and "## Project memories" in context  # control and the fix
    assert "(proj-fact-00.md)" in context and "(user-fact-20.md) 📌" in context
    layers = {layer.scope: layer for layer in mem.status().layers}  # what the hook injected, per layer
    assert (layers["user"].in_context, layers["project"].in_context) == (11, 13)
    assert (context.count("](user-fact-"), context.count("](proj-fact-")) == (11, 13)


# ---------------------------------------------------------------- more budget never shows fewer lines (audit)

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from memdir.prompt import context  # noqa: E402

_words = st.text(alphabet=st.sampled_from("abc xyzéü東—<>{}\\]["), max_size=420)
_line = st.builds(lambda n, pin, desc: f"- [m{n}](m{n}.md){' 📌' if pin else ''} — {desc}",
                  st.integers(0, 999), st.booleans(), _words)
_store = st.lists(st.tuples(st.sampled_from(["user", "team", "project"]),
                            st.lists(_line, min_size=1, max_size=25).map("\n".join)), min_size=1, max_size=3)


def test_the_audit_store_gains_lines_in_every_layer_as_the_budget_grows():
    user = "".join(f"- [pref-{i}](pref-{i}.md) 📌 — Préférence numéro {i} : toujours écrire les messages de commit "
                   f"en français, avec des accents é è ê ë à ù — très long texte pour remplir le budget {i}\n"
                   for i in range(1, 41))
    team = "".join(f"- [team-{i}](team-{i}.md) — Team rule {i}: squash merge only\n" for i in (1, 2))
    proj = "".join(f"- [proj-{i}](proj-{i}.md) — Project fact {i}: the service listens on port 80{i}\n" for i in (1, 2, 3))
    secs = [("user", user), ("team", team), ("project", proj)]
    curve = [layout(secs, budget)[1] for budget in range(1400, 4300, 20)]
    for before, after in zip(curve, curve[1:]):
        assert all(a <= b for (_, a, _), (_, b, _) in zip(before, after)), (before, after)
    assert [shown for _, shown, _ in curve[0]] == [3, 2, 3] and [shown for _, shown, _ in curve[-1]] == [13, 2, 3]
    assert {tuple(shown for _, shown, _ in point) for point in curve} >= {(4, 2, 3), (5, 2, 3)}  # before: 1/2/1 at 1800


def _chosen(secs, room):
    blocks = [(context.SECTION_TITLES[scope], context._Lines(text)) for scope, text in secs]
    parts = [len(part.encode()) for part in context._policy_parts(context.POLICY)]
    kept, said = context._choose(blocks, parts, room)
    return blocks, kept, said


@pytest.mark.slow
@given(secs=_store, low=st.integers(0, 10_000), more=st.integers(0, 4_000))
def test_a_bigger_budget_never_shows_fewer_lines_of_any_layer(secs, low, more):
    """Per layer, the lines shown at a budget are never fewer at a bigger one (audit: 40 pinned user
    memories gave user/team/project 4/2/3 at 1536 bytes, 1/2/1 at 1800, 1/2/3 at 2000)."""
    _, small = layout(secs, low)
    _, big = layout(secs, low + more)
    assert [total for _, _, total in small] == [total for _, _, total in big]
    assert all(a <= b for (_, a, _), (_, b, _) in zip(small, big)), (low, more, small, big)


@pytest.mark.slow
@given(secs=_store, low=st.integers(-200, 8_000), more=st.integers(0, 4_000))
def test_the_walk_keeps_at_a_bigger_room_every_line_it_keeps_at_a_smaller_one_and_the_fair_rules(secs, low, more):
    """The walk (``_choose``) at two rooms: what the smaller keeps, the bigger keeps (lines and policy
    rules); and at each the fair-floor rules: a section keeps a prefix of its own order (pinned lines
    first); no section has more than its first line before every section has its first; a section that
    keeps two lines or more has spent no more than any section with lines left out would with its next
    line (equal shares, what one leaves unused to the others); the policy comes only after the lines'
    floors (:data:`FLOOR_BYTES` per section) or when no line is left."""
    blocks, kept_small, said_small = _chosen(secs, low)
    _, kept_big, said_big = _chosen(secs, low + more)
    assert all(a <= b for a, b in zip(kept_small, kept_big)) and said_small <= said_big
    for kept, said in ((kept_small, said_small), (kept_big, said_big)):
        orders = [list(context._order(lines)) for _, lines in blocks]
        assert all(sorted(flags) == sorted(order[:len(flags)]) for flags, order in zip(kept, orders))

        def cost(b, i, first):
            title, lines = blocks[b]
            return 1 + len(lines.line(i).encode()) + (len(("\n\n" + title + "\n").encode()) if first else 0)

        spent = [sum(cost(b, i, n == 0) for n, i in enumerate(order[:len(flags)]))
                 for b, (flags, order) in enumerate(zip(kept, orders))]
        if said or any(len(flags) > 1 for flags in kept):
            assert all(flags for flags in kept)  # every section's first line came first
        left = [b for b, (flags, order) in enumerate(zip(kept, orders)) if len(flags) < len(order)]
        for a, flags in enumerate(kept):
            if len(flags) > 1:
                assert all(spent[a] <= spent[b] + cost(b, orders[b][len(kept[b])], not kept[b]) for b in left)
        if said and left:
            widest = max(cost(b, i, n == 0) for b, order in enumerate(orders) for n, i in enumerate(order))
            assert sum(spent) + widest > context.FLOOR_BYTES * len(blocks)


def _french_store(isolated_home, project) -> Memory:
    """The audit's store: 40 pinned user memories with long French descriptions, 2 team, 3 project."""
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False, actor="human")
    for i in range(1, 41):
        mem.write(f"pref-{i}", f"Préférence numéro {i} : toujours écrire les messages de commit en français, avec des "
                  f"accents é è ê ë à ù — très long texte pour remplir le budget {i}", "user", "x", pinned=True)
    for i in range(1, 4):
        mem.write(f"proj-{i}", f"Project fact {i}: the service listens on port 80{i}", "project", "b")
    mem.team_init()
    for i in range(1, 3):
        mem.write(f"team-{i}", f"Team rule {i}: squash merge only", "project", "b", scope="team")
    return mem


def _counts(text: str) -> tuple[int, int, int]:
    return text.count("[pref-"), text.count("[team-"), text.count("[proj-")


@pytest.mark.slow
def test_more_budget_never_gives_a_layer_fewer_lines_through_the_cli_the_hook_and_status(isolated_home, project, claude_installed):
    """Audit: user/team/project lines of `memdir context` were 4/2/3 at 1536 bytes, 1/2/1 at 1800, 1/2/3 at
    2000; the SessionStart hook at 2000 gave user 1, project 1 of 3; status said project 3 of 3."""
    from tests.conftest import run_cli

    _french_store(isolated_home, project)
    got = {}
    for budget in (1536, 1800, 2000, 4096):
        env = {"MEMDIR_CONTEXT_MAX_BYTES": str(budget), "MEMDIR_SEARCH_VECTORS": "off"}
        printed = run_cli("context", env=env, cwd=project).stdout
        injected = _session_start(project, MEMDIR_CONTEXT_MAX_BYTES=str(budget))
        status = run_cli("status", env=env, cwd=project).stdout
        doctor = run_cli("doctor", env=env, cwd=project).stdout
        got[budget] = (_counts(printed), _counts(injected))
        user, team, proj = _counts(injected)
        line = f"of {budget} bytes — user {user} of 40, team {team} of 2, project {proj} of 3 in the context block"
        assert line in status and line in doctor  # what the agent receives, which `memdir context` prints
        assert f"context: {len(injected.encode())} of {budget} bytes" in status
        assert printed == injected + "\n"  # before: `memdir context` left out the tools note, one user line more
    assert got == {1536: ((3, 2, 3), (3, 2, 3)), 1800: ((4, 2, 3), (4, 2, 3)), 2000: ((5, 2, 3), (5, 2, 3)),
                   4096: ((11, 2, 3), (11, 2, 3))}
    # control: the policy is there at 4096 and went before the layers' floors at 1536
    assert "## How to use memory" in run_cli("context", env={"MEMDIR_CONTEXT_MAX_BYTES": "4096"}, cwd=project).stdout
    assert "## How to use memory" not in run_cli("context", env={"MEMDIR_CONTEXT_MAX_BYTES": "1536"},
                                                 cwd=project).stdout


@pytest.mark.slow
def test_a_hand_placed_long_description_is_clipped_like_list_and_doctor_names_its_file(isolated_home, project):
    """Audit: a hand-placed file with a 3.6 KB description got a 3,631-byte index line, which pushed a
    60-byte project memory out of the block at 8000 bytes while 31 user lines got in; doctor said nothing."""
    from tests.conftest import run_cli

    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    for i in range(1, 61):
        mem.write(f"u-{i}", f"User habit {i}: prefers tabs in Makefiles and vim keybindings everywhere {i}", "user", "x")
    mem.write("p-small", "Project uses pnpm workspaces", "project", "x")
    huge = "Huge " + "ünïcödé description words " * 120
    path = mem.session.layer("project").path / "p-huge.md"
    path.write_text(f"---\nname: p-huge\ndescription: {huge}\ntype: project\n---\nbody\n", encoding="utf-8")
    for budget in (4096, 8000):
        env = {"MEMDIR_CONTEXT_MAX_BYTES": str(budget), "MEMDIR_SEARCH_VECTORS": "off"}
        printed = run_cli("context", env=env, cwd=project).stdout
        injected = _session_start(project, MEMDIR_CONTEXT_MAX_BYTES=str(budget))
        for block in (printed, injected):
            assert "(p-small.md)" in block and "(p-huge.md)" in block  # before: p-small left out at 8000
            shown = next(x for x in block.splitlines() if "(p-huge.md)" in x)
            # as `memdir list` cuts it: 259 characters in 299 UTF-8 bytes (ü, ï, ö, é are 2 bytes each) and "…"
            assert shown == f"- [p-huge](p-huge.md) — {huge.strip()[:259]}…"
    line = next(x for x in (path.parent / "MEMORY.md").read_text(encoding="utf-8").splitlines() if "(p-huge.md)" in x)
    assert line == f"- [p-huge](p-huge.md) — {huge.strip()[:259]}…"  # the index holds the clipped line
    assert f"— {huge.strip()[:259]}…" in run_cli("list", cwd=project).stdout
    # read shows the whole description (a listing line is cut, the memory itself is not); control: p-small's
    assert f"\ndescription: {huge.strip()}\n" in run_cli("read", "p-huge", cwd=project).stdout
    assert "\ndescription: Project uses pnpm workspaces\n" in run_cli("read", "p-small", cwd=project).stdout
    doctor = run_cli("doctor", cwd=project).stdout
    assert (f"note: {path}: its description is {len(huge.strip())} characters, over limit_description 160; the index "
            "line shows its first 259 —") in doctor
    assert "p-small.md: its description" not in doctor and "u-1.md: its description" not in doctor  # control


def test_an_index_line_an_older_memdir_wrote_long_is_clipped_in_the_block():
    long = "- [a](a.md) — " + "é" * 3000
    text, ((_, shown, _),) = layout([("project", long + "\n- [b](b.md) — the short one\n")], 4096)
    # 299 UTF-8 bytes at most and "…": 149 é (2 bytes each), as an ASCII description's 299 letters
    assert shown == 2 and f"- [a](a.md) — {'é' * 149}…\n" in text and "(b.md) — the short one" in text
    assert "é" * 150 not in text  # control above: the first 149 characters are there


def _notes(mem: Memory, description: str) -> None:
    """12 memory files of ``description`` placed by hand (a write keeps a description to 160 characters)."""
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    for i in range(12):
        (layer / f"note-{i:02d}.md").write_text(f"---\nname: note-{i:02d}\ndescription: {description}\ntype: project\n"
                                                f"---\nbody {i}\n", encoding="utf-8")


def test_a_line_is_clipped_at_300_utf8_bytes_between_characters():
    from memdir.text.printable import clipped

    assert clipped("日" * 150) == "日" * 99 + "…"  # 297 of 299 bytes and "…" (it was 150 characters, 450 bytes)
    assert clipped("a" * 400) == "a" * 299 + "…" and clipped("a" * 300) == "a" * 300  # control: ASCII as before
    assert clipped("é" * 200) == "é" * 149 + "…" and clipped("日" * 100) == "日" * 100  # 300 bytes: whole
    assert clipped("a" + "𝄞" * 100) == "a" + "𝄞" * 74 + "…"  # 1 + 296 bytes: no character broken
    for k in range(4):
        for limit in (4, 5, 6, 300):
            cut = clipped("a" * k + "日" * 200, limit)
            assert cut.endswith("…") and len(cut[:-1].encode()) <= limit - 1 and "\ufffd" not in cut


@pytest.mark.slow
def test_a_cjk_store_fills_a_small_budget_as_an_ascii_one_does(isolated_home, project, tmp_path):
    """Lines were clipped at 300 characters: a CJK description of 150 characters (450 bytes) made a 516-byte line,
    so a small byte budget held a third as many lines as English ones, and stopped up to a whole such line short."""
    cjk = Memory.open(home=isolated_home, project=project, use_cwd=False)
    japanese = ("東京の開発サーバーはポート五四三三で待ち受ける。" * 7)[:150]
    assert (len(japanese), len(japanese.encode())) == (150, 450)
    _notes(cjk, japanese)
    english = Memory.open(home=tmp_path / "other-home", project=project, use_cwd=False)
    _notes(english, ("The dev server in Tokyo listens on port 5433 " * 7)[:300])  # control: 300 bytes, not cut
    for mem, description in ((cjk, japanese[:99] + "…"), (english, None)):
        for budget in (2048, 3072, 4096):
            block = mem.context(budget)
            lines = [x for x in block.splitlines() if x.startswith("- [note-")]
            shown = [x.split(" — ", 1)[1] for x in lines]
            size = len(block.encode())
            assert size <= budget  # never over
            assert budget - size < 1 + len(lines[0].encode())  # within one line: the next one did not fit
            assert "follow the user" in block and "left out: project" in block  # the walk ended on a line
            if description is None:
                assert shown == [("The dev server in Tokyo listens on port 5433 " * 7)[:300].strip()] * len(lines)
            else:
                assert shown == [description] * len(lines)  # 99 characters in 297 bytes, and "…"
        assert [len([x for x in mem.context(b).splitlines() if x.startswith("- [note-")])
                for b in (2048, 3072, 4096)] == [2, 5, 8]  # the same lines at each budget, CJK or English
