"""A body the prompt hook's recall block gives the agent counts as a read, as memory_read's does (DESIGN §4:
the index orders by days since the last read or update; an unread memory past stale_after_days leaves the
index). Before (left29) a memory recall gave on every prompt stayed unread: it decayed under newer notes and,
with stale_after_days, left the index though the agent kept using it. Real hook process."""

from __future__ import annotations

from memdir import Memory
from tests.conftest import run_prompt_hook

ENV = {"MEMDIR_SEARCH_VECTORS": "off"}


def _usage(isolated_home, project) -> dict:
    listed = Memory.open(home=isolated_home, project=project).list("project", include_all=True).memories
    return {m.name: m.reads for m in listed}


def test_a_recalled_body_counts_as_a_read(isolated_home, project, person):
    person.write("pump-restart", "How the cooling pump is restarted", "project",
                 "Stop the pump at panel B, wait 30 seconds, then press reset twice.")
    person.write("lunch", "The team lunch is on Fridays", "project", "Lunch is at noon at the canteen, on Fridays.")
    assert _usage(isolated_home, project) == {"pump-restart": 0, "lunch": 0}
    block = run_prompt_hook(project, "how do I restart the cooling pump?", env=ENV)
    assert "press reset twice" in block and "canteen" not in block
    assert _usage(isolated_home, project) == {"pump-restart": 1, "lunch": 0}  # control: lunch was not recalled
    again = run_prompt_hook(project, "and the cooling pump restart once more?", env=ENV)  # only named now
    assert "press reset twice" not in again and "pump-restart" in again
    assert _usage(isolated_home, project) == {"pump-restart": 1, "lunch": 0}  # a name alone is no read
