"""A memory whose ``updated`` is in the future (a clock set ahead where it was written, a hand edit) is read
as updated now (memdir.layer.index.read_as_now), the one rule for the index's order, prune, staleness and
search: before break22 a memory dated 2031 won every tie of equal relevance in search ("the most recently
updated first", its date taken at its word) over one dated an hour ahead, which the index's order already
read as now both, and ``--until`` today left both out."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from memdir import Memory
from memdir.layer.index import ordered, read_as_now
from memdir.paths import project_layer_dir
from tests.conftest import run_cli

STAMP = "%Y-%m-%dT%H:%M:%SZ"


def _clocks(now: datetime) -> dict[str, datetime]:
    """name -> updated; the same sentence each, so every one is as relevant to "utc" as the others. Two in the
    future (an hour ahead, five years ahead): both are read as now, so neither is more recent than the other.
    ``now`` is the test's own start, not the module's import: a full run collects this file minutes before it
    runs, and a run crossing midnight UTC read "--until today" as the day before (the future ones left out)."""
    return {"clock-aaa": now + timedelta(hours=1), "clock-bbb": now - timedelta(days=3),
            "clock-zzz": datetime(2031, 1, 1, tzinfo=timezone.utc)}


def _write(project, home, now: datetime) -> None:
    layer = project_layer_dir(home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, updated in _clocks(now).items():
        (layer / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: A clock\ntype: project\ncreated: {updated.strftime(STAMP)}\n"
            f"updated: {updated.strftime(STAMP)}\n---\n\nThe clock runs on UTC.\n", encoding="utf-8")


def _cli(project, *extra) -> list[str]:
    done = run_cli("search", "utc", "-k", "10", "--json", *extra, cwd=project)
    assert done.returncode == 0, done.stderr
    return [r["name"] for r in json.loads(done.stdout)["results"]]


def test_a_future_update_wins_no_tie_in_search_and_counts_as_now(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    now = datetime.now(timezone.utc)
    _write(project, isolated_home, now)
    mem = Memory.open(home=isolated_home, project=project)
    found = mem.search("utc", k=10)
    assert len({round(r.score, 2) for r in found}) == 1  # tied: one relevance
    # The two future ones are as recent as each other, now (then by name: before, 2031 came first); the one
    # of three days ago, older, is last (control: recency still orders).
    assert [r.name for r in found] == ["clock-aaa", "clock-zzz", "clock-bbb"]
    assert _cli(project) == ["clock-aaa", "clock-zzz", "clock-bbb"]
    # Updated until today: the future one counts as updated now, so it is in; since tomorrow: none is.
    today, tomorrow = now.strftime("%Y-%m-%dT23:59:59Z"), (now + timedelta(days=1)).strftime("%Y-%m-%dT23:59:59Z")
    assert _cli(project, "--until", today) == ["clock-aaa", "clock-zzz", "clock-bbb"]
    assert _cli(project, "--since", tomorrow) == []
    assert _cli(project, "--since", (now - timedelta(days=1)).strftime(STAMP)) == ["clock-aaa", "clock-zzz"]
    assert _cli(project, "--until", (now - timedelta(days=1)).strftime(STAMP)) == ["clock-bbb"]


def test_the_index_order_reads_a_future_time_as_now_by_the_same_rule(isolated_home, project):
    now = datetime.now(timezone.utc)
    clocks = _clocks(now)
    _write(project, isolated_home, now)
    mem = Memory.open(home=isolated_home, project=project)
    records = [e.record for e in mem.session.layer("project").scan().entries.values()]
    assert [r.name for r in ordered(records, now)] == ["clock-aaa", "clock-zzz", "clock-bbb"]
    assert [m.name for m in mem.list().memories] == ["clock-aaa", "clock-zzz", "clock-bbb"]
    assert read_as_now(clocks["clock-zzz"], now) == now == read_as_now(clocks["clock-aaa"], now) and read_as_now(clocks["clock-bbb"], now) == clocks["clock-bbb"]
    assert read_as_now(2e9, 1.7e9) == 1.7e9 and read_as_now(1.6e9, 1.7e9) == 1.6e9
