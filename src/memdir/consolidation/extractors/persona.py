"""First-person statements about the person's life, for the offline extractor.

MSC-style persona facts ("I breed horses", "I'm half-Irish", "My mom is a
nurse") are kept as ``user`` memories by :mod:`memdir.consolidation.extractors.rules`.
This module says which first-person sentences are such statements and which
are not, by kind:

* :func:`is_life_statement` — starts with the person (I, I'm, my, …); not talk
  about this conversation or this session's work ("I see", "I ran the
  tests", "the build"); not the moment or an anecdote ("I'm getting ready",
  "I once drove", "today"); not ending by pointing back at what was said
  before ("I grew up there");
* :func:`is_passing` — a feeling of the moment ("I'm a little stressed
  actually", "I am so done with winter", "I am pretty tired"), a
  hypothetical, a guess or hearsay ("I wish I were a student", "I may send
  them a card", "I dunno if …", "I'll bet …", "I'll have to see …", "I hope
  to …", "I don't think …", "I hear they have …") or what the person is doing
  right now ("I'm just taking a break", "I was going into …"): true now or
  maybe, not a fact to keep;
* :func:`points_back` — says nothing alone because what it is about was said
  before ("I love him!", "I enjoy both.", "It's my favorite activity", "My
  mother did the same"); :func:`is_fragment` — a noun phrase with no verb
  ("My best friend.");
* :func:`refers_back` — about a pronoun that stands for something said
  before it ("I enjoy learning them", "He is my favorite artist"): the
  extractor joins it to the sentence before it, or keeps nothing;
* :func:`after_passing` — a passing first clause followed by a fact ("I may
  not have finished college but I love to read", "I'm so excited, I love
  concerts") → the fact;
* :func:`without_subject` — a statement with "I" left out, as people write
  in chat ("Grew up in Tallahassee", "Love sports, specifically tennis");
* :func:`own_clause` — a statement after a short lead-in that is not part of
  it ("Luckily I spend most of my time at work", "That is cool, I am a
  struggling artist", "No, I used to be a vet") → the statement.

Pure functions over one sentence (whitespace already collapsed, curly
apostrophes straightened by the caller); English only — a Chinese sentence
is never one of these kinds. The kinds were fitted on the even-numbered
dialogues of MSC and checked on the odd ones (``evals/extraction.py``).
"""

from __future__ import annotations

import re

from .wording import capital

_I = re.I

FIRST_PERSON = re.compile(r"^(?:i|i'm|im|i've|i'd|my)\b", _I)
_NOT_A_FACT = re.compile(
    r"^(?:i|i'm|i am|i've|i'd|i was|my)\s+(?:(?:really|just|also|so|very|too|still|totally|actually)\s+)*"
    r"(?:hope|think|thought|guess|know|see|saw|understand|mean|agree|wish|wonder|feel|felt|believe|bet|suppose"
    r"|am sorry|sorry|glad|happy|excited|jealous|curious|afraid|good|great|well|fine|ok|okay|doing|not sure|sure"
    r"|can'?t wait|could|would|will|should|can|might|must|need to|want to|wanted to|have to|had to|'ll|'d like"
    r"|forgot|remember|ran|pushed|changed|updated|added|fixed|tried|got|made|did|do|does|used|installed"
    r"|deleted|merged|opened|created|checked|looked|found|noticed|read|wrote|asked|said|told|meant|love it"
    r"|hate it|like it|like that|love that|agree|disagree|understood|misunderstood|heard|was wondering"
    r"|was thinking|going to|gonna|about to|on it|here|back|new here|bored|tired|well thanks|doing well"
    r"|haven'?t|have not|don'?t know|do not know|didn'?t|did not|question|answer)\b"
    r"|\b(?:you|your|yours|u)\b|\b(?:the|this|that) (?:code|test|tests|file|files|branch|fix|bug|build|repo|pr"
    r"|commit|error|output|script|function|query)\b"
    # the moment or an anecdote, not a standing fact: "I'm getting ready", "I once drove", "when I was"
    r"|^(?:i'?m|im|i am)\s+(?:\w+ly\s+)?(?!working\b|living\b|studying\b|majoring\b)\w+ing\b"
    r"|\b(?:once|today|tonight|right now|at the moment|this (?:morning|week|weekend)|yesterday|when i was)\b", _I)
# Ends by pointing back at something said before ("I grew up there", "I have two of them"): no fact alone.
_POINTS_BACK = re.compile(r"\b(?:it|there|that|them|those|this|one|ones|too|either|as well)\W*$", _I)

# A feeling of the moment: "I'm a little stressed actually", "I am so done with winter" (not "tired of X",
# which is a standing complaint).
_MOOD = re.compile(
    r"^(?:i'?m|im|i am)\s+(?:(?:a little|a bit|so|pretty|very|really|just|kind of|kinda|totally|sooo?)\s+)?"
    r"(?:tired|stressed|worried|jealous|glad|fed up|done with|sad|bored|excited|nervous|upset|angry|sick|hungry"
    r"|exhausted|thrilled|bummed|curious|confused|great|good|fine|ok|okay|doing)\b(?!\s+(?:of|at|with)\b)", _I)
# A hypothetical, a guess or hearsay: "I wish I were …", "I may …", "I dunno if …", "I'll bet …", "I'll have to
# see …", "I hope to …", "I figure it would …", "I don't think …", "I hear they have …", "I think I will …".
# ("I wish you would …" asks for something: not this kind.)
_HYPOTHETICAL = re.compile(
    r"^(?:i|i'?m|im)\s+(?:\w+\s+)?(?:wish(?!\s+(?:you|u)\b)|dunno|bet|suppose|may|might|hope|figured?|reckon"
    r"|hear(?:d)? (?:that|they|it|there|about|of|good)|(?:don'?t|do not) think|think i(?:'ll| will| would|'d)"
    r"|understand(?: that)?,)"
    r"|^i'?ll (?:bet|have to (?:see|look|try|check|think))\b|^i'?d like to think\b", _I)
# What the person is doing at the moment: "I'm just taking a break", "I'm still packing", "I was going into …".
# ("I'm still living with my parents", "I'm still working at the mill" are standing facts: not this kind.)
_DOING_NOW = re.compile(r"^(?:i'?m|im|i am)\s+(?:just|still|busy|now)\s+(?!living\b|working\b|studying\b|majoring\b)"
                        r"\w+ing\b|^i was\s+(?:\w+ly\s+|just\s+|still\s+)?\w+ing\b", _I)
# Where a passing first clause ends and a first-person statement begins: "…, I …", "… but I …".
# (" but" starts where no space is before it: from inside a run of spaces each start read the run again, quadratic;
# a match from there also matched from the run's start, the one taken.)
_THEN_I = re.compile(r"(?:,\s*(?:but\s+|and\s+|so\s+)?|(?<!\s)\s+but\s+)(?=(?:i|i'm|im|i've|my)\b)", _I)

# A lead-in before the statement: a few words ending in punctuation ("That is cool, I …"), or only
# interjections and sentence adverbs ("Luckily I …", "Yeah I …").
# (Each word taken whole, possessive: "-" is of both its parts, and every way of splitting "-----" between them was
# tried before the space it lacked, quadratic; a word matches one way when it matches another.)
_LEAD_IN = re.compile(r"^(?P<lead>(?:[\w'-]++[,!.:;-]*+\s++){1,4}?)(?P<who>(?:i|i'm|im|i've|i'd|my)\b)", _I)
_LEAD_WORDS = frozenset("""
oh ah yes yeah yea yep no nope nah well ok okay hi hello hey cool nice neat great good awesome wow sweet darn
pleasure sure true right lol haha hehe hmm um sorry thanks luckily unfortunately honestly personally sadly
sometimes usually often weekends also plus anyway besides lately currently now then though actually
""".split())
# A lead-in that is a clause of its own (someone else, a condition, a hedge): the rest is not the person's fact.
_LEAD_CLAUSE = re.compile(
    r"\b(?:you|your|u|he|she|they|we|if|when|because|as|but|not|never|who|what|where|how|why|would|could"
    r"|should|think|guess|hope|hopefully|wish|maybe|me|mine)\b", _I)


# A statement about the person with "I" left out, as people write in chat: "Love sports, specifically
# tennis", "Grew up in Tallahassee", "Born and raised in the Sierras", "Work as a lifeguard".
_NO_SUBJECT = re.compile(
    r"^(?:(?:just|also|really|recently|currently|actually|still)\s+)?(?:love|like|enjoy|grew up|born and raised"
    r"|born in|raised in|live (?:in|on|with|near|by)|living in|work(?:ing)? (?:as|at|for)|studying|majoring in"
    r"|graduated|got my (?:masters|degree|bachelors|phd|first job))\b"
    r"(?!\s+(?:it|that|this|them|those|these|him|her|you|your|i said|when|how|what)\b)", _I)


# A preference whose object is only a word pointing back or a quantifier: "I love him!", "I enjoy both.",
# "I love doing that anyway", "Man I love." — nothing to remember without what it points at.
_VAGUE_WORDS = (r"(?:him|her|them|it|that|this|those|these|there|here|everything|anything|everyone|everybody|all"
                r"|both|each|either|one|ones|so|much|mostly|anyway|too|as|well|a|lot|really|just|about|being|doing"
                r"|out|with|the|more|most|of|kinds?|sorts?|things?|stuff|ways?)")
_VAGUE_PREFERENCE = re.compile(
    r"^(?:[\w']+[,!.]?\s+)?(?:i|i'?m|im)\s+(?:(?:really|also|just|do|still|so|totally|absolutely|truly|kinda"
    r"|kind of|don'?t|do not)\s+)*(?:love|like|enjoy|hate|prefer|adore|dislike)\b"
    r"(?:\s+(?:to\s+)?" + _VAGUE_WORDS + r"\b)*\W*$", _I)
# "It's my favorite activity", "It is one of my favorite hobbies": the favorite is what "it" points at.
_POINTED_FAVORITE = re.compile(
    r"^(?:cause |because )?(?:it|that|this|they|these|those)(?:'s|s| is| are|'re)?\s+(?:one of\s+)?"
    r"my\s+favou?rite(?:\s+\w+)?\W*$", _I)
# "My mother did the same", "I use to be in that same situation": the same as what the other person said.
_SAME_AS = re.compile(r"\b(?:the|that) same(?:\s+(?:way|thing|situation|boat))?\W*$|\bthe same way until\b"
                      r"|\bin that same\b", _I)


# A noun phrase alone after "My": "My favorite colour.", "My best friend." — a fragment, not a statement.
_MY_PHRASE = re.compile(r"^my\s+((?:[\w'-]+\s+){0,3}[\w'-]+)\W*$", _I)
_VERB_LIKE = re.compile(r"(?:is|are|was|were|am|has|have|had|do|does|did|can|will|would|love|like|enjoy|hate|want"
                        r"|need|live|work|go|play|\w+s|\w+ed|\w+'s)$", _I)


def is_fragment(statement: str) -> bool:
    """True for a noun phrase after "My" with no verb ("My favorite
    colour.", "My best friend."): it names something, it says nothing."""
    match = _MY_PHRASE.match(statement)
    return bool(match) and not any(_VERB_LIKE.match(w) for w in match.group(1).split()[1:])


def points_back(statement: str) -> bool:
    """True for a statement that says nothing alone because what it is about
    was said before: a preference whose object is only a pronoun or a
    quantifier ("I love him!", "I enjoy both.", "I love doing that anyway"),
    a favorite named by "it"/"that" ("It's my favorite activity"), the same
    as something said before ("My mother did the same"), or one ending by
    pointing back ("I grew up there", "I have two of them")."""
    return bool(_VAGUE_PREFERENCE.match(statement) or _POINTED_FAVORITE.match(statement)
                or _SAME_AS.search(statement))


# A pronoun that needs something said before it: "I enjoy learning them", "He is my favorite artist".
_BACK_PRONOUN = re.compile(r"\b(?:it|them|their|him|her|he|she|they|those|these"
                          r"|there(?!\s+(?:is|are|was|were|'s)\b))\b", _I)
# What is had or done is left out: "I actually have five!", "I have a bunch.", "I go every once in awhile."
_LEFT_OUT = re.compile(r"^\W*i\s+(?:(?:actually|just|only|also|still|do|did)\s+)*(?:have|own|had|got)\s+(?:only\s+)?"
                       r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|some|many|a bunch|a lot"
                       r"|lots|plenty)(?:\W*$|\s*,)"
                       r"|^\W*i\s+(?:(?:usually|just|only|also|still|really)\s+)*(?:go|visit|went|do)\s+"
                       r"(?:every|once|as much|as often|a lot|often|sometimes|all the time|quite often|regularly)\b"
                       r"|^\W*i(?:'ve| have)\s+(?:only\s+|just\s+)?been\s+(?:once|twice|\w+ times)\b", _I)
_LEADING_PRONOUN = re.compile(r"^\W*(?:me,\s*)?(?:he|she|they|it|those|these)\b(?!'s my fav)"
                              r"|^\W*there\b(?!\s+(?:is|are|was|were|'s)\b)", _I)
# Words that cannot be what a later pronoun stands for: function words, verbs, adverbs.
_NOT_AN_ANTECEDENT = frozenset("""
i i'm im i've i'd i'll me my myself a an the and or but so to of in on at by for with from as is are am was were be
been being do does did don't dont didn't not no never have has had having get got go goes going went gone love loved
loves like liked likes enjoy enjoyed enjoys adore hate hated take took taken care find found see saw seen visit visited
learn learned learnt want wanted work worked eat ate know knew listen listened watch watched read train trained use used
make made need try tried buy bought play played keep kept give gave prefer think thought feel felt look looked miss
missed sing sang own owned raise raised help helped call called spend spent live lived stay stayed grow grew grown born
came come really very too also always usually often sometimes just still even actually definitely quite all much more
most lot lots here near far well then now again every once awhile can could will would should must might may totally
pretty especially mostly mainly always never please run runs push commit deploy lint rebase follow share print
maintain regenerate install merge
""".split())


def refers_back(statement: str) -> bool:
    """True when what ``statement`` is about is a pronoun standing for
    something it does not name: it opens with one ("He is my favorite
    artist.", "It is mild and not spicy.", not "There are three dogs …"), or
    every word before its first one is a function word, a verb or an adverb
    ("I enjoy learning them.", "I have been there three times.", "Me, I enjoy
    their food."; not "I love hamburgers too much to give them up."), or
    what is had or done is left out ("I actually have five!", "I go every
    once in awhile.", "I've been three times"). The
    caller joins it to the sentence before it or keeps nothing."""
    if _LEADING_PRONOUN.match(statement) or _LEFT_OUT.match(statement):
        return True
    match = _BACK_PRONOUN.search(statement)
    if not match:
        return False
    head = re.findall(r"[a-z][a-z'-]*", statement[:match.start()].lower())
    # a word in -ing just before the pronoun is its verb ("learning them"), one in -ed a verb ("I invented it")
    return all(word in _NOT_AN_ANTECEDENT or (word.endswith("ing") and n == len(head) - 1)
               or (word.endswith("ed") and len(word) > 4) for n, word in enumerate(head))


def without_subject(statement: str) -> bool:
    """True for a statement about the person with "I" left out ("Love
    sports, specifically tennis", "Grew up in Tallahassee"); not "Love it",
    not "Like I said", not one that speaks to the other person."""
    return (bool(_NO_SUBJECT.match(statement)) and not re.search(r"\b(?:you|your|u)\b", statement, _I)
            and not _POINTS_BACK.search(statement))


def is_life_statement(statement: str) -> bool:
    """True when ``statement`` starts with the person and is about their life
    (see the module docstring); how much it must say is the caller's rule."""
    return (bool(FIRST_PERSON.match(statement)) and not _NOT_A_FACT.search(statement)
            and not _POINTS_BACK.search(statement))


def is_passing(statement: str) -> bool:
    """True for a first-person feeling of the moment, a hypothetical, a
    guess or hearsay, or what the person is doing right now ("I'm a little
    stressed actually", "I wish my husband was that woke", "I may send my
    parents a post card", "I hear they have great food there", "I'm just
    taking a break for the night")."""
    return bool(_MOOD.match(statement) or _HYPOTHETICAL.match(statement) or _DOING_NOW.match(statement))


def after_passing(statement: str) -> str | None:
    """The first-person statement after a passing first clause (a feeling
    of the moment or a hypothetical) joined by a comma or "but" ("I may not
    have finished college but I love to read" → "I love to read"; "I'm so
    excited, I love concerts" → "I love concerts"), else None."""
    if not is_passing(statement):
        return None
    parts = _THEN_I.split(statement, maxsplit=1)
    return capital(parts[1]) if len(parts) == 2 and not is_passing(parts[1]) else None


def own_clause(statement: str) -> str | None:
    """The first-person statement after a short lead-in (at most four words,
    ending in punctuation or made of interjections and sentence adverbs, and
    not a clause of its own), capitalized; None when there is none."""
    match = _LEAD_IN.match(statement)
    if not match:
        return None
    lead = match.group("lead").strip()
    if _LEAD_CLAUSE.search(lead):
        return None
    if lead[-1] not in ",!.:;-" and not all(w in _LEAD_WORDS for w in re.findall(r"[\w'-]+", lead.lower())):
        return None
    return capital(statement[match.start("who"):])


__all__ = ["FIRST_PERSON", "after_passing", "is_fragment", "is_life_statement", "is_passing", "own_clause", "points_back",
           "refers_back", "without_subject"]
