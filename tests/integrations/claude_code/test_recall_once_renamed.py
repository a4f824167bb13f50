"""Once per session holds across a rename (issue 28 findings): the prompt hook's record of what a session
was given is keyed by a memory's name, so a memory renamed with its body unchanged was injected in full
again under its new name. The body is in the conversation already, under the old name: the new name gets
the pointer line, saying which name it was given as; a body that changed is given again (the control).

The real UserPromptSubmit hook in a subprocess (:func:`tests.conftest.run_prompt_hook`) on real files,
a real index and a real session record."""

from __future__ import annotations

import json

from memdir.text.names import normalize_name
from tests.conftest import run_prompt_hook
from tests.integrations.claude_code.conftest import BODY, PROMPT, STYLE

KO_BODY = "배포는 화요일에만 한다. 금요일 배포는 금지한다."
KO_PROMPT = "배포 규칙 알려줘: 금요일 배포 가능해?"


def _said(project, session: str, prompt: str = PROMPT) -> str:
    out = run_prompt_hook(project, prompt, session=session)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_a_renamed_memory_with_its_body_unchanged_is_only_pointed_to(store, project):
    mem = store  # db-port (BODY) and style (STYLE): claude_code/conftest.py
    first = _said(project, "s-1")
    assert BODY in first and "## db-port " in first
    assert mem.write("pg-port", rename_from="db-port").operation == "renamed"
    again = _said(project, "s-1")
    assert BODY not in again and "## pg-port " not in again
    assert "(given earlier in this session, unchanged: pg-port (as db-port) — memory_read NAME" in again
    assert BODY not in _said(project, "s-1")  # and on the prompts after
    assert BODY in _said(project, "s-2")  # control: another session gets the body, under its new name
    # control: a rename that changes the body gives the new body once
    mem.write("dev-db-port", rename_from="pg-port", body=BODY + " Ask ops before changing it.")
    changed = _said(project, "s-1")
    assert "Ask ops before changing it." in changed and "## dev-db-port " in changed
    assert "Ask ops before changing it." not in _said(project, "s-1")
    # control: another memory of the session is still given
    assert STYLE in _said(project, "s-1", "should I indent with tabs? the linter")


def test_a_hash_named_memory_renamed_is_only_pointed_to(mem, project):
    mem.write("배포-규칙", "배포 규칙: 화요일에만 배포", "project", KO_BODY)
    first = _said(project, "s-1", KO_PROMPT)
    assert KO_BODY.split(".")[0] in first
    mem.write("배포-정책", rename_from="배포-규칙")
    again = _said(project, "s-1", KO_PROMPT)
    new, old = normalize_name("배포-정책").name, normalize_name("배포-규칙").name
    assert KO_BODY.split(".")[0] not in again
    assert f"unchanged: {new} “배포-정책” (as {old})" in again


def test_the_record_names_where_a_body_was_given(isolated_home):
    from memdir.prompt import recalled

    recalled.record(isolated_home, "s-1", {"project/db-port": ("h1", "b1"), "user/editor": ("h2", "b2"),
                                           "project/old-format": "h3"}, project=None)
    given = recalled.given(isolated_home, "s-1", None)
    assert given.name_of("project", "db-port", "h1", "b1") == "db-port"
    assert given.name_of("project", "pg-port", "h9", "b1") == "db-port"  # renamed, its body unchanged
    assert given.name_of("project", "pg-port", "h9", "b9") is None  # control: a changed body
    assert given.name_of("project", "db-port", "h9", "b1") is None  # its own name shown otherwise: changed
    assert given.name_of("project", "editor", "h9", "b2") is None  # another layer's body is not this one's
    assert given.name_of("project", "old-format", "h3", "") == "old-format"  # a record of one digest
    assert recalled.given(isolated_home, "s-2", None).name_of("project", "pg-port", "h9", "b1") is None  # another session
