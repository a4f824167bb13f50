"""The L0 evals (evals/l0/run.py, issue 13 item 1) run through the same functions, every figure asserted.

The byte figures depend on memdir's own policy text (store.context.POLICY): a
change to it moves them, and they are re-derived here on purpose, as the seed's
L0 eval caught its ~800-byte overshoot (reference/seed-behaviour.md §A17).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import REPO

RUN = REPO / "evals" / "l0" / "run.py"


def load_eval():
    spec = importlib.util.spec_from_file_location("l0_eval", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def l0():
    return load_eval()


def test_the_generator_is_the_seeds_mulberry32_and_stable(l0):
    draw = l0.mulberry32(42)
    assert [round(draw(), 10) for _ in range(3)] == [0.6011037519, 0.4482905590, 0.8524657935]
    ten, many = l0.make_memories(10, probe_every=4), l0.make_memories(1000, probe_every=4)
    assert ten == many[:10] and [m["name"] for m in ten[:3]] == ["m0000-build", "m0001-deploy", "m0002-testing"]
    assert all(24 <= len(m["description"]) <= 63 and 40 <= len(m["body"]) <= 99 for m in many)
    assert [m["probe"] for m in ten] == [True, False, False, False, True, False, False, False, True, False]
    assert ten[3]["title"] == "数据库经验" and {m["type"] for m in many} == {"user", "feedback", "project", "reference"}


@pytest.mark.slow
def test_budget_curve(l0, tmp_path):
    got = l0.budget_curve(tmp_path)
    assert got["empty_store_bytes"] == 0  # an empty store injects nothing, not even the policy
    rows = [(p["memories"], p["bytes"], p["lines_kept"], p["lines_left_out"], p["marker"]) for p in got["points"]]
    # The marker names the layers that lost lines (issue 28): its longer reserve costs one line at 100+.
    assert rows == [(20, 2882, 20, 0, False), (50, 4047, 33, 17, True), (100, 4052, 33, 67, True),
                    (200, 4055, 33, 167, True), (1000, 4056, 33, 967, True)]
    for point in got["points"]:
        assert point["bytes"] <= 4096 and point["fenced"]
        # the marker is there exactly when the whole block would not have fitted
        assert point["marker"] == (point["untruncated_bytes"] > 4096) == (point["lines_left_out"] > 0)
    assert got["never_over_budget"] and got["marker_iff_left_out"]


@pytest.mark.slow
def test_probe_retention_at_half_budget(l0, tmp_path):
    got = l0.probe_retention(tmp_path)
    assert (got["memories"], got["probes"], got["max_bytes"]) == (60, 15, 3157)
    # positional baseline (the fair share; 5 before the shares were kept in one order at every budget)
    assert (got["plain"]["kept"], got["plain"]["share"]) == (6, 0.4)
    # the seed's bar: ≥ 0.8. Since the fair budget of issue 28's audit a layer's pins fill its own floor
    # first and never another layer's (15 of 15 before, when the pinned user probes pushed the rest out)
    assert (got["pinned"]["kept"], got["pinned"]["share"]) == (13, 0.8667)
    assert (got["importance"]["kept"], got["importance"]["share"]) == (14, 0.9333)
    assert got["pinned"]["pin_mark"] and not got["plain"]["pin_mark"] and not got["importance"]["pin_mark"]
    assert all(got[case]["bytes"] <= got["max_bytes"] for case in ("plain", "pinned", "importance"))


def test_a_pinned_project_memory_is_not_pushed_out_by_the_user_section(isolated_home, project):
    """Before issue 13 the block kept lines section by section, so 40 unpinned user memories filled the
    budget and the pinned project probe of the eval above was left out (11 of 15 pinned probes kept)."""
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    for i in range(40):
        mem.write(f"user-fact-{i:02d}", f"A fact about the person, number {i:02d}, padded to a fair length", "user", "b")
    mem.write("deploy-freeze", "Never deploy on Fridays: the on-call rota is empty", "project", "b", pinned=True)
    mem.write("lint-rule", "Run ruff before every commit, the CI rejects lint errors", "project", "b")
    block = mem.context(4096)
    assert "(deploy-freeze.md) 📌" in block and "## Project memories" in block
    # Since issue 28 the project section has a floor of the budget: its unpinned line is there too, and
    # the user section keeps what it can of the rest.
    assert "(lint-rule.md)" in block and "(user-fact-00.md)" in block and "(user-fact-39.md)" not in block
    assert len(block.encode()) <= 4096 and "index lines left out" in block
    assert block.index("## User memories") < block.index("## Project memories")  # section order kept



def test_a_title_ending_in_a_backslash_neither_loses_nor_forges_a_pin(isolated_home, project):
    """Breaker trial: the index line did not escape ``\\``, so ``[Keep C:\\](keep-c.md) 📌`` read as an
    escaped ``]`` and its pin was lost, while ``[Sneaky\\](zz-low.md) — ](a.md) 📌 fake`` forged one."""
    mem = Memory.open(home=isolated_home, project=project, use_cwd=False)
    for i in range(30):
        mem.write(f"filler-{i:02d}", f"An ordinary project fact, number {i:02d}, padded to a fair length", "project", "b")
    mem.write("keep-c", "A pinned memory whose title ends in a backslash", "project", "b", title="Keep C:\\",
              pinned=True)
    mem.write("keep-plain", "A pinned memory with a plain title", "project", "b", title="Keep plain", pinned=True)
    mem.write("zz-low", "low importance item ](a.md) \U0001f4cc fake", "project", "b", title="Sneaky\\")
    block = mem.context(900)
    assert "[Keep C:\\\\](keep-c.md) \U0001f4cc" in block  # the pin kept, the backslash escaped
    assert "(keep-plain.md) \U0001f4cc" in block  # control: the plain pinned title
    assert "(zz-low.md)" not in block and "index lines left out" in block  # no forged pin
    full = mem.context(100_000)
    assert "[Sneaky\\\\](zz-low.md) — low importance item ](a.md)" in full  # control: it exists, unpinned

def test_stale_eviction(l0, tmp_path):
    got = l0.stale_eviction(tmp_path)
    assert got["shown"] == ["b-aged-read", "c-fresh", "d-legacy", "e-aged-pinned"]
    assert got["hidden"] == ["a-aged-unread"]
    assert got["listed"] == {"a-aged-unread": "stale", "b-aged-read": "active", "c-fresh": "active",
                             "d-legacy": "active", "e-aged-pinned": "active"}  # hidden from the index, not the list
    assert (got["files_on_disk"], got["files_written"], got["misfires"]) == (5, 5, 0)
    assert got["index_unchanged_by_a_read"] is True
    assert got["revive"] == {"context_bytes_before": 0, "index_file_before": False, "shown_after_read": True,
                             "reads": 1, "shown_after_reageing": True, "file_kept": True}
    assert got["falloff"] == {"memories": 40, "aged": 20, "stale_after_days": 30, "index_lines": 20,
                              "files_on_disk": 40}


def test_link_expansion(l0, tmp_path):
    got = l0.link_expansion(tmp_path)
    assert got["one"] == {"linked": ["b-note"], "truncated": False}
    assert got["four_and_repeat"] == {"linked": ["b-note", "c-note", "d-note"], "truncated": True}
    assert got["three_exact"] == {"linked": ["b-note", "c-note", "d-note"], "truncated": False}  # control
    assert got["self_and_missing"] == {"linked": ["c-note"], "truncated": False}
    # before issue 13 any [[text]] was normalized into a name: [[BAD NAME]] linked the memory bad-name
    assert got["malformed"] == {"linked": [], "truncated": False}
    assert got["well_formed"] == {"linked": ["bad-name"], "truncated": False}  # control for the malformed
    assert got["withheld"] == {"linked": ["new-note"], "truncated": False}  # candidate, superseded skipped
    many = got["many"]
    assert (many["links_in_body"], many["linked"], many["truncated"]) == (182, 3, True)
    # each linked line's description cut at 300 UTF-8 bytes (99 of its 160 three-byte characters and "…"; at 300
    # characters, before, it was whole: 1548 bytes)
    assert many["block_bytes"] == 1008 and many["block_bytes"] <= many["bound_bytes"] == 1866


def test_truncated_links_reach_the_tool_text_and_json(mem):
    for name in ("b", "c", "d", "e"):
        mem.write(name, f"Target {name}", "project", "t")
    mem.write("hub", "Links to four", "project", "[[b]] [[c]] [[d]] [[e]]")
    mem.write("pair", "Links to two", "project", "[[b]] [[c]]")
    text = mem.call_tool("memory_read", {"name": "hub"})
    assert text.endswith("Linked memories:\n- b — Target b\n- c — Target c\n- d — Target d\n"
                         "- …and more: the body links to further memories")
    assert mem.call_tool("memory_read", {"name": "pair"}).endswith("- c — Target c")  # control: nothing more
    assert mem.read("hub", count=False).to_dict()["truncated"] is True
    assert mem.read("pair", count=False).to_dict()["truncated"] is False


@pytest.mark.slow
def test_run_py_prints_one_json_object_per_eval(tmp_path):
    out = subprocess.run([sys.executable, str(RUN), "--only", "link_expansion", "--only", "stale_eviction"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["eval"] for line in lines] == ["stale_eviction", "link_expansion"]
    assert lines[0]["misfires"] == 0 and lines[1]["four_and_repeat"]["truncated"] is True


def test_an_eval_that_raises_loses_no_other_line(l0, monkeypatch, capsys):
    def broken(tmp):
        raise RuntimeError("budget exceeded")

    evals = dict(l0.EVALS)
    monkeypatch.setattr(l0, "EVALS", {"broken": broken, "link_expansion": evals["link_expansion"]})
    assert l0.main([]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"eval": "broken", "error": "RuntimeError: budget exceeded"}
    assert lines[1]["eval"] == "link_expansion" and lines[1]["four_and_repeat"]["truncated"] is True  # still ran
