"""我们 ("we") is not 我 ("I") (break39): "记住：我们的发布分支是 release/2026" — our release branch — was saved as a
``user`` memory in the user layer, so one project's branch was shown in the context of every project."""

from __future__ import annotations


def test_our_release_branch_is_a_project_memory_and_my_name_a_user_memory(mem):
    said = ["记住：我们的发布分支是 release/2026", "记住：我的名字是王伟，我是后端工程师"]
    mem.consolidate([{"role": "user", "content": text} for text in said], extractor="rules", mode="gated")
    kept = {(m.scope, m.type, m.description) for m in mem.list().memories}
    assert kept == {("project", "project", "我们的发布分支是 release/2026"),
                    ("user", "user", "我的名字是王伟，我是后端工程师")}  # control: 我 is still the person
