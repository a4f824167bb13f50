"""Shared by run.py and fit.py: the labelled prompts, the store they run on, the halves.

The store is a temporary home with one project layer holding the memory files
of ``memories/`` (written for this evaluation, in the style of real projects)
and the real Claude Code memory files of ``../shared/data/claude-code-memory/``
(read from there, never copied into the repository; without that folder the
evaluation runs on ``memories/`` alone and says so on stderr). A real file
``<owner>__<repo>/<path with / as __>`` is placed as its last path part, so
its memory name is that part's stem as memdir reads it
(``feedback_docker_env_file_gotchas.md`` → ``feedback-docker-env-file-gotchas``).

``prompts.jsonl``: one object per line — ``prompt``, ``expect`` (the names of
the memories it needs; ``[]`` when it needs none) and ``kind`` (``lexical``:
shares words with the memory; ``paraphrase``: says it without its words;
``none``). ``tasks.jsonl``: the same form, prompts that ask to *do*
something a memory bears on (``kind`` ``task``) and tasks no memory bears on
(``none``). In each file line *i* (from 0) is in the ``fit`` half when *i*
is even, else in the ``heldout`` half: the relevance model is fitted on the
``fit`` halves of both (``fit.py``), and ``run.py`` reports the ``heldout``
halves.

``fresh.jsonl``: the same form and the four kinds (``lexical``, ``paraphrase``
— some of them cross-lingual —, ``task``, ``none``), written on 2026-12-03 from
the memories alone and committed before memdir ever ran on it (its first
commit is the proof it is blind), because the two sets above had been looked
at for many sessions. Every line of it is ``heldout``: its ``fit`` half is
empty, :func:`fit_rows` (all that ``fit.py`` reads) never reads it, and no
rule, threshold or weight may be fitted on it. A label found plainly wrong
(a misspelt name) is fixed in a commit of its own that lists the lines.

``near.jsonl``: training data only, the same form, written on 2026-12-03 after
``fresh`` showed the kind the two old sets lack: prompts that need no memory
but sit near one (a memory gives the dev PostgreSQL's port; the prompt asks
the frontend dev server's), general programming questions and chat in
English, German, Japanese, Chinese and Korean, beside positives of the
same look (``lexical``, ``paraphrase``, ``task``) so that a rule which only
refuses more cannot pass. Every line of it is ``fit`` (its ``heldout`` split
is empty): rules and parameters may be chosen on it, and :func:`fit_rows`
reads it.

``gaps.jsonl``: training data only, like ``near`` (every line ``fit``), written on 2026-12-03 (recall8) from the
memories of ``memories/`` alone and committed before memdir ran on it, for the three kinds the fit data still
lacked: task prompts in German, Chinese, Japanese or Korean about an English memory and English ones about a
memory in another language (sharing no word with it), more task prompts, and how-to or definition questions
about a tool a memory names ("how do I crop an image to a square with Pillow?", "cron で毎時30分に実行する書き方は？")
that need no memory — 33 needing a memory, 33 not, ordered so that each of ``run.py``'s two folds holds half of
each.

``trial.jsonl``: training data only, like ``gaps`` (every line ``fit``), written on 2026-12-03 (general9) from the
memories of ``memories/`` alone and committed before memdir ran on it, after a tester found the general-question
rule (:mod:`memdir.search.general`) hiding a project's own answer to plain project questions asked without an
article ("how do I connect to postgres?"): 24 such questions (how do I / what's / wie …, no pointing word) that a
memory answers and 24 of the same look about a tool or topic a memory names that none answers ("what is a feature
flag?", "how do I write a cron expression for every 30 minutes?"), in English and German with a Japanese and a
Chinese pair, ordered so that each of ``run.py``'s two folds holds 12 of each.

``probe.jsonl``: training data only, like ``trial`` (every line ``fit``), written on 2026-12-03 (neg11) from the
memories of ``memories/`` alone and committed before memdir ran on it, for the two kinds the blind set's figures
point at: 35 long prompts (more than 3 content words, so query windows apply) that need no memory but sit near
one's topic — the same tool or service asking what no memory answers ("how do I get structlog to add the request
id…", "the kafka consumer group keeps rebalancing…") — or are general coding tasks, some with pasted code or a
traceback; and 36 task prompts whose memory bears on them only by inference ("add a created_at column…" →
``timezone-utc``, "publish version 2.3.0" → ``release-tagging``), with typos and a few in German and Japanese.
Ordered none, none, task, task, so that each of ``run.py``'s two folds holds half of each.

``pasted.jsonl``: training data only, like ``probe`` (every line ``fit``), written on 2026-12-03 (paste12) from the
memories of ``memories/`` alone and committed before memdir ran on it, after a tester found a question with pasted
text on the same line not recalled ("which port does postgres use? psycopg2.OperationalError: …"): 16 questions or
tasks a memory answers with an error, a path, a log line or a stack frame pasted before or after them on one line,
and 16 of the same look that no memory answers. Ordered need, need, none, none, so that each of ``run.py``'s two
folds holds 8 of each.

``short.jsonl``: training data only, like ``pasted`` (every line ``fit``), written on 2026-12-04 (recall20) from the
memories of ``memories/`` alone and committed before memdir ran on it, for short "the X" prompts naming a memory's
topic ("the ci runner", "the merge freeze", "the dev db port"), the kind issue 28 names as not recalled, beside short chat and non-memory
phrases of the same look ("the weather", "the end", "thanks, the fix works", "the helm chart") that must recall
nothing: 24 of each, ordered need, need, none, none, so that each of ``run.py``'s two folds holds 12 of each.

``asked.jsonl``: training data only, like ``short`` (every line ``fit``), written on 2026-12-05 (recall27) from the
memories of ``memories/`` alone and committed before memdir ran on it, for short questions the fit data lacked in
small stores (issue 28: "How do I build?" beside a build memory in five): 24 questions of at most four content words
that a memory answers ("how do I release?", "where do bugs go?"), half of them naming the workspace ("how do we add a
dependency to this project?", "what runner does this repo's CI use?"), beside 24 of the same look that no memory
answers ("how do I rebase?", "what license does this project use?"), ordered need, need, none, none, so that each of
``run.py``'s two folds holds 12 of each.

``typos.jsonl``: training data only, like ``asked`` (every line ``fit``), written on 2026-12-05 (recall28) from the
memories of ``memories/`` alone and committed before memdir ran on it, for misspelled prompts (issue 28: "how do i
conect to postgress locally" recalled nothing, its words one slip from the memory's): 24 questions a memory answers
with realistic typos in their topic words (a letter dropped, doubled, two swapped, a wrong vowel: "does our dev
postgress use the default port?", "which dashbord shows api latancy?"), beside 24 misspelled ones of the same look
that no memory answers ("how do i conect to a mongdb cluster from python?", "thnaks, that fixed the buidl"), ordered
need, need, none, none, so that each of ``run.py``'s two folds holds 12 of each.

``shop.jsonl``: training data only, like ``typos`` (every line ``fit``), written on 2026-12-05 (recall29) with the 11
memories of ``shop/`` (a web shop's project: build-cmd, dev-ports, deploy-days, http-client, orm, owner-payments,
ci-runner, staging-vpn, test-cmd, feature-flags, prefers-short-prs) and committed before memdir ran on it, after
trial27's real Claude Code sessions in a home of 11 such memories: its misses and false recalls ("I can't reach
staging" → staging-vpn, "where does the web app listen?" → dev-ports, "write a parser for command line flags in the
CLI tool" → none; "add a function to fetch the order list from the API in the web app" recalled test-cmd, labelled
here http-client, which it needs) and as many rows of the same kinds of its own: 21 needing a memory, 13 needing
none, each of ``run.py``'s two folds holding half of each. It runs on a store of its own (:data:`STORES`): the
``shop/`` memories alone, not the 80 of ``memories/`` and the real files, so :func:`fit_rows` (one store) leaves it out.
trial27's memory texts were not kept, so ``shop/`` is written anew: on it main (2026-12-05) recalls 9 of trial27's 10
missed prompts' memories (of the two-memory prompt only dev-ports, which the tally counts as a hit) and of its four
false recalls two: feature-flags for "write a parser for command line flags in the CLI tool" (0.54) and test-cmd
(0.63) beside http-client for "add a function to fetch the order list…" (not counted: that row needs a memory); ``[hits, needing, false recalls, needing none]`` fold 0 [9, 10, 1, 7], fold 1 [7, 11, 1, 6].

``framed.jsonl``: training data only, like ``typos`` (every line ``fit``), written on 2026-12-05 (recall30) from the
memories of ``memories/`` alone and committed before memdir ran on it and before the task-frame rule
(:func:`memdir.search.keywords.unframed`) was changed, because no fit set held a prompt framed as a check: 24
prompts a memory bears on with the frame at their opening ("double-check the dev db port", "verify that the session
TTL in redis is correct") or in mid-prompt after a task ("bump the version and make sure the release tag gets
pushed"), beside 24 framed ones of the same look that no memory answers ("make sure the tests pass", "double-check
your math", "double-check the frontend dev server port"), ordered need, need, none, none, so that each of
``run.py``'s two folds holds 12 of each.

``mixed.jsonl``: training data only, like ``framed`` (every line ``fit``), written on 2026-12-06 (hits37) from the
memories of ``memories/`` alone and committed before memdir ran on it or any rule was changed, as a check that rules
fitted on the other sets generalize: 24 prompts a memory bears on (lexical, paraphrase and task: "who do I ping when
the nightly sales batch fails?" → ``ja-batch``, "install the httpx package" → ``python-installs``, "store the
order's created time as local Berlin time" → ``timezone-utc``) beside 24 that need none, some sharing a word or a
shape with a memory ("page through the search results 50 at a time", "who should I ask about the marketing
budget?", "install the lodash package in the frontend": a JavaScript package, not the note on Python installs),
ordered need, need, none, none, so that each of ``run.py``'s two folds holds 12 of each. Fold 0 is its half A (tuned
on), fold 1 its half B, read once after tuning as hits37's generalization figure. ``[hits, needing, false recalls,
needing none]`` before -> after hits37's rules (concepts.whom, lexicon.TASKS): half A vectors on [12, 12, 1, 12] ->
[12, 12, 1, 12], off [6, 12, 0, 12] -> [6, 12, 0, 12]; half B on [8, 12, 2, 12] -> [9, 12, 2, 12] ("install the httpx
package"), off [7, 12, 0, 12] -> [7, 12, 0, 12].

``stray.jsonl`` and ``stray2.jsonl``: training data only, like ``framed`` (every line ``fit``), written on 2026-12-06
(false37) from the memories of ``memories/`` alone and committed before memdir ran on them, because the fit halves of
``prompts`` and ``tasks`` show no false recall while their held-out halves do: 48 prompts of a coding agent's shape
that need no memory but share one incidental word, number or generic tech word with one ("write a regex that matches
semantic version strings like 1.4.2" and the release note's ``v1.4.2``, "port the date parsing helper from moment.js"
and the dev database's port, "add a `--dry-run` flag"), ask something else in a memory's domain ("ruff reports F401
…", "gofmt says my file is fine but golangci-lint …"), paste an error or log line, or are general requests in German,
Japanese, Chinese and Korean; beside 24 of the same look that a memory bears on. Split at random (seed 37) into two
halves of 24 and 12 each, ordered need, need, none, none, none, none so that each of ``run.py``'s two folds holds half
of each: rules are tuned on ``stray`` (with the other fit sets), ``stray2`` was run once, untouched, as the
generalization figure (false37.py).

``wide.jsonl``: training data only, like ``shop`` (every line ``fit``) and on a store of its own (:data:`STORES`), written
on 2026-12-07 (wide38) with the 105 memories of ``wide/`` and committed, memories and prompts, before memdir ever ran on
them, because the recall rules were fitted for many sessions on sets that all share the 35 memories of ``memories/``.
``wide/`` is one developer's long-term memory across four projects — ``ledger`` (Django billing), ``atlas`` (React
Native app), ``tern`` (Go Kafka → ClickHouse ingest), ``quill`` (a Rust CLI side project) — plus company infrastructure
(VPN, Vault, bastion, incident process, Linear) and personal feedback: 73 project, 16 feedback, 14 reference and 2 user
memories, 15 of them in German, Chinese, Japanese, Korean, Spanish or French, with overlapping topics on purpose (three
logging notes, four deploy or release notes, four on tests, three on on-call, two on ports, two on migrations, two on
answer style) so that false recall is tested honestly. 172 prompts: 86 needing a memory (32 ``lexical``, four of them
not in English; 26 ``paraphrase`` sharing (almost) no content word with it, some across languages; 28 ``task``; four name two
memories) and 86 needing none (chat in seven languages, general questions, on-topic-sounding questions no memory answers
— "what's the Redis Sentinel port for ledger in prod?", "who's the product manager for payouts?" —, general tasks and
pasted errors), each fold of ``run.py`` holding 16 lexical, 13 paraphrase, 14 task and 43 none. Like ``mixed``, fold 0
may be tuned on and fold 1 is read once, after tuning, as the generalization figure; :func:`fit_rows` (one store)
leaves it out, as it does ``shop``. First run (main at 6c47fdae, 2026-12-07), ``[hits, needing, false recalls,
needing none]``: vectors on fold 0 [25, 43, 8, 43], fold 1 [24, 43, 6, 43]; off fold 0 [17, 43, 3, 43], fold 1
[20, 43, 2, 43]; paraphrase hit rate 0.19 on, 0.04 off; task 0.46 on, 0.32 off.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
REAL = REPO.parent / "shared" / "data" / "claude-code-memory"
sys.path.insert(0, str(REPO / "src"))


SETS = {"prompts": "prompts.jsonl", "tasks": "tasks.jsonl", "fresh": "fresh.jsonl", "near": "near.jsonl",
        "gaps": "gaps.jsonl", "trial": "trial.jsonl", "probe": "probe.jsonl", "pasted": "pasted.jsonl",
        "short": "short.jsonl", "asked": "asked.jsonl", "typos": "typos.jsonl",
        "shop": "shop.jsonl", "framed": "framed.jsonl", "mixed": "mixed.jsonl",
        "stray": "stray.jsonl", "stray2": "stray2.jsonl", "wide": "wide.jsonl"}
HELDOUT_ONLY = frozenset({"fresh"})  # sets whose every line is held out: nothing of them is ever fitted on
STORES = {"shop": "shop", "wide": "wide"}  # sets run on a store of their own: the memory files of that folder of HERE alone
FIT_ONLY = frozenset({"near", "gaps", "trial", "probe", "pasted", "short", "asked", "typos", "shop", "framed", "mixed",
                      "stray", "stray2", "wide"})  # sets whose every line is fit: training data with no held-out half


def prompts(split: str = "all", which: str = "prompts") -> list[dict]:
    """The labelled prompts of ``split`` (``fit``, ``heldout`` or ``all``) of
    the set ``which`` (a key of :data:`SETS`): dicts with ``prompt``,
    ``expect`` (list of memory names), ``kind`` and ``half``. In ``prompts``
    and ``tasks`` even lines are ``fit``, odd ones ``heldout``; in a set of
    :data:`HELDOUT_ONLY` every line is ``heldout`` (its ``fit`` split is ``[]``),
    in a set of :data:`FIT_ONLY` every line is ``fit`` (its ``heldout`` split is ``[]``).
    KeyError for an unknown set."""
    rows = [json.loads(line) for line in (HERE / SETS[which]).read_text(encoding="utf-8").splitlines() if line]
    for i, row in enumerate(rows):
        row["half"] = "fit" if which in FIT_ONLY else "heldout" if which in HELDOUT_ONLY or i % 2 else "fit"
    return rows if split == "all" else [r for r in rows if r["half"] == split]


def new_folds() -> list[list[int]]:
    """Two folds' figures, each ``[hits, prompts needing a memory, false recalls, prompts needing none]``, at 0."""
    return [[0, 0, 0, 0], [0, 0, 0, 0]]


def tally(folds: list[list[int]], fold: int, expect: list[str], names: list[str]) -> bool:
    """Count one prompt into ``folds[fold]`` (:func:`new_folds`' shape, as run.py prints it): a prompt expecting
    memories is a hit when any of ``expect`` is among the recalled ``names``; one expecting none is a false recall
    when ``names`` is not empty. True when the prompt came out right (a hit, or nothing recalled for none)."""
    figures = folds[fold]
    if expect:
        right = any(name in names for name in expect)
        figures[0] += right
        figures[1] += 1
    else:
        right = not names
        figures[2] += not right
        figures[3] += 1
    return right


def fit_rows() -> list[dict]:
    """Every prompt a parameter may be fitted on: the ``fit`` halves of ``prompts`` and ``tasks`` and
    all of ``near``, ``gaps``, ``trial``, ``probe``, ``pasted``, ``short``, ``asked``, ``typos``, ``framed``, ``mixed``, ``stray`` and ``stray2``, never a held-out line and never a line of a :data:`HELDOUT_ONLY` set (``fresh``)."""
    return [row for which in SETS if which not in HELDOUT_ONLY and which not in STORES
            for row in prompts("fit", which)]


def build_store(base: Path, vectors: str, which: str = "prompts"):
    """A :class:`memdir.Memory` on a fresh home under ``base`` whose project
    layer holds every evaluation memory (for a set of :data:`STORES`, its own
    folder's memories alone), indexed (and embedded in the foreground when
    ``vectors`` is ``on``)."""
    from memdir import Memory
    from memdir.search.sync import prepare

    project = base / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=project, search_vectors=vectors, actor="human")
    if which in STORES:
        layer = mem.session.layer("project").path
        layer.mkdir(parents=True, exist_ok=True)
        for path in sorted((HERE / STORES[which]).glob("*.md")):
            shutil.copy(path, layer / path.name)
    else:
        place_memories(mem.session.layer("project").path)
    prepare(mem.session)
    return mem


def place_memories(layer: Path) -> None:
    """Copy every evaluation memory file into the layer folder ``layer`` (created
    if missing): ``memories/*.md`` and the real files of :data:`REAL` (each as its
    last ``__`` part; a note on stderr when that folder is absent)."""
    layer.mkdir(parents=True, exist_ok=True)
    for path in sorted((HERE / "memories").glob("*.md")):
        shutil.copy(path, layer / path.name)
    if REAL.is_dir():
        for path in sorted(REAL.rglob("*.md")):
            if not path.name.endswith("MEMORY.md"):
                shutil.copy(path, layer / path.name.split("__")[-1])
    else:
        print(f"note: {REAL} not found; running on memories/ alone", file=sys.stderr)
