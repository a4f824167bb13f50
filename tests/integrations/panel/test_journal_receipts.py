"""The panel's Journal page and ``/api/journal`` beside consolidation's receipts, through `memdir panel`
(uvicorn) in a subprocess: receipts are left out and counted in one line with a link (``?all=1``) that
shows every event (the rule of :func:`memdir.operations.maintenance.journal`, as `memdir journal`)."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("uvicorn", reason="the panel extra is not installed (pip install 'memdir[panel]')")

from memdir.gateway.changes import receipt  # noqa: E402

pytestmark = pytest.mark.slow  # a real server process


@pytest.fixture
def person(db_port):
    """The person conftest's ``panel`` starts after: one who has written db-port, and five consolidation
    sessions' receipts (an intent and a result each) in the project layer's journal."""
    layer = db_port.session.layer("project")
    for i in range(5):
        receipt(layer, {"transcript": {"digest": f"d{i}"}}, session=f"s{i}", action="intent")
        receipt(layer, {"transcript": {"digest": f"d{i}"}, "written": 0}, session=f"s{i}")
    return db_port


def _rows(page: str) -> list[str]:
    """The action column of the journal table's rows."""
    return re.findall(r"<td>\d+</td><td>[a-z]+</td><td>([a-z-]+)</td>", page)


def test_the_journal_page_leaves_receipts_out_and_links_to_every_event(panel):
    status, _, body = panel.request("GET", "/journal")
    page = body.decode()
    assert status == 200 and _rows(page) == ["create"]
    note = re.search(r'<p class="note" id="receipts">(.*?)</p>', page).group(1)
    assert note.startswith("+ 10 consolidation receipts not shown. ")
    link = html.unescape(re.search(r'href="([^"]+)"', note).group(1))
    assert link == "/journal?layer=&actor=&action=&name=&all=1"
    status, _, body = panel.request("GET", link)
    every = body.decode()
    assert status == 200 and _rows(every) == ["receipt", "intent"] * 5 + ["create"]
    assert "Showing every event, consolidation receipts too." in every and "not shown" not in every
    filtered = panel.request("GET", "/journal?actor=human")[2].decode()  # a filter keeps receipts out too
    assert _rows(filtered) == ["create"] and 'id="receipts"' not in filtered  # the person's: no receipt among them


def test_the_journal_api_counts_what_it_left_out(panel):
    status, reply, _ = panel.request("GET", "/api/journal")
    assert status == 200 and ([e["action"] for e in reply["entries"]], reply["total"], reply["hidden"]) == (
        ["create"], 1, 10)
    status, reply, _ = panel.request("GET", "/api/journal?all=1&limit=3")
    assert status == 200 and ([e["action"] for e in reply["entries"]], reply["total"], reply["hidden"]) == (
        ["receipt", "intent", "receipt"], 11, 0)
