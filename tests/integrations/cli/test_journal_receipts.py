"""`memdir journal` beside consolidation's bookkeeping: a new-user trial ran ~50 headless sessions, each
journaling an ``extracted`` receipt (and its ``intent`` step), and the listing then showed receipts
alone, the real writes scrolled off. The default listing leaves receipts out and counts them in one
line; ``--all`` shows every event; ``--json`` says the same (``hidden``); ``--limit`` counts shown events."""

from __future__ import annotations

import json

from memdir import Memory
from memdir.gateway.changes import receipt
from tests.conftest import run_cli


def _home_with_receipts(isolated_home, project, receipts: int = 6) -> Memory:
    """Two writes of a person (create, update), then ``receipts`` receipt + intent pairs after them."""
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    mem.write("db-port", "Dev PostgreSQL listens on 5434", "project", "Moved again.")
    layer = mem.session.layer("project")
    for i in range(receipts):
        receipt(layer, {"transcript": {"digest": f"d{i}"}}, session=f"s{i}", action="intent")
        receipt(layer, {"transcript": {"digest": f"d{i}"}, "written": 0}, session=f"s{i}")
    return mem


def _actions(listing: str) -> list[str]:
    return [line.split()[4] for line in listing.splitlines() if line[:1].isdigit()]


def test_the_default_listing_shows_the_writes_and_counts_the_receipts(isolated_home, project):
    _home_with_receipts(isolated_home, project)
    out = run_cli("--project", project, "journal")
    assert out.returncode == 0, out.stderr
    assert _actions(out.stdout) == ["update", "create"]  # the writes, though 12 newer receipts follow them
    assert out.stdout.splitlines()[-1] == "+ 12 consolidation receipts not shown; --all shows them"
    every = run_cli("--project", project, "journal", "--all")
    assert _actions(every.stdout) == ["receipt", "intent"] * 6 + ["update", "create"]
    assert "not shown" not in every.stdout


def test_limit_counts_the_events_shown(isolated_home, project):
    _home_with_receipts(isolated_home, project)
    one = run_cli("--project", project, "journal", "--limit", "1").stdout
    assert _actions(one) == ["update"]  # not a receipt, though 12 are newer
    assert one.splitlines()[1:] == ["…1 older event(s) not shown",
                                    "+ 12 consolidation receipts not shown; --all shows them"]
    assert _actions(run_cli("--project", project, "journal", "--limit", "1", "--all").stdout) == ["receipt"]


def test_json_gives_the_left_out_count_and_all_every_event(isolated_home, project):
    _home_with_receipts(isolated_home, project)
    shown = json.loads(run_cli("--project", project, "journal", "--json").stdout)
    assert ([e["action"] for e in shown["entries"]], shown["total"], shown["hidden"]) == (["update", "create"], 2, 12)
    every = json.loads(run_cli("--project", project, "journal", "--json", "--all").stdout)
    assert (len(every["entries"]), every["total"], every["hidden"]) == (14, 14, 0)
    assert {e["action"] for e in every["entries"]} == {"receipt", "intent", "update", "create"}


def test_asking_for_receipts_by_action_shows_them(isolated_home, project):
    mem = _home_with_receipts(isolated_home, project, receipts=3)
    asked = mem.journal(action="receipt")
    assert ([e.action for e in asked.entries], asked.hidden) == (["receipt"] * 3, 0)
    created = mem.journal(action="create")  # control: another action is no receipt, and none is counted
    assert ([e.action for e in created.entries], created.hidden) == (["create"], 0)


def test_a_journal_of_receipts_alone_says_so(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    receipt(mem.session.layer("project"), {"transcript": {"digest": "d"}}, session="s")
    assert run_cli("--project", project, "journal").stdout.splitlines() == [
        "No journal events but consolidation receipts.", "+ 1 consolidation receipt not shown; --all shows them"]
    assert _actions(run_cli("--project", project, "journal", "--all").stdout) == ["receipt"]
