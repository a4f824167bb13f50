"""Which extractor a consolidation run uses, and why (DESIGN §7).

Four extractors, all behind :class:`~memdir.consolidation.proposals.Extractor`:

* ``llm`` — an OpenAI-compatible model (:mod:`memdir.consolidation.extractors.llm`);
* ``command`` — the prompt through a command the person configured
  (:mod:`memdir.consolidation.extractors.command`);
* ``agent`` — no model call: the gate's findings wait as pending for the next
  session's agent (:mod:`memdir.consolidation.extractors.agent`);
* ``rules`` — offline rules (:mod:`memdir.consolidation.extractors.rules`).

``auto`` (the default of ``consolidation_extractor``) picks, in order: an API
key is set → ``llm``; ``extractor_command`` is set → ``command``; the
transcript was queued at a session's end or compaction by a hook (Claude Code's
SessionEnd and PreCompact, Gemini CLI's SessionEnd; not Codex's Stop, which
queues each turn: :mod:`memdir.consolidation.queue`) → ``agent`` (the agent that reads
the next session start is the model the person already pays for); else
``rules``. :func:`choose` says which and why; ``memdir doctor`` shows it.
"""

from __future__ import annotations

from ...errors import InvalidInput
from ..proposals import Extractor

NAMES = ("rules", "llm", "command", "agent")
CHOICES = ("auto",) + NAMES


def choose(settings, *, under_hooks: bool = False, environ=None) -> tuple[str, str]:
    """``(extractor, reason)`` for the ``consolidation_extractor`` setting.
    ``under_hooks``: a hook queued the transcript at a session's end or compaction. A reason that says no API
    key is set names the environment variables read (:func:`memdir.consolidation.extractors.llm.key_variables`),
    so the person knows which to set. Raises :class:`InvalidInput` for an unknown setting."""
    setting = (settings.consolidation_extractor or "auto").strip().lower()
    if setting not in CHOICES:
        raise InvalidInput(f"unknown extractor {setting!r} (expected {', '.join(CHOICES)})")
    from .llm import api_key, key_variables

    read = " or ".join(key_variables(settings))  # the variables the key is read from, as the person sets one

    if setting != "auto":
        why = f"consolidation_extractor = {setting}"
        if setting == "command" and not (settings.extractor_command or "").strip():
            why += ", but extractor_command is not set: consolidation fails until it is"
        if setting == "llm" and not api_key(settings, environ):
            why += (f", but no API key is set for {settings.llm_base_url} (set {read}):"
                    " consolidation fails until one is")
        return setting, why

    if api_key(settings, environ):
        return "llm", f"auto: an API key is set for {settings.llm_base_url}"
    if (settings.extractor_command or "").strip():
        return "command", "auto: extractor_command is set"
    if under_hooks:
        return "agent", "auto: the next session's agent saves"
    return "rules", f"auto: no API key ({read}), no extractor_command{NOT_AT_END}"


NOT_AT_END = ", not queued at a session's end by a hook"  # the last clause of auto's reason for rules


def describe(settings, environ=None) -> str:
    """What ``memdir doctor`` and ``status`` say of the extractor in effect: one line when every transcript gets
    the same; else two, each naming the transcripts it is for — run by hand (``memdir consolidate``) or queued by
    Codex's hook each turn, then (indented) queued by Claude Code's or Gemini CLI's hook at a session's end. Each
    line under about 140 characters (newuser36: the two in one line made a doctor line of 314); the first no longer
    says "not queued at a session's end" right above a second that begins "queued … at a session's end" (team40:
    read as two answers to one question)."""
    here, why = choose(settings, environ=environ)
    hooked, hooked_why = choose(settings, under_hooks=True, environ=environ)
    if hooked == here:
        return f"{here} ({why})"
    return (f"{here} by hand or for Codex's each-turn hook ({why.removesuffix(NOT_AT_END)})"
            f"\n  {hooked} at a session's end, queued by Claude Code's or Gemini CLI's hook ({hooked_why})")


def in_effect(settings) -> str:
    """:func:`describe`, or ``"none: <why>"`` when the setting names no extractor: what
    ``memdir status`` and ``memdir doctor`` (and ``memory_status``) show. Never raises."""
    try:
        return describe(settings)
    except InvalidInput as exc:
        return f"none: {exc}"


def resolve_extractor(spec, settings, *, under_hooks: bool = False) -> Extractor:
    """The extractor for ``spec``: an :class:`Extractor` object, one of
    :data:`NAMES`, or ``"auto"``/None (the setting, then :func:`choose`).
    Raises :class:`InvalidInput`."""
    if spec is not None and not isinstance(spec, str):
        if not isinstance(spec, Extractor):
            raise InvalidInput("extractor must have name, model and extract(transcript, context)")
        return spec
    choice = (spec or "auto").strip().lower()
    if choice == "auto":
        choice, _ = choose(settings, under_hooks=under_hooks)
    if choice == "rules":
        from .rules import RulesExtractor

        return RulesExtractor()
    if choice == "llm":
        from .llm import LLMExtractor

        return LLMExtractor(settings)
    if choice == "command":
        from .command import CommandExtractor

        return CommandExtractor(settings)
    if choice == "agent":
        from .agent import AgentExtractor

        return AgentExtractor()
    raise InvalidInput(f"unknown extractor {choice!r} (expected {', '.join(CHOICES)})")


__all__ = ["CHOICES", "NAMES", "choose", "describe", "in_effect", "resolve_extractor"]
