"""``memdir``: the command line, a thin translation onto the :class:`Memory` facade.

Each command parses its options, calls one facade method, prints the result
(``--json``: one JSON document on stdout) and maps errors: a message on stderr
and exit 1 for a memdir error, exit 2 for a usage error. The CLI is the human
path: what it writes has origin ``human``.

Adapters add their commands through :data:`EXTENSIONS`: modules with a
``register(subparsers, common)`` function, imported when present. Their heavy
imports live inside their handlers, so ``memdir context`` stays fast.
"""

from __future__ import annotations

import os
import sys

from ..store.errors import InvalidInput, MemdirError

EXTENSIONS = (
    "memdir.integrations.cli_search",
    "memdir.integrations.cli_integrations",
    "memdir.integrations.cli_consolidate",
)


class UsageError(Exception):
    """Bad command-line usage: exit 2."""


# ---------------------------------------------------------------- helpers


def open_memory(args, actor: str = "human"):
    """The facade for the CLI's ``--home`` / ``--project``."""
    from ..api import Memory

    return Memory.open(home=args.home, project=args.project, actor=actor)


def emit(args, data, text: str | None = None) -> None:
    """Print ``data`` as JSON with ``--json``, else ``text``."""
    if getattr(args, "json", False):
        import json

        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
    elif text is not None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")


def _body(args) -> str:
    if args.body is not None and args.body_file is not None:
        raise UsageError("give --body or --body-file, not both")
    if args.body is not None:
        return args.body
    if args.body_file is not None and args.body_file != "-":
        from pathlib import Path

        try:
            return Path(args.body_file).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InvalidInput(f"--body-file {args.body_file} is not valid UTF-8") from None
        except OSError as exc:
            raise InvalidInput(f"cannot read --body-file {args.body_file}: {exc.strerror or exc}") from None
    if args.body_file == "-" or not sys.stdin.isatty():
        try:
            return sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("the body on stdin is not valid UTF-8") from None
    return ""


def _memory_line(m) -> str:
    pin = " 📌" if m.pinned else ""
    state = "" if m.state == "active" else f" [{m.state}]"
    origin = " (auto-extracted)" if m.origin == "extracted" else ""
    return f"- {m.name}{pin} ({m.scope}/{m.type}){origin} — {m.description}{state}"


# ---------------------------------------------------------------- core commands


def cmd_write(args) -> int:
    mem = open_memory(args)
    result = mem.write(
        args.name, args.description, args.type, _body(args), title=args.title, scope=args.scope,
        pinned=args.pinned, disabled=args.disabled, importance=args.importance,
        status="candidate" if args.candidate else None, valid_from=args.valid_from,
        valid_until=args.valid_until, supersedes=args.supersedes, reason=args.reason,
    )
    data = {"name": result.name, "scope": result.scope, "operation": result.operation,
            "redactions": result.redactions, "warnings": list(result.warnings), "status": result.status}
    text = f"Memory {result.operation}: {result.name} ({result.scope}{', pinned' if result.pinned else ''})"
    if result.redactions:
        text += f"\n{result.redactions} secret(s) redacted: " + ", ".join(
            f"{k}×{v}" for k, v in sorted(result.redaction_kinds.items()))
    emit(args, data, text)
    for warning in result.warnings:
        print(f"memdir: warning: {warning}", file=sys.stderr)
    return 0


def cmd_read(args) -> int:
    result = open_memory(args).read(args.name, args.scope)
    r = result.record
    text = f"--- name: {r.name}\ndescription: {r.description}\ntype: {r.type}\nscope: {result.scope}\n---\n\n{r.body}"
    if result.linked:
        text += "\n\nLinked memories:\n" + "\n".join(f"- {l['name']} — {l['description']}" for l in result.linked)
    emit(args, result.to_dict(), text)
    return 0


def cmd_list(args) -> int:
    mem = open_memory(args)
    result = mem.list(args.scope, include_all=args.all, as_of=args.as_of, valid_at=args.valid_at)
    lines = [_memory_line(m) for m in result.memories] or ["No memories yet."]
    if mem.project_root is None and args.scope != "user":
        lines.append(f"(project memories unavailable: {mem.project_error})")
    for bad in result.malformed:
        lines.append(f"! malformed: {bad.path}: {bad.error}")
    emit(args, result.to_dict(), "\n".join(lines))
    return 0


def cmd_delete(args) -> int:
    mem = open_memory(args)
    result = (mem.forget if args.command == "forget" else mem.delete)(args.name, args.scope, reason=args.reason)
    emit(args, result, f"Deleted memory: {result['name']} ({result['scope']}); tombstone {result['tombstone']}")
    return 0


def cmd_prune(args) -> int:
    result = open_memory(args).prune(args.older_than, args.scope, dry_run=not args.apply)
    cands = result["candidates"]
    if result["dry_run"]:
        head = (f"Prune dry-run: {len(cands)} candidate(s) older than {args.older_than} days"
                + (" — re-run with --apply to delete" if cands else "."))
    else:
        head = f"Pruned {result['deleted']} of {len(cands)} candidate(s)" + ("" if cands else ".")
    lines = [head] + [f"- {c['name']} ({c['scope']}, {c['days_since_update']}d since update) — {c['description']}"
                      for c in cands]
    emit(args, result, "\n".join(lines))
    return 0


def cmd_clear(args) -> int:
    if not args.yes:
        raise UsageError("clear deletes every memory of the scope; add --yes to confirm")
    result = open_memory(args).clear(args.scope, confirm=True)
    emit(args, result, ", ".join(f"Deleted {s['deleted']} in {s['scope']}" for s in result["scopes"]))
    return 0


def cmd_context(args) -> int:
    # The hot path: no YAML, no facade unless an index must be rebuilt.
    from ..store.context import session_block
    from ..store.session import open_session

    if args.max_bytes is not None and args.max_bytes < 1:
        raise UsageError("--max-bytes must be at least 1")
    block = session_block(open_session(args.home, args.project, actor="human"), args.max_bytes)
    emit(args, {"context": block, "bytes": len(block.encode("utf-8"))}, block)
    return 0


def cmd_status(args) -> int:
    from ..tools.handlers import status_text

    status = open_memory(args).status()
    emit(args, status, status_text(status, max_malformed=50))
    return 0


def cmd_doctor(args) -> int:
    mem = open_memory(args)
    status = mem.status()
    problems = []
    lines = []
    for layer in status["layers"]:
        lines.append(f"{layer['scope']} layer: {layer['path']} — {layer['memories']} memories")
        for bad in layer["malformed"]:
            problems.append(bad)
            lines.append(f"  malformed: {bad['path']}: {bad['error']}")
        for path in layer["fallback_parsed"]:
            lines.append(f"  read with the line fallback (frontmatter is not valid YAML): {path}")
        for path in layer["no_frontmatter"]:
            lines.append(f"  no frontmatter (listed under its file name): {path}")
    checks = mem.verify()
    for check in checks:
        if not check["ok"]:
            problems.append({"path": check["layer"], "error": check["error"]})
            lines.append(f"  journal: {check['layer']}: {check['error']}")
    lines.append(f"context: {status['context_bytes']} of {status['context_budget']} bytes")
    lines.append("ok" if not problems else f"{len(problems)} problem(s)")
    emit(args, {**status, "journal": checks, "problems": problems}, "\n".join(lines))
    return 1 if problems else 0


# ---------------------------------------------------------------- history and trust


def cmd_verify(args) -> int:
    mem = open_memory(args)
    results = mem.repair() if args.repair else mem.verify()
    bad = [r for r in results if not r["ok"]]
    lines = [f"{'ok ' if r['ok'] else 'BAD'} {r['layer']}: {r['events']} events"
             + ("" if r["ok"] else f" — first bad event: {r['error']}") for r in results] or ["no layers"]
    emit(args, {"ok": not bad, "layers": results}, "\n".join(lines))
    return 1 if bad else 0


def cmd_history(args) -> int:
    versions = open_memory(args).history(args.name, args.scope)
    data = [v.__dict__ for v in versions]
    lines = [f"v{v.version}  seq {v.seq}  {v.ts}  {v.actor:<9} {v.action:<15} "
             f"{(v.digest or '-')[:12]:<12}  {v.description or ''}" for v in versions]
    emit(args, {"name": args.name, "versions": data}, "\n".join(lines))
    return 0


def cmd_show(args) -> int:
    text = open_memory(args).show(args.name, args.version, args.scope)
    emit(args, {"name": args.name, "version": args.version, "text": text}, text)
    return 0


def cmd_restore(args) -> int:
    result = open_memory(args).restore(args.name, args.version, args.scope)
    emit(args, {"name": result.name, "scope": result.scope, "operation": result.operation},
         f"Restored {result.name} to version {args.version} ({result.scope}, {result.operation})")
    return 0


def cmd_tombstones(args) -> int:
    stones = open_memory(args).tombstones(args.scope)
    lines = [f"{s['id']}  {s['scope']:<7} {s['name']}  by {s['actor']}  {s['ts']}  — {s['description']}"
             + (f"  ({s['reason']})" if s["reason"] else "") for s in stones] or ["No tombstones."]
    emit(args, {"tombstones": stones}, "\n".join(lines))
    return 0


def cmd_tombstone(args) -> int:
    result = open_memory(args).lift_tombstone(args.id, reason=args.reason)
    emit(args, result, f"Lifted tombstone {result['id']} ({result['scope']}, {result['name']})")
    return 0


def cmd_review(args) -> int:
    candidates = open_memory(args).review(args.scope)
    lines = [_memory_line(m) for m in candidates] or ["No candidates waiting for review."]
    emit(args, {"candidates": [m.to_dict() for m in candidates]}, "\n".join(lines))
    return 0


def cmd_approve(args) -> int:
    mem = open_memory(args)
    if args.command == "approve":
        result = mem.approve(args.name, args.scope, reason=args.reason)
        text = f"Approved {result['approved']} → {result['name']} ({result['scope']})"
    else:
        result = mem.reject(args.name, args.scope, reason=args.reason)
        text = f"Rejected {result['name']} ({result['scope']}); its value is tombstoned"
    emit(args, result, text)
    return 0


def cmd_flag(args) -> int:
    mem = open_memory(args)
    value = not args.command.startswith("un")
    changed = (mem.pin if args.command.endswith("pin") else mem.mute)(args.name, value, args.scope)
    emit(args, {"name": args.name, "changed": changed}, f"{args.command}: {args.name}"
         + ("" if changed else " (already so)"))
    return 0


# ---------------------------------------------------------------- parser


class _Ignored:
    """Stands in for the subparsers ``build_parser(only=…)`` does not build."""

    def add_argument(self, *args, **kwargs):
        return None

    def set_defaults(self, **kwargs):
        return None


_IGNORED = _Ignored()


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (skipping global options), or None."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in ("--home", "--project"):
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def _fast_context_args(argv: list[str]):
    """``memdir [--home H] [--project P] context [--max-bytes N] [--json]``
    parsed without argparse (whose import alone costs more than the render),
    or None for anything else — help, errors and every other command take
    the full parser."""
    import types

    values = {"home": None, "project": None, "max_bytes": None, "json": False}
    seen_command = False
    tokens = iter(argv)
    for token in tokens:
        name, eq, inline = token.partition("=")
        if token == "context" and not seen_command:
            seen_command = True
        elif token == "--json":
            values["json"] = True
        elif name in ("--home", "--project", "--max-bytes") and (name != "--max-bytes" or seen_command):
            value = inline if eq else next(tokens, None)
            if value is None or (not eq and value.startswith("-") and name != "--max-bytes"):
                return None
            if name == "--max-bytes":
                try:
                    value = int(value)
                except ValueError:
                    return None
            values[name[2:].replace("-", "_")] = value
        else:
            return None
    return types.SimpleNamespace(command="context", handler=cmd_context, **values) if seen_command else None


def build_parser(only: str | None = None):
    """The whole parser and its common options parser; with ``only``, just that
    core command (skips building forty subparsers and importing the adapters'
    command modules)."""
    import argparse

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print one JSON document on stdout")
    common.add_argument("--home", default=argparse.SUPPRESS, help="memdir home (default: MEMDIR_HOME, "
                        "$DSH_HOME/memory, or the platform data dir)")
    common.add_argument("--project", default=argparse.SUPPRESS,
                        help="project directory (default: MEMDIR_PROJECT or the working directory)")

    parser = argparse.ArgumentParser(
        prog="memdir", parents=[common],
        description="Long-term memory for LLM coding agents: Markdown memory files per layer "
                    "(the user, each project), a derived MEMORY.md index, and the context block "
                    "injected into the system prompt.",
        epilog="Run `memdir COMMAND --help` for a command's options. Errors exit 1, usage errors 2.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"memdir {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name, handler, help_text, **kw):
        if only is not None and name != only:
            return _IGNORED  # absorbs the options, registers nothing
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text, **kw)
        p.set_defaults(handler=handler)
        return p

    def scope_opt(p, help_text="user or project (default: where it is; new memories go to project)"):
        p.add_argument("--scope", choices=("user", "project"), help=help_text)

    p = add("write", cmd_write, "Create or update a memory (body from --body, --body-file or stdin).")
    p.add_argument("name", help="kebab-case name; other text is normalized (My Pref → my-pref)")
    p.add_argument("--description", "-d", required=True, help="one line, ≤ 160 characters")
    p.add_argument("--type", "-t", required=True, choices=("user", "feedback", "project", "reference"))
    p.add_argument("--body", "-b", help="Markdown body (≤ 2000 characters)")
    p.add_argument("--body-file", help="read the body from this file ('-' = stdin)")
    p.add_argument("--title", help="display title, any language (≤ 80 characters)")
    scope_opt(p)
    p.add_argument("--pinned", action=argparse.BooleanOptionalAction, default=None, help="pin (leads the index)")
    p.add_argument("--disabled", action=argparse.BooleanOptionalAction, default=None,
                   help="mute (kept and listed, left out of the index)")
    p.add_argument("--importance", type=int, help="1–10 (default by type: feedback 8, user 7, project 6, reference 4)")
    p.add_argument("--candidate", action="store_true", help="propose it for review instead of publishing")
    p.add_argument("--valid-from", help="ISO-8601 time the fact starts being true")
    p.add_argument("--valid-until", help="ISO-8601 time the fact stops being true")
    p.add_argument("--supersedes", help="name of the memory this one replaces")
    p.add_argument("--reason", help="why (kept in the journal)")

    p = add("read", cmd_read, "Print a memory (counts as a read).")
    p.add_argument("name")
    scope_opt(p)

    p = add("list", cmd_list, "List memories, user layer first, in index order.")
    scope_opt(p, "only this scope")
    p.add_argument("--all", action="store_true", help="also candidates, superseded and expired memories")
    p.add_argument("--as-of", help="what memdir believed at this time (rebuilt from the journal)")
    p.add_argument("--valid-at", help="what was true in the world at this time")

    for name, text in (("delete", "Delete a memory; its value is tombstoned and will not come back."),
                       ("forget", "The user says this is wrong: delete it and tombstone its value.")):
        p = add(name, cmd_delete, text)
        p.add_argument("name")
        scope_opt(p)
        p.add_argument("--reason", help="why (kept with the tombstone)")

    p = add("prune", cmd_prune, "Delete memories not updated for DAYS or more (dry run unless --apply).")
    p.add_argument("--older-than", type=int, required=True, metavar="DAYS", help="whole days since update (≥ 1)")
    p.add_argument("--apply", action="store_true", help="really delete (default: dry run)")
    scope_opt(p, "only this scope")

    p = add("clear", cmd_clear, "Delete every memory of a scope (tombstones stay).")
    p.add_argument("--scope", choices=("user", "project"), required=True)
    p.add_argument("--yes", action="store_true", help="confirm")

    p = add("context", cmd_context, "Print the context block injected into the system prompt.")
    p.add_argument("--max-bytes", type=int, help="UTF-8 byte budget (default 4096)")

    add("status", cmd_status, "Show home, project, layers, search mode and context size.")
    add("doctor", cmd_doctor, "Report malformed files, files read by the fallback, journal problems "
                              "(exit 1 when there is a problem).")
    p = add("verify", cmd_verify, "Check every layer's journal hash chain and version objects (exit 1 if bad).")
    p.add_argument("--repair", action="store_true",
                   help="first cut a torn last line (crash), journal hand edits and rebuild MEMORY.md")

    p = add("history", cmd_history, "List the versions of a memory (also a deleted one).")
    p.add_argument("name")
    scope_opt(p)
    p = add("show", cmd_show, "Print one version of a memory.")
    p.add_argument("name")
    p.add_argument("--version", type=int, required=True, help="version number from `memdir history`")
    scope_opt(p)
    p = add("restore", cmd_restore, "Write an old version back (a new journaled event).")
    p.add_argument("name")
    p.add_argument("--version", type=int, required=True)
    scope_opt(p)

    p = add("tombstones", cmd_tombstones, "List tombstones: values that were forgotten.")
    scope_opt(p, "only this scope")
    p = add("tombstone", cmd_tombstone, "Lift a tombstone so its value may be written again.")
    p.add_argument("action", choices=("lift",))
    p.add_argument("id", help="tombstone id (t-…) from `memdir tombstones`")
    p.add_argument("--reason")

    p = add("review", cmd_review, "List candidates waiting for a person's approval.")
    scope_opt(p, "only this scope")
    for name, text in (("approve", "Publish a candidate."), ("reject", "Reject a candidate (tombstones its value).")):
        p = add(name, cmd_approve, text)
        p.add_argument("name")
        scope_opt(p)
        p.add_argument("--reason")
    for name, text in (("pin", "Pin a memory."), ("unpin", "Unpin a memory."),
                       ("mute", "Mute a memory (out of the index, still listed)."), ("unmute", "Unmute a memory.")):
        p = add(name, cmd_flag, text)
        p.add_argument("name")
        scope_opt(p)

    if only is not None:
        return parser, common
    import importlib

    for module_name in EXTENSIONS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.register(add, common)
    return parser, common


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``memdir`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _fast_context_args(argv)
    parser = None
    if args is None:
        parser, _ = build_parser("context" if _command_of(argv) == "context" else None)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:
            return int(exc.code or 0)
    for name, default in (("home", None), ("project", None), ("json", False)):
        if not hasattr(args, name):
            setattr(args, name, default)
    if not getattr(args, "handler", None):
        build_parser()[0].print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except UsageError as exc:
        print(f"memdir: {exc}", file=sys.stderr)
        return 2
    except MemdirError as exc:
        print(f"memdir: {exc}", file=sys.stderr)
        if getattr(args, "json", False):  # scripts reading stdout get one JSON document too
            emit(args, {"error": str(exc), "kind": type(exc).__name__})
        return 1
    except KeyboardInterrupt:
        print("memdir: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
