"""The agent extractor: no model call of its own — the next session's agent saves (DESIGN §7).

At session end the gate's findings — the person's own sentences that fired
it, already redacted, at most :data:`MAX_FINDINGS` — are returned as
``pending``; the run keeps them in the project layer
(:mod:`memdir.prompt.pending`) and the next session start of that project
shows them in a fenced block asking the agent to save what is durable with
``memory_write``. Nothing is written as a memory here, so nothing enters the
index; what the agent then writes goes through the gateway and its
tombstones like any write.

Which sentences: an explicit request to write something down gives its
content (:func:`memdir.consolidation.extractors.rules.write_down`); instructions about
this session's files and steps are left out; what the workspace's
AGENTS.md/CLAUDE.md already says is left out, and the run leaves out what an existing
memory already says (the one rule of both: :mod:`memdir.consolidation.restating`). When more
than :data:`MAX_FINDINGS` remain, the strongest rules win (remember, then
correction, confirmed, rule, preference, constraint, decision, deadline,
schedule, personal), in transcript order. A bare yes to the assistant's
proposal of a standing rule gives the proposal as a statement
(:func:`memdir.consolidation.gate.confirmed_suggestion`). What the person took
back later in the session ("Scratch that.", "Don't save it.":
:mod:`memdir.consolidation.retraction`) gives no finding.
"""

from __future__ import annotations

from ..gate import confirmed_suggestion, said_rules, sentences
from ..proposals import ExtractionContext, ExtractionResult
from ..restating import in_workspace
from ..retraction import withdrawn
from ..said import turn_number
from .rules import is_task_only, secret_value_only, strip_filler, write_down
from .wording import content_words

MAX_FINDINGS = 3
PRIORITY = ("remember", "correction", "confirmed", "rule", "preference", "constraint", "decision", "deadline",
            "schedule", "personal")


class AgentExtractor:
    """The agent :class:`~memdir.consolidation.proposals.Extractor` (``name =
    "agent"``): no proposals, ``pending`` findings ``(rule, text, date said)``."""

    name = "agent"
    model = None

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult:
        found: list[tuple] = []  # (priority, order, rule, text, date said)
        notes: list[str] = []
        order = 0
        withdrawals = withdrawn(transcript)  # what the person took back: no finding ("Scratch that.")
        for index, turn in transcript.user_turns():
            said = sentences(turn.text)
            confirmed = confirmed_suggestion(transcript, index)
            if confirmed is not None:  # a bare yes to the assistant's proposal: the proposal is the finding
                said = [] if is_task_only(confirmed) or index in withdrawals.confirmations else [confirmed]
            skip = () if confirmed is not None else withdrawals.skip(index)
            if confirmed is None:
                for i, instead in withdrawals.replacements(index).items():
                    said[i] = instead  # "Scratch that, we deploy on Thursdays.": its replacement as a request
            for i, sentence in enumerate(said):
                if i in skip:
                    continue
                rules = ["confirmed"] if confirmed else [rule for rule, _ in said_rules(said, i)]
                if not rules:
                    continue
                text = write_down(said, i) if not confirmed else None
                if text is None:
                    if is_task_only(sentence):
                        notes.append(f"turn {turn_number(index)}: about this session only: {sentence[:80]}")
                        continue
                    text = strip_filler(sentence)
                if secret_value_only(text):  # a redacted secret: nothing to save, and it took a real finding's place
                    notes.append(f"turn {turn_number(index)}: a secret's value, redacted: not kept")
                    continue
                words = content_words(text)
                if not words or any(text in f[3] for f in found):
                    continue
                # what a memory says already is the run's to leave out, by the same rule (applying.saying), with
                # the memory named in its note
                if in_workspace(text, context.workspace_text):
                    notes.append(f"turn {turn_number(index)}: already in AGENTS.md/CLAUDE.md: {text[:80]}")
                    continue
                rule = min(rules, key=PRIORITY.index)
                inside = [f for f in found if f[3] in text]  # an earlier finding this one quotes in full
                found = [f for f in found if f not in inside]
                rank = min([PRIORITY.index(rule)] + [f[0] for f in inside])
                said_on = turn.ts.strftime("%Y-%m-%d") if turn.ts else None
                found.append((rank, inside[0][1] if inside else order, PRIORITY[rank], text, said_on))
                order += 1
            for at, text in withdrawals.holds():  # a correction whose value is not clear: the person is asked
                if at == index:
                    found.append((PRIORITY.index("remember"), order, "remember", text,
                                  turn.ts.strftime("%Y-%m-%d") if turn.ts else None))
                    order += 1
        chosen = sorted(sorted(found)[:MAX_FINDINGS], key=lambda f: f[1])
        if len(found) > MAX_FINDINGS:
            notes.append(f"{len(found) - MAX_FINDINGS} weaker finding(s) left out (at most {MAX_FINDINGS})")
        return ExtractionResult([], notes=notes, pending=[(rule, text, said) for _, _, rule, text, said in chosen])


__all__ = ["AgentExtractor", "MAX_FINDINGS"]
