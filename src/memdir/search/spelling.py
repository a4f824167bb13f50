"""When a query word is read as another word the index holds, by its spelling alone (issue 28).

Two readings, one rule: a word stands for a longer word only when the shorter one is a word as written, and the
longer one merely runs on past it.

- **Beginning longer words** (:func:`starts`): a query word of :data:`PREFIX_MIN` letters or more also finds the
  longer words it begins as the same word or name (:func:`begins`, the rule of :func:`runs_on` below:
  ``postgres`` finds "PostgreSQL"; ``commit`` not "committee", ``server`` not "serverless", ``system`` not
  "systemd"; ``config`` meets "configuration" as one term, :func:`derived`). The index holds stems, so
  the beginning is the query word's stem — but only where the stemmer took off no more than an inflection (a plural
  ``-s``/``-es``, a final ``-e``; a final ``-y`` written ``-i``: ``expiry`` begins "expires", and only the words
  of its family as written, :func:`continues`: not "factor" for ``factory``; a ``-cy`` noun keeps its ``i``:
  ``policy`` begins no "police"). A stem cut from a
  longer word is no word's beginning: ``changeling`` is ``changel`` + ``ing``, and "changelog" does not run on
  from it; ``postgis`` is ``postgi`` + ``s``, no ``-y``, so not ``postg`` of "Postgres". A final ``-e`` is the
  word's: ``police`` begins no "policy" (``polici``); nor, by :func:`begins`, ``office`` "officers".
- **A longer spelling of a shorter name** (:func:`runs_on`): a query word no memory holds is read as the shorter
  name the memories write when it is that name (its stem, with the plural or final ``-e`` the stemmer took off it)
  followed by the abbreviated kind a product's name may write (:data:`NAME_TAILS`): ``postgresql`` is "Postgres"
  + ``ql`` (``db``, ``js`` alike; past such a kind a name of :data:`KIND_MIN` letters is enough: ``nodejs`` is
  "Node"). Letters with a vowel make another word: ``committee`` is not "commit",
  ``secretary`` not "secret", ``serverless`` not "server", ``banner`` not "banned" (the last also below
  :data:`NEAR_MIN`); other letters another name: ``systemd``, ``systemctl`` are not "system", ``containerd`` not
  "contain", ``postgrest`` not "Postgres", ``thousandth`` not "thousand".

- **One word, not a word derived from it** (:func:`derived`): the stemmer (Snowball English) also strips
  derivational endings, and so makes one term of different words (``publicity`` and "public", ``topical`` and
  "topics", ``officers`` and "office", ``objective`` and "objects"). A word's term is its stem only when the
  stemmer took off an inflection (a plural, ``-ed``, ``-ing``, a final ``-e``, a ``-y`` written ``-i``) or one of
  :data:`DERIVATIONS`, the endings that name a verb's act or an adverb (``deployment`` is "deploy",
  ``installation`` "install", ``migration`` "migrate", ``performance`` "perform", ``quickly`` "quick"), or one of
  :data:`DOERS`, the endings English still makes new words of a verb with: its doer or tool and what can be done
  to it (``limiter`` is "limit", ``scheduler`` "schedule", ``validator`` "validate", ``configurable``
  "configure"); an ``-ity`` is its adjective's where it replaces the adjective's final ``-e``
  (:data:`QUALITIES`: ``security`` is "secure", ``availability`` "available"); otherwise
  it is the word less its inflection (``publicity`` → ``publiciti``, ``officers`` → ``officer``), which meets its
  own forms only. ``-ment`` after an ``i`` or a ``part`` is no verb's act (``experiment``, ``sediment``: not "experience"'s
  ``experi``; ``department`` no "depart"); an ``-mental`` adjective is its ``-ment`` noun's (``experimental``, ``environmental``), an ``-enced``
  or ``-encing`` verb its ``-ence`` noun's (``experienced``, ``referenced``). An ``-ification`` is its ``-ify`` verb's (``verification`` is "verify"'s ``verifi``, not
  "verific"); an ``-icate`` verb and its ``-ication`` are never the ``-ic`` word's: ``publication`` and
  ``replicate`` are ``publicat``, ``replicat``, not "public", "replica". A Latin verb's act whose stem spells
  another word is its own word (:data:`LATIN_ACTS`: ``contention``, ``subscription``, ``production``: not "content",
  "subscript", "product") or, a ``-version``, its ``-vert`` verb's (``conversion`` is "convert"'s, not "converse"'s:
  "conversation" is); a word whose meaning drifted from its root is its own (:data:`DRIFTED`: ``important`` is no
  "import").

- **A slip of the keyboard** is :mod:`memdir.search.typos`'s rule (``paginaton`` → "pagination", ``conect`` →
  "connect"), on every path that reads a query; a word it reads is one none of the readings above finds.

Meaning (the vectors) covers what spelling cannot tell (``logger`` and "logging"). Pure; the SQL that finds the
candidates is :mod:`memdir.search.terms`'s, the matching :mod:`memdir.search.tokenize`'s (FTS5 prefix queries)
and :mod:`memdir.search.reading`'s (a memory's words).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..text.words import KEPT_E

PREFIX_MIN = 5
"""A query term of at least this many ASCII letters may also match the
longer words it begins (:func:`starts`). Shorter terms match whole only
(``port`` must not find ``portal``)."""

INFLECTIONS = ("", "s", "es", "e")
"""What the stemmer may take off a word, as written, for its stem still to begin the word's longer forms
(``postgres`` → ``postgr``, ``caches`` → ``cach``, ``database`` → ``databas``)."""

NEAR_MIN = 6
"""Letters of the shortest indexed term that a longer query term no memory
holds is read as (:func:`runs_on`: ``postgresql`` → ``postgr``, as
memories write "Postgres"). Shorter ones are too many words' start."""

KIND_MIN = 4
"""Letters of the shortest indexed name a query term no memory holds is read as when what it adds is the
abbreviated kind of a product (:data:`KINDS`: ``nodejs`` → ``node``, as memories write "Node"; ``mongodb`` →
``mongo``): past a name, those letters name what it is. Any other tail needs :data:`NEAR_MIN` (``profile`` is no
``pro`` + ``file``)."""

KINDS = ("ql", "sql", "db", "js")
"""The :data:`NAME_TAILS` that abbreviate a product's kind (SQL, DB, JS), read past a name of :data:`KIND_MIN`
letters."""

NEAR_TAIL = 4
"""Letters at most that a query term may run on past the indexed term it is
read as (``postgresql`` is ``postgr`` + 4): a word running on further
(``postgresqlx``) is another word, not a longer name."""

VOWELS = frozenset("aeiouy")

NAME_TAILS = ("ql", "sql", "db", "js", "file", "fil")
"""The letters by which a product's name may run on and still be that name, read past an inflection the shorter
name may have lost (:data:`INFLECTIONS`): its kind, abbreviated — SQL (``postgresql`` is "Postgres" + ``ql``,
``mysql``), DB (``influxdb``, ``dynamodb``), JS (``angularjs``); and a tool's file (``Dockerfile``,
``Makefile``, ``Jenkinsfile``: ``file`` as written, ``fil`` as stemmed). Any other run of letters makes another
name, even without a vowel: a daemon's ``d`` (``systemd`` is not "system", ``containerd`` not "contain"), a control tool's
``ctl`` (``systemctl``), another tool's ``t`` (``postgrest``, PostgREST, is not "Postgres"), an ordinal's ``th``
(``thousandth``). A list, not a letter rule: spelling cannot tell ``ql`` from ``th``, only what names write can."""

DERIVATIONS = ("ment", "ation", "ion", "anc", "enc", "anci", "enci", "ant", "ent", "at", "li")
"""Endings past an inflection by which the stemmer may still join a word to its root (:func:`derived`): a
verb's act or state (``deployment``, ``installation``, ``migration``, ``performance``, ``dependency``,
``dependent``: "depend"; ``idempotent``, ``idempotency``: one word) and an adverb
(``quickly``, written ``quickli`` once its ``y`` is an ``i``), and the ``-ate`` of a verb (``validate``), each
as :func:`uninflected` writes it (``-ance`` is ``anc``, ``-ate`` ``at``). An act is its verb's term:
``normalization`` is ``normalize``'s, ``normaliz``, not "normal". A verb's doer, tool or ``-able`` is its verb's
too (:data:`DOERS`), an adjective's ``-ity`` the adjective's (:data:`QUALITIES`). The others make another word:
``-ity`` of any other adjective (``publicity``), ``-ive`` (``formative``, ``objective``), ``-ible``
(``convertible``), ``-al`` (``topical``), ``-ic``, ``-ous``, ``-ism``, ``-ness``, ``-or`` but ``-ator``, and
``-er`` past an ``e`` or of :data:`NOT_DOERS` (``engineer``, ``officer``)."""


DOERS = ("er", "or", "abl")
"""Endings past an inflection by which the stemmer joins a word to the verb it is made from, when it took them off
(Snowball strips each only after two syllables of the word, its region R2, so never from ``user``, ``header``,
``server``, ``docker``, ``portable``, ``variable``): the doer or tool of a verb, ``-er`` (``limiter``,
``scheduler``, ``compiler``, ``balancer``, ``serializer``, ``deployer``; ``formatter`` is ``format``'s) and the
``-ator`` of an ``-ate`` verb (``validator``: Snowball takes ``-or`` off no other word, so ``factor``,
``director``, ``sensor`` stay whole), and what can be done to it, ``-able`` (``configurable``, ``deployable``).
These are the suffixes English still makes new words with, each meaning the same to any verb; ``-ible``
(``convertible``, ``accessible``, ``visible``), the closed Latin set that makes no new words and whose words
have drifted from their verb, is not among them. An ``-eer`` is no ``-er`` (``engineer`` is not "engine"), nor
is a word of :data:`NOT_DOERS`."""

NOT_DOERS = frozenset({"officer", "customer", "operator"})
"""The ``-er`` nouns the stemmer would join to a common word they are not the doer of: a person of a thing, made
from a noun (``officer`` holds an office, ``customer`` is no doer of "custom"); and ``operator``, which a code base
writes for a symbol (``+``, ``==``) or a controller (a Kubernetes operator), not for one who operates: it is
no "operations". Spelling cannot tell them from
``balancer`` (balance + r) or ``limiter``; a word list can. Measured on the 78,000 words written 8 times or more
in the docs and sources installed with memdir, its dependencies and Python: of the 144 ``-er`` words that
:data:`DOERS` joins to a word also written there, 133 name a doer or tool of it (``adapter``, ``compiler``,
``provider``, ``container``, ``tokenizer``), one is a comparative (``narrower``); of the others, these two join a
common word; the rest a word no memory means otherwise (``integer`` ``integ``, ``placeholder``, ``outsider``)
or first names (``oliver`` and "olive", ``christopher``)."""

LATIN_ACTS = ("ntention", "scription", "duction")
"""The ends of the acts of Latin verbs whose stem, as the stemmer leaves it, spells another word (:func:`derived`):
the act of ``-tend`` (``contention``, ``intention``: not "content", "intent"), ``-scribe`` (``subscription``,
``transcription``: not "subscript", "transcript") and ``-duce`` verbs (``production``, ``reduction``: not "product";
"prod" is production), each its own word with its plural. The stemmer joins none of them to its verb (``produc``,
``subscrib``) and spelling cannot tell which other word the letters name; a ``-version`` is its ``-vert`` verb's
(``conversion``, ``inversion``: "convert", "invert"; not "converse", whose act is ``conversation``, nor "inverse").
Measured as :data:`NOT_DOERS` was: the -ation/-ion, -ence/-ent and -ance/-ant words of those 19,000 words written 8
times or more that the stemmer joins to another word written there; the others are one word with it (``relation``,
``dependence``) or named in :data:`DRIFTED`."""

VERT_PREFIXES = frozenset("a ad con contro di extro in intro ob per re sub".split())
"""The Latin prefixes of the ``-vert`` verbs (``avert``, ``convert``, ``divert``, ``invert``, ``revert``, ``subvert``),
whose ``-version`` is their act (:data:`LATIN_ACTS`); not a name before ``version`` (``pyversion``, ``minversion``)."""

DRIFTED = {"import": "importan", "proven": "provenan", "edit": "edition", "project": "projection"}
"""Stems the stemmer gives a word whose meaning has drifted from its root, and that word's beginning, its term
(:func:`derived`): ``important``, ``importance``, ``importantly`` (``importan``) are not ``import``; ``provenance``
not ``proven``; ``edition`` not ``edit``; ``projection`` (a view of data, a map's) not the ``project`` a code base
is. Spelling cannot tell them from ``dependent``, ``assistant`` or ``addition``; a list can. The root's own forms
stay its (``imports``, ``imported``, ``importer``)."""

QUALITIES = (("biliti", "ble"), ("iviti", "ive"), ("uriti", "ure"))
"""An ``-ity`` noun as :func:`uninflected` writes it, and the ending of the adjective it is the quality of, that
adjective's term (:func:`of_adjective`): the ``-ity`` replaces a final ``-e`` that the letters before it need
(English ends no word in ``-bl``, ``-v``, nor an adjective in ``-ur``): ``availability`` is "available",
``compatibility`` "compatible", ``activity`` "active", ``security`` "secure". Not ``publicity`` ("public"),
``authority``, ``priority`` (``-or``), ``community``, ``utility``, whose adjective ends otherwise or is no word
of the store's meaning."""


def uninflected(word: str) -> str:
    """``word`` (case-folded ASCII letters) less its inflection, as the stemmer writes a stem's end: a plural or
    third-person ``-s``/``-es``/``-ies``, ``-ed``/``-ied``, ``-ing`` (a doubled consonant before them undone), then
    a final ``-e`` dropped and a final ``-y`` written ``-i``: ``officers`` → ``officer``, ``committed`` →
    ``commit``, ``configuring`` and ``configure`` → ``configur``, ``publicity`` → ``publiciti``. Pure."""
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        w = w[:-1]
    for ending in ("ed", "ing"):
        if w.endswith(ending) and len(w) > len(ending) + 2:
            w = w[:-len(ending)]
            if w.endswith("i"):
                w = w[:-1] + "y"  # copied: copi-ed
            elif len(w) > 2 and w[-1] == w[-2] and w[-1] not in VOWELS and w[-1] not in "lsz":
                w = w[:-1]  # committ-ed
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w[:-1] + "i" if w.endswith("y") and len(w) > 3 else w


def derived(word: str, stemmed: str, stem: Callable[[str], str]) -> str:
    """The term of ``word`` (case-folded ASCII letters) whose stem the stemmer gave as ``stemmed``:
    ``stemmed`` when the stemmer took off no more than an inflection (:func:`uninflected` less at most one more
    letter: ``install`` → ``instal``) or one of :data:`DERIVATIONS` (``deployment`` → ``deploy``, checked
    with ``stem`` on what is left, as written or with the ``-e``/``-ate`` the ending replaced:
    ``migration`` → ``migrat``) or of :data:`DOERS` (``limiter`` → ``limit``, ``validator`` → ``valid``,
    ``configurable`` → ``configur``; ``formatter`` → ``format``; not an ``-eer`` nor :data:`NOT_DOERS`); an
    ``-ity`` of :data:`QUALITIES` its adjective's term (``security`` → ``secur``, ``availability`` → ``avail``);
    else the word less its inflection (``publicity`` → ``publiciti``, ``topical`` → ``topical``,
    ``publication`` → ``publication``, ``officers`` → ``officer``; ``experiment`` → ``experiment``: an
    ``-iment`` is no verb's act). An ``-mental`` adjective is its noun's (``experimental`` → ``experiment``), an
    ``-enced``/``-encing`` verb its ``-ence`` noun's (``experienced`` → ``experi``); ``conversion`` → ``convert``,
    ``contention`` → ``contention``, ``important`` → ``importan`` (:data:`LATIN_ACTS`, :data:`DRIFTED`). Pure."""
    if word[len(stemmed):] in ("", "s", "es", "e", "ed", "d", "ing", "ings") and word.startswith(stemmed):
        if stemmed.endswith("enc") and word[len(stemmed):] in ("ed", "ing"):  # experienced: experience's term
            return derived(stemmed + "e", stem(stemmed + "e"), stem)
        return stemmed  # an inflection the stemmer took off a short word (being: be, going: go)
    base = uninflected(word)
    if len(base) - len(stemmed) < 2 or not base.startswith(stemmed):
        return stemmed
    ify = base.rfind("ificat")
    if ify > 2 and base[ify:] in ("ificat", "ification"):
        return base[:ify] + "ifi"  # an -ify verb's -ification and -ificate: verify, verification; certificate
    if stemmed.endswith("ic") and base.startswith(stemmed + "at"):
        return stemmed + "at"  # an -icate verb and its -ication (replicate, publication) are not the -ic word's
    quality = of_adjective(base)
    if quality is not None:  # security is secure's, availability available's: the adjective's term
        return derived(quality, stem(quality), stem)
    if base in NOT_DOERS:
        return base
    drifted = DRIFTED.get(stemmed)
    if drifted is not None and base.startswith(drifted):
        return drifted  # important, importance, importantly: not import; edition not edit
    if base.endswith("ion"):
        if base[:-7] in VERT_PREFIXES and base.endswith("version"):  # conversion is convert's, not converse's
            verb = base[:-7] + "vert"
            return derived(verb, stem(verb), stem) if stem(verb) != verb else verb
        if base.endswith(LATIN_ACTS):
            return base  # contention, subscription, production: not content, subscript, product
    if base.endswith("mental") and len(base) > 8:  # experimental is experiment's, environmental environment's
        noun = base[:-2]
        return derived(noun, stem(noun), stem)
    for ending in DERIVATIONS + DOERS:
        if base.endswith(ending) and len(base) > len(ending) + 2:
            root = base[:-len(ending)]
            if ending == "ment" and root.endswith(("i", "part")):
                continue  # experiment, sediment: not experience's experi; department, compartment: no depart
            if ending == "er" and root.endswith("e"):
                continue  # engineer is no engine + er: a verb's e goes before -er (compile, compiler)
            if ending in DOERS and root[-1] == root[-2] and root[-1] not in VOWELS and root[-1] not in "lsz" \
                    and len(root) > 4 and stem(root) == stemmed:  # formatt-er, programm-able: format, program
                verb = root[:-1]
                return derived(verb, stem(verb), stem) if stem(verb) != verb else verb
            for verb in (root, root + "e", root + "ate"):
                if stem(verb) == stemmed:  # the act of a verb is the verb's term (normalization: normaliz)
                    return derived(verb, stemmed, stem) if verb != word else stemmed
    return base


def of_adjective(base: str) -> str | None:
    """The adjective, as written, whose quality the uninflected ``base`` (:func:`uninflected`) names by
    :data:`QUALITIES` (``securiti`` → ``secure``, ``availabiliti`` → ``available``, ``activiti`` → ``active``);
    None for any other word (``publiciti``, ``authoriti``, ``communiti``). Pure."""
    for quality, adjective in QUALITIES:
        if base.endswith(quality) and len(base) - len(quality) >= 3:
            return base[:-len(quality)] + adjective
    return None


def prefixable(term: str) -> bool:
    """True when ``term`` is long enough to begin longer words (:data:`PREFIX_MIN` ASCII letters or more)."""
    return len(term) >= PREFIX_MIN and term.isascii() and term.isalpha()


def start(term: str, written: Iterable[str] = ()) -> str | None:
    """What the query ``term`` (a stem) matches as the start of longer
    words, given the ``written`` words (case-folded) of the query that gave
    it: the term when the stemmer took at most an inflection off one of them
    (:data:`INFLECTIONS`: ``postgres`` → ``postgr``) or wrote it otherwise
    (a short form: ``config`` → ``configur``); the term with the ``e`` the stemmer took off when that, or it and
    a plural ``s``, is all it took (``police`` → ``police``: it begins no "policy", whose stem
    ``polici`` begins ``polic``; ``offices`` not "officers"; ``postgres`` → ``postgre``; not after a sibilant:
    ``classes`` → ``class``, but ``databases`` → ``database``); the term without its ``i``
    when that ``i`` is a written ``y`` and :data:`PREFIX_MIN` letters are
    left (``expiry`` → ``expir``, so "expires" and "expiration" are found), but not after a ``c``: a ``-cy`` noun
    is the quality of an adjective or a word of its own (``privacy``, ``accuracy``, ``latency``, ``policy``), never
    the act of a ``-ce`` verb, whose act is the ``-ce`` word itself (``notice``, ``balance``), so ``policy`` →
    ``polici`` begins "policies" and not "police", "policed".
    None when the term is not :func:`prefixable` or the stemmer cut a longer
    ending off every written form (``changeling`` → ``changel``,
    ``logistics`` → ``logist``): that term matches itself only. No
    ``written`` (a term the query does not spell: a compound's joined form,
    a near form): the term as it is."""
    if not prefixable(term):
        return None
    forms = list(written)
    if not forms:
        return term
    out = None
    for word in forms:
        if word.endswith(("y", "ies")) and term.endswith("i") and len(term) > PREFIX_MIN \
                and word.startswith(term[:-1]) and word[len(term) - 1:] in ("y", "ies") and term[-2] != "c":
            return term[:-1]  # the stemmer's i for a y: expiri of expiry also begins expir-es, expir-ation
        if word.startswith(term) and (word[len(term):] == "e" or word[len(term):] == "es"
                                      and not term.endswith(("ss", "x", "z", "ch", "sh"))):
            out = out or term + "e"  # police(s) begin police-s, not polic-y: the e is the word's (not box-es')
        elif not word.startswith(term) or word[len(term):] in INFLECTIONS:
            out = term  # as written, less an inflection; or rewritten whole (a short form, an irregular plural)
    return out


def fetch(term: str, begun: str) -> str:
    """What an index lookup of the prefixed ``term`` (its start ``begun``, :func:`start`) asks for as a prefix:
    the start, or the term when the start runs on past it (``polic``, for ``police``); which of the words it
    fetches the term stands for, :func:`start` says (:class:`memdir.search.reading.Prefixes`)."""
    return begun if term.startswith(begun) else term


def begins(word: str, begun: str) -> bool:
    """True when the indexed ``word`` (a stem, as :func:`memdir.search.tokenize.stem` writes it) is one the start
    ``begun`` (:func:`start`) stands for: ``begun`` itself (``postgr``; ``expir``: "expires", "expired"), or
    ``begun`` run on as the same name (:func:`named`, the rule of :func:`runs_on`: ``postgresql`` is ``postgre`` +
    ``sql``, or ``postgr`` + ``es`` + ``ql`` where the query's written form is not known). A stem keeps no
    inflection, so what else runs on past ``begun`` in it is another syllable or another name: ``committe``
    (committee) is no ``commit``, ``secretari`` no ``secret``, ``serverless`` no ``server``, ``persona`` no
    ``person``, ``investig`` no ``invest``, ``systemd`` no ``system``; nor is a word whose ``e`` the stemmer keeps
    (:data:`memdir.text.words.KEPT_E`: ``locale`` no ``local``). The prefix query that fetches the
    candidates (:func:`fetch`) asks for more; this decides which of them count. Pure."""
    return word.startswith(begun) and named(word[len(begun):]) and word not in KEPT_E.keys() - {begun}


def named(tail: str) -> bool:
    """True when ``tail``, what a word writes past a shorter one, leaves it the same word or name: nothing, an
    inflection the shorter one lost (:data:`INFLECTIONS`), or that and one of :data:`NAME_TAILS` within
    :data:`NEAR_TAIL` letters (``esql`` of ``postgr``/``postgresql``). Not ``te`` (``committe``), ``less``, ``d``,
    ``ctl``, ``t``, ``th``. Pure."""
    return tail in INFLECTIONS or len(tail) <= NEAR_TAIL and any(
        tail.startswith(lost) and tail[len(lost):] in NAME_TAILS for lost in INFLECTIONS)


Y_FORMS = ("y", "ies", "e", "es", "ed", "ing", "ation", "ations")
"""What a word may write past the start of a query word ending in ``-y`` read without its ``y`` (:func:`from_y`,
``expir`` of ``expiry``) for that word to be one of the y-word's family: the y-word itself (``expiry``,
``expiries``) or an inflection or act of its verb (``expire``, ``expires``, ``expired``, ``expiring``,
``expiration``). Not the bare start, nor a plain ``-s`` after it: ``factor``, ``factors`` are no ``factory``,
``director`` no ``directory``, ``inventor`` no ``inventory``."""


def from_y(term: str, begun: str) -> bool:
    """True when ``begun`` (:func:`start`) is the query ``term``'s stem less the ``i`` the stemmer wrote for a
    ``y`` (``expiri`` → ``expir``): which written words it stands for, the index's stems cannot tell ("expires"
    and "factor" are both a stem ``expir``, ``factor`` left whole), so :func:`continues` reads them as written."""
    return term.endswith("i") and begun == term[:-1]


def continues(text: str, begun: str) -> bool:
    """True when ``text`` (a memory as written) writes a word that is the start ``begun`` of a y-word
    (:func:`from_y`) followed by one of :data:`Y_FORMS`, case-folded: ``Sessions expire`` for ``expir`` (expiry);
    not ``a factor of 2`` for ``factor`` (factory), nor ``the director`` for ``director`` (directory). The
    stored word must continue the stem as the y-word's noun or verb does (``expire``); a ``-cy`` noun's start
    keeps its ``i`` (:func:`start`), so ``police`` is never read for ``policy`` here. Pure."""
    return bool(continued(text, (begun,)))


def continued(text: str, begins: Iterable[str]) -> frozenset[str]:
    """The starts of ``begins`` that ``text`` continues (:func:`continues`, each), ``text`` case-folded once:
    ``continued("Sessions expire; a factor of 2", ("expir", "factor"))`` → ``{"expir"}``. Pure."""
    folded = text.casefold()
    out = set()
    for begun in begins:
        at = folded.find(begun)
        while at >= 0:
            if at == 0 or not folded[at - 1].isalnum():
                end = at + len(begun)
                while end < len(folded) and folded[end].isalnum():
                    end += 1
                if folded[at + len(begun):end] in Y_FORMS:
                    out.add(begun)
                    break
            at = folded.find(begun, at + 1)
    return frozenset(out)


def starts(terms: Iterable[str], forms: dict[str, set[str]] | None = None) -> dict[str, str]:
    """``{term: its start}`` for the ``terms`` that also match the longer
    words they begin (:func:`start`), ``forms`` giving each term's written
    words (:func:`memdir.search.tokenize.word_forms` of the query; None: as
    if each term were written as it is). Terms matching themselves only are
    left out."""
    forms = forms or {}
    out = {}
    for term in terms:
        begun = start(term, forms.get(term, ()))
        if begun is not None:
            out[term] = begun
    return out


def runs_on(term: str, held: str, written: Iterable[str] = ()) -> bool:
    """True when the query ``term`` (no memory holds it) is a longer spelling of the indexed term ``held``:
    ``held`` has :data:`NEAR_MIN` letters or more (:data:`KIND_MIN` when what ``term`` adds is a product's kind,
    :func:`kind`: ``nodejs`` → ``node``), ``term`` runs on past it by at most :data:`NEAR_TAIL` letters,
    and what it adds, past an inflection ``held``'s word may have lost (:data:`INFLECTIONS`), is one of
    :data:`NAME_TAILS` (:func:`named`): ``postgresql`` = ``postgr`` + ``es`` + ``ql``; not a syllable
    (``committee`` = ``commit`` + ``tee``, ``persona`` = ``person`` + ``a``) nor another name's letters
    (``systemd``, ``systemctl``, ``containerd``, ``postgrest``, ``thousandth``). With the ``written`` words
    (case-folded) that gave ``term``, what they add is read as written, a final ``-e`` the stemmer took off
    included: ``clientele`` (``clientel``) is ``client`` + ``ele``."""
    if len(held) < KIND_MIN or not term.startswith(held) or not 0 < len(term) - len(held) <= NEAR_TAIL:
        return False
    tails = [word[len(held):] for word in written if word.startswith(held)] or [term[len(held):]]
    return any(tail not in INFLECTIONS and named(tail) and (len(held) >= NEAR_MIN or kind(tail)) for tail in tails)


def kind(tail: str) -> bool:
    """True when ``tail``, what a word writes past a name, is an inflection the name lost (:data:`INFLECTIONS`)
    and one of :data:`KINDS`: ``js`` (``nodejs``), ``esql``, ``sdb``; not ``file``, ``d``, ``th``. Pure."""
    return any(tail.startswith(lost) and tail[len(lost):] in KINDS for lost in INFLECTIONS)


__all__ = ["KIND_MIN", "KINDS", "kind", "DERIVATIONS", "DRIFTED", "DOERS", "LATIN_ACTS", "VERT_PREFIXES", "NOT_DOERS", "QUALITIES", "of_adjective", "INFLECTIONS", "NAME_TAILS", "named", "NEAR_MIN", "NEAR_TAIL", "PREFIX_MIN", "VOWELS", "Y_FORMS", "begins", "continued", "continues", "from_y", "prefixable", "runs_on", "start",
           "starts", "derived", "fetch", "uninflected"]
