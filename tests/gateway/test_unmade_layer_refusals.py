"""Every later-stage refusal of a write into a project whose layer is not made yet makes nothing either
(test_unmade_layer.py covers the early ones): a file over the size ceiling, a digest expected of a memory that
does not exist, an empty valid time, an agent's write of a value the user layer forgot (its tombstone) or holds
(a duplicate), a reserved name, a team write with no team layer. Before (left29), the body over the ceiling
and the agent's tombstoned or duplicated value left projects/<key>/.memdir/ behind, a layer the panel lists
with 0 memories. Each refusal is checked for its error and for an empty projects/ directory; the control,
once they all ran, is a write the same session makes, which makes the layer."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import (
    Conflict,
    InvalidInput,
    InvalidName,
    Refused,
    ScopeError,
    TombstoneRefused,
)
from tests.conftest import run_cli
from tests.gateway.test_unmade_layer import _made

REFUSALS = [  # (actor, what it writes, the error, words of its text)
    ("human", {"name": "big", "description": "A long log", "body": "y" * 300_000}, InvalidInput,
     "over the 262144-byte ceiling"),
    ("agent", {"name": "x-y", "description": "some fact here", "expect_digest": "a" * 64}, Conflict,
     "the write was not made"),
    ("human", {"name": "x-y", "description": "some fact here", "valid_from": "2026-01-03", "valid_until": "2026-01-01"},
     InvalidInput, "the memory would never hold"),
    ("agent", {"name": "tabs-2", "description": "Use tabs for indentation"}, TombstoneRefused,
     "matches a forgotten value"),
    ("agent", {"name": "lang-2", "description": "Answers in English please"}, Refused,
     "memory 'lang' (user) already holds this description and body"),
    ("human", {"name": "memory", "description": "reserved"}, InvalidName, "is reserved"),
    ("human", {"name": "x-y", "description": "some fact here", "scope": "team"}, ScopeError, "team scope unavailable"),
    ("agent", {"name": "x-y", "description": "some fact here", "supersedes": "nothing"}, Exception,
     'cannot supersede "nothing"'),
]


def test_no_refusal_makes_a_layer(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("tabs", "Use tabs for indentation", "user", "", scope="user")
    person.forget("tabs", "user")
    person.write("lang", "Answers in English please", "user", "", scope="user")
    assert _made(isolated_home) == []  # user-layer writes make no project layer
    for actor, fields, error, words in REFUSALS:
        writer = Memory.open(home=isolated_home, project=project, actor=actor)
        fields = {"type": "project", **fields}
        with pytest.raises(error) as caught:
            writer.write(fields.pop("name"), fields.pop("description"), fields.pop("type"), fields.pop("body", ""),
                         **fields)
        assert words in str(caught.value), (fields, str(caught.value))
        assert _made(isolated_home) == [], (actor, fields)
    # control: the agent's write of a new fact makes the layer and its file
    Memory.open(home=isolated_home, project=project).write("ci", "CI runs on push", "project", "")
    assert any(p.endswith("/ci.md") for p in _made(isolated_home))


def test_a_cli_body_over_the_ceiling_makes_no_layer(isolated_home, project, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("y" * 300_000)
    done = run_cli("write", "big", "-d", "A long log", "--body-file", big, cwd=project)
    assert done.returncode == 1 and "over the 262144-byte ceiling" in done.stderr, done.stderr
    assert _made(isolated_home) == []
    big.write_text("y" * 1000)  # control: a body under the ceiling is written
    assert run_cli("write", "big", "-d", "A long log", "--body-file", big, cwd=project).returncode == 0
    assert any(p.endswith("/big.md") for p in _made(isolated_home))
