"""Function words and negations: the one list every matcher of words starts from.

A *function word* carries grammar, not a fact: ``the``, ``is``, ``of``,
``we``, ``should``. Each matcher of memdir drops them before it compares
words — search from a query (:mod:`memdir.search.tokenize`), a tombstone's
comparison of a reworded fact (:mod:`memdir.tombstones.match`), a pending
finding's coverage (:mod:`memdir.prompt.pending`), consolidation's subject
match and a memory's name (:mod:`memdir.consolidation.extractors.subjects`,
:mod:`memdir.consolidation.extractors.wording`). Each starts from
:data:`FUNCTION_WORDS` and states, by a named set beside it, what it drops
or counts beyond it and why.

Words are lower-case ASCII as the matchers' tokenizers give them; none of
those tokenizers keeps an apostrophe, so a contraction is two words (``don't``
→ ``don`` + ``t``). English only: CJK text is compared by its characters or
bigrams, and no matcher drops a CJK function character; the Chinese words
are in :data:`NEGATIONS`.

This module is on the hooks' hot path (:mod:`memdir.prompt.pending` imports
it at every session start): frozenset literals only, nothing compiled.
"""

from __future__ import annotations

# The closed classes of English, at their most common: articles; the forms of be, do and have; the
# modals; the personal pronouns and their possessives; the demonstratives; the question words; all, any,
# no, not; the commonest conjunctions and prepositions; and the adverbs that add no fact of their own.
FUNCTION_WORDS = frozenset("""
a an the
am is are was were be been being do does did have has had
can could will would should may might must shall
i me my we us our you your he she it its they them his her their
this that these those
what when where which who why how
all any no not
and or but so than as
to of in on at by for with from into about
here there then just very also really
""".split())

# Words that turn a fact into its opposite or its correction: a restated forgotten fact after one of them
# ("Do not use pnpm …", "It is wrong that …") is a correction, not the fact (DESIGN §5). "t" is what is
# left of "don't", "can't" and "isn't"; the last line is Chinese and Japanese (不 没 别 勿 非 无 未 错).
NEGATIONS = frozenset("""
not no never nor t cannot without stop stopped avoid neither none nobody nothing nowhere
wrong false incorrect untrue outdated obsolete mistaken
不 没 別 别 勿 非 无 無 未 错
""".split())

# What a person says to keep a chat going, not what it is about: please (and its short forms), ok, yes.
CHAT_WORDS = frozenset("please pls plz ok okay yes".split())

__all__ = ["CHAT_WORDS", "FUNCTION_WORDS", "NEGATIONS"]
