"""memory_read keeps each output within ``tool_output_max_bytes`` UTF-8 bytes, reading a longer body in parts
that name the offset of the next. Found with the real Codex 0.171 (trial19): with a person's
``tool_output_token_limit = 500`` it kept 2,400 bytes of a 4,900-byte read, cutting lines 13–45 out of the
middle with "…8 tokens truncated…" and no offset to ask for them again; and by default it cuts an output over
about 12,000 bytes (a 150-line CJK body: 12,773 bytes) the same way."""

from __future__ import annotations

import re

import pytest

from memdir import Memory
from memdir.text.fence import unquoted


def _lines(count: int) -> str:
    """``count`` lines of 36 characters (84 bytes of read output each, quoted)."""
    return "\n".join(f"行{i:03d} 依存関係は uv で固定し、pip はロックファイルを壊す。" for i in range(count))


def _parts(mem, name: str) -> list[str]:
    """Every output of reading ``name`` through memory_read, following each part's offset."""
    outputs, offset = [], 0
    while True:
        text = mem.call_tool("memory_read", {"name": name, "offset": offset})
        outputs.append(text)
        found = re.search(r"call memory_read with offset=(\d+)", text)
        if not found:
            return outputs
        assert int(found.group(1)) > offset
        offset = int(found.group(1))


def _body(output: str) -> str:
    body = output.partition("\n\n")[2]
    return unquoted(re.split(r"\n\n\[truncated: ", body)[0])


def test_a_read_over_the_byte_budget_comes_in_parts_that_fit_and_give_back_the_body(isolated_home, project):
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write("uv", "uv rules", "project", _lines(150))
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    parts = _parts(mem, "uv")
    sizes = [len(p.encode()) for p in parts]
    assert len(parts) == 2 and max(sizes) <= 11_900, sizes  # was one output of 12,773 bytes
    # 139 whole lines (36 characters each with its break) fit beside the header and the truncated line
    assert "body: characters 0–5004 of 5399" in parts[0]
    assert "[truncated: 395 more characters; total size 5399 characters — call memory_read with offset=5004" \
        in parts[0]
    assert "".join(_body(p) for p in parts) == _lines(150)  # nothing lost between the parts
    assert _body(parts[1]).startswith("行139 ")  # the next part starts on a line of its own


def test_a_read_within_the_budget_is_one_output_whole(isolated_home, project):
    """Control: 140 lines (61 bytes of header, 140 × 84 − 1 of quoted body: 11,820) is one read, as before."""
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write("uv", "uv rules", "project", _lines(140))
    parts = _parts(Memory.open(home=isolated_home, project=project, search_vectors="off"), "uv")
    assert len(parts) == 1 and len(parts[0].encode()) == 11_820 and "truncated" not in parts[0]
    assert _body(parts[0]) == _lines(140)


@pytest.mark.parametrize("budget", [1000, 1900])
def test_a_lower_budget_pages_every_part_under_it(isolated_home, project, budget):
    """A lower budget (tool_output_max_bytes, or the MEMDIR_TOOL_OUTPUT_CEILING `memdir install codex` sets for a lower
    tool_output_token_limit): every part fits it, all of them give the body back exactly."""
    body = "\n".join(f"line {i:03d}: deploys to staging need the VPN and the token from vault ops/{i}"
                     for i in range(60))
    Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off").write("big", "runbook", "project", body)
    parts = _parts(Memory.open(home=isolated_home, project=project, tool_output_max_bytes=budget, search_vectors="off"), "big")
    sizes = [len(p.encode()) for p in parts]
    assert len(parts) > 1 and max(sizes) <= budget, sizes
    assert "".join(_body(p) for p in parts) == body
    whole = Memory.open(home=isolated_home, project=project, search_vectors="off").call_tool("memory_read", {"name": "big"})
    assert "truncated" not in whole and _body(whole) == body  # control: the default budget reads it in one
