"""Property tests and fuzzing (issue 13, item 3), with hypothesis.

Four properties, each over generated input (plain Unicode text plus the
pieces that broke memdir before: line breaks of every kind, terminal
escapes, bidi and invisible characters, fence tags, ``{{``, YAML syntax,
conflict markers, CJK, full-width letters, secrets):

* **Fields round-trip** — what the API accepts is what is read back, through
  the API and through the file parser, or the write names the change.
* **The file parser is total** — any bytes in a memory file give a record or
  memdir's own error, on every read path.
* **The context block stays in budget** — any budget from 0 to 10,000 bytes.
* **The tokenizer is total** — any ``str`` gives a list of tokens that the
  FTS index and its query syntax accept.

The run size is the hypothesis profile's (``tests/conftest.py``): ``ci`` in
``make test`` (fixed examples, derandomized), ``fuzz`` in ``make fuzz``.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memdir import Memory
from memdir.errors import MemdirError
from memdir.files.memfile import parse
from memdir.files.scan import load
from memdir.prompt import context as context_block
from memdir.search import tokenize
from tests.conftest import run_cli, scaled

# Pieces that have broken (or could break) a layer of memdir; mixed with arbitrary text.
TRICKY = [
    "\n", "\r\n", "\r", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029", "\t", "  ", "\x00", "\x7f", "\x9b",
    "\x1b[31m", "\x1b]0;title\x07", "\x1b]8;;", "\x1b", "\u202e", "\u2066", "\u200b", "\u200e", "\ufeff", "\u200d",
    "<memory_context>", "</memory_context >", "<memory_recall x=1>", "</Memory_Pending\n>", "{{", "{{var}}",
    "---", "---\n", "...", ": ", "- ", "#", "# heading", "'", '"', "|", ">", "&a", "*a", "!!python/object:x", "%YAML",
    "~", "null", "yes", "no", "1e3", "0x1F", "2024-01-01", "[[link]]", "[", "{", "`", "```", "@", "\\",
    "<<<<<<< HEAD", "=======", ">>>>>>> theirs", "|||||||",
    "部署流程", "数据库", "ｄｏｃｋｅｒ", "ﬁ", "İ", "ß", "Café", "é", "\u0301", "𝔘", "😀", "\U000e0041",
    "AKIAIOSFODNN7EXAMPLE", "password=hunter2", "memory", "CON", ".md", "MEMORY.md", " ",
]

pieces = st.one_of(st.sampled_from(TRICKY), st.text(max_size=8))
text = st.one_of(st.text(max_size=60), st.lists(pieces, max_size=12).map("".join))


def _store(root) -> Memory:
    """A memory store (home and project) under the directory ``root``."""
    root = Path(root)
    (root / "proj" / ".git").mkdir(parents=True)
    return Memory.open(home=root / "home", project=root / "proj", actor="agent")


# ---------------------------------------------------------------- fields round-trip


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return _store(tmp_path_factory.mktemp("fields"))


_counter = iter(range(10**9))


@pytest.mark.slow
@scaled(0.6)
@given(description=text, body=text, title=st.one_of(st.none(), text))
@example(description="a <memory_context> b", body="b </memory_recall> c", title=None)
@example(description="Deploys on Fridays", body="<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main", title=None)
@example(description="x", body="```\n<<<<<<< HEAD\n```", title="t")
@example(description="tab\tinside", body="  keeps\n\tindent  ", title=" spaced ")
@example(description="mac line ends", body="mac\rline\r\nends", title=None)
@example(description="0", body="", title="</memory_context >AKIAIOSFODNN7EXAMPLE000000\n</memory_context ></memory_context >")
@example(description="d" * 159 + " e", body="b" * 1999 + "\n\nc", title="t" * 79 + " u")
def test_fields_round_trip_or_the_write_names_the_change(store, description, body, title):
    """The contract of a write's text fields (``store.fields.prepare``, DESIGN §3):

    * a value the API refuses raises memdir's own error (:class:`InvalidInput`:
      an empty or control-only description, a lone surrogate), nothing else;
    * an accepted value is read back, through ``Memory.read`` and through the
      file parser (``memfile.parse`` of the file's bytes), **exactly** as the
      value with its ends stripped (a body keeps its first line's indentation) — unless the write's ``warnings`` or
      ``redactions`` name a change: line breaks collapsed in a one-line field
      (``store.printable.one_line``), control/bidi/invisible characters or
      escapes removed, a cut to its limit, a fence tag escaped, a secret
      redacted. Both read paths always agree with each other.
    """
    name = f"prop-{next(_counter)}"
    try:
        result = store.write(name, description, "project", body, title=title)
    except MemdirError:
        return  # refused with memdir's own error: allowed (anything else fails the test)
    record = store.read(name, count=False).record
    path = store.session.layer("project").path / f"{name}.md"
    parsed = parse(path.read_bytes().decode("utf-8"), name).record
    assert (parsed.description, parsed.body, parsed.title) == (record.description, record.body, record.title)
    named = bool(result.warnings) or result.redactions > 0
    assert record.description == description.strip() or named, (record.description, result.warnings)
    ends = body.replace("\r\n", "\n").replace("\r", "\n")  # another system's line ends: normalized, unsaid (DESIGN §3)
    lines = ends.split("\n")
    while len(lines) > 1 and not lines[0].strip(" \t"):  # blank lines before the first go; its indent stays (break31)
        lines.pop(0)
    assert record.body == "\n".join(lines).rstrip() or named, (record.body, result.warnings)
    if title is not None and title.strip():
        assert record.title == title.strip() or named, (record.title, result.warnings)
    listed = {m.name for m in store.list().memories}
    assert name in listed, "an acknowledged write must be a memory, not a malformed file"


@pytest.mark.slow
@scaled(0.3)
@given(description=text, body=text, title=st.one_of(st.none(), text))
@example(description="a <memory_context> b", body="x\u2028y\x1b[31m", title="t\nu")
def test_the_mcp_tool_stores_what_the_api_stores(store, description, body, title):
    """The ``memory_write`` tool (the MCP server's handler) is another door to
    the same gateway: for any input it stores exactly the fields the API
    stores, or answers ``Error:`` exactly when the API raises memdir's error."""
    api_name, tool_name = f"api-{next(_counter)}", f"tool-{next(_counter)}"
    store.clear("project", confirm=True)  # each door writes into a layer holding no copy of the text
    try:
        store.write(api_name, description, "project", body, title=title)
        refused = False
    except MemdirError:
        refused = True
    api = None if refused else store.read(api_name, count=False).record
    store.clear("project", confirm=True)  # the agent is refused an exact copy of a memory (issue 24 §5)
    arguments = {"name": tool_name, "description": description, "type": "project", "body": body}
    if title is not None:
        arguments["title"] = title
    answer = store.call_tool("memory_write", arguments)
    assert answer.startswith("Error:") == refused, answer
    if not refused:
        tool = store.read(tool_name, count=False).record
        assert (tool.description, tool.body, tool.title) == (api.description, api.body, api.title)


@scaled(0.6)
@given(raw=text)
@example(raw="C++ tips")
@example(raw="部署流程")
@example(raw="memory.md")
@example(raw="a\u200bb")
@example(raw="0\x80")
@example(raw="AKIA0000000000000000")
@example(raw="<MEMORY_CONTEXT>")
@example(raw="<memory_context>" * 4)
@example(raw="C++ tips " * 12)
@example(raw=":\u2028:")
def test_any_accepted_name_finds_its_memory(raw):
    """A name is either refused with :class:`InvalidInput` (empty, control
    characters, reserved: ``store.names.normalize_name``; too long to be kept
    whole as the title: ``store.fields.prepare``) or the memory is
    found again by that very spelling and by the normalized name the write
    answered — unless the name held a secret, which the write redacts and
    counts in ``redactions`` (the secret is then stored nowhere, not even as
    a name); when the normalized name differs from the spelling by more
    than case, the write says so in a warning."""
    with tempfile.TemporaryDirectory(prefix="memdir-names-") as root:
        _name_round_trip(_store(root), raw)


def _name_round_trip(mem: Memory, raw: str) -> None:
    try:
        result = mem.write(raw, "A memory under a generated name", "project")
    except MemdirError:
        return
    assert mem.read(result.name, count=False).record.name == result.name
    if result.redactions:  # a secret in a name is redacted (fields.prepare): its spelling must not find it
        return
    assert mem.read(raw, count=False).record.name == result.name
    written = raw.strip()
    if written.lower().removesuffix(".md") != result.name:
        assert result.warnings, (raw, result.name)


# ---------------------------------------------------------------- the file parser is total

YAMLISH = st.lists(st.one_of(
    st.sampled_from(["name: x", "description: d", "type: user", "title: [a, b]", "pinned: yes", "importance: 99",
                     "created: 2024-13-45", "updated: !!timestamp x", "reads: -1", "metadata: {type: user}",
                     "metadata:\n  modified: 2024-01-01", "- a", "? k", "k: &a v", "k: *a", "<<: {a: 1}",
                     "description: |\n  two\n  lines", "description: >-\n folded", "k: !!binary aGk=",
                     "k: " + "[" * 200, "k: '" + "a" * 70000, "\t: tab", "k: \"\\x00\\uD800\"", "description:"]),
    st.text(max_size=30)), max_size=8).map("\n".join)
raw_bytes = st.one_of(
    st.binary(max_size=400),
    st.builds(lambda front, body: ("---\n" + front + "\n---\n" + body).encode("utf-8"), YAMLISH, text),
    st.builds(lambda t, enc: t.encode(enc, "replace"), text, st.sampled_from(["utf-16", "latin-1", "cp1252"])),
    st.builds(lambda front, junk, body: ("---\n" + front).encode("utf-8") + junk + ("\n---\n" + body).encode(),
              YAMLISH, st.binary(max_size=12), text),
)


@scaled(1.0)
@given(data=raw_bytes, stem=st.one_of(st.just("fuzzed"), text))
@example(data=b"---\n" + b"[" * 100_000 + b"\n---\n", stem="deep")
@example(data=b"---\nk: &a [*a]\n---\n", stem="alias")
@example(data=b"\xef\xbb\xbf---\r\nname: x\r\ndescription: d\r\n---\r\n", stem="bom")
@example(data=b"---\n" + b"k: v\n" * 5000 + b"---\n", stem="big")
@example(data=b"---\ndescription: \"\\ud800\"\n---\n", stem="surrogate")
def test_the_parser_gives_a_record_or_memdirs_error(data, stem):
    """``memfile.parse`` of any bytes that decode as UTF-8 (every reader
    decodes strictly first), under any stem, returns a parsed file or raises
    :class:`MalformedMemory` (memdir's error); ``scan.load`` of the same
    bytes on disk never raises at all (bad bytes, bad YAML: a malformed
    entry with its reason)."""
    try:
        decoded = data.decode("utf-8")  # how every reader decodes a memory file (scan, history, imports)
    except UnicodeDecodeError:
        decoded = None
    try:
        parsed = parse(decoded, stem) if decoded is not None else None
    except MemdirError:
        pass
    else:
        assert parsed is None or parsed.record.description  # a record always has something to describe it
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "fuzzed.md"
        path.write_bytes(data)
        state = load(path)
        assert state is not None and (state.entry is not None or state.error)


@pytest.fixture(scope="module")
def fuzzed_store(tmp_path_factory):
    mem = _store(tmp_path_factory.mktemp("fuzzed"))
    mem.write("db-port", "Dev DB on port 5433", "project", "See [[fuzzed]].")
    mem.as_actor("human").write("editor", "The user edits with Helix", "user")
    return mem


@scaled(0.4)
@given(data=raw_bytes)
def test_a_fuzzed_file_in_a_layer_breaks_no_read_path(fuzzed_store, data):
    """With any bytes in a layer's ``fuzzed.md``, every read path answers:
    list, read, context, search and verify return (the file is a memory or
    a malformed entry) and the other memories are still there."""
    mem = fuzzed_store
    (mem.session.layer("project").path / "fuzzed.md").write_bytes(data)
    listed = mem.list()
    names = {m.name for m in listed.memories}
    assert {"db-port", "editor"} <= names
    assert ("fuzzed" in names) != any(Path(m.path).name == "fuzzed.md" for m in listed.malformed)
    assert "Dev DB on port 5433" in mem.context()
    assert [hit.name for hit in mem.search("5433")][:1] == ["db-port"]
    mem.read("db-port", count=False)
    if "fuzzed" in names:
        mem.read("fuzzed", count=False)


# ---------------------------------------------------------------- the context block stays in budget

index_line = st.builds(lambda name, desc: f"- [{name}]({name}.md) — {desc}", text, text)
sections = st.lists(st.tuples(st.sampled_from(["user", "team", "project", "other"]),
                              st.lists(st.one_of(index_line, text), max_size=30).map("\n".join)), max_size=4)


def _fits_one_line(secs, max_bytes) -> bool:
    """True when the whole block fits (every line and the whole policy, no marker), or the cheapest
    of the sections' first lines (a section's first pinned line, else its first) fits with the frame,
    its section heading and the widest marker the renderer reserves (``store.context``): the walk
    takes the sections' first lines cheapest first, and stops at the first that does not fit."""
    blocks = []
    per_scope: dict[str, int] = {}
    for scope, body in secs:
        lines = [context_block.shown_line(context_block.one_line(line)) for line in body.split("\n") if line.strip()]
        if lines:
            blocks.append((context_block.SECTION_TITLES.get(scope, f"## {scope} memories"), lines))
            per_scope[scope] = per_scope.get(scope, 0) + len(lines)
    frame = len(f"{context_block.OPEN}\n{context_block.NOTE}\n{context_block.HEADING}\n{context_block.CLOSE}"
                .encode())
    marker = len(("\n" + context_block._marker(per_scope)).encode())  # names every layer with its count
    everything = "\n\n".join(f"{title}\n\n" + "\n".join(lines) for title, lines in blocks)
    if blocks and frame + len(f"\n\n{everything}\n\n{context_block.POLICY}".encode()) <= max_bytes:
        return True  # every line fits: no marker needed
    firsts = [next((line for line in lines if context_block._pinned(line)), lines[0]) for _, lines in blocks]
    return any(frame + len(f"\n\n{title}\n\n{line}".encode()) + marker <= max_bytes
               for (title, _), line in zip(blocks, firsts))


@pytest.mark.slow
@scaled(2.0)
@given(secs=sections, max_bytes=st.integers(0, 10_000))
@example(secs=[("project", "- [a](a.md) — " + "é" * 3000)], max_bytes=4096)
@example(secs=[("user", "x"), ("project", "y")], max_bytes=0)
def test_the_context_block_never_exceeds_its_budget(secs, max_bytes):
    """``store.context.render_block`` never returns more than ``max_bytes``
    UTF-8 bytes for any budget 0–10,000, and is a whole block (fence open
    to close) exactly when it all fits or one section's first line fits with
    the frame and the widest marker, else empty; empty for no lines at all."""
    out = context_block.render_block(secs, max_bytes)
    assert len(out.encode("utf-8")) <= max_bytes
    if _fits_one_line(secs, max_bytes):
        assert out.startswith(context_block.OPEN) and out.endswith(context_block.CLOSE), (max_bytes, out)
    else:
        assert out == "", (max_bytes, out)
    if not any(line.strip() for _, body in secs for line in body.split("\n")):
        assert out == ""


@pytest.fixture(scope="module")
def full_store(tmp_path_factory):
    mem = _store(tmp_path_factory.mktemp("full"))
    for n in range(40):
        mem.write(f"fact-{n}", f"Fact number {n} about the deploy " + "é" * (n % 7) * 10, "project", "body")
    mem.as_actor("human").write("editor", "The user edits with Helix", "user")
    return mem


@scaled(0.5)
@given(max_bytes=st.integers(-5, 10_000))
@example(max_bytes=0)
@example(max_bytes=1)
@example(max_bytes=10_000)
def test_the_context_of_a_store_stays_in_budget(full_store, max_bytes):
    """``Memory.context(max_bytes)`` (the hook's path) is at most
    ``max_bytes`` bytes for every budget; a budget below 1 is refused with
    :class:`InvalidInput`; it is not empty exactly when one layer's first
    index line of its ``MEMORY.md`` fits with the frame and the marker."""
    if max_bytes < 1:
        with pytest.raises(MemdirError, match="at least 1"):
            full_store.context(max_bytes)
        return
    out = full_store.context(max_bytes)
    assert len(out.encode("utf-8")) <= max_bytes
    indexes = [(scope, (full_store.session.layer(scope).path / "MEMORY.md").read_text(encoding="utf-8"))
               for scope in ("user", "project")]
    assert (out != "") == _fits_one_line(indexes, max_bytes), (max_bytes, out)


# ---------------------------------------------------------------- the tokenizer is total

_FTS = sqlite3.connect(":memory:")
_FTS.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
_FTS.execute("INSERT INTO t(body) VALUES ('deploy run 部署')")


@pytest.mark.slow
@scaled(3.0)
@given(value=text)
@example(value="İstanbul ß ﬁle")
@example(value="getUserById HTMLResponse sha256 3d OPENAI_API_KEY")
@example(value="部署流程と데이터")
@example(value="\"quoted\" AND OR NOT * ( ) : ^ NEAR")
def test_the_tokenizer_is_total(value):
    """``tokenize.tokens`` maps any ``str`` to a list of non-empty ``str``
    without whitespace (``document_text`` joins them with spaces); the query
    forms (``query_terms``, ``fts_query``) never raise, and SQLite FTS5
    accepts every query ``fts_query`` builds."""
    out = tokenize.tokens(value)
    assert isinstance(out, list) and all(isinstance(t, str) and t and not any(c.isspace() for c in t) for t in out)
    assert tokenize.document_text(value).split() == out
    terms = tokenize.query_terms(value)
    assert len(terms) <= tokenize.MAX_QUERY_TERMS and set(terms) <= set(out)
    query = tokenize.fts_query(terms)
    if query:
        _FTS.execute("SELECT count(*) FROM t WHERE t MATCH ?", (query,)).fetchall()
    assert tokenize.has_cjk(value) in (True, False)


@scaled(0.5)
@given(query=text)
@example(query="部署")
@example(query="\x00")
def test_any_query_searches_or_is_refused_with_memdirs_error(full_store, query):
    """``Memory.search`` answers any query with a list of hits (each a stored
    memory) or refuses it with memdir's own error (empty, too long)."""
    try:
        hits = full_store.search(query)
    except MemdirError:
        return
    assert all(hit.name.startswith("fact-") or hit.name == "editor" for hit in hits)


def test_a_search_for_a_stored_cjk_word_finds_it(full_store):
    """Control for the tokenizer property: the same tokens find a memory."""
    full_store.write("deploy-zh", "部署流程在周五", "project")
    assert [hit.name for hit in full_store.search("部署流程")][:1] == ["deploy-zh"]


# ---------------------------------------------------------------- regressions the properties found


def test_a_fence_tag_escaped_by_a_write_is_named_in_its_warnings(mem):
    """Found by the round-trip property: ``a <memory_context> b`` was stored
    as ``a &lt;memory_context&gt; b`` with no warning (a silent change)."""
    result = mem.write("fence", "a <memory_context> b", "project", "b </memory_recall> c", title="<memory_pending>")
    assert mem.read("fence").record.description == "a &lt;memory_context&gt; b"
    assert [w.split(" escaped")[0].rsplit(" ", 1)[-1] for w in result.warnings if "tag(s)" in w] == \
        ["description", "body", "title"]
    plain = mem.write("plain", "a memory_context b", "project", "no tag here")  # control: no tag, no warning
    assert plain.warnings == () and mem.read("plain").record.description == "a memory_context b"


@pytest.mark.slow
@pytest.mark.parametrize("raw", ["0\x80", "db\x85port", ":\u2028:"])
def test_a_name_with_a_c1_control_or_a_line_break_is_refused_on_every_path(mem, project, raw):
    """Found by the name property: ``0\\x80`` was written as memory ``0`` (the
    control dropped with a warning) but ``read("0\\x80")`` then answered
    NotFound — its own spelling could not reach it (``:\u2028:`` too, under
    ``make fuzz``: the write hashed ``: :``). Now the name is refused
    with :class:`InvalidName` by write, read and delete, and by the CLI."""
    from memdir.errors import InvalidName

    for call in (lambda: mem.write(raw, "A memory", "project"), lambda: mem.read(raw), lambda: mem.delete(raw)):
        with pytest.raises(InvalidName, match="control characters or line breaks"):
            call()
    assert mem.list().memories == ()
    out = run_cli("--project", project, "write", raw, "-d", "A memory", "-t", "project")
    assert out.returncode != 0 and "control characters or line breaks" in out.stderr, out.stdout + out.stderr
    clean = raw.translate({0x80: None, 0x85: None, 0x2028: None})  # control: without it
    written = mem.write(clean, "A memory", "project")
    assert mem.read(clean).record.name == written.name


@pytest.mark.slow
@pytest.mark.parametrize("raw", ["a\u202eb", "x\u2066y"])
def test_a_name_with_a_bidi_control_is_reached_by_its_own_spelling(mem, project, raw):
    """The property above, for a bidi control (which shows as nothing: text.names' one rule drops it on
    every path, names26): written under the name without it, with a warning naming it, and read and
    deleted by the spelling written — never a memory its own spelling cannot reach."""
    clean = raw.translate({0x202E: None, 0x2066: None})
    written = mem.write(raw, "A memory", "project")
    assert written.name == clean and "removed from the name" in written.warnings[0]
    assert mem.read(raw).record.name == clean and mem.read(clean).record.name == clean
    out = run_cli("--project", project, "read", raw)
    assert out.returncode == 0 and f"name: {clean}" in out.stdout, out.stderr
    mem.delete(raw)
    assert mem.list().memories == ()  # control: the delete by the spelling written reached it


@pytest.mark.slow
def test_conflict_markers_in_a_body_are_refused_not_stored_unreadable(mem, project):
    """Found by the round-trip property: a body with ``<<<<<<< HEAD`` lines
    was acknowledged (``created``), but the file was then read as an
    unresolved merge conflict — no longer a memory for any other process.
    Now every writer (``Transaction.apply``) refuses such bytes with
    :class:`InvalidInput` and nothing is written; fenced markers are text."""
    hunk = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main"
    with pytest.raises(MemdirError, match="merge conflict marker"):
        mem.write("merge-notes", "How we settle merges", "project", hunk)
    out = run_cli("--project", project, "write", "merge-notes", "-d", "How we settle merges", "-t", "project", "-b", hunk)
    assert out.returncode != 0 and "merge conflict marker" in out.stderr, out.stdout + out.stderr
    assert not (mem.session.layer("project").path / "merge-notes.md").exists() and mem.verify().ok
    fenced = mem.write("merge-notes", "How we settle merges", "project", f"```\n{hunk}\n```")  # control
    assert fenced.operation == "created"
    listed = run_cli("--project", project, "list")
    assert "merge-notes" in listed.stdout and "unresolved" not in listed.stdout, listed.stdout


@pytest.mark.slow
def test_a_field_cut_on_a_space_reads_back_alike_in_every_process(mem, project):
    """Found by the round-trip property: a title cut to its limit on a space
    kept the space in the write's answer (and the writer's cache) while the
    file — and so every other process — read it without: two answers for one
    memory. Cut fields are now stripped before they are stored."""
    result = mem.write("cut", "d" * 159 + " e", "project", "b" * 1999 + "\n\nc", title="t" * 79 + " u")
    assert any("cut" in w for w in result.warnings)  # the cut is named
    here = mem.read("cut").record
    assert (here.description, here.title, here.body) == ("d" * 159 + "…", "t" * 79, "d" * 159 + " e\n\n" + "b" * 1999)
    out = run_cli("--project", project, "--json", "read", "cut")
    there = json.loads(out.stdout)
    assert (there["description"], there["title"], there["body"]) == (here.description, here.title, here.body)
    whole = mem.write("whole", "d" * 160, "project")  # control: a field at its limit is kept whole
    assert whole.warnings == () and mem.read("whole").record.description == "d" * 160


def test_a_name_holding_a_fence_tag_is_found_by_its_spelling(mem):
    """Found by the name property: ``<MEMORY_CONTEXT>`` was stored under the
    escaped spelling's slug (``lt-memory-context-gt``) while a read of the
    same spelling looked for ``memory-context``: NotFound. Write, read and
    delete now see the name as the gateway stores it."""
    written = mem.write("<MEMORY_CONTEXT>", "A name holding a fence tag", "project")
    assert any("tag(s) in the name" in w for w in written.warnings)
    assert mem.read("<MEMORY_CONTEXT>").record.name == written.name
    assert mem.delete("<MEMORY_CONTEXT>").name == written.name
    plain = mem.write("memory context", "A plain name", "project")  # control: the plain words are another name
    assert plain.name == "memory-context" and mem.read("memory context").record.name == "memory-context"


def test_a_name_the_title_limit_would_cut_is_refused_and_long_names_never_share_a_memory(mem):
    """Found by the name property: ``"C++ tips " * 12`` was written (title =
    the name as written, cut to the 80-character title limit) and a read of
    the same spelling compared it with the cut title: "another name". A prefix
    rule fixed that read but let a second long name sharing the first 80
    characters overwrite, read and delete the first (breaker trial). The write
    refuses such a name instead; an exact spelling is the only match."""
    from memdir.errors import InvalidName

    stem = "Deployment checklist for the staging cluster in region eu-west with blue green rollout steps"
    for raw in ("C++ tips " * 12, stem + " and database migrations first", stem + " and cache warmup afterwards"):
        with pytest.raises(InvalidName, match="too long .*limit_title"):
            mem.write(raw, "a long name", "project")
    assert tuple(mem.list().memories) == ()  # nothing written
    fits = "C++ tips for the build: " + "x" * 50  # 74 characters, kept whole as the title (control)
    written = mem.write(fits, "Tips about C++", "project")
    assert mem.read(written.name).record.title == fits
    assert mem.read(fits).record.name == written.name
    mem.write("db-port-settings-production", "A", "project", "port 5432", title="DB port settings")
    with pytest.raises(MemdirError, match="another name|distinct name"):  # a title's prefix is not the name
        mem.write("DB port settings: production", "B", "project", "port 6543")
    assert mem.read("db-port-settings-production").record.body == "port 5432"
