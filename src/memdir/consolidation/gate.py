"""The consolidation gate: is there anything durable in what the person said?

A deterministic, cheap check that runs before any model call (the idea of
deepseek-memory's gate, seed-behaviour §C; the cues echo the seed policy's
"what to persist" list, §A11). Only the person's own turns are read — never
the assistant's (except the one question a bare "yes" answers: ``confirmed``
below), never tool output. Each user turn is cleaned (code blocks,
quoted, indented and log lines removed), split into sentences, and a
sentence fires a rule when it holds one of these cues, English or Chinese (a request to
remember also in German, French, Spanish, Portuguese, Russian, Korean and Japanese):

=============  ==========================================================
rule           cues (examples)
=============  ==========================================================
remember       "remember that …", "keep in mind", "don't forget", "for
               future reference", "put this into CLAUDE.md/AGENTS.md/the
               memory", "write this down", "important: …", 记住, 别忘了,
               把这个写进 CLAUDE.md, 重要：…, "Merk dir: …", "Denk daran, dass …",
               기억해 주세요, 覚えておいて, "Retiens que …", "Recuerda que …",
               "Lembre-se de que …", "Запомни, что …"; a request pointing back at
               what the person said before it in the turn ("… Remember
               it.", "Keep that in mind.", "…, remember that"), whose hit
               quotes that (:func:`pointed_to`)
correction     "that's wrong", "you're confusing …", "not X but Y", "use X
               instead", "I meant", a value for the one it replaces ("on
               6543 now, not 5433"), 不对, 搞错, 不是…而是; never a denied
               one ("Nothing is wrong: …", 没有什么不对:
               :mod:`memdir.consolidation.denial`)
preference     "I prefer", "I'd rather", "I like/love/hate", "my favorite",
               我喜欢, 我更喜欢, 我习惯
rule           "always …", "never …", "from now on", "only ever", "every
               time you", 以后都, 总是, 永远不要, 不要再
decision       "we decided", "let's go with", "we're going with", 我们决定
deadline       "deadline", "due by", "by Friday", "freeze on 2026-12-01",
               截止, 之前完成
constraint     "must not", "not allowed", "we can't use", "has to stay",
               必须, 不允许, 禁止, 只能
personal       "I'm a …", "I work at/as", "I live in", "my name is", 我是, 我叫
schedule       a thing that recurs: "the staging database gets wiped every
               Sunday night", "our certs rotate monthly"
confirmed      a bare "yes, do that" to the assistant's question proposing
               a standing rule ("Should we pin Node 20 … from now on?"):
               the hit's sentence is the proposal as a statement
               (:func:`confirmed_suggestion`)
=============  ==========================================================

It is biased to under-trigger: questions, hedged or hypothetical sentences
("maybe", "would you", "if …") and lines the person pasted (code, quotes,
logs) never fire. ``mode``: ``off`` never fires, ``always`` always does,
``gated`` (the default) fires when at least one rule does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .denial import Undenied, denies_wrong
from .put_right import PUT_RIGHT as _PUT_RIGHT
from .said import Sentences, turn_number

_I = re.I
# "The db-port memory is wrong: dev postgres is on 5432 again", "The db port is wrong, it's 5432": what is wrong, then
# what is right (a fixed verb and word, then one separator: linear); retraction.wrong_and_right reads the two parts.
WRONG_AND_RIGHT = (r"\b(?:is|are|was|were) (?:wrong|incorrect|outdated|out of date|stale|no longer (?:true|right|correct))"
                   r"\s*(?:[:;,\u2014\u2013]|\s-)\s*(?=\w)")

# What a person pastes rather than says.
_FENCED = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTED_LINE = re.compile(r"^\s*(?:>|\$ |#!|\s{4}|\t).*$", re.M)
_LOG_LINE = re.compile(r"^.*(?:Traceback|Error:|Exception|^\s*at \S+\(|^\s*File \").*$", re.M)

# Sentence ends: Western punctuation followed by space/end, CJK punctuation, newlines.
_SPLIT = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
_LIST_MARKER = re.compile(r"^[-*•]\s+")  # "- Always run tests with -x." is the rule, not "- Always …"

_QUESTION_START = re.compile(
    r"^(?:what|why|how|when|where|which|who|whom|whose|can|could|would|will|should|shall|do|does|did|is|are|"
    r"was|were|have|has|any|(?:isn't|aren't|don't|doesn't)\s+(?:you|we|i|it|they|he|she|this|that|there)\b)\b", _I)
# (A "don't" that asks — "Don't you think …" — not one that tells: "Don't forget it!" is a request, trial28.)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|possibly|probably|i wonder|i guess|not sure|what if|if you want|would you|"
    r"could you|you could|you might|do you remember|i don't remember|i do not remember|i remember when)\b"
    r"|^\s*if\b|也许|可能|或许|要不要|是不是|吗[？?]?$", _I)

# Greetings and discourse words a person starts a sentence with before what they say ("hello Remember that …",
# "ok so remember we …"): the sentence still starts where they end (trial23: those two never fired).
_OPENERS = r"(?:(?:hi|hello|hey|ok(?:ay)?|so|oh|well|btw|fyi|anyway)\b[,.!]?\s+)*"

# Requests to remember in German (at the sentence's start or after "bitte"/a comma, followed by ":", "," or "dass"
# and what to keep, so "Ich denke daran" and "Merk dir das." alone fire nothing), Korean and Japanese (the
# imperative forms only: 기억해요, 覚えています say "I remember"). The rules extractor strips the same words.
REMEMBER_DE = (r"(?:(?:merk(?:e)?\s+(?:dir|euch)|merken\s+sie\s+sich|notier(?:e)?\s+(?:dir|euch))(?:\s+bitte)?"
               r"|(?:vergiss|vergesst|vergessen\s+sie)(?:\s+bitte)?\s+nicht"
               r"|(?:denk(?:e|t)?|denken\s+sie)(?:\s+bitte)?\s+(?:immer\s+)?daran)")
REMEMBER_KO_JA = (r"(?:기억해\s*(?:줘|주세요|둬|두세요|놔|놓으세요)|기억하세요|기억해\s*두십시오|잊지\s*마(?:세요|십시오|라)?"
                  r"|기억해라|기억하십시오|잊지\s*말아\s*(?:줘|주세요)|명심해\s*(?:줘|주세요|라)?(?=[\s:：,，.!。]|$)"
                  r"|메모해\s*(?:줘|주세요|둬|두세요)|覚えて(?:おいて|ください)(?:ください)?|覚えといて(?:ください)?|忘れないで(?:ください)?"
                  # the bare imperative 覚えて ending its clause ("覚えて：", "…、覚えてね。"), never 覚えている/覚えてる
                  r"|覚えて(?:ね|よ)?(?=[:：、,，。！!.]|$)|覚えておけ|記憶して(?:おいて|ください)"
                  r"|メモして(?:おいて|ください)(?:ください)?)")
# Requests to remember in French, Spanish, Portuguese and Russian (the imperative only: "je me souviens",
# "recuerdo", "eu lembro", "я помню" say "I remember"); like the German ones, at the sentence's start or after a
# comma or "and"/"please", followed by what to keep ("Retiens que …", "Recuerda: …", "Запомни, что …").
REMEMBER_FR_ES_PT_RU = (
    r"(?:retiens|retenez|souviens[- ]toi|souvenez[- ]vous|n['’]?\s*oubliez?\s+pas|gardez?\s+(?:en\s+t[êe]te|à\s+l['’]esprit)"
    r"|recuerd[ae]|acu[ée]rdate(?:\s+de)?|no\s+olvides?|ten(?:ga)?\s+en\s+cuenta"
    r"|lembre(?:-se)?(?:\s+de)?|lembra(?:-te)?(?:\s+de)?|n[ãa]o\s+(?:se\s+)?esque[çc]a(?:\s+de)?|tenha\s+em\s+mente"
    r"|запомни(?:те)?|не\s+забудь(?:те)?|имей(?:те)?\s+в\s+виду|учти(?:те)?)")
# The same requests pointing back at what was said before them: "Retiens-le.", "Recuérdalo.", "Lembre-se disso.",
# "Запомни это." (what a request alone in its sentence, or at the end of one after a comma, asks to keep).
REMEMBER_BACK_FR_ES_PT_RU = (
    r"(?:(?:retiens|retenez)[- ](?:le|la|les|ça|cela|bien)|n['’]?\s*oubliez?\s+pas\s+(?:ça|cela)"
    r"|recu[ée]rd(?:a|e)lo|no\s+lo\s+olvides?|lembre-se\s+disso|lembra-te\s+disso|n[ãa]o\s+(?:se\s+)?esque[çc]a\s+disso"
    r"|запомни(?:те)?\s+это|не\s+забудь(?:те)?\s+(?:это|об\s+этом))")
_REMEMBER_MORE = (r"(?:^|[,;:]\s*|\b(?:et|y|e|и|s['’]il\s+te\s+plaît|por\s+favor|пожалуйста)\s+)"
                  + REMEMBER_FR_ES_PT_RU + r"(?:\s*[:,]\s*|\s+)(?:(?:que|de\s+que|что)\s+)?"
                  r"(?!(?:ça|cela|lo|isso|disso|это|le|la)\s*[.!]*$)\w")
_REMEMBER_DE = (r"(?:^|[,;:]\s*|\b(?:bitte|und|auch|also|übrigens)\s+)" + REMEMBER_DE
                + r"(?:\s*[:,]\s*|\s+)(?:dass\s+)?(?!(?:das|es|dies|diese[ns]?)\s*[.!]*$)\w")
# The German request after what it asks to keep ("Der Port ist 6543, merk dir das"): from the first word of the
# clause before it. As one branch of the rule's expression it was quadratic (every word start of a long clause read
# the clause to its end: 0.4 s for 2,000 characters); :class:`_ClauseThenTail` finds the same match in one pass.
_DE_BACK_TAIL = r"[,;:]\s*(?:merk(?:e)?\s+(?:dir|euch)\s+(?:das|es)|vergiss\s+(?:das|es)\s+nicht)\b"
_WORD = re.compile(r"\w")
# "X is wrong: Y" not denied ("Nothing is wrong: …" is no correction): the correction rule's branch, and what
# :func:`memdir.consolidation.retraction.wrong_and_right` splits.
WRONG_AND_RIGHT_RULE = Undenied(re.compile(WRONG_AND_RIGHT, _I))


class _Alternation:
    """The expressions ``parts`` searched as one alternation ``part0|part1|…``: the leftmost match, the earlier
    part's at the same start (what :func:`re.search` of the joined expression returns). A part is a compiled
    expression or any object with such a ``search(text) -> re.Match | None``: a branch that one expression reads in
    quadratic time is searched its own way (:class:`_ClauseThenTail`, :class:`_FirstInLine`)."""

    __slots__ = ("parts", "pattern")

    def __init__(self, *parts):
        self.parts = parts
        self.pattern = "|".join(getattr(part, "pattern", "") for part in parts)

    def search(self, text: str) -> re.Match | None:
        """The match of the alternation in ``text`` (leftmost; the earlier part on a tie), or None."""
        best = None
        for part in self.parts:
            found = part.search(text)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return best


class _ClauseThenTail:
    """``\\w[^,;:]*`` + ``tail`` (an expression starting with one of ``,;:``) searched in linear time: the tails
    in order, each with the first word character after the separator before it; the match of the whole
    expression from there is the leftmost one (a later start in the same clause reaches the same tail)."""

    __slots__ = ("pattern", "tail", "whole")

    def __init__(self, tail: str, flags: int):
        self.tail = re.compile(tail, flags)
        self.pattern = r"\w[^,;:]*" + tail
        self.whole = re.compile(self.pattern, flags)

    def search(self, text: str) -> re.Match | None:
        """The leftmost match of ``\\w[^,;:]*tail`` in ``text``, or None."""
        low = 0
        for tail in self.tail.finditer(text):
            at = tail.start()
            begin = max(low, *(text.rfind(sep, low, at) + 1 for sep in ",;:"))
            word = _WORD.search(text, begin, at)
            if word is not None:
                return self.whole.match(text, word.start())
            low = at + 1
        return None


class _FirstInLine:
    """``first`` + ``.*`` + ``then`` searched in linear time: only the first ``first`` of each line is tried (a
    later one on the same line finds ``then`` after it only if the first one does), so a line of a thousand
    ``first`` without ``then`` is read once, not a thousand times. ``skip(text, at)``: a ``first`` at ``at`` it
    is true for is passed over (a denied "wrong": :func:`memdir.consolidation.denial.denies_wrong`), the next one
    of its line tried."""

    __slots__ = ("first", "pattern", "skip", "whole")

    def __init__(self, first: str, then: str, flags: int, skip=None):
        self.first = re.compile(first, flags)
        self.pattern = first + ".*" + then
        self.whole = re.compile(self.pattern, flags)
        self.skip = skip

    def search(self, text: str) -> re.Match | None:
        """The leftmost match of ``first.*then`` in ``text`` (its ``first`` not skipped), or None."""
        at = 0
        while (found := self.first.search(text, at)) is not None:
            if self.skip is not None and self.skip(text, found.start()):
                at = found.end()
                continue
            whole = self.whole.match(text, found.start())
            if whole is not None:
                return whole
            at = text.find("\n", found.end()) + 1
            if not at:
                return None
        return None


RULES: tuple[tuple[str, re.Pattern | _Alternation], ...] = (
    ("remember", _Alternation(re.compile(
        r"(?:^" + _OPENERS + r"|[,:;]\s*|\b(?:please|pls|plz|and|also|just)\s+)(?:remember|memori[sz]e|note)\b"
        r"(?:\s+(?:that|this|:)|\s*:)"
        r"|(?:^" + _OPENERS + r"|[,;:]\s*|\b(?:please|pls|and|also)\s+)remember\s+(?:to|my|our|the|we|i)\b"
        r"|\bkeep in mind\b|\bdon'?t forget\b|\bdo not forget\b|\bfor future reference\b"
        r"|\bmake a note\b|\bsave (?:this|that) (?:to|in) (?:your )?memory\b"
        r"|\b(?:put(?:ting)?|add(?:ing)?|writ(?:e|ing)|sav(?:e|ing)|record(?:ing)?|stor(?:e|ing)|keep(?:ing)?)\s+"
        r"(?:this|that|it|these|those)\b[^.;]{0,40}?"
        r"\b(?:in|into|to)\s+(?:the\s+|your\s+|our\s+)?(?:claude\.md|agents\.md|memory|memories)"
        r"|\b(?:add|write|put)\s+(?:to|in|into)\s+(?:the\s+|your\s+)?(?:claude\.md|agents\.md|memory)\s*[:：]"
        r"|\bwrite (?:this|that|it) down\b|^\**important\**\s*[:：]"
        r"|记住|记一下|记下来|别忘了|不要忘记|不要忘了|把.{0,12}(?:记|写|加|存)(?:到|进|入)|(?:写|记|加)(?:到|进|入)"
        r"(?:CLAUDE\.md|AGENTS\.md|记忆)|^重要[:：]"
        # German, Korean, Japanese (French, Spanish, Portuguese, Russian: _REMEMBER_MORE): an explicit request only ("Merk dir: …", "Denk daran, dass …", 기억해 주세요,
        # 覚えておいて); the German one needs what it asks to keep after it, so "Ich denke daran" stays a thought.
        r"|" + _REMEMBER_DE, _I), _ClauseThenTail(_DE_BACK_TAIL, _I), re.compile(REMEMBER_KO_JA + r"|" + _REMEMBER_MORE, _I))),
    ("correction", _Alternation(re.compile(
        r"\bthat'?s (?:wrong|not right|incorrect|not what i)|\bthat is (?:wrong|not right|incorrect)"
        r"|\byou'?re (?:confusing|mixing up|wrong)|\byou (?:misunderst(?:and|ood)|got it wrong)"
        r"|\bi (?:meant|said)\b|\bnot what i (?:asked|meant|said)\b|\b(?:use|it'?s|it is)\s+\S+(?:\s+\S+){0,4},?\s+not\s+\S+"
        # a value put right by the value it replaces: "listens on 6543 now, not 5433", "is 3.12, not 3.11"
        # (the value one run of such characters holding a digit, taken whole: "[\w.:/-]*\d[\w.:/-]*" tried every split
        # of it, quadratic in a long run)
        r"|(?<![\w.:/-])(?=[\w.:/-]*\d)[\w.:/-]*+(?:\s+now)?,?\s+not\s+[\w.:/-]*\d"
        r"|^(?:no[,.!]?\s+|actually,?\s+|please\s+|pls\s+)?(?:use|prefer|call|run|write|put|keep)\b.*"
        r"\b(?:instead of|rather than)\b|" + _PUT_RIGHT, _I),
        WRONG_AND_RIGHT_RULE, _FirstInLine(r"\bwrong\b", r"\bshould\b", _I, skip=denies_wrong),
        # (not after 没/没有/没什么, "not"/"nothing": 没有什么不对 "nothing is wrong", 你没搞错 "you got it right",
        # 没错了 "that's right": a denial, as "Nothing is wrong" is in English)
        re.compile(r"(?<!没)(?<!没有)(?<!没什么)(?<!没有什么)(?:不对|错了|搞错|弄错)|纠正|不是.{1,20}而是|应该是|应该用", _I))),
    ("preference", re.compile(
        r"\bi (?:really |much |strongly |do |also |still |just )?(?:prefer|like|love|enjoy|hate|dislike|can'?t stand)\b"
        r"(?!\s+(?:this|that|it|these|those|the way|your|how|what|them|when|where)\b)"
        r"|\bi'?d (?:rather|prefer)\b|\bi do(?:n'?t| not) (?:like|want|enjoy)\b|\bmy (?:favou?rite|preferred)\b"
        r"|\bi'?m (?:a (?:big )?fan of|into)\b"
        r"|我(?:更|比较|很|最|不)?(?:喜欢|偏好|习惯|讨厌)|我的偏好", _I)),
    ("rule", re.compile(
        r"(?:^|[,:;]\s*|\b(?:please|pls|and|you|we|should|must|now|so|also|then|but|just)\s+)(?:always|never(?!\s+mind\b))\s+"  # "Never mind, …": a take-back, no rule "never …" (take46)
        r"(?!been\b|had\b|heard\b|tried\b|seen\b|done\b|gone\b|thought\b|met\b|was\b|were\b|did\b|really\b"
        r"|educational\b|fun\b|good\b|nice\b|great\b|a\b|the\b)\w+"
        r"|\bfrom now on\b|\bgoing forward\b|\bin (?:the )?future\b|\bonly ever\b|\bevery time you\b"
        r"|\bwhenever you\b|\bdon'?t ever\b|\bdo not ever\b|\bas a rule\b"
        r"|^(?:please\s+)?(?:use|write|keep|put)\b[^.]{1,60}\b(?:in|for|on) (?:all|every|any)\b"
        r"|以后(?:都|请|要|不要|别)|总是|始终|永远不要|一律|每次都|不要再|别再", _I)),
    ("decision", re.compile(
        r"\bwe(?:'ve| have)? (?:decided|agreed|settled on|chose|picked)\b|\blet'?s (?:go with|use|stick with)\b"
        r"|\bwe(?:'re| are| will|'ll) (?:go(?:ing)? with|switch(?:ing)? to|moving to|stick(?:ing)? with)\b"
        r"|\bwe(?:'re| are| will|'ll) (?:mov|switch|migrat)(?:e|ing) (?:the |our )?\w+(?: \w+)? (?:to|over to)\b"
        r"|\bthe decision is\b|\bdecision:"
        r"|我们决定|决定(?:用|使用|采用)|就用|定下来|选定", _I)),
    ("deadline", re.compile(
        r"\bdeadline\b|\bdue (?:on|by|date)\b|\b(?:freeze|release|launch|ship|demo)s? (?:is |on |by )"
        r"(?:on |by )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next|\d{4}-\d\d-\d\d"
        r"|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
        r"|\bby (?:end of|eod|eow|monday|tuesday|wednesday|thursday|friday|\d{4}-\d\d-\d\d)"
        r"|截止|之前完成|前完成|之前上线|(?:下|本|这)周[一二三四五六日天]", _I)),
    ("constraint", re.compile(
        r"\bmust(?:n'?t| not| never| always| stay| remain)\b|\bnot allowed\b|\bis forbidden\b"
        r"|\bwe (?:can'?t|cannot|can not) use\b|\b(?:has|have) to (?:stay|be|run|use|remain)\b"
        r"|\bis required\b|\bare required\b|\bnever (?:commit|push|deploy|touch|edit|delete)\b"
        r"|必须|不允许|禁止|只能|不得", _I)),
    ("schedule", re.compile(
        r"^(?:(?:yeah|yes|ok(?:ay)?|so|and|also|oh|btw|fyi|note)\b[,.!:]?\s+)*(?:the|our)\s+"
        # …a thing of the work, not people or pets ("The kids play outside every day" is chatter).
        r"(?!(?:kids?|children|family|baby|boys|girls|dogs?|cats?|pets?|wife|husband|parents|friends|neighbou?rs)\b)"
        r"[^,.;!?]{1,60}?"
        r"(?:\b(?:every|each)\s+(?:other\s+)?(?:day|night|morning|evening|week|weekend|month|quarter|year|hour"
        r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\b(?:nightly|hourly|daily|weekly|monthly)\b"
        r"|\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days\b)", _I)),
    ("personal", re.compile(
        r"\bi'?m an? (?!bit\b|little\b|lot\b|few\b|second\b|moment\b)\w+|\bi am an? (?!bit\b|little\b)\w+"
        r"|\bi work (?:at|as|for|in|on)\b|\bi live in\b|\bmy name is\b|\bi'?m from\b|\bi am from\b"
        r"|\bmy (?:timezone|time zone|role|job|team|wife|husband|kids?|children|daughter|son|family|parents"
        r"|dog|cat|hobby|hobbies)\b"
        r"|\bi (?:have|own) (?:a|an|two|three|four|five|\d+|several|no) (?!question|problem|issue|idea|error|bug"
        r"|feeling|suggestion|request|thought|look|quick|few|couple|file|script|branch|draft|meeting|call|test"
        r"|change|fix|copy|version)\w+"
        r"|\bi (?:grew up|was born|studied|speak|drive|don'?t eat|do not eat|don'?t drink|don'?t own)\b"
        r"|\bi(?:'m| am) (?:in (?:high school|college|school|university|grad school)|married|single|retired"
        r"|divorced|vegan|vegetarian|allergic)\b|\bi (?:play|study) (?:the |in )?\w{3,}"
        r"|\bi go to (?:school|college|university|church|the gym)\b|\bi used to (?:be|work|live)\b"
        r"|^i(?:'m| am) (?:\d{1,2}|(?:almost|nearly|over|just|turning) \d{1,2})\b|\bjust turned \d{1,2}\b"
        r"|^i (?:also |really |still |usually |often |mostly |just |currently )?(?:work|live|grew up|teach|breed|raise"
        r"|volunteer|coach|instruct|collect|blog|travel|cook|bake|paint|sing|dance|hike|swim|fish|hunt|garden|knit"
        r"|surf|ski|ride|have been|immigrated|moved|go|went|love|like|enjoy|am into|'m into)\b"
        r"(?!\s+(?:this|that|it|its|it's|how|what|when|where|which|the way|your|you|them|these|those|here|there"
        r"|on (?:it|this|that)|to (?:it|this|that)"
        r"|with (?:it|this|that)|to see|to know|to hear|to try)\b)"
        r"|^my (?:mom|mother|dad|father|brother|sister|siblings|grand\w+|boyfriend|girlfriend|partner|fiance\w*"
        r"|best friend|friends?|favou?rite|job|hobby|hobbies|house|car|town|city|hometown|birthday)\b"
        r"|我是|我叫|我在.{1,12}(?:工作|上班|读书)|我的名字", _I)),
)
RULE_NAMES = tuple(name for name, _ in RULES) + ("confirmed",)

# A request to remember that points back at what the person just said: "… Remember it.", "Keep that in mind.",
# "Don't forget it." (trial28: "We use Vite 6 now, pnpm dev on 5173. Remember it." never fired), alone or ending the
# sentence it points to ("the port is 6543, remember that"); at the start or after a comma or "and" only.
_REQUEST_FILLER = r"(?:(?:please|pls|plz|just|also|so|and|now|ok(?:ay)?)[,]?\s+)"
_REQUEST_BODY = (
    r"(?:make sure (?:to|you)\s+|be sure to\s+)?"
    r"(?:(?:remember|memori[sz]e|note|don'?t forget|do not forget|never forget)\s+(?:it|this|that|these|those)"
    r"(?:\s+down)?|(?:write|jot|put) (?:it|this|that|these|those) down|keep (?:it|this|that|these|those) in mind"
    r"|make a note of (?:it|this|that)|note (?:it|this|that) down)"
    r"(?:\s+for (?:later|the future|next time|future reference|future sessions))?"
    r"(?:[,\s]+(?:please|pls|plz|ok(?:ay)?|thanks))?\s*[.!]*$")
# At most this many fillers ("please", "ok", "just" …) before a request ending a sentence: every separator reads
# them on to its end, so an unbounded run cost its square ("ok, ok, …": 0.06 s at 2,000 characters, 0.9 s at 8,000).
TAIL_FILLERS = 12
# (Openers and fillers are taken whole, possessive: no request starts with one of their words; every split was quadratic.)
_POINTS_BACK = re.compile(
    r"^" + _OPENERS + r"+(?P<request>" + _REQUEST_FILLER + "*+" + _REQUEST_BODY + r")"
    r"|^(?P<said>.*?\S)(?:\s*[,;:\u2014\u2013-]\s*(?:and\s+)?|\s+and\s+)(?P<tail>" + _REQUEST_FILLER
    + f"{{0,{TAIL_FILLERS}}}+" + _REQUEST_BODY + r")"
    r"|^(?P<zh>(?:请)?(?:记住|记下来|别忘了|不要忘了|不要忘记)(?:这一点|这点|这个|它)?[。！!]*"
    r"|(?:(?:이것을|이거|이걸|그것을|그걸|これを|それを|これは|それは)\s*)?" + REMEMBER_KO_JA + r"[.!。！]*"
    r"|(?:bitte\s+)?(?:merk(?:e)?\s+(?:dir|euch)\s+(?:das|es)|vergiss\s+(?:das|es)\s+nicht)(?:\s+bitte)?[.!]*"
    r"|" + REMEMBER_BACK_FR_ES_PT_RU + r"[.!]*)$", _I)
# What a request pointing back carries: at most this many sentences before it in the person's turn.
POINTED_SENTENCES = 3


def _request_part(sentence: str) -> str | None:
    """Which way ``sentence`` is a request pointing back: ``request`` (the whole sentence), ``tail`` (at the end
    of what it says) or None (no such request; a Chinese one counts as ``request``)."""
    match = _POINTS_BACK.match(sentence.strip())
    if not match:
        return None
    return "tail" if match.group("tail") else "request"


def pointed_to(said: list[str], i: int) -> list[str] | None:
    """What sentence ``i`` of a person's turn (``said``: :func:`sentences`) asks to remember when it points
    back ("We use Vite 6 now. Remember it.", "the port is 6543, remember that"): the words before the request
    in the same sentence when they say something (two content words or more), else the turn's sentences
    before it that do and are no question or hedge (at most :data:`POINTED_SENTENCES`, the last ones), in
    order. ``[]`` when it points back at nothing the person said in this turn; None when the sentence is no
    request pointing back (it says its fact itself, "Remember that we use Vite 6", or asks nothing)."""
    sentence = said[i].strip()
    match = _POINTS_BACK.match(sentence)
    if not match or is_question_or_hedge(sentence):
        return None
    from .extractors.wording import content_words

    own = match.group("said")
    if own and len(content_words(own)) >= 2 and not is_question_or_hedge(own):
        return [own.rstrip(" ,;:") + "."]
    return said_before(said, i)


def _carries(sentence: str) -> bool:
    """Whether a request pointing back carries ``sentence``: two content words or more, no question or hedge."""
    from .extractors.wording import content_words

    return len(content_words(sentence)) >= 2 and not is_question_or_hedge(sentence)


def said_before(said: list[str], i: int) -> list[str]:
    """The sentences of a person's turn (``said``) before sentence ``i`` that a request pointing back at them
    carries ("… Remember it.", "… Put this into CLAUDE.md."): those with two content words or more that are no
    question or hedge (:func:`_carries`), the last :data:`POINTED_SENTENCES` of them, in order. A
    :class:`~memdir.consolidation.said.Sentences` (what :func:`sentences` returns) is read once for all its
    calls (:meth:`~memdir.consolidation.said.Sentences.before`); another list, once for this call."""
    return (said if isinstance(said, Sentences) else Sentences(said)).before(i, _carries, POINTED_SENTENCES)

# The person's whole turn says yes, and nothing else: "yes, do that", "sure, go ahead", "好的".
_CONFIRMATION = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|agreed|exactly|please|pls|great|perfect|good idea|sounds good"
    r"|go ahead|do it|do that|do so|please do|let'?s do (?:it|that))[\s,.!]*){1,4}$"
    r"|^(?:是的?|好的?|可以|行|对)[。！!，, ]*(?:就这么办|照做吧?|去做吧|做吧)?[。！!]*$", _I)
# The assistant proposing something as a question: "Should we pin …?", "Do you want me to …?"
_PROPOSAL = re.compile(r"^(?:(?:so|then),?\s+)?(?:should|shall) (?:we|i)\s+|^(?:do you want|would you like) (?:me|us) to\s+"
                       r"|^want me to\s+", _I)


def confirmed_suggestion(transcript, index: int) -> str | None:
    """The standing rule the person confirmed, or None. Turn ``index`` of
    ``transcript`` must be the person's and say only yes ("yes, do that",
    "sure, go ahead", 好的); the turn before it the assistant's, whose last
    question proposes something ("Should we pin Node 20 in .nvmrc for every
    environment from now on?") that fires a standing rule (rule, constraint
    or decision) once put as a statement — that statement is returned ("Pin
    Node 20 in .nvmrc for every environment from now on."). A yes to a
    one-off step ("Should I rerun the tests?") confirms nothing durable."""
    turn = transcript.turns[index]
    if turn.role != "user" or index == 0 or transcript.turns[index - 1].role != "assistant":
        return None
    if not _CONFIRMATION.match(re.sub(r"\s+", " ", clean_user_text(turn.text)).strip()):
        return None
    asked = [s for s in _SPLIT.split(transcript.turns[index - 1].text) if s.strip().endswith("?")]
    if not asked:
        return None
    question = re.sub(r"\s+", " ", asked[-1]).strip()
    lead = _PROPOSAL.match(question)
    if not lead:
        return None
    statement = question[lead.end():].rstrip("? ").strip()
    statement = statement[:1].upper() + statement[1:] + "."
    rules = {rule for rule, _ in sentence_rules(statement)}
    return statement if rules & {"rule", "constraint", "decision"} else None


@dataclass(frozen=True)
class GateHit:
    """One sentence of one user turn that fired one rule.

    ``turn`` indexes :attr:`memdir.consolidation.transcripts.Transcript.turns` (``to_dict`` gives its
    :func:`~memdir.consolidation.said.turn_number`); ``sentence`` is the cleaned sentence; ``cue`` the text matched.
    """

    rule: str
    turn: int
    sentence: str
    cue: str

    def to_dict(self) -> dict:
        return {"rule": self.rule, "turn": turn_number(self.turn), "sentence": self.sentence, "cue": self.cue}


@dataclass(frozen=True)
class GateResult:
    """The gate's decision: ``fire`` is whether consolidation goes on;
    ``hits`` the sentences that fired (in turn order); ``mode`` as configured."""

    fire: bool
    mode: str
    hits: tuple[GateHit, ...] = field(default_factory=tuple)
    withdrawn: tuple = field(default_factory=tuple)  # the person's retractions that cancelled a request

    @property
    def rules(self) -> list[str]:
        """The distinct rules that fired, in :data:`RULE_NAMES` order."""
        seen = {h.rule for h in self.hits}
        return [r for r in RULE_NAMES if r in seen]

    def to_dict(self) -> dict:
        out = {"fire": self.fire, "mode": self.mode, "rules": self.rules, "hits": [h.to_dict() for h in self.hits]}
        if self.withdrawn:
            out["withdrawn"] = [w.to_dict() for w in self.withdrawn]
        return out


def clean_user_text(text: str) -> str:
    """The person's own words: fenced code, quoted, indented and log-looking
    lines removed (they are pasted, not said); inline code loses its backticks."""
    text = _FENCED.sub(" ", text)
    text = _QUOTED_LINE.sub(" ", text)
    text = _LOG_LINE.sub(" ", text)
    return _INLINE_CODE.sub(lambda m: m.group(0).strip("`"), text)


def sentences(text: str) -> Sentences:
    """Sentences of cleaned user text, whitespace collapsed, a list item's
    marker (``- ``, ``* ``, ``• ``) dropped, empties dropped: a :class:`Sentences` (a list of str)."""
    out = Sentences()
    for part in _SPLIT.split(clean_user_text(text)):
        part = _LIST_MARKER.sub("", re.sub(r"\s+", " ", part).strip())
        if len(part) >= 4 or (part and not part.isascii() and len(part) >= 2):
            out.append(part)
    return out


def is_question_or_hedge(sentence: str) -> bool:
    """True for a question or a hedged/hypothetical sentence (never fires)."""
    s = sentence.strip()
    return s.endswith(("?", "？")) or bool(_QUESTION_START.match(s)) or bool(_HEDGE.search(s))


def sentence_rules(sentence: str) -> list[tuple[str, str]]:
    """``(rule, cue)`` for every rule this sentence fires (empty for a
    question or a hedge, and for a request pointing back alone, "Remember
    it.": it says nothing by itself — :func:`said_rules` reads it with the
    turn)."""
    if is_question_or_hedge(sentence) or _request_part(sentence) == "request":
        return []
    hits = []
    for name, pattern in RULES:
        match = pattern.search(sentence)
        if match:
            hits.append((name, match.group(0)))
    return hits


def said_rules(said: list[str], i: int) -> list[tuple[str, str]]:
    """``(rule, cue)`` for sentence ``i`` of a person's turn (``said``: :func:`sentences`):
    :func:`sentence_rules`, and ``("remember", the request)`` for a request that points back at what the
    turn said (:func:`pointed_to`); a request pointing back at nothing fires nothing."""
    found = sentence_rules(said[i])
    if pointed_to(said, i) and not any(rule == "remember" for rule, _ in found):
        found = [("remember", said[i])] + found
    return found


def check(transcript, mode: str = "gated", withdrawals=None) -> GateResult:
    """Run the gate over ``transcript`` (a :class:`~memdir.consolidation.transcripts.Transcript`).

    Returns every hit whatever the mode (``--explain`` shows them); ``fire``
    follows ``mode``: ``off`` → False, ``always`` → True, ``gated`` → any hit.
    ``withdrawals``: what the person took back (:func:`memdir.consolidation.retraction.withdrawn`); the
    sentences it cancels and the retractions fire nothing, a take-back with what replaces it ("Scratch that, we
    deploy on Thursdays.") is read as the sentence it in effect says ("Remember: we deploy on Thursdays."), a
    correction held for a person (:meth:`memdir.consolidation.retraction.Withdrawals.holds`) is a ``remember`` hit
    of its text, and the result's ``withdrawn`` lists the retractions that cancelled a request (None: nothing taken
    back).
    """
    if mode not in ("off", "gated", "always"):
        from ..errors import InvalidInput

        raise InvalidInput(f"consolidation mode must be off, gated or always (got {mode!r})")
    hits: list[GateHit] = []
    for index, turn in transcript.user_turns():
        confirmed = confirmed_suggestion(transcript, index)
        if confirmed is not None and (withdrawals is None or index not in withdrawals.confirmations):
            hits.append(GateHit("confirmed", index, confirmed, turn.text.strip()))
        skip = withdrawals.skip(index) if withdrawals is not None else ()
        replace = withdrawals.replacements(index) if withdrawals is not None else None
        for sentence, found in said_hits(turn.text, skip=skip, replace=replace):
            hits.extend(GateHit(rule, index, sentence, cue) for rule, cue in found)
        for at, text in withdrawals.holds() if withdrawals is not None else ():
            if at == index:  # a value put right, which one not clear: held for a person, still worth the run
                hits.append(GateHit("remember", index, text, "held: which value is put right is not clear"))
    fire = mode == "always" or (mode == "gated" and bool(hits))
    return GateResult(fire, mode, tuple(hits), tuple(withdrawals.cancelled()) if withdrawals is not None else ())


# Words without which no sentence fires "remember" (each of its cues holds one, in lower case): a quick look before
# the rules, so the middle of a long paste is read for requests at the cost of a few substring searches
# (transcripts.cutting; one regular expression of them took 3 s a megabyte).
REQUEST_WORDS = ("remember", "memor", "note", "mind", "forget", "future reference", "claude.md", "agents.md",
                 "write", "down", "important", "记", "忘", "写", "把", "重要", "merk", "notier", "vergiss", "vergess",
                 "denk", "기억", "잊지", "메모", "명심", "覚え", "忘れ", "メモ", "記憶", "retien", "souv", "oubli", "garde",
                 "recuerd", "recuérd", "acuerd", "acuérd", "olvid", "cuenta", "lembr", "esqueç", "esquec", "mente",
                 "запомн", "забуд", "виду", "учти")


REQUEST_READS = 200
"""Sentences holding a request's word that :func:`said_hits` reads for requests at most."""


def _may_request(text: str) -> bool:
    """Whether ``text`` holds one of :data:`REQUEST_WORDS` (so it may fire "remember")."""
    low = text.lower()
    return any(word in low for word in REQUEST_WORDS)


def said_hits(text: str, *, requests: int | None = None, skip=(),
              replace: dict | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(sentence, [(rule, cue), …])`` for each sentence of a person's message ``text`` that fires a rule, in
    order (:func:`said_rules`): the sentence cleaned (:func:`sentences`) and, for a request pointing back at
    what the message said before it ("… Remember it."), those sentences before it — what the hit quotes, and
    what a cut message keeps of its middle (:func:`memdir.consolidation.transcripts.cutting.cut_message`).
    ``requests``: only requests to remember, of sentences at most that many characters long (a longer one is
    not read: the rules' cost grows faster than a sentence's length, and a pasted line can be megabytes) that
    hold one of :data:`REQUEST_WORDS`, the first :data:`REQUEST_READS` of those. ``skip``: indexes of the
    message's sentences (:func:`sentences`) that fire nothing (taken back: :mod:`memdir.consolidation.retraction`);
    ``replace``: ``{index: sentence}`` read in those sentences' place (a take-back with what replaces it)."""
    if requests is not None and not _may_request(text):
        return []  # a paste holding no request's word: not split into sentences at all
    said = sentences(text)
    for i, instead in (replace or {}).items():
        if i < len(said):
            said[i] = instead
    out = []
    read = 0
    for i, sentence in enumerate(said):
        if i in skip:
            continue
        if requests is not None and (len(sentence) > requests or not _may_request(sentence)):
            continue
        read += 1
        if requests is not None and read > REQUEST_READS:
            break  # a paste of thousands of such sentences: the first ones are read, the cost stays bounded
        found = said_rules(said, i)
        if requests is not None:
            found = [hit for hit in found if hit[0] == "remember"]
        if not found:
            continue
        before = pointed_to(said, i)
        if before and _request_part(sentence) != "tail":  # "… Remember it.": the hit quotes what it points to
            sentence = " ".join(before + [sentence])
        out.append((sentence, found))
    return out


__all__ = ["GateHit", "GateResult", "RULES", "RULE_NAMES", "WRONG_AND_RIGHT_RULE", "check", "clean_user_text",
           "confirmed_suggestion", "is_question_or_hedge", "pointed_to", "said_before", "said_hits",
           "said_rules", "sentence_rules", "Sentences", "sentences"]
