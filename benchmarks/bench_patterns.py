"""The gate's, the redaction's and the extractors' patterns (and one_line's) on hostile text: main against this
checkout, in one run. Prints one JSON object per line.

    python benchmarks/bench_patterns.py [--main PATH] [--cap SECONDS]

Each case is a run of one unit (``"ok, "``, ``"curl "`` …) 2,000, 8,000, 32,000 and 128,000 characters long (after a
few words of its own for some: ``"password for "`` + ``"isis…"``): a sentence
that almost fires a rule (the trailing words it needs never come), or a message holding a secret's start again and
again. ``main_s`` and ``this_s`` are seconds (one call; the best of three under 0.1 s), ``ratio`` main / this;
``growth_128k_over_32k`` this checkout's 128k time over its 32k time: about 4 for a cost growing with the length,
about 16 for one growing with its square (below 32k the times are too short to say: between 8k and 32k both
sides jump more than 4x on this machine, a memory effect, linear again above). ``--main``: a ``src`` directory of main (default: ``git archive main src``
into a temporary directory). A side whose time at one length is over ``--cap`` seconds (default 1) is not run
at the longer ones (``null``, ``"skipped"`` names why): main took minutes there.

    python benchmarks/bench_patterns.py --imports [--main PATH]

counts the instructions (valgrind's callgrind, :func:`benchmarks._fresh.instructions`: noise-free on a loaded
machine) of a fresh process importing :mod:`memdir.text.redact` (``import``), of one also redacting a memory's
line, as a CLI write does (``import_redact``; ``import_redact_body`` a body of 100 characters), and of
``import re`` alone (``re``), per tree, with this checkout's
difference from main; each after one untimed run (the bytecode cached).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SIZES = (2000, 8000, 32000, 128000)

# name: (what is called, the unit repeated[, what comes before the run])
CASES = {
    "gate.remember.de_clause": ("rule:remember", "wort "),  # a German clause never followed by ", merk dir das"
    "gate.correction.value": ("rule:correction", "1"),  # a run of digits never followed by ", not …"
    "gate.correction.wrong": ("rule:correction", "wrong "),  # "wrong" again and again, no "should"
    # left44b: each "wrong" denied ("nothing is wrong"), so each is passed over for the next
    "gate.correction.denied": ("rule:correction", "nothing is wrong, "),
    "gate.points_back.request": ("points_back", "ok "),  # openers, no request after them
    "gate.points_back.tail": ("points_back", "ok, "),  # fillers after a separator, no request
    "gate.sentence_rules.de_clause": ("sentence_rules", "wort "),  # every rule on the German clause
    "redact.openai_key": ("redact", "sk-"),
    # left44b: the provider keys named before "sk-" (main redacts "sk-ant-" as openai-key, "glpat-" not at all)
    "redact.anthropic_key": ("redact", "sk-ant-"),
    "redact.gitlab_token": ("redact", "glpat-"),
    "redact.curl_user": ("redact", "curl "),
    "redact.mysql_password": ("redact", "mysql "),
    "redact.env_secret": ("redact", "SECRET_"),  # a secret-named key of many parts, no "=" after it
    "redact.basic_auth_alone": ("redact", "!a:b"),
    # a value's look for a digit or a symbol read to the end of the word from each "密码是" in it (inject42)
    "redact.stated_password": ("redact", "密码是"),
    "redact.stated_password_for": ("redact", "is", "password for "),  # from each place a word after "for" may end
    # the sweep of inject42: every start inside a run read the run again
    "rules.question_tail.asks": ("question_tail", "do you ", "I love hiking"),  # "do you" again and again, no "?"
    "rules.question_tail.spaces": ("question_tail", " ", "I love hiking,"),  # spaces, no "?"
    "rules.instead.spaces": ("instead", " "),
    "rules.remember_tail.spaces": ("remember_tail", " "),
    "rules.write_down.asks": ("write_down", "put this "),  # asks with nowhere to write to
    "printable.one_line.spaces": ("one_line", " ", "\x07"),  # spaces and no break, after a control character
    "persona.lead_in.dashes": ("lead_in", "-"),
    "persona.then_i.spaces": ("then_i", " ", "x"),
    # retract43: the person taking back what they said (main has no such rule: its times are of a call doing nothing)
    "retraction.fillers": ("is_retraction", "no, "),  # fillers, no retraction among them
    "retraction.fillers_no_comma": ("is_retraction", "nono "),  # one clause of almost-fillers
    "retraction.named": ("is_retraction", "x ", "ignore what I said about "),
    "retraction.own_sentence": ("takes_itself_back", "no, ", "Remember we deploy on Fridays, "),  # no retraction after
    "retraction.wrong_and_right": ("wrong_and_right", "is wrong "),  # "is wrong" again and again, no separator
}


def _call(target: str):
    from memdir.consolidation import gate
    from memdir.consolidation.extractors import persona, rules
    from memdir.text.printable import one_line
    from memdir.text.redact import redact

    if target.startswith("rule:"):
        return dict(gate.RULES)[target[5:]].search
    if target in ("is_retraction", "takes_itself_back", "wrong_and_right"):
        try:
            from memdir.consolidation import retraction
        except ImportError:  # main before retract43
            return lambda text: None
        return getattr(retraction, target)
    # (main's rules read the four expressions as they were; this checkout's through the functions that replaced two)
    question = getattr(rules, "_without_question_tail", None) or (lambda text: rules._QUESTION_TAIL.sub(".", text))
    return {"points_back": gate._POINTS_BACK.match, "sentence_rules": gate.sentence_rules, "redact": redact,
            "question_tail": question, "instead": rules._INSTEAD.search,
            "remember_tail": lambda text: rules._REMEMBER_TAIL.sub("", text),
            "write_down": lambda text: rules.write_down(["We deploy on Fridays.", text], 1), "one_line": one_line,
            "lead_in": persona._LEAD_IN.match, "then_i": lambda text: persona._THEN_I.split(text, maxsplit=1)}[target]


def child(cap: float) -> None:
    """Time every case with the ``memdir`` on ``sys.path``; one JSON object: case -> [seconds or None, …]."""
    out = {}
    for name, (target, unit, *before) in CASES.items():
        call = _call(target)
        times: list[float | None] = []
        for size in SIZES:
            if times and (times[-1] is None or times[-1] > cap):
                times.append(None)
                continue
            text = "".join(before) + (unit * (size // len(unit) + 1))[:size]
            best = None
            for _ in range(3):
                started = time.perf_counter()
                call(text)
                spent = time.perf_counter() - started
                best = spent if best is None else min(best, spent)
                if spent > 0.1:
                    break
            times.append(best)
        out[name] = times
    print(json.dumps(out))


def _run(src: Path, cap: float) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", str(src), "--cap", str(cap)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


IMPORTS = {
    "re": "import re",
    "import": "import memdir.text.redact",
    "import_redact": "from memdir.text.redact import redact; redact('Dev PostgreSQL listens on 5433, moved from 5432.')",
    # a body of 64 characters or more: the stated password's look for long words runs too
    "import_redact_body": "from memdir.text.redact import redact; redact('The dev database moved from 5432 to 5433 "
                          "in March; the staging one still listens on 5432 and moves next week.')",
}


def imports(main_src: Path) -> None:
    """One JSON line per (what, tree): instructions of a fresh process, and this checkout's difference from main."""
    import os

    sys.path.insert(0, str(HERE))
    from benchmarks._fresh import instructions

    counts: dict = {}
    for what, code in IMPORTS.items():
        for tree, src in (("main", main_src), ("this", HERE / "src")):
            env = dict(os.environ, PYTHONPATH=str(src))
            subprocess.run([sys.executable, "-c", code], env=env, check=True)  # the bytecode written
            counts[what, tree] = instructions(["-c", code], "", env)
            print(json.dumps({"imports": what, "tree": tree, "instructions": counts[what, tree]}), flush=True)
        print(json.dumps({"imports": what, "this_minus_main": counts[what, "this"] - counts[what, "main"],
                          "ratio": round(counts[what, "this"] / counts[what, "main"], 4)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--main", type=Path)
    parser.add_argument("--cap", type=float, default=1.0)
    parser.add_argument("--child", type=Path)
    parser.add_argument("--imports", action="store_true")
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.child))
        child(args.cap)
        return
    with tempfile.TemporaryDirectory(prefix="memdir-bench-patterns-") as tmp:
        main_src = args.main
        if main_src is None:
            archive = subprocess.run(["git", "-C", str(HERE), "archive", "main", "src"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            main_src = Path(tmp) / "src"
        if args.imports:
            imports(main_src)
            return
        before, after = _run(main_src, args.cap), _run(HERE / "src", args.cap)
    for name in CASES:
        for size, old, new in zip(SIZES, before[name], after[name]):
            row = {"case": name, "chars": size, "main_s": None if old is None else round(old, 5),
                   "this_s": None if new is None else round(new, 5),
                   "ratio": round(old / new, 1) if old is not None and new else None}
            if old is None or new is None:
                row["skipped"] = f"over {args.cap} s at a shorter length"
            print(json.dumps(row))
        before_last, last = after[name][-2:]
        print(json.dumps({"case": name, "growth_128k_over_32k": round(last / before_last, 1)
                          if before_last and last else None}))


if __name__ == "__main__":
    main()
