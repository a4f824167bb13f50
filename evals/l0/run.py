"""L0 evals: the injected context's budget, what it keeps, stale eviction and link expansion.

Usage::

    python evals/l0/run.py [--only NAME]

Deterministic, no model, a few seconds. Each eval builds a fresh home and
project under a temp directory and drives memdir through its public API
(:class:`memdir.Memory`: ``write``, ``read``, ``list``, ``context``) and the
files a person or an older tool leaves in a layer; it prints one JSON object
per line, each with an ``"eval"`` key and its figures. ``tests/scripts/test_l0_evals.py``
runs the same functions and asserts every figure, so ``make test`` fails when
one regresses. The evals are those of the seed (``reference/seed-behaviour.md``
§A17, checks ①–④); the seed's byte figures (4065/4048/4018/3940) depend on its
own policy text, so memdir's differ and the shape is what carries over.

* ``budget_curve`` — 20, 50, 100, 200 and 1,000 memories (the seed's
  generator: mulberry32, ``m0000-<topic>`` names, CJK titles, 24–63 character
  descriptions, 40–99 character bodies; the type drawn from the generator) at
  ``max_bytes`` 4096: injected bytes, index lines kept, lines left out,
  whether the "…left out" marker is there, whether the untruncated block would
  have exceeded the budget; and an empty store's bytes.
* ``probe_retention`` — 60 memories, every 4th a probe, at half the bytes the
  whole block takes: the share of probes kept when they are plain, pinned
  (the seed asserts ≥ 80 %) and given importance 10.
* ``stale_eviction`` — ``stale_after_days`` 90, memories last changed 200 days
  ago: aged and never read (hidden), aged but read once (kept), fresh (kept),
  a legacy file without times (kept), aged and pinned (kept); files on disk,
  misfires; a read of a memory that was not stale leaves ``MEMORY.md``
  untouched (bytes and mtime: the provider's prompt cache); then a store
  whose only memory is aged and unread (no ``MEMORY.md``, empty context), read
  once (back in the index), aged again (still there: a read counts for good);
  and the seed's falloff: 40 memories, 20 aged 60 days, ``stale_after_days`` 30.
* ``link_expansion`` — ``memory_read``'s ``[[links]]``: one link; four links
  plus a repeat (three listed, ``truncated``); a link to itself and to a
  missing name (skipped); ``[[BAD NAME]]`` (not a link to the memory
  ``bad-name``, while ``[[bad-name]]`` is); links to a candidate and a superseded memory (skipped: withheld from the
  index, as from the links); the largest linked block three 160-character CJK
  descriptions make.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "src"))

from memdir import Memory  # noqa: E402
from memdir.files.layout import INDEX_FILE  # noqa: E402
from memdir.render import memories as render  # noqa: E402

MAX_BYTES = 4096
CURVE = (20, 50, 100, 200, 1000)
TOPICS = (("build", "构建"), ("deploy", "部署"), ("testing", "测试"), ("database", "数据库"), ("style", "风格"),
          ("review", "评审"), ("security", "安全"), ("release", "发布"), ("logging", "日志"), ("api", "接口"))
TYPES = ("user", "feedback", "project", "reference")
MARKER = "index lines left out"
LINE_PREFIX = "- ["


def mulberry32(seed: int):
    """The seed's PRNG (``helpers.ts``): a function returning floats in [0, 1)."""
    state = seed & 0xFFFFFFFF

    def imul(a: int, b: int) -> int:
        return (a * b) & 0xFFFFFFFF

    def draw() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(state ^ (state >> 15), state | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return draw


def make_memories(n: int, seed: int = 42, probe_every: int = 0) -> list[dict]:
    """``n`` memories as the seed's ``makeMemories`` builds them: ``name``,
    ``title``, ``description``, ``type``, ``body`` and ``probe`` (every
    ``probe_every``-th, from the first). The first ``k`` of any ``n`` are the
    same ``k``, so one store can be measured at growing sizes."""
    rand = mulberry32(seed)
    out = []
    for i in range(n):
        topic, zh = TOPICS[i % len(TOPICS)]
        words = f"Note {i} about {topic}: keep the {topic} steps the team agreed on"
        description = words[: 24 + int(rand() * 40)].rstrip()
        description = description.ljust(24, ".")
        out.append({"name": f"m{i:04d}-{topic}", "title": f"{zh}经验", "description": description,
                    "type": TYPES[int(rand() * len(TYPES))], "body": "x" * (40 + int(rand() * 60)),
                    "probe": bool(probe_every) and i % probe_every == 0})
    return out


def open_memory(root: Path, **settings) -> Memory:
    """A fresh home and project under ``root``, as the agent sees them."""
    project = root / "project"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    return Memory.open(home=root / "home", project=project, use_cwd=False, **settings)


def write_all(mem: Memory, memories: list[dict], **fields) -> None:
    for m in memories:
        mem.write(m["name"], m["description"], m["type"], m["body"], title=m["title"], **fields)


def index_names(block: str) -> list[str]:
    """The memory names of the index lines in a context block, in order."""
    names = []
    for line in block.split("\n"):
        if line.startswith(LINE_PREFIX) and "](" in line:
            names.append(line.split("](", 1)[1].split(".md)", 1)[0])
    return names


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


# ------------------------------------------------------------------ ① budget


def budget_curve(root: Path, sizes=CURVE, max_bytes: int = MAX_BYTES) -> dict:
    """Check ①: one store grown to each size in ``sizes``; the context at
    ``max_bytes`` measured at each."""
    mem = open_memory(root)
    empty = mem.context(max_bytes)
    memories = make_memories(max(sizes))
    points, done = [], 0
    for n in sizes:
        write_all(mem, memories[done:n])
        done = n
        block = mem.context(max_bytes)
        full = mem.context(10 ** 7)
        kept = index_names(block)
        points.append({"memories": n, "bytes": _size(block), "lines_kept": len(kept),
                       "lines_left_out": n - len(kept), "marker": MARKER in block,
                       "untruncated_bytes": _size(full), "over_budget": _size(block) > max_bytes,
                       "fenced": block.startswith("<memory_context>") and block.endswith("</memory_context>")})
    return {"eval": "budget_curve", "max_bytes": max_bytes, "empty_store_bytes": _size(empty), "points": points,
            "never_over_budget": all(not p["over_budget"] for p in points),
            "marker_iff_left_out": all(p["marker"] == (p["lines_left_out"] > 0) for p in points)}


# ------------------------------------------------------------------ ② probes


def probe_retention(root: Path, n: int = 60, probe_every: int = 4) -> dict:
    """Check ②: the share of probe memories the context keeps at half the
    bytes the whole block takes, for plain, pinned and importance-10 probes
    (one store each, the same memories)."""
    memories = make_memories(n, seed=7, probe_every=probe_every)
    probes = {m["name"] for m in memories if m["probe"]}
    figures: dict = {"eval": "probe_retention", "memories": n, "probes": len(probes)}
    budget = None
    for case, fields in (("plain", {}), ("pinned", {"pinned": True}), ("importance", {"importance": 10})):
        mem = open_memory(root / case)
        write_all(mem, [m for m in memories if not m["probe"]])
        write_all(mem, [m for m in memories if m["probe"]], **fields)
        if budget is None:
            budget = math.ceil(_size(mem.context(10 ** 7)) / 2)
        block = mem.context(budget)
        kept = set(index_names(block))
        figures[case] = {"kept": len(kept & probes), "share": round(len(kept & probes) / len(probes), 4),
                         "lines_kept": len(kept), "bytes": _size(block), "pin_mark": "📌" in block}
    figures["max_bytes"] = budget
    return figures


# ------------------------------------------------------------------ ③ stale


def _hand_written(mem: Memory, scope: str, name: str, description: str, *, changed: datetime | None = None,
                  reads: int | None = None, last_read: datetime | None = None, pinned: bool = False) -> Path:
    """A memory file as a person's editor or an older tool leaves it (times
    set by hand; none at all for a legacy file), put in place by rename."""
    stamp = (lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ"))
    lines = ["---", f"name: {name}", f"description: {description}", "type: project"]
    if changed is not None:
        lines += [f"created: {stamp(changed)}", f"updated: {stamp(changed)}"]
    if reads is not None:
        lines.append(f"reads: {reads}")
    if last_read is not None:
        lines.append(f"last_read: {stamp(last_read)}")
    if pinned:
        lines.append("pinned: true")
    layer_dir = mem.session.layer_dir(scope)
    layer_dir.mkdir(parents=True, exist_ok=True)
    staged = layer_dir.parent / f".{name}.staged"
    staged.write_text("\n".join(lines + ["---", f"{description}.", ""]), encoding="utf-8")
    os.replace(staged, layer_dir / f"{name}.md")
    return layer_dir / f"{name}.md"


def stale_eviction(root: Path, stale_after_days: int = 90, age_days: int = 200) -> dict:
    """Check ③: which memories ``stale_after_days`` takes out of the index,
    which it keeps, that it deletes nothing, and that one read revives a
    hidden memory for good."""
    now = datetime.now(timezone.utc).replace(microsecond=0)
    aged = now - timedelta(days=age_days)
    mem = open_memory(root / "matrix", stale_after_days=stale_after_days)
    mem.write("c-fresh", "Fresh: written today", "project", "Written today.")
    _hand_written(mem, "project", "a-aged-unread", "Aged, never read", changed=aged, reads=0)
    _hand_written(mem, "project", "b-aged-read", "Aged, read once", changed=aged, reads=1, last_read=aged)
    _hand_written(mem, "project", "d-legacy", "Legacy file without times")
    _hand_written(mem, "project", "e-aged-pinned", "Aged, never read, pinned", changed=aged, reads=0, pinned=True)
    expected = {"a-aged-unread": False, "b-aged-read": True, "c-fresh": True, "d-legacy": True,
                "e-aged-pinned": True}
    block = mem.context(MAX_BYTES)
    shown = set(index_names(block))
    index_file = set(index_names((mem.session.layer_dir("project") / INDEX_FILE).read_text(encoding="utf-8")))
    listed = {m.name: m.state for m in mem.list("project").memories}
    on_disk = sorted(p.stem for p in mem.session.layer_dir("project").glob("*.md") if p.name != INDEX_FILE)
    misfires = sum((name in shown) != visible or (name in index_file) != visible for name, visible in expected.items())
    index_path = mem.session.layer_dir("project") / INDEX_FILE
    index_before = (index_path.read_bytes(), index_path.stat().st_mtime_ns)
    mem.read("c-fresh")  # a read of a memory that was not stale: the index (and the prompt cache) stay as they were
    index_after_read = (index_path.read_bytes(), index_path.stat().st_mtime_ns)

    lone = open_memory(root / "revive", stale_after_days=stale_after_days)
    path = _hand_written(lone, "project", "lone-aged", "The only memory, aged and unread", changed=aged, reads=0)
    before = lone.context(MAX_BYTES)
    lone_index = lone.session.layer_dir("project") / INDEX_FILE
    lone_index_before = lone_index.exists()
    lone.read("lone-aged")  # memory_read: counts a read
    after_read = "lone-aged" in index_names(lone.context(MAX_BYTES))
    reads = lone.read("lone-aged", count=False).record.reads
    _hand_written(lone, "project", "lone-aged", "The only memory, aged and unread", changed=aged, reads=reads,
                  last_read=aged)  # aged again, read count kept
    after_reageing = "lone-aged" in index_names(lone.context(MAX_BYTES))

    falloff = open_memory(root / "falloff", stale_after_days=30)
    for i in range(40):
        name = f"f{i:02d}"
        if i % 2:
            _hand_written(falloff, "project", name, f"Aged note {i}", changed=now - timedelta(days=60), reads=0)
        else:
            falloff.write(name, f"Fresh note {i}", "project", "Fresh.")
    falloff_lines = len(index_names(falloff.context(10 ** 7)))
    falloff_files = len([p for p in falloff.session.layer_dir("project").glob("*.md") if p.name != INDEX_FILE])
    return {"eval": "stale_eviction", "stale_after_days": stale_after_days, "age_days": age_days,
            "shown": sorted(shown), "hidden": sorted(set(expected) - shown), "listed": listed,
            "files_on_disk": len(on_disk), "files_written": len(expected), "misfires": misfires,
            "index_unchanged_by_a_read": index_after_read == index_before,
            "revive": {"context_bytes_before": _size(before), "index_file_before": lone_index_before,
                       "shown_after_read": after_read, "reads": reads, "shown_after_reageing": after_reageing,
                       "file_kept": path.exists()},
            "falloff": {"memories": 40, "aged": 20, "stale_after_days": 30, "index_lines": falloff_lines,
                        "files_on_disk": falloff_files}}


# ------------------------------------------------------------------ ④ links


def link_expansion(root: Path) -> dict:
    """Check ④: the memories ``memory_read`` lists from a body's ``[[links]]``."""
    mem = open_memory(root)
    for name in ("b", "c", "d", "e"):
        mem.write(f"{name}-note", f"Target {name}", "project", f"Target {name}.")
    mem.write("bad-name", "Target bad-name", "project", "The name a malformed link would normalize to.")

    def links(name: str, body: str) -> dict:
        mem.write(name, f"Links of {name}", "project", body)
        got = mem.read(name)
        return {"linked": [link.name for link in got.linked], "truncated": got.truncated}

    cases = {
        "one": links("one-link", "See [[b-note]]."),
        "four_and_repeat": links("hub", "[[b-note]] [[c-note]] [[b-note]] [[d-note]] [[e-note]]"),
        "three_exact": links("three", "[[b-note]] [[c-note]] [[d-note]]"),
        "self_and_missing": links("selfish", "[[selfish]] [[no-such-note]] [[c-note]]"),
        "malformed": links("malformed", "[[BAD NAME]] [[bad name]] [[Bad-Name]] [[bad_name]] [[bad-name|x]] [[]]"),
        "well_formed": links("well-formed", "[[bad-name]]"),
    }
    mem.write("maybe-note", "Target maybe, a candidate nobody approved", "project", "m", status="candidate")
    mem.write("old-note", "Target old", "project", "o")
    mem.write("new-note", "Target new", "project", "n", supersedes="old-note")
    cases["withheld"] = links("withheld", "[[maybe-note]] [[old-note]] [[new-note]]")
    wide = "界" * 160  # the longest description, three bytes a character
    for i in range(6):
        mem.write(f"wide-{i}", wide, "project", f"w{i}")
    body = " ".join(f"[[wide-{i % 6}]]" for i in range(300))[:2000]
    mem.write("many", "Links to many", "project", body)
    many = mem.read("many")
    text = render.read(many)
    block = text[text.index("Linked memories:"):]
    bound = 3 * (1 + len("- ") + 64 + len(" — ") + _size(wide)) + _size("Linked memories:") + 200
    cases["many"] = {"links_in_body": body.count("[["), "linked": len(many.linked), "truncated": many.truncated,
                     "block_bytes": _size(block), "bound_bytes": bound, "body_bytes": _size(many.record.body),
                     "json_bytes": _size(json.dumps(many.to_dict(), ensure_ascii=False))}
    return {"eval": "link_expansion", "max_links": 3, **cases}


EVALS = {"budget_curve": budget_curve, "probe_retention": probe_retention, "stale_eviction": stale_eviction,
         "link_expansion": link_expansion}


def results(names=None, keep_going: bool = False):
    """Yield each eval's result (or those in ``names``) as it finishes, each
    in its own temp directory. With ``keep_going`` an eval that raises yields
    ``{"eval": name, "error": "<type>: <message>"}`` and the others still run."""
    for name, function in EVALS.items():
        if names and name not in names:
            continue
        with tempfile.TemporaryDirectory(prefix=f"memdir-l0-{name}-") as tmp:
            try:
                yield function(Path(tmp))
            except Exception as exc:
                if not keep_going:
                    raise
                yield {"eval": name, "error": f"{type(exc).__name__}: {exc}"}


def run(names=None) -> list[dict]:
    """Every eval (or those in ``names``): the list of their results."""
    return list(results(names))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(EVALS), help="run only this eval (repeatable)")
    args = parser.parse_args(argv)
    for name in ("MEMDIR_HOME", "MEMDIR_PROJECT"):
        os.environ.pop(name, None)
    failed = 0
    for result in results(args.only, keep_going=True):  # one line as each finishes; a failure loses no other
        failed += "error" in result
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
