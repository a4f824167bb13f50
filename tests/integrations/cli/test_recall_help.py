"""`memdir recall --help` no longer says recall gives what `memdir search` returns (trial27: `memdir search "how do
i conect to postgress locally"` listed dev-ports at 0.996 while `memdir recall` and the prompt hook gave nothing,
so a user checking the hook with search was misled): it says a prompt is weighed more strictly and points at
`--json` for each memory's score and why. Real subprocesses."""

from __future__ import annotations

from tests.conftest import run_cli


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_recall_help_says_a_search_can_list_what_recall_leaves_out():
    recall = _flat(run_cli("recall", "--help").stdout)
    assert "relevant enough that memdir search returns them" not in recall
    assert ("A prompt is weighed more strictly than a search: memdir search also lists the memories sharing a word "
            "with the query, with their scores, so it can show one that recall leaves out (--json gives each "
            "recalled memory's score and why).") in recall
    # control: the search help states the listing the recall help points at
    search = _flat(run_cli("search", "--help").stdout)
    assert "then every memory sharing a content word with the query (low scores say weak)" in search
