"""Relevance: one calibrated score per hit, and the one threshold below which nothing is returned.

The score of a memory for a query is an estimate of the probability that the
memory is what the query needs — the output of a logistic model over
evidence that means the same in a store of 8 memories and of 100,000:

* **coverage** — the share of the query's term weight found in the memory's
  *head* (name, title, description) together with its *best passage* (the
  :data:`PASSAGE_TOKENS`-token window of the body holding the most query
  weight). A long body is judged by its best passage, never by its length,
  so a 100 KB log does not match every prompt;
* **head coverage** — the share found in the head alone;
* **matched weight** — ``ln(1 + Σ weight of the matched terms)``: two common
  words matched fully are weaker evidence than five rare ones;
* **dense cosine** — with the ``vectors`` extra, the cosine between the
  query's and the memory's multilingual-e5-small embeddings, and its **gap**
  above the median cosine of the query over the memories in scope (e5's
  cosines crowd into 0.75–0.95; how far one memory stands out of the crowd
  is what tells a paraphrase from a short prompt that is near everything),
  and its **lead** over the nearest other memory (negative when another is
  nearer);
* **missing weight** — ``ln(1 + Σ weight of the query terms not found)``:
  what the memory does not explain of the query, and the **query weight**
  ``ln(1 + Σ weight of all its terms)``;
* **complete** — 1 when the query is keywords alone (no stopword, no
  filler: ``zebra``, ``ci-box-2 runner``) and the memory holds every one of
  them, else 0; in a search typed as keywords, when the memory's head holds every
  one of them that the store holds at all and those are at least half of them,
  the share they are (no memory holding "entry", ``changelog entry`` is
  0.5 complete for the changelog memory: of the fit half's keyword
  prompts holding one word no memory has and one that memories have,
  "install pandas" needed the memory, "s3 glacier" and "graphql schema"
  did not). Its coefficient is a fixed prior, not fitted (the prompts of
  the evaluation hold few one-word searches): a search whose every word one
  memory holds asked for that memory, in any store. A sentence ("I think the
  tests broke after the merge yesterday") is never complete; filler around
  keywords makes no sentence ("ok pnpm then" is ``pnpm``: :func:`~memdir.search.weighing.is_filler`);
  a request or a question around a few words ("remind me about alembic",
  "배포 알려줘", "백업은 언제?": :func:`~memdir.search.weighing.reads_as_request`) is those words; a
  prompt of generic words only ("use", "run it again": :func:`~memdir.search.weighing.is_topic`) is none.

A term's weight is its IDF against the store with a background of imagined
memories, softened for filler, function words and task words: the rule lives
in :mod:`memdir.search.weighing` (:func:`~memdir.search.weighing.term_weights`),
and a memory holds every word of a query when it holds all but the generic ones.

Two fitted models share the scale: a *lexical* one (coverage, head coverage,
matched, missing and query weight) and a *hybrid* one (the same plus the
cosine, its gap and its lead). A memory with a
current vector scores the larger of the two — dense similarity can carry a
hit alone when it is high enough, and never lowers an exact match — and a
memory without one (vectors off, or not embedded yet) scores the lexical
model: so a partly embedded store ranks what is not embedded exactly as BM25
coverage alone would, on the same scale.

The coefficients were fitted on the training half of ``evals/recall``
(``python evals/recall/fit.py --choose``: positive weight 1, L2 0.3; the
missing and query weights were admitted by ``fit.py --compare``, a
cross-validation inside that half); the held-out half is what
``evals/recall/run.py`` reports. :data:`THRESHOLD` = 0.5: a hit is returned
(by search and recall alike) when the model puts its chance of being the
needed memory at one in two or better.
"""

from __future__ import annotations

import math

from .comparison import compares  # the one rule of a comparison question (re-exported: relevance.compares)
# what a score rests on, read from a memory's words and cosine (re-exported):
from .evidence import ASKED_GAP, CROWD, SOLO_COSINE, Evidence, evidence, median, replaced, standing, with_cosine
from .foreign import by_meaning  # a prompt in a language the store's words cannot hold (Evidence.foreign)
from .reading import BodyTerms, Prefixes, as_terms, read_body  # how a memory's words are read as the query's
from .windows import NEAR_TOKENS, PASSAGE_TOKENS, best_passage, best_window, tightest  # where its terms meet

THRESHOLD = 0.5
# A prompt ranked by words alone (vectors off, or no warm process answering the hook) has no second opinion: the
# agreed, nearest and crossed bars all read a cosine. There the memory whose words lead the store's — first by score,
# WORD_LEAD above the next memory and at least WORD_RATIO times its score, its head holding WORD_HEAD of the prompt's
# weight — is returned from WORD_THRESHOLD (:func:`led_by_words`): "How should I install python packages here?" and
# the note on uv (0.30, the next 0.06), "store the created_at timestamp for new orders" and the note on UTC (0.23,
# next 0.02). Chosen by pooled 2-fold cross-validation on every fit set, vectors off (2026-12-07 recall46,
# evals/recall/words46.py) over threshold 0.1-0.3 x lead 0-0.2 x ratio 1-3 x head 0-0.3, a false recall weighed as
# three hits: fold 0's best (0.18, 0.08, 1, 0.2) +16 hits there, reads +15 hits / +4 false recalls on fold 1; fold
# 1's best (0.2, 0.2, 3, 0.2) +12/+2 there, reads +7/0 on fold 0. Kept: the stricter, fold 1's. Read on wide.jsonl's
# own 105-memory store (never fitted on): fold 0's setting gave +3 hits, +5 false recalls and 5 wrong memories for
# misses ("deploy the new tern build to production" → the ledger deploy note, "generate a UUIDv7 in TypeScript" →
# the atlas overview): a lone shared topic word leads easily in a store of many projects. And at least WORD_SHARED
# content words shared (:attr:`Evidence.shared`): one word, or none ("what does this project do?" and the sprint
# status note through "project" alone, 0.35; "is it down?" and a note on the VPN being down, 0.20), is one word's
# luck; every hit of the fit sets' replay shares two or more, so the bound changes nothing there.
WORD_THRESHOLD, WORD_LEAD, WORD_RATIO, WORD_HEAD, WORD_SHARED = 0.2, 0.2, 3.0, 0.2, 2
# Meaning and words agreeing (:func:`agreed`) lower the bar to AGREED_THRESHOLD (:func:`bar`): just above every memory
# agreed but not needed on the fit half (0.386; 2-fold by parity, each fold's own highest gives 0.4, +1 hit on the other
# fold, no false recall; 0.3, the best of a grid on all of it, sat 0.03 above them: see evals/recall/fit.py).
AGREED_THRESHOLD, AGREED_COVERAGE = 0.4, 0.2
# An agreed memory that is the nearest in meaning by more than NEAREST_LEAD and holds NEAREST_COVERAGE of the query's
# weight (:func:`nearest_held`) is returned from NEAREST_THRESHOLD: a short prompt whose nearest memory holds most of
# its words ("the logger", "how should this project log?", "how long should your replies be for me?") scored 0.33-0.40,
# under the agreed bar, because a short prompt's words are few and the hybrid model rates few words low. Chosen by
# pooled 2-fold cross-validation on every fit set with shop.jsonl (2026-12-05 recall29) over bar 0.25-0.38 x lead
# -0.015-0.01 x coverage 0.2-0.5 x gap, a false recall weighed as three hits: fold 1's best (0.3, 0.005, 0.4) gives
# +2 hits on either fold, no false recall; fold 0's bests (+2, 0 there) read +3/+3 (the loosest, 0.25) to 0/0 (0.35).
NEAREST_THRESHOLD, NEAREST_LEAD, NEAREST_COVERAGE = 0.3, 0.005, 0.4
# Two memories whose cosines to a query lie within TIE of each other are tied in meaning (:func:`agreed`,
# :func:`outranked`): "upload the build output somewhere the release job can pick it up" sits 0.006 nearer the note
# on release tags than the S3 bucket note it needs. Chosen by pooled 2-fold cross-validation on the fit data
# (evals/recall/neg.py, 2026-12-03 recall13) from 0.002–0.03: on fold 0 0.015–0.03 give +2 hits, on fold 1 0.012–0.03
# +1, no false recall either way; the stricter of each fold's best, read on the other, gives +1 hit there.
TIE = 0.015
# A memory written in another script than the query that is nevertheless the nearest to it in meaning of all memories
# and of its own script's (:func:`crossed`) is returned from CROSSED_THRESHOLD (:func:`bar`). Chosen by 2-fold
# cross-validation on the fit data (evals/recall/fit.py, 2026-12-03 recall8) from 0.05, 0.1, 0.15, 0.2, 0.3: 0.05 and
# 0.1 tie best on either fold, +3 / +1 hits on the other and no false recall; such memories not needed score ≤ 0.046
# (≤ 0.018 and ≤ 0.046 by fold), those needed ≥ 0.13: the larger of the two, 0.1, keeps twice the margin.
CROSSED_THRESHOLD = 0.1
# A memory in another script than the query that is the nearest in meaning of its script's and within KIN_TIE of the
# nearest of all (:func:`kin_near`) is returned from AGREED_THRESHOLD: there no word can agree, its standing among its
# kin and near the top of all does. Chosen by pooled 2-fold cross-validation on all fit data (2026-12-05 recall24,
# evals/recall/kin.py) from 0–0.1: on fold 0 every value from 0.015 to 0.05 gives +1 hit, on fold 1 0.03 alone gives
# +2 (0.025: +1, ≤ 0.02: none), no false recall either way; 0.03 is the best of both folds.
KIN_TIE = 0.03
# A question asking in general (:attr:`Evidence.general`) is still the project's when the memory holds most of its
# weight (:attr:`Evidence.coverage` ≥ GENERAL_COVERAGE): "how do I format Python code?" and the note on ruff (0.65),
# "how do I report a pipeline bug?" and the bug tracker (0.61), where a question on a tool a memory names asks what
# the memory does not hold ("crop … with Pillow", 0.43). Chosen by 2-fold cross-validation on the fit data with
# evals/recall/trial.jsonl (evals/recall/fit.py, 2026-12-03 general9) from 0.5–0.8.
GENERAL_COVERAGE = 0.6
# A long prompt (:attr:`Evidence.query`, log1p of its terms' weight, at least LONG_QUERY: about ten content words or
# more that the store mostly lacks) of which a memory holds at most THIN_COVERAGE of the weight and at most THIN_SHARED
# core words is not that memory's (:func:`thin`, :func:`bar`): "the kafka consumer group keeps rebalancing every couple
# of minutes…" shares "keep" with the note on pull-request size, and the hybrid model, which learnt that long task
# prompts miss many words, rated the cosine a word or two carried. Chosen by pooled 2-fold cross-validation on the fit
# data with evals/recall/probe.jsonl (evals/recall/neg.py, 2026-12-03 neg11) from 0.1–0.3 × 3.8–4.1 × 1–4 words:
# chosen on fold 0 (0.3, 3.9, 3) gives fold 1 −6 false recalls, chosen on fold 1 (0.15, 4.0, 3) gives fold 0 −2, no
# hit lost either way; without the word limit a pasted handler holding six of a note's words (coverage 0.27) was lost.
# A memory stating what the store knows of the query (held ≥ STRONG) is exempt: no change on the fit data, and a
# question after a pasted log ("Why is kafka retention dropping events?") is the note on Kafka retention's.
THIN_COVERAGE, LONG_QUERY, THIN_SHARED = 0.25, 3.95, 3
# A prompt of query weight CROWDED_QUERY or more (a long task or question) of which a memory of its own script holds at
# most THIN_COVERAGE, standing less than CROWDED_GAP above the prompt's median cosine and not the nearest by
# CROWDED_LEAD (:func:`crowded`) is not that memory's: such a prompt's cosines crowd high (median 0.80-0.82 against
# 0.76-0.79 for short ones) and the hybrid model, which reads the raw cosine and rewards what a long prompt misses, put
# "hey so the react build takes like 4 minutes now, webpack 5…" over the bar for two notes at gap 0.036-0.038, lead
# -0.002/+0.002. Chosen by pooled 2-fold cross-validation on every fit set (evals/recall/false36.py, 2026-12-06) over
# query 3.4-3.8 x coverage 0.15-0.25 x gap 0.03-0.06 x lead 0-0.02: fold 1's best (fewest false recalls, no hit lost)
# reads on fold 0 (hits, false) (0, -2), fold 0's best (lead 0.02) reads (-1, -2) on fold 1; kept at the lead both keep
# every hit (0.01), query 3.5 (3.4-3.7 read the same) and gap 0.05 (0.06 reads the same).
CROWDED_QUERY, CROWDED_GAP, CROWDED_LEAD = 3.5, 0.05, 0.01
# A memory written in another script than the prompt, sharing with it only words (a number not counted) that at least
# COMMON_NEARER memories of the prompt's own script nearer in meaning hold as well (:attr:`Evidence.common`), carried
# over its bar by its standing among its script's memories alone, for a prompt of query weight COMMON_QUERY or more
# (:func:`loaned`), is not returned at the threshold: "write a unit test for the slugify function…" and the Chinese
# note on the test database ("test" in its name), "draw an ASCII diagram … to the api pods" and the Japanese note on
# the payment API's rate limit: the shared word is the store's common one, and the few memories of the other script
# make leading them cheap. Chosen by pooled 2-fold cross-validation on every fit set with stray.jsonl
# (evals/recall/false37.py, 2026-12-06) over 1-4 nearer x query 0-3.5 x a stand-in exempt or not: fold 1's best (2,
# 3.0, exempt: (hits, false, unneeded) (0, -2, -6)) reads (0, 0, -4) on fold 0 but drops the Chinese test-database
# note beside no-mocks-db for "add a unit test that uses an in-memory database" (2 nearer); kept at 3 (0, 0, -3),
# (0, -1, -4): no needed memory lost on either fold; without the stand-in exemption fold 1 loses the Chinese note on
# logging phone numbers ("when the SMS verification fails, log the user's phone number…", 4 nearer holding "log").
COMMON_NEARER, COMMON_QUERY = 3, 3.0
# A memory only the lexical model returns while another memory is nearer in meaning (:func:`outranked`) is not
# returned at the threshold: kept by pooled 2-fold cross-validation on the fit data (evals/recall/neg.py, 2026-12-03
# recall13): any lead bar from 0 to −0.03 gives the same on each fold, false recalls −2 (fold 0) and −1 (fold 1), no
# hit lost; with neither the hybrid model's say nor the check among a memory's own script it lost 1–8 hits.
# Share of the query's held weight that one sentence (or the head) must hold for the cosine to only break ties
# among such memories in an explicit search (:func:`memdir.search.ranking.ranked`): "nearly all of it". Not
# fitted; on the planted facts at 1,000 notes (benchmarks/planted_facts.py) every answering sentence holds 1.0.
STRONG = 0.9
# A memory holding another value of a dotted number the query writes and not the query's (:attr:`Evidence.clashes`:
# ``10.0.0.12`` for "Redis 10.0.0.13", ``18.17.1`` for "node 18.17.2") is scored CLASHED of what its words and
# meaning say (:func:`score`), never states the query (:func:`stated`) and is not returned at the threshold
# (:func:`bar`): it is about another host or release of the thing asked. num42: a hostile tester saw the sibling
# listed at 0.94-0.99 beside the right one, its other words all matched; at a tenth it reads as weak (≤ 0.1) and
# under every bar, a memory holding the number (even alone, 0.07) before it. A prior, not fitted: few prompts of the
# fit splits write a number a memory could clash with (4, in probe, pasted, wide); run.py --split fit, all 16 sets:
# vectors off 296/508 hits and 21 → 20/478 false recalls (probe: a pasted snippet's "* 0.9" and a note's other 0.x),
# vectors on 416/508 and 64/478 before and after, each set's lines the same. Since clashes need a sibling (break43:
# two-group numbers and other hosts no longer clash), vectors off 296/508 and 21/478, as before num42.
CLASHED = 0.1

# Fitted by evals/recall/fit.py on the training half (see the module docstring).
LEXICAL = {"bias": -12.147, "coverage": 2.801, "head": 3.77, "mass": 2.052, "missing": 0.421, "query": 0.951,
           "complete": 6.0}
HYBRID = {"bias": -31.768, "coverage": 0.766, "head": 2.529, "mass": 1.336, "missing": 1.969, "query": -0.701,
          "cosine": 29.187, "gap": -8.849, "lead": 62.184, "complete": 6.0}


def _sigmoid(z: float) -> float:
    if z < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def _linear(model: dict[str, float], features: dict[str, float]) -> float:
    total, get = 0, features.get  # summed in the model's order from 0, as sum() would: the same float
    for name, w in model.items():
        if name != "bias":
            total += w * get(name, 0.0)
    return model["bias"] + total


def score(evidence: Evidence) -> float:
    """The calibrated relevance in [0, 1]: the lexical model, or the larger of
    the lexical and hybrid models when the memory has a current vector; for a memory written in another script
    than the query (:attr:`Evidence.kin`), the hybrid model also over its gap and lead among its script's
    memories (the language lowers every cosine of a script alike: :mod:`memdir.search.scripts`); times
    :data:`CLASHED` for a memory contradicting a number the query writes (:attr:`Evidence.clashes`)."""
    features = evidence.features()
    z = _linear(LEXICAL, features)
    value = _sigmoid(z if evidence.cosine is None else max(z, _hybrid(evidence, features)))
    return value * CLASHED if evidence.clashes else value


def _hybrid(evidence: Evidence, features: dict[str, float] | None = None) -> float:
    """The hybrid model's logit for ``evidence`` (which has a cosine): over all memories, or, for a memory in another
    script than the query, the larger of that and over its script's memories (:func:`score`). ``features``: its
    :meth:`Evidence.features`, when the caller has them."""
    features = evidence.features() if features is None else features
    z = _linear(HYBRID, features)
    if evidence.kin is not None:
        z = max(z, _linear(HYBRID, {**features, "gap": evidence.kin[0], "lead": evidence.kin[1]}))
    return z


def agreed(ev: Evidence) -> bool:
    """True when meaning and words agree: the memory is the one nearest the query in meaning or tied with it (a lead
    above −:data:`TIE` among all; for a memory written in another script than the query, also a lead above 0 among
    its script's, :attr:`Evidence.kin`), holds :data:`AGREED_COVERAGE` of its weight (head and best passage) and a
    core word of it (:attr:`Evidence.shared`)."""
    nearest = ev.lead > -TIE or ev.kin is not None and ev.kin[1] > 0.0
    return ev.cosine is not None and nearest and ev.coverage >= AGREED_COVERAGE and bool(ev.shared)


def nearest_held(ev: Evidence) -> bool:
    """True when :func:`agreed` holds and the memory is the nearest to the query in meaning by more than
    :data:`NEAREST_LEAD` (its lead) and holds at least :data:`NEAREST_COVERAGE` of its weight (head and best passage):
    meaning and most of the words point at it alone. :func:`bar` returns it from :data:`NEAREST_THRESHOLD`."""
    return agreed(ev) and ev.lead > NEAREST_LEAD and ev.coverage >= NEAREST_COVERAGE


def outranked(ev: Evidence) -> bool:
    """True when words alone carry a memory that meaning places behind another: another memory is nearer the query
    in meaning by more than a tie (a lead of −:data:`TIE` or below; for a memory written in another script than the
    query, below 0 among its script's too, :attr:`Evidence.kin`) and the hybrid model (words and meaning,
    :func:`score`) puts it under :data:`THRESHOLD` while the lexical model alone (:func:`lexical`) reaches it: "how do
    I read a YAML file in Python?" holds "read", "yaml" and "file" of the note on Docker env files (lexical 0.52, lead
    −0.043). A memory with no vector, with no other memory to be nearer (lead 0: a store of one) or stating the query
    in one place (:func:`stated`: meaning never lowers an exact match) is never outranked."""
    nearer = ev.lead <= -TIE and (ev.kin is None or ev.kin[1] < 0.0)
    return ev.cosine is not None and nearer and not stated(ev) and _sigmoid(_hybrid(ev)) < THRESHOLD <= lexical(ev)


def crossed(ev: Evidence) -> bool:
    """True when the memory is written in another script than the query (:attr:`Evidence.kin` set: see
    :mod:`memdir.search.scripts`) and is still the nearest to it in meaning, of all memories (its lead above 0)
    and of its script's (its lead among them above 0): the language lowers every cosine of that script, so
    standing first over the query's own script is strong evidence of meaning though no word is shared
    ("hardcode the Korean label for the signup button" and the Korean note on translation files)."""
    return ev.cosine is not None and ev.kin is not None and ev.lead > 0.0 and ev.kin[1] > 0.0


def kin_near(ev: Evidence) -> bool:
    """True when the memory is written in another script than the query (:attr:`Evidence.kin` set), is the nearest
    to it in meaning of its script's memories (its lead among them above 0) and within :data:`KIN_TIE` of the nearest
    of all (its lead above −:data:`KIN_TIE`): the language lowers every cosine of its script, so a memory leading its
    kin and still about as near as the nearest of the query's own script is meaning agreeing where no word can be
    shared ("when the SMS verification fails, log the user's phone number…" and the Chinese note against logging phone
    numbers: lead −0.026, score 0.49). :func:`crossed` is the stronger case (the nearest of all)."""
    return ev.cosine is not None and ev.kin is not None and ev.kin[1] > 0.0 and ev.lead > -KIN_TIE


def thin(ev: Evidence) -> bool:
    """True when the query is long (:attr:`Evidence.query` ≥ :data:`LONG_QUERY`) and the memory holds at most
    :data:`THIN_COVERAGE` of its weight (head and best passage) and at most :data:`THIN_SHARED` of its core words
    (:attr:`Evidence.shared`), unless the memory states in one place what the store holds of the query at all
    (:func:`stated`: a short question after a pasted log whose lines no memory holds) or is written in another script
    and shares no word with it (:attr:`Evidence.kin` set, :attr:`Evidence.shared` empty: words cannot be held there)."""
    if ev.kin is not None and not ev.shared or stated(ev):
        return False
    return ev.query >= LONG_QUERY and ev.coverage <= THIN_COVERAGE and len(ev.shared) <= THIN_SHARED


def crowded(ev: Evidence) -> bool:
    """True when meaning does not lift a thin share of a long prompt out of the crowd: the prompt weighs at least
    :data:`CROWDED_QUERY` (:attr:`Evidence.query`), the memory holds at most :data:`THIN_COVERAGE` of it (head and best
    passage), stands less than :data:`CROWDED_GAP` above the prompt's median cosine (:attr:`Evidence.gap`) and is not
    the nearest by :data:`CROWDED_LEAD` (:attr:`Evidence.lead`): "write a SQL query that returns the top 5 customers by
    revenue…" and the note on committing in multi-session work (coverage 0.11, gap 0.040, lead 0.006). A memory
    with no cosine, one written in another script than the prompt (:attr:`Evidence.kin` set: the language lowers its
    gap), one whose head names a concept of the prompt by another form (:attr:`Evidence.stand_in`: "the build agent
    seems offline…" and the note on the CI runner) or stating the query in one place (:func:`stated`) is never
    crowded out, nor one sharing more than :data:`THIN_SHARED` of its core words (a number not counted: "5" is no
    topic), as :func:`thin` (a pasted handler holding six of a note's words, in a store where they are a thin share)."""
    return ev.cosine is not None and ev.kin is None and not ev.stand_in and ev.query >= CROWDED_QUERY and \
        ev.coverage <= THIN_COVERAGE and ev.gap < CROWDED_GAP and ev.lead < CROWDED_LEAD and not stated(ev) and \
        sum(not t.isdigit() for t in ev.shared) <= THIN_SHARED


def loaned(ev: Evidence) -> bool:
    """True when a memory written in another script than the prompt (:attr:`Evidence.kin` set) shares with it only
    words that memories of the prompt's own script nearer in meaning hold as well (:attr:`Evidence.common`: "test",
    "api" written in a Chinese or a Japanese note), the prompt weighs at least :data:`COMMON_QUERY`
    (:attr:`Evidence.query`) and the memory's head does not name a concept of the prompt by another form
    (:attr:`Evidence.stand_in`: "log the user's phone number" and the Chinese note on phone numbers in logs).
    :func:`bar` refuses it when only its standing among its script's memories carries it."""
    return ev.common and ev.kin is not None and not ev.stand_in and ev.query >= COMMON_QUERY


def commonly_held(found: dict) -> dict:
    """``found`` (row id → :class:`Evidence` with its cosine: one prompt's candidates) with
    :attr:`Evidence.common` set on each memory of another script (:attr:`Evidence.kin`) whose shared words (a number
    not counted) at least :data:`COMMON_NEARER` memories of the prompt's script (no ``kin``) nearer in meaning share
    too. Unchanged when no memory is of another script."""
    own = [ev for ev in found.values() if ev.kin is None and ev.cosine is not None and ev.shared]
    out = dict(found)
    for i, ev in found.items():
        if ev.kin is None or ev.cosine is None:
            continue
        words = {t for t in ev.shared if not t.isdigit()}
        if words and sum(1 for o in own if o.cosine > ev.cosine and words.issubset(o.shared)) >= COMMON_NEARER:
            out[i] = replaced(ev, common=True)
    return out


def bar(evidence: Evidence, min_score: float = THRESHOLD) -> float:
    """The score a memory of ``evidence`` must reach: :func:`_bar`, and ``math.inf`` (never) at the threshold for a
    memory of another script sharing only the store's common words with the prompt (:func:`loaned`: false37) that
    neither its words alone (:func:`lexical`) nor the hybrid model over all memories bring to that bar, only its
    standing among its script's (:attr:`Evidence.kin`)."""
    value = _bar(evidence, min_score)
    if min_score == THRESHOLD and value < math.inf and loaned(evidence):
        features = evidence.features()
        if _sigmoid(max(_linear(LEXICAL, features), _linear(HYBRID, features))) < value:
            return math.inf
    return value


def _bar(evidence: Evidence, min_score: float = THRESHOLD) -> float:
    """The score a memory of ``evidence`` must reach when the caller asks for ``min_score``. At the relevance
    threshold (``min_score`` is :data:`THRESHOLD`): :data:`CROSSED_THRESHOLD` when :func:`crossed` holds (a memory in
    another script nearest in meaning of all and of its script's); :data:`AGREED_THRESHOLD` when :func:`agreed` holds
    (the nearest memory in meaning, or one tied with it, sharing the query's words) or :func:`kin_near` holds (in
    another script, nearest of its script's and within :data:`KIN_TIE` of the nearest of all); :data:`NEAREST_THRESHOLD`
    when :func:`nearest_held` holds (agreed, the nearest by more than a hair, holding most of the query's weight:
    recall29); ``math.inf`` (never) for a query comparing things (:attr:`Evidence.compared`) that the memory does not state in one place
    (:func:`stated`): "what's the difference between Redis and Memcached?" is general knowledge, not the note on
    Redis sessions (2-fold on the fit data, evals/recall/fit.py 2026-12-03 neg7); ``math.inf`` too for a memory sharing with a prompt only
    the words of a thing of the conversation (:attr:`Evidence.pointed`: "summarise the diff above" and the note that
    the user reads the diff, false33); ``math.inf`` too for a query
    asking in general (:attr:`Evidence.general`) when the memory's words alone (:func:`lexical`) do not reach the
    threshold, unless it holds :data:`GENERAL_COVERAGE` of the query's weight (:func:`general_held`) ("how do I format Python code?" and
    the note on ruff: general9), whatever script the memory is written in: "how do I crop an image to a
    square with Pillow?" is not the note on Pillow's memory limit (recall8), nor, whatever its words, a memory on
    what a general question asks to be defined (:attr:`Evidence.defines`: "what is a feature flag?"); ``math.inf`` too
    for a question anyone could ask or a remark of the chat (:attr:`Evidence.anyone`) when the memory's words alone do
    not reach the threshold: its cosine is no sign the project's note answers it (recall49: vectors on, "why do people
    use feature flags?", "in general, how do s3 buckets work?", "great job on the session, redis is awesome" recalled
    their topic's note by meaning; the fit sets' such rows recall nothing either way); ``math.inf`` too for a memory holding a
    thin share of a long query (:func:`thin`: neg11), for one meaning leaves in the crowd of a long prompt
    (:func:`crowded`: false36), for one contradicting a number the query writes (:attr:`Evidence.clashes`:
    num42) and for one the words alone carry while another memory is nearer
    in meaning (:func:`outranked`: recall13). Past those, 0 (any score) for the nearest memory of a prompt in a
    language the store's words cannot hold (:func:`memdir.search.foreign.by_meaning`: cross28). Else ``min_score``. The one rule of search, MCP and recall alike.

    A general question's memory in another script sharing no word with it was exempt until recall25: pooled 2-fold on
    the fit data (evals/recall/oof.py) the exemption gave no hit on either fold (the four needed memories under it
    score 0.001–0.018) and one false recall on fold 1 ("Dockerfile の HEALTHCHECK の書き方を教えて…" and the English
    note on Docker env files, by the crossed bar); chosen on fold 0 (a tie: the simpler bar) it reads −1 false recall
    on fold 1, chosen on fold 1 it reads 0/0 on fold 0."""
    if min_score == THRESHOLD and evidence.compared and not stated(evidence):
        return math.inf
    if min_score == THRESHOLD and (evidence.pointed or evidence.clashes or thin(evidence) or outranked(evidence)
                                   or crowded(evidence)):
        return math.inf
    if min_score == THRESHOLD and evidence.general and (evidence.defines or not general_held(evidence)):
        return math.inf
    if min_score == THRESHOLD and evidence.anyone and lexical(evidence) < THRESHOLD:
        return math.inf
    if min_score == THRESHOLD and by_meaning(evidence):  # a foreign prompt's nearest, standing out: meaning alone
        return 0.0
    if min_score == THRESHOLD and crossed(evidence):
        return CROSSED_THRESHOLD
    if min_score == THRESHOLD and nearest_held(evidence):
        return NEAREST_THRESHOLD
    if min_score == THRESHOLD and led_by_words(evidence):
        return WORD_THRESHOLD
    return AGREED_THRESHOLD if min_score == THRESHOLD and (agreed(evidence) or kin_near(evidence)) else min_score


def returned(evidence: Evidence, value: float, min_score: float = THRESHOLD, explicit: bool = False) -> bool:
    """True when a memory scoring ``value`` on ``evidence`` is returned: at its :func:`bar`, or, in an explicit
    search, sharing a content word with the query (:attr:`Evidence.shared`: listed at its low score)."""
    return explicit and bool(evidence.shared) or value >= bar(evidence, min_score)  # the cheaper test first


def led_by_words(evidence: Evidence) -> bool:
    """True when a memory of ``evidence`` leads a prompt ranked by words alone: it has no cosine, its score stands
    :data:`WORD_LEAD` or more above every other memory's and :data:`WORD_RATIO` times the next's or more
    (:attr:`Evidence.word_lead`, set by the ranking only for the first memory of a prompt no memory has a cosine for) and its head (name, title, description) holds
    :data:`WORD_HEAD` of the prompt's weight (one sentence of the body holding it is not enough: read so, the fit
    folds' false recalls rose by 13-14 each at the same bar), sharing :data:`WORD_SHARED` content words with it
    or more. Such a memory is returned from :data:`WORD_THRESHOLD` (:func:`bar`)."""
    lead = evidence.word_lead
    return (evidence.cosine is None and lead is not None and lead[0] >= WORD_LEAD and lead[1] >= WORD_RATIO
            and evidence.head >= WORD_HEAD and len(evidence.shared) >= WORD_SHARED)


def word_leader(values: dict[int, float]) -> tuple[int, tuple[float, float]] | None:
    """The memory first by score of ``values`` (memory id → score in [0, 1]) and its lead over the next: ``(id,
    (score − next's, score ÷ next's))``, the next's score 0 and the ratio ``math.inf`` when it is alone or the next
    scores 0; None when ``values`` is empty or two share the first score."""
    if not values:
        return None
    ordered = sorted(values.items(), key=lambda item: item[1], reverse=True)
    first, value = ordered[0]
    nxt = ordered[1][1] if len(ordered) > 1 else 0.0
    if len(ordered) > 1 and nxt >= value:
        return None
    return first, (value - nxt, value / nxt if nxt > 0 else math.inf)


def general_held(evidence: Evidence) -> bool:
    """True when a memory of ``evidence`` holds enough of a question asking in general (:attr:`Evidence.general`)
    to be the project's answer to it: its words alone (:func:`lexical`) reach :data:`THRESHOLD` or it holds
    :data:`GENERAL_COVERAGE` of the query's weight (:func:`bar`)."""
    return lexical(evidence) >= THRESHOLD or evidence.coverage >= GENERAL_COVERAGE


def lexical(evidence: Evidence) -> float:
    """The calibrated relevance of the lexical model alone (the cosine left out; times :data:`CLASHED` as
    :func:`score`)."""
    value = _sigmoid(_linear(LEXICAL, evidence.features()))
    return value * CLASHED if evidence.clashes else value


def stated(evidence: Evidence) -> bool:
    """True when the memory states the query in one place: its head or one sentence of its body holds at least
    :data:`STRONG` of the query's held weight (:attr:`Evidence.held`), and contradicts no number of it
    (:attr:`Evidence.clashes`: "Redis runs at 10.0.0.12" states no "Redis 10.0.0.13")."""
    return evidence.held >= STRONG and not evidence.clashes


__all__ = ["AGREED_COVERAGE", "AGREED_THRESHOLD", "ASKED_GAP", "BodyTerms", "CROSSED_THRESHOLD", "CROWD",
           "CLASHED", "COMMON_NEARER", "COMMON_QUERY", "CROWDED_GAP", "CROWDED_LEAD", "CROWDED_QUERY", "Evidence",
           "GENERAL_COVERAGE", "HYBRID", "KIN_TIE", "LEXICAL", "LONG_QUERY", "NEAR_TOKENS", "PASSAGE_TOKENS",
           "NEAREST_COVERAGE", "NEAREST_LEAD", "NEAREST_THRESHOLD", "Prefixes", "SOLO_COSINE", "STRONG",
           "THIN_COVERAGE", "THIN_SHARED", "THRESHOLD", "TIE", "agreed", "as_terms", "bar",
           "best_passage", "best_window", "commonly_held", "compares", "crossed", "crowded", "evidence", "general_held", "kin_near", "lexical", "loaned", "median",
           "nearest_held",
           "outranked", "read_body", "replaced", "returned", "score", "standing", "stated", "thin", "tightest", "with_cosine",
           "WORD_HEAD", "WORD_LEAD", "WORD_RATIO", "WORD_SHARED", "WORD_THRESHOLD", "led_by_words", "word_leader"]
