"""A denied "wrong": "Nothing is wrong: the tests pass", "There is nothing wrong with the config, it should work"
say nothing is to be put right, so the gate's correction rule (:mod:`memdir.consolidation.gate`) and what it
reads as right (:func:`memdir.consolidation.retraction.wrong_and_right`) pass them over (left44b: the rule fired
on them, and the agent extractor kept "Nothing is wrong: …" as a pending finding). One rule, read by both.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# Words that deny a "wrong" as its clause's subject: "Nothing is wrong: the tests pass", "Nothing's wrong, …", "There
# is nothing wrong with the config, it should work", "None of it was wrong" say nothing is to be put right: no
# correction (left44b: the rule fired on them, and the agent extractor kept "Nothing is wrong: …" as a finding).
# Not :data:`memdir.text.words.NEGATIONS`: that list is of the tokens the word matchers' tokenizers give ("t" for
# "n't"; "wrong", "false", "stop", "avoid" among them), any of which turns a restated fact around wherever it
# stands; these are the few words that, opening the clause, deny the whole of it ("The flag not to use is wrong: …"
# holds "not" and corrects; "no-one" as a person writes it, one word).
DENIED = frozenset({"nothing", "none", "neither", "nor", "nobody", "no-one", "noone", "no", "not", "never"})
# The words a denial may open its clause with before its subject ("Honestly, nothing …", "there's nothing …").
_DENIAL = re.compile(r"(?:(?:actually|well|oh|ok(?:ay)?|but|and|so|yes|yeah|honestly|really|i think|i guess)\s+)*+"
                     r"(?:there(?:'s|’s|\s+(?:is|was|are|were))\s+)?(?P<word>[\w'’-]+)", _I)
# Where the clause of a "wrong" starts: after the last of these before it.
_CLAUSE_ENDS = ",;:.!?()—–，、；：。！？"
# How far before its "wrong" a denying subject is looked for: a clause opening further back is no subject's.
DENIAL_REACH = 80
# A positive directive in the clause after a denial's: "There is nothing wrong with using pnpm, it should be the
# default." asks for something (hand-45r: the preference was lost); "…, it should work", "…, it should be fine",
# "…, carry on" ask nothing. Read in the next DIRECTIVE_REACH characters after the "wrong" only.
_DIRECTIVE = re.compile(
    r"[^,;:.!?\u2014\u2013]*[,;:\u2014\u2013]\s*(?:(?:and|so|but|then|just)\s+)?"
    r"(?:(?:it|that|this|we|you|they)\s+should\s+(?:be|use|become|stay|remain|always|never|default)\b"
    r"(?!\s+(?:fine|ok|okay|good|alright|working|able|enough|done|green|passing|ready|there|correct|right|true)\b)"
    r"|(?:please\s+)?(?:use|prefer|switch to|make it|always|never)\s+\w)", re.IGNORECASE)
DIRECTIVE_REACH = 160


def denies_wrong(text: str, at: int) -> bool:
    """Whether the "wrong" of ``text`` at index ``at`` (where "is wrong" or "wrong" starts) is denied, not said:
    its clause (after the last of ``, ; : . ! ? ( ) — –`` before it, at most :data:`DENIAL_REACH` characters back)
    opens with one of :data:`DENIED` ("Nothing is wrong: …", "No part of it was wrong, …", "There's nothing wrong
    with …", "nothing's wrong"), after "actually", "honestly", "there is" and such; not when the next clause
    directs ("There is nothing wrong with using pnpm, it should be the default.", "…, use pnpm": that is asked,
    :data:`_DIRECTIVE`). Reads at most :data:`DENIAL_REACH` characters before and :data:`DIRECTIVE_REACH` after:
    constant time, so a rule may ask it at every "wrong" of a long text."""
    low = max(0, at - DENIAL_REACH)
    start = max(text.rfind(end, low, at) for end in _CLAUSE_ENDS) + 1
    if start == 0 and low > 0:
        return False  # no clause start within reach: a subject that long is no denying word
    found = _DENIAL.match(text[start:at].lstrip())
    if found is None:
        return False
    word = found.group("word").lower().replace("’", "'")
    if word.removesuffix("'s") not in DENIED:
        return False
    return _DIRECTIVE.match(text, at, min(len(text), at + DIRECTIVE_REACH)) is None


class Undenied:
    """``rule`` (compiled; its match starting at the "wrong" it reads, or at the "is" before it) searched for its
    leftmost match that :func:`denies_wrong` does not deny: "Nothing is wrong: …" is no correction, "The port is
    wrong: …" is. Linear: each search goes on past the last denied match, each denial costs at most
    :data:`DENIAL_REACH`."""

    __slots__ = ("pattern", "rule")

    def __init__(self, rule: re.Pattern):
        self.rule, self.pattern = rule, rule.pattern

    def search(self, text: str, pos: int = 0) -> re.Match | None:
        """The leftmost undenied match in ``text`` from ``pos``, or None."""
        while (found := self.rule.search(text, pos)) is not None:
            if not denies_wrong(text, found.start()):
                return found
            pos = found.start() + 1
        return None


__all__ = ["DENIAL_REACH", "DENIED", "DIRECTIVE_REACH", "Undenied", "denies_wrong"]
