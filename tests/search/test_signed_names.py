"""A language named by a letter and signs (break11): "C#" found the memory on the C++ engine as strongly as the one on
the C# backend (0.99 each, both recalled), and "C++" the C# one alike: each read as the letter "c". The tokenizer
reads ``C++`` as ``cpp``, ``C#`` as ``csharp`` and ``F#`` as ``fsharp`` (:mod:`memdir.search.tokenize`), the words a
code base writes for them, in memories and queries alike. Through the Python API, the CLI, the real prompt hook and
the MCP SDK's client, beside a control in the same store. Real SQLite and memory files, vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens

from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("csharp", "Backend language", "project", "The backend is written in C# on .NET 8.")
    mem.write("cpp", "Engine language", "project", "The engine is C++20, built with CMake.")
    mem.write("fsharp", "Pricing model", "project", "The pricing model is an F# script.")
    mem.write("rlang", "Stats scripts", "project", "Statistics scripts are written in R and run nightly.")
    return mem


def test_a_language_of_a_letter_and_signs_is_its_word():
    assert [tokens(t) for t in ("C++", "c++20", "C#", "F#", "a C++ class", "c++ / c#")] == [
        ["cpp"], ["cpp20", "cpp"], ["csharp"], ["fsharp"], ["a", "cpp", "class"], ["cpp", "csharp"]]
    # control: signs elsewhere are no name's ("g++" is the compiler's letter, "#42" an issue, "x+y" a sum)
    assert [tokens(t) for t in ("g++", "issue #42", "x+y", "AC#")] == [["g"], ["issu", "42"], ["x", "y"], ["ac"]]


@pytest.mark.slow
def test_each_language_finds_its_own_memory_and_not_the_others(store, isolated_home, project):
    for query, name in (("C#", "csharp"), ("C++", "cpp"), ("F#", "fsharp"), ("cpp", "cpp"), ("csharp", "csharp"),
                        ("c++20", "cpp")):
        assert (query, [h.name for h in store.search(query)]) == (query, [name])
        assert (query, [m.name for m in store.recall_result(query).memories]) == (query, [name])
    assert [h.name for h in store.search("R")] == ["rlang"]  # control: a letter alone, as written
    env = lexical_env(isolated_home, project)
    assert [n for n, _ in cli_search(env, "C#")] == ["csharp"]  # before: cpp and csharp at 0.99
    assert [n for n, _ in cli_search(env, "C++")] == ["cpp"]
    assert block_names(hook_block(project, env, "is the backend C#?", "a")) == ["csharp"]
    assert block_names(hook_block(project, env, "is the engine C++?", "b")) == ["cpp"]
    sharp, plus = mcp_search(isolated_home, project, "C#", "C++")
    assert "csharp" in sharp and "cpp" not in sharp.replace("csharp", "")
    assert "cpp" in plus and "csharp" not in plus
