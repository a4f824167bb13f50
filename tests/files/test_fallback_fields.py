"""A field of a file read by the line fallback keeps the YAML it was written in at memdir's next write (newuser36:
a hand-edited file whose description held ": " and whose `<TAB>tags: [cache]` line was indented with a tab; after
`memdir write redis -d …` the file said `tags: '[cache]'`, a list made a string). Each line YAML reads alone is
written back as it was, unindented; a line YAML does not read alone keeps its text, quoted (the control)."""

from __future__ import annotations

import yaml

from memdir.files.memfile import parse, serialize

HAND_EDITED = ("---\nname: redis\ndescription: Sessions: stored in Redis db 3\ntype: project\n\ttags: [cache, events]\n"
               "owner: Bob\nnote: a: b\nmetadata:\n  team: core\n---\nLogin sessions live in Redis db 3.\n")


def test_a_fallback_files_fields_keep_their_yaml_at_the_next_write():
    parsed = parse(HAND_EDITED, "redis")
    assert parsed.fallback and parsed.record.description == "Sessions: stored in Redis db 3"
    written = serialize(parsed.record)
    front = yaml.safe_load(written.split("---\n")[1])
    assert front["tags"] == ["cache", "events"]  # before: "[cache, events]"
    assert front["owner"] == "Bob" and front["description"] == "Sessions: stored in Redis db 3"
    assert front["note"] == "a: b"  # control: not YAML alone, its text kept as read
    again = parse(written, "redis")
    assert not again.fallback and again.record.body == "Login sessions live in Redis db 3."
    assert dict(again.record.extra)["tags"] == ["cache", "events"]


def test_a_yaml_files_list_is_kept_as_before():
    """Control: the same field in a file YAML reads is kept, as it always was."""
    text = "---\nname: k\ndescription: Kafka keeps events seven days\ntype: project\ntags: [cache, events]\n---\nx\n"
    assert "tags: [cache, events]\n" in serialize(parse(text, "k").record)
