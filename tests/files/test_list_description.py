"""A description (or title) a person wrote as a YAML list or mapping is read as its items joined (break11).

``description:`` with ``- kafka retention`` / ``- seven days`` under it was read as no description (the body's
first line stood in): "retention" found nothing on any path, and the next write replaced the person's words in the
file with the body's first line. The reader (:func:`memdir.files.frontmatter.items_written`) now reads the items
joined by ``"; "`` (a mapping's as ``key: value``), notes it (``doctor``), and a write keeps the words. Through the
Python API, the CLI, the real prompt hook and the MCP SDK's client, beside a control in the same store.
"""

from __future__ import annotations

import pytest

from memdir import BodyEdit, Memory

from ..search.surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("pg-port", "Dev postgres port", "project", "The dev postgres listens on 5433.")
    folder = mem.session.layers("project")[0].path
    (folder / "kafka.md").write_text("---\nname: kafka\ndescription:\n  - kafka retention\n  - seven days\n"
                                     "type: project\n---\n\nTopics keep events a week.\n")
    (folder / "zk.md").write_text("---\nname: zk\ndescription: {ensemble: zookeeper quorum}\ntitle: [ZK, notes]\n"
                                  "type: project\n---\n\nThree nodes.\n")
    return mem


def test_a_list_or_mapping_is_read_as_its_items(store):
    assert store.read("kafka").record.description == "kafka retention; seven days"
    zk = store.read("zk").record
    assert (zk.description, zk.title) == ("ensemble: zookeeper quorum", "ZK; notes")
    assert store.read("pg-port").record.description == "Dev postgres port"  # control: a line of text as it is
    notes = {n for layer in store.doctor().to_dict()["layers"] for f in layer.get("notes", [])
             for n in ([f] if isinstance(f, str) else [str(f)])}
    assert any("kafka.md" in n and "written as a list" in n for n in notes), notes
    assert not any("pg-port" in n for n in notes)


def test_a_write_keeps_the_words_of_the_list(store):
    store.edit("kafka", BodyEdit(old="a week", new="seven days"))
    assert store.read("kafka").record.description == "kafka retention; seven days"
    text = (store.session.layers("project")[0].path / "kafka.md").read_text()
    assert "description: kafka retention; seven days\n" in text


@pytest.mark.slow
def test_every_path_finds_a_memory_by_its_listed_description(store, isolated_home, project):
    assert [h.name for h in store.search("retention")] == ["kafka"]  # before: nothing
    assert [h.name for h in store.search("zookeeper")] == ["zk"]
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "retention") == [("kafka", 1.0)]
    assert cli_search(env, "postgres") == [("pg-port", 1.0)]  # control
    assert block_names(hook_block(project, env, "what is the kafka retention?", "a")) == ["kafka"]
    found, control = mcp_search(isolated_home, project, "zookeeper quorum", "postgres")
    assert "zk" in found and "zk" not in control
