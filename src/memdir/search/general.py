"""Questions asking in general: how to do something or what something is, about no particular thing.

"how do I crop an image to a square with Pillow?", "what is a webhook, in simple terms?", "Was ist ein Webhook?"
ask what anyone could look up: a memory that names the tool ("the image worker was OOM-killed by Pillow") sits
near such a question in meaning — same topic — and is still no answer. A question about something of the
project points at it: a definite article, a demonstrative, a possessive, "we" or "here" ("how do I deploy the api
to staging?", "how do I install a new library in this repo?", "Wie installiere ich hier ein neues Paket?"); a
question asking what should be done ("how should I break up a huge change?") asks for a convention, so it is not
general either. :func:`asks_in_general` tells the first kind in English and German, and in Chinese, Japanese and
Korean by their how-to and what-is forms anywhere in the question (方法, やり方, どうやって, とは, 怎么, 如何, 是什么,
어떻게, 방법: these languages write no article, and put the asking words after the topic) with no word pointing at
the speaker's own things (この, うちの, 这个, 我们, 우리); 怎么办 ("what should I do") asks what should be done, as
"how should I" does; :func:`memdir.search.relevance.bar` then returns at the threshold only
a memory whose words alone (the lexical model) reach it: meaning can't carry a general question to a note, in any
script (a memory written in another script than the question and sharing no word with it was exempt until recall25:
out of fold on the fit data it gave no hit and one false recall, evals/recall/oof.py).

Kept by 2-fold cross-validation on the fit data (evals/recall/fit.py, 2026-12-03 recall8; no constant chosen):
false recalls 5 fewer on fold 0 and 7 fewer on fold 1, no hit lost on either. "that" is not a word pointing at
something here: it mostly opens a clause ("a function that calls an API"); with it, fold 1 has one fewer gain.

A project question asked the same way ("how do I report a pipeline bug?", "how do I format Python code?") is still
the project's when the memory holds most of its words: one holding :data:`~memdir.search.relevance.GENERAL_COVERAGE`
(0.6) of the query's weight is left to meaning (the bug tracker 0.61; "crop … with Pillow" and the Pillow note 0.43).
Chosen by 2-fold cross-validation on all fit data pooled (prompts and tasks fit halves, near, gaps and
evals/recall/trial.jsonl: 24 such project questions and 24 general ones on a tool a memory names, written blind;
2026-12-03 general9), hits / false recalls of 107 / 76 needing / not (fold 0) and 98 / 84 (fold 1): the rule as
it was 79 / 23, 68 / 15; removed 84 / 32, 72 / 27; the words-alone bar at 0.4, 0.3, 0.2 instead of the threshold
80 / 23, 68 / 20; 81 / 25, 69 / 22; 83 / 26, 70 / 23; the rule only for a memory sharing at most one content word
84 / 27, 70 / 24 (none: as removed); only for "what is" questions 84 / 32, 72 / 23; a memory exempt from coverage
0.5, 0.55, 0.6, 0.65, ≥ 0.7: 81 / 24, 69 / 18; 81 / 23, 69 / 16; 81 / 23, 69 / 15; 80 / 23, 68 / 15; as it was;
from head coverage 0.4, 0.5, 0.6: 82 / 24, 70 / 21; 81 / 24, 69 / 18; 80 / 23, 69 / 15. Hits − false recalls
chosen on fold 0 (ties to fewer false recalls, then the stricter) give 0.6, on fold 1 0.6 or head 0.6: fold 1 54
against 53, fold 0 58 (57) against 56. Left: a project question sharing only the tool's name with its memory
("how do I connect to postgres?" and the dev port note, 0.45; "Wie installiere ich Pakete mit uv?" 0.22) reads as
the general ones do ("Wie installiere ich uv unter Windows?" and the same note, 0.21; "what are Postgres isolation
levels?"): no feature tried tells them apart (trial: 14 of 24 project questions found, 10 of 24 general ones
recall something, against 11 and 10 before). Held-out halves unchanged by it (prompts 0.791 / false 0.093, tasks
0.676 / 0.133).

The Chinese, Japanese and Korean forms (2026-12-04 recall20), on all fit data pooled (prompts and tasks fit halves,
near, gaps, trial, probe, pasted and short), ``[hits, needing, false recalls, needing none]``: fold 0 [111, 145, 30,
114] → [111, 145, 27, 114], fold 1 [100, 136, 24, 121] → [100, 136, 23, 121]; no hit lost on any set (gone:
oom-worker for two Japanese Pillow how-tos, zh-cache for "Redis 的有序集合怎么用？", ko-onboarding for a Homebrew
question, and the wrong zh-deploy for a Chinese staging question). No constant: the forms are the languages' own.
怎么办 was left out after fold 1 lost the zh-cache note for "改了价格以后页面上还是旧的价格，怎么办" (a project problem,
"what do I do", not a how-to: fold 1 then [99, 136, 23, 121]); fold 0 is the same either way.

A general question asking what a *kind* of thing is ("what is a feature flag?", "Was ist ein Feature Flag?":
:func:`asks_what_it_is`) is answered at the threshold by no memory of the query's script, however many of its words
the memory holds (:attr:`~memdir.search.relevance.Evidence.defines`; recall20, the same pooled fit data after the
forms above): fold 0 false recalls 27 → 25, fold 1 23 → 20, no hit lost on any set (gone: feature-flags for both
feature-flag questions, ci-runner for a matrix build and a self-hosted runner, pr-size for a stacked pull request).
No constant. Variants, (hits, false) per fold: every general what-is/what-does question, (−1, −2) and (0, −7); the
same without a norm asked for ("what's an acceptable size for a pull request?" is pr-size's, lost above) (0, −2),
(0, −7), chosen on fold 0, tied on fold 1; without "what does … do" (0, −2), (0, −6), kept a project command's job
("what does make deploy-staging do?" was no longer its note's); with the indefinite article only, as kept, (0, −2),
(0, −3): a named tool ("Was ist structlog?", tests/search/test_general_german.py) is the project's note's to tell.

Two edges (2026-12-04 recall22, the same pooled fit data, ``[hits, needing, false recalls, needing none]``; no
constant): a question on a *default* (``_DEFAULT``: "what's the default port of MySQL?", "how many approvals does a
pull request need on GitHub by default?") asks in general whatever it starts with — a default is what a tool does
when nobody set it, a memory what the project set — fold 0 [111, 145, 25, 114] → [111, 145, 23, 114] (gone: pg-port
and zh-test-db, pr-size and ci-runner), fold 1 unchanged; a German "wie" with a modal of what is allowed or expected
(darf, soll, muss: "Wie groß darf ein Pull Request sein?") asks for a convention, as "how should I" does: fold 1
[100, 136, 20, 121] → [101, 136, 20, 121] (pr-size found), fold 0 unchanged. A general question naming a particular
thing (:func:`named_terms`: "in Node.js", "a multi-stage Dockerfile", "to UTC in Python") that a memory holds nothing
of is not answered by it even by its words (:func:`lacks_named`; ranking sets ``defines`` for it): fold 0
[111, 145, 23, 114] → [111, 145, 20, 114] (gone: the Docker env note for env vars in Node.js, the Stripe note for
verifying a signature in Node.js, the multi-session commit note for a multi-stage Dockerfile), fold 1
[101, 136, 20, 121] → [101, 136, 19, 121] (timezone-utc for a naive datetime in Python); no hit lost on any set.
Read over the CJK form too ("Dockerfile の HEALTHCHECK …" names HEALTHCHECK); a memory in another script sharing no
word stays exempt, as for ``defines``. Tried, not kept, (hits, false recalls) per fold: "the" no pointing word
(0, −3), (−1, −2) — "what's left for the next sprint?" lost; a named thing only when no memory of the store holds it
(the Python and Dockerfile questions came back: fold 0 false recalls 20 → 23, fold 1 18 → 19); named things for
every prompt, not only general questions, (−5, −1), (−3, −1) at best: pasted logs name many things no note holds.

A name written before a lowercase noun names a kind of that noun (``_NOUN_AFTER``; 2026-12-05 recall23): "how do I
save timestamps in a PostgreSQL database?" names a database, and the note storing timestamps in UTC in the database
(never saying PostgreSQL; the nearest in meaning, lead 0.024, coverage 0.63) answers it, where "in Node.js?" or "a
multi-stage Dockerfile?" name a thing alone. No constant; the pooled fit data (all fit sets, ``[hits, needing, false
recalls, needing none]``) is unchanged by it on both folds (fold 0 [111, 145, 20, 114], fold 1 [101, 136, 18, 121]):
no fit question names a thing before a noun that a memory answering it holds (tests/search/test_general_named.py).

Asking to have a kind of thing explained ("explain what a VPN tunnel does", "describe what an index is":
``_EXPLAIN_KIND``, 2026-12-05 recall29) is asking what a kind of thing is: :func:`asks_in_general` and
:func:`asks_what_it_is` read it as "what is a …". No constant; pooled fit data with shop.jsonl (trial27's kind: a
real session's "explain what a VPN tunnel does" recalled the note that staging is reached through the VPN, 1.0),
``[hits, needing, false recalls, needing none]``: fold 1 false recalls 19 → 18 (that prompt), fold 0 unchanged, no
hit lost on any set. Only with an article: "explain what useEffect is for" names a thing a note on the user may bear
on, and "explain what this function does" points at one.

"the" in an English question naming a particular thing (:func:`named_terms`) points into that thing, not at the
project's (:func:`_points`; 2026-12-06 recall32): "how do I resize an image with Pillow while keeping the aspect
ratio?", "what's the keyboard shortcut in Linear to create an issue?", "how do I pretty-print JSON on the command line
with jq?" ask what anyone could look up, and each recalled the note naming the tool (oom-worker, bug-tracker,
structlog-logging: the nearest in meaning, at the agreed bar). A question whose "the" names nothing of its own is
still the project's ("how do I deploy the api to staging?", "what's left for the next sprint?", "how do I stop the
thumbnail worker from dying on huge uploads?"), as is one pointing with another word ("our", "this"), and one whose "the" stands before the thing it names, within
two words (:func:`_the_names`: "what is the hostname of the staging Redis for billing?" asks of the project's Redis).
No constant. Of
all fit rows (every fit set, shop included) only 16 questions change, every one needing no memory, so no hit can be
lost on any set or fold; pooled fit folds as ``run.py --split fit`` counts them, ``[hits, needing, false recalls,
needing none]``, vectors on: fold 0 [158, 191, 26, 157] → [158, 191, 24, 157] (gone: the Pillow and the Linear
questions), fold 1 [149, 183, 19, 163] → [149, 183, 17, 163] (gone: the jq question, and structlog-logging for "how do
I get structlog to add the request id … from inside a FastAPI middleware", now general and lacking FastAPI,
:func:`lacks_named`); vectors off: fold 0 [108, 191, 13, 157] unchanged, fold 1 [101, 183, 12, 163] → [101, 183, 11,
163] (the FastAPI question). Chosen on either fold (on: fewer false recalls, no hit lost) it reads the same on the
other. Left: "how do I undo the last git commit but keep the changes?" names its tool in lowercase, as "how do I
deploy the api to staging?" does a thing of the project's: nothing in the question tells them apart. German (der, die,
das before every noun, every noun capitalised) is left as it was.

A question asking what a particular thing is or does (:func:`asks_what_a_thing_is`: "what is p99 latency?", "what
does `git push --tags` do?") is answered only by a memory whose head (name, title, description: what the memory is
about) holds the whole of it (:func:`not_its_subject`; ranking sets ``defines`` for any other; recall32): the note on
the latency dashboard lists a p99 panel in its body, the release note runs ``git push --tags`` and uploads "with
trusted publishing" in its body, the CI note names GitHub Actions in its head and workflows in its body; each held
every word of its question (words alone 0.52–1.0) and was recalled. "what is Pillow?" (the note whose head names
Pillow), "Was ist structlog?" and "what does make deploy-staging do?" (the description writes the command) are still
answered: the head holds all of them; a question on what a thing is used for ("what is port 5434 used for?",
``_PURPOSE``) asks its purpose here, as a norm asks a convention, and is not one. Not the variant recall20 tried (every what-is question defining, by no memory
at all), which lost those. No constant (the head holding all of the question; any share from 0.75 up gives the same
on the fit data; 0.6 drops two of the four, 0.5 one). Pooled fit folds, ``[hits, needing, false recalls, needing none]``,
after the rule above, vectors on: fold 0 [158, 191, 24, 157] unchanged (no fit row of fold 0 asks so), fold 1
[149, 183, 17, 163] → [149, 183, 13, 163]; vectors off: fold 0 [108, 191, 13, 157] unchanged, fold 1 [101, 183, 11,
163] → [101, 183, 7, 163]; no hit lost on any set (the one what-question needing a memory, "what does a new hire run
to get a working machine?", needs a Korean note the general rule already refuses it). Read out of fold: chosen on
fold 1 it reads 0/0 on fold 0; fold 0 alone cannot choose it (a tie), so its support is fold 1's four and the loss of
nothing on either.

The same in Chinese, Japanese and Korean (``_WHAT_THING_CJK``: the forms asking for a definition, とは, って何, 什么是,
(이)란 무엇; not "X是什么" nor "X가 뭐야", which ask what the project's X is as often; 2026-12-06 false35): "指数バックオフとは何ですか？" ("what is exponential backoff?") recalled the note on the payment API's rate limit,
whose body says retries back off exponentially (words alone 0.99, head 0). Read in bigrams, such a question has pairs
straddling its asking form and particles ("何で", "すか", "库是") that no head holds, so the head must hold
:data:`CJK_SUBJECT` (0.75) of it (:func:`subject_share`), not all: "外部決済APIのレート制限とは何ですか？" and the note whose
description is that phrase, head 0.895 (tests/search/test_general_subject.py). No constant fitted: the one fit row it
moves sits at head 0. Pooled fit folds (every fit set of ``common.fit_rows``, ``neg.py dump`` replayed and ``run.py
--set near --split fit`` run), ``[hits, needing, false recalls, needing none]``: vectors on fold 0 [149, 181, 22,
150] unchanged, fold 1 [142, 172, 10, 157] → [142, 172, 9, 157]; off fold 0 [102, 181, 12, 150] unchanged, fold 1
[97, 172, 4, 157] → [97, 172, 3, 157]; no other fit row asks so. Chosen on fold 1 it reads 0/0 on fold 0 (no row
there): its support is one row and the loss of nothing on either fold, as for the English form. Figures and the
families tried beside it: evals/recall/false35.py.
"""

from __future__ import annotations

import re

from ..text.fold import fold
from ..text.words import POINTING_WORDS

# Asking to have a kind of thing explained ("explain what a VPN tunnel does", "describe what an index is"): what a
# concept is, as "what is a …" asks (recall29: trial27's kind, shop.jsonl). Only with an article: "explain what
# useEffect is for" names a thing the user's own note may bear on, and "explain what this function does" points.
_EXPLAIN_KIND = r"(?:explain|describe)\s+what\s+(?:a|an)\b"
# How to do something or what something is, at the start of the question. A German "wie" with a modal of what is
# allowed or expected ("Wie groß darf ein Pull Request sein?", "Wie soll ich …?") asks for a convention, as "how
# should I" does in English, which _ASKS never matched. Matched on folded text: "dürfen", "müssen" are written
# "durfen", "mussen" there (newuser34: "Wie groß dürfen Uploads sein?" read as a general question, "darf" not).
_ASKS = re.compile(r"^\W*(?:how\s+(?:do|can|to)\b|what\s+(?:is|are|does|do)\b|what['’]s\b|" + _EXPLAIN_KIND +
                   r"|wie\b(?!.*\b(?:darf|durfen|soll|sollen|sollte|sollten|muss|mussen)\b)"
                   r"|was\s+(?:ist|sind|macht)\b)")
# A question on a default: what a tool does when nobody set it ("what's the default port of MySQL?", "how many
# approvals does a pull request need on GitHub by default?") is what anyone could look up, whatever it starts with;
# the article before "default" points at the tool's default, not at the project's own things. A question mark or a
# question word makes it a question ("my database won't accept connections on the default port" is none).
_DEFAULT = re.compile(r"\b(?:by\s+default|(?:the\s+)?defaults?|standardmäßig|voreingestellt\w*)\b")
_QUESTION = re.compile(r"\?\s*$|^\W*(?:what|which|how|is|are|does|do|can|wie|was|welche\w*|ist)\b")
_WORD = re.compile(r"\w+")
# The same in Chinese, Japanese and Korean, anywhere in the question (the asking words follow the topic there),
# and the words pointing at the speaker's own things there (a demonstrative, "our", "we").
_ASKS_CJK = re.compile(r"方法|やり方|書き方|どうやって|どうすれば|どうしたら|とは|って何|怎么(?!办)|如何|怎样|是什么|什么是"
                       r"|어떻게|방법|뭐야|무엇")
_POINTING_CJK = re.compile(r"この|その|あの|うちの|私たち|我々|弊社|这个|这些|这里|我们|咱们|우리|저희")


# What a kind of thing is: "what is a …", "Was ist ein …" (a concept: "what is a feature flag?"); what a named thing
# is ("what is structlog?", "Was ist structlog?") the project's note on it may tell, as it may what a named thing does
# ("what does make deploy-staging do?"); a norm asked for ("what's an acceptable size for a pull request?", "a good
# name") is a convention, not a definition.
_WHAT = re.compile(r"^\W*(?:(?:what\s+(?:is|are)|what['’]s|was\s+(?:ist|sind))\s+(?:a|an|ein|eine|einen)\b|"
                   + _EXPLAIN_KIND + ")")
_NORM = re.compile(r"\b(?:acceptable|good|best|recommended|right|correct|proper|ideal|preferred|allowed|sane|reasonable"
                   r"|usual|normal|ok|okay|fine|gut|gute|guter|gutes|beste|richtig|übliche?)\b")


# A particular thing a question names: a word written with a capital inside an English sentence ("in Python", "with
# Node.js"), and, in any language, one with a capital, digit or dot inside it or written in capitals (PyPI, S3,
# HEALTHCHECK, Node.js); German capitalises every noun, so in a German question only the latter. A sentence's first
# word is capitalised whatever it is.
_CAPITALISED = re.compile(r"(?<![\w.])(?<![.!?。]\s)(?<!^)[A-Z][\w.]*\w")
_NAME_SHAPED = re.compile(r"(?<![\w.])(?:[A-Za-z][a-z]*[A-Z][\w.]*|[A-Z]{2,}\w*|[A-Za-z]+\d[\w.]*|[A-Za-z]\w*\.\w+)")
_GERMAN = re.compile(r"^\W*(?:wie|was|welche\w*|wo|wann)\b", re.IGNORECASE)
# A name written before a common noun ("a PostgreSQL database", "a Stripe webhook") names a kind of that noun: the
# noun is part of the thing named, and a memory holding it holds something of it (:func:`lacks_named`).
_NOUN_AFTER = re.compile(r"[ \t]+([a-z][a-z]+)\b")


def named_terms(query: str) -> tuple[frozenset[str], ...]:
    """The query terms of each particular thing ``query`` names (``_CAPITALISED``, ``_NAME_SHAPED``), as
    :func:`memdir.search.tokenize.query_terms` reads the word, content terms only
    (:func:`memdir.search.weighing.is_topic`):
    "how can I verify a Stripe webhook signature in Node.js?" → ``({"stripe", "webhook"}, {"node", "nodejs"})``: a
    name written before a lowercase word (``_NOUN_AFTER``) names a kind of what that word names, and its content terms
    are the thing's too ("how do I save timestamps in a PostgreSQL database?" names a database: the note storing
    timestamps in UTC in the database answers it). Pure."""
    from .weighing import is_topic
    from .tokenize import query_terms

    found = list(_NAME_SHAPED.finditer(query))
    german = bool(_GERMAN.match(query))  # German capitalises its nouns: a lowercase word after a name is none
    if not german:
        found += list(_CAPITALISED.finditer(query))
    out = set()
    for match in found:
        terms = {t for t in query_terms(match.group(0)) if is_topic(t)}
        if terms and not german and (noun := _NOUN_AFTER.match(query, match.end())):  # "a PostgreSQL database"
            terms |= {t for t in query_terms(noun.group(1)) if is_topic(t)}
        out.add(frozenset(terms))
    return tuple(sorted((terms for terms in out if terms), key=sorted))


def lacks_named(named: tuple[frozenset[str], ...], held: set[str]) -> bool:
    """True when a memory holding the query terms ``held`` holds no term of one of the things a general question
    names (``named``: :func:`named_terms`, a name written before a noun with that noun): "how do I read environment
    variables in Node.js?" asks about Node.js,
    and a note on Docker env files, however near in meaning and in its other words, does not answer it
    (:func:`memdir.search.relevance.bar`, as for a question defining a kind)."""
    return any(held.isdisjoint(terms) for terms in named)


def asks_what_it_is(query: str) -> bool:
    """True when ``query`` asks in general (:func:`asks_in_general`) what a kind of thing is ("what is a feature
    flag?", "Was ist ein Feature Flag?", "what's a stacked pull request?"), not for a norm ("what's an acceptable size
    for a pull request?"), not what a named thing is or does ("what is structlog?", "what does make deploy-staging
    do?"): a concept anyone could look up, which a memory naming it does not define even when it holds every word of
    the question (:func:`memdir.search.relevance.bar`). Chinese, Japanese and Korean write no article to tell a kind
    by: never there. Pure."""
    text = fold(query)
    return asks_in_general(query) and bool(_WHAT.search(text)) and not _NORM.search(text)


# What a particular thing is or does ("what is p99 latency?", "what does `git push --tags` do?", "Was ist structlog?"):
# the question asks for that thing's subject, which a memory about it names in its head (:func:`not_its_subject`).
# What a thing is used for here ("what is port 5434 used for?", "what is this flag for?") asks its purpose in the
# project, as a norm asks its convention: not what the thing is.
_PURPOSE = re.compile(r"\bused\s+for\b|\bfor\W*$")
_WHAT_THING = re.compile(r"^\W*(?:what\s+(?:is|are|does|do)\b|what['’]s\b|was\s+(?:ist|sind|macht)\b)")
# The same in Chinese, Japanese and Korean: the forms asking for a definition ("指数バックオフとは何ですか？", "什么是幂等性？",
# "멱등성이란 무엇인가요?"), anywhere in the question. Not "X是什么", "X가 뭐야", "무엇을": with no article they ask what
# the project's X is as often as what an X is ("测试数据库是什么？"), and the general rule alone reads them; nor a how-to
# form (方法, 怎么, 어떻게), which asks to do something.
_WHAT_THING_CJK = re.compile(r"とは|って何|什么是|란\s*(?:무엇|뭐)")


def asks_what_a_thing_is(query: str) -> bool:
    """True when ``query`` asks in general (:func:`asks_in_general`) what something is or does ("what is p99
    latency?", "what does `git push --tags` do?", "Was ist structlog?", "指数バックオフとは何ですか？", "什么是幂等性？"),
    not for a norm ("what's an acceptable size for a pull request?"): :func:`not_its_subject` then tells which
    memories cannot answer it. Pure."""
    text = fold(query)
    return (asks_in_general(query) and bool(_WHAT_THING.search(text) or _WHAT_THING_CJK.search(text))
            and not _NORM.search(text) and not _PURPOSE.search(text))


# A question read in bigrams (Chinese, Japanese, Korean: :func:`memdir.search.tokenize.query_terms`) has pairs
# straddling its asking form and particles ("何で", "すか", "库是", "엇인") that no head holds: its head holds at most
# 0.9–0.96 of "外部決済APIのレート制限とは何ですか？" when the description is that phrase. There a memory is about
# what the question asks when its head holds CJK_SUBJECT of it. Not fitted: the one fit row it moves ("指数バックオフ
# とは何ですか？", the note whose body names the backoff: head 0) is the same at any share in (0, 0.89]; 0.75 is the
# lowest share recall32 found the English form reading the same at (evals/recall/false35.py).
CJK_SUBJECT = 0.75


def subject_share(query: str) -> float | None:
    """The share of ``query``'s term weight a memory's head must hold to be about what it asks when it asks what a
    thing is or does (:func:`asks_what_a_thing_is`): 1.0 for the English and German forms, :data:`CJK_SUBJECT` for
    the Chinese, Japanese and Korean ones (their bigrams straddle the asking form); None for any other question. Pure."""
    if not asks_what_a_thing_is(query):
        return None
    return 1.0 if _WHAT_THING.search(fold(query)) else CJK_SUBJECT


def not_its_subject(head: float, share: float = 1.0) -> bool:
    """True when a memory whose head (name, title, description) holds the share ``head`` of a question's term weight
    (:attr:`memdir.search.relevance.Evidence.head`) is not about what a question asking what a thing is or does
    (:func:`asks_what_a_thing_is`) asks: its head does not hold every word of it. "what is p99 latency?" is not
    answered by the note on the latency dashboard whose body lists a p99 panel, nor "what is trusted publishing on
    PyPI?" by the release note naming PyPI in its head and trusted publishing in its body; "what is Pillow?" by the
    note whose head names Pillow, and "what does make deploy-staging do?" by the one whose description writes that
    command, are (ranking sets :attr:`~memdir.search.relevance.Evidence.defines` for the first kind). ``share``: the
    share the head must hold (:func:`subject_share`; all of it by default). Pure."""
    return head < share - 1e-9


def asks_in_general(query: str) -> bool:
    """True when ``query`` (any text; case and width folded) asks how to do something ("how do I", "how can I",
    "how to", "wie") or what something is ("what is", "what are", "what does", "what's", "was ist") and writes no
    word pointing at one particular thing (:data:`memdir.text.words.POINTING_WORDS`): "how do I convert a PNG to
    JPEG with Pillow?" is, "how do I log everyone out of the web app?" and "how should I name branches?" are not.
    In Chinese, Japanese and Korean: a how-to or what-is form anywhere (``Pillowで画像を回転させる方法は？``,
    ``Redis 的有序集合怎么用？``, ``指数バックオフとは何ですか？``) and no word pointing at the speaker's own things
    (``このコード``, ``我们的``, ``우리``); ``怎么办`` ("what should I do") is not one. Pure."""
    text = fold(query)
    if _ASKS_CJK.search(text) and not _POINTING_CJK.search(text):
        return True
    if _DEFAULT.search(text) and _QUESTION.search(text):  # a tool's default: the article before it points at none
        return POINTING_WORDS.isdisjoint(_WORD.findall(_DEFAULT.sub(" ", text)))
    return bool(_ASKS.search(text)) and not _points(query, _WORD.findall(text))


# Asking how a kind of thing works or why anyone uses it, or saying it asks in general, in words the stricter reading
# (:func:`asks_in_general`) leaves to meaning: "how does S3 multipart upload work?", "could you explain how redis
# sessions work in general?", "in general, how do s3 buckets work?", "why do people use feature flags?". Read only
# where words alone would lower the bar (:func:`asks_broadly`); a question pointing at the project's own thing ("how
# does our deploy work?", "how does the staging deploy work?") is none.
_BROADLY = re.compile(r"\bin\s+general\b|\bgenerally\b"
                      r"|^\W*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?(?:explain|describe)\s+(?:how|why|what)\b"
                      r"|^\W*how\s+(?:does|do|is|are)\b"
                      r"|^\W*why\s+(?:do|does|would|should|is|are)\s+(?:people|teams|developers|companies|anyone|one"
                      r"|you|we\s+even)\b")


def asks_broadly(query: str) -> bool:
    """True when ``query`` asks in general in a wider reading than :func:`asks_in_general` (its forms, or
    :data:`_BROADLY`'s: "how does X work?", "can you explain how …", "why do people use …", "… in general") and
    points at no particular thing (:func:`_points`). Where a prompt is ranked by words alone its first memory's lead
    is then not read (:func:`memdir.search.relevance.led_by_words`): two words of a question anyone could ask are no
    sign the project's note answers it (break47: "why do people use feature flags?" recalled the note on LaunchDarkly
    flags at 0.37, "in general, how do s3 buckets work?" the bucket note at 0.43), and a prompt's memory is returned
    only where its words alone reach the threshold (:attr:`memdir.search.relevance.Evidence.anyone`), never by its
    cosine (recall49: vectors on, the two recalled feature-flags and s3-bucket by meaning). English only. Pure."""
    if asks_in_general(query):
        return True
    text = fold(query)
    return bool(_BROADLY.search(text)) and not _points(query, _WORD.findall(text))


def _points(query: str, words: list[str]) -> bool:
    """True when the words of a question (``words``: its folded words; ``query`` as written) point at one particular
    thing (:data:`memdir.text.words.POINTING_WORDS`). "the" alone does not in an English question naming a thing of
    its own (:func:`named_terms`): there it points into that thing ("how do I resize an image with Pillow while keeping
    the aspect ratio?", "what's the keyboard shortcut in Linear …?"), not at the project's ("how do I deploy the api to
    staging?" names nothing and is the project's). German writes der/die/das before every noun and capitalises every
    noun, so a German question is left as it was (recall32, see the module docstring)."""
    pointing = POINTING_WORDS.intersection(words)
    if pointing != {"the"}:
        return bool(pointing)
    return not named_terms(query) or _the_names(query)


# "the" and the two words after it: a named thing among them is the project's own of it ("the staging Redis").
_THE_PHRASE = re.compile(r"\b[Tt]he\s+(\S+)(?:\s+(\S+))?")


def _the_names(query: str) -> bool:
    """True when a "the" of ``query`` stands before a thing it names, within two words ("what is the hostname of the
    staging Redis for billing?"): that "the" points at one particular such thing, the project's. Pure."""
    named = {m.start() for m in _NAME_SHAPED.finditer(query)}
    if not _GERMAN.match(query):
        named |= {m.start() for m in _CAPITALISED.finditer(query)}
    return any(m.start(1) in named or m.group(2) and m.start(2) in named for m in _THE_PHRASE.finditer(query))


__all__ = ["CJK_SUBJECT", "asks_broadly", "asks_in_general", "asks_what_a_thing_is", "asks_what_it_is", "lacks_named",
           "named_terms", "not_its_subject", "subject_share"]
