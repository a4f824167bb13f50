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
→ ``don`` + ``t``). The common Russian and Greek function and request words are
written as :func:`memdir.text.fold.fold` gives them (``еще``, ``θυμισε``: no ``ё``, no
Greek accent) beside the English ones; the common German ones as written (``können`` and ``koennen``), leaving
out those that are English words or names too (``die``/``dies``: die, dies; ``dir``, ``du``, ``mit``, ``man``,
``es``, ``bin``, ``war``, ``hat``, ``den``, ``des``, ``über``: Uber); the common Spanish, French, Portuguese and
Italian ones as written (break13: "puerto de postgres" found the note at 0.51 and padded in every note holding
"de"; "de la el" found one at 1.0), leaving out those that are English words, names or commands too (``son``,
``sin``, ``con``, ``era``, ``hay``, ``solo``, ``como``, ``su``, ``es``, ``les``, ``des``, ``du``, ``au``,
``aux``, ``il``, ``mon``, ``ton``, ``ai``, ``comment``, ``pour``, ``car``, ``plus``, ``dont``, ``dos``, ``em``,
``e``, ``o``, ``os``, ``come``, ``al``, ``ha``; ``non`` is a negation. ``o`` and ``os`` made "why
is this loop O(n^2)?" and "… on macOS?" recall a note on a loop, on a port, in the recall evaluation's fit prompts;
``e`` left "i.e." nothing to find its note by; ``é``, ``è``, ``à`` and Vietnamese ``ở`` are listed, a lone letter
keeping its accent in search as written, no ``e``, ``a``, ``o``: :func:`memdir.text.fold.lone_letter`); ``la``,
``est``, ``et`` written in capitals by a query and a memory alike stay words (``LA``, ``EST``:
:func:`memdir.search.tokenize.acronyms`). ``für`` is left out for now: with it the tasks fit evaluation loses
"Rechnung für den Kunden erzeugen" (2026-12-03, break10), a hit carried by meaning alone that the query's
unmatched words lifted over the threshold. The common Hebrew, Arabic, Persian and Hindi function and question
words as :func:`memdir.text.fold.fold` gives them (no points, no harakat; Persian's ``می`` and ``ها``, which a
zero-width non-joiner sets apart as words of their own, as search reads them), leaving out the negations (``לא``,
``אין``, ``لا``, ``ليس``, ``نه``, ``नहीं``), ``שם`` (there, and name) and ``एक`` (one); ``من`` (from, and who) is
no question word (break13's leftover: "का की के में है" found two notes at 0.48). Hebrew's prefixes written onto
a word (``הפורט``: the port) stay part of it. The common Dutch, Danish/Norwegian/Swedish, Polish, Czech, Turkish,
Ukrainian, Indonesian and (folded) Vietnamese ones likewise, leaving out those that are English words, names,
commands or file types too (``dan``, ``ben``, ``sen``, ``kim``, ``dat``, ``met``, ``ini``, ``jest``, ``take``,
``vi``, ``du``; Polish ``są`` folded ``sa``; Turkish ``var`` and ``şu``, folded ``su``; the common Romanian, Hungarian
and Finnish ones but ``care``, ``cum``, ``az`` (Azure's CLI), ``mit`` (MIT), Hungarian ``és`` folded ``es`` and the
negations; break15: Dutch ``van``,
Swedish ``har`` (a HAR file), Polish and Czech ``ale``, Czech ``kde`` and ``proč`` folded ``proc`` (KDE, /proc),
Indonesian ``yang`` (YANG models, a name), the names Norwegian ``han`` and Czech ``jen``; Scandinavian ``med``
(meds), ``mig`` (a migration), Turkish ``mu`` (μ) and ``biz`` (business): a search of that word alone found
nothing). A word of another language that is a word of English or of tools too costs that language's queries some
dilution when it stays a word, and costs a person searching for it everything when it does not. CJK text is compared by its characters or bigrams; the Chinese words are in
:data:`NEGATIONS`, and the grammar of Korean, Japanese and Chinese, as the search tokenizer's bigrams
show it, is :data:`CJK_FUNCTION_TERMS` (search drops them from a query as it
drops ``the``: :mod:`memdir.search.tokenize`), the question words among them (:data:`QUESTION_WORDS`).

This module is on the hooks' hot path (:mod:`memdir.prompt.pending` imports
it at every session start): frozenset literals only, nothing compiled.
"""

from __future__ import annotations

# The closed classes of English, at their most common: articles; the forms of be, do and have; the
# modals; the personal pronouns and their possessives; the demonstratives; the question words; all, any,
# no, not; the commonest conjunctions and prepositions; and the adverbs that add no fact of their own.
ENGLISH_FUNCTION_WORDS = frozenset("""
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
# The same closed classes of the other languages written in letters (a prompt holding more of them than of English's
# is written in one of them: :func:`memdir.search.foreign.reads_foreign`).
FUNCTION_WORDS = ENGLISH_FUNCTION_WORDS | frozenset("""
и а но или да в во на с со к ко у о об обо про из за от до для при по над под без через между
я ты он она оно мы вы они меня мне мной тебя тебе его ему ее ей их им нас нам вас вам мой моя мое мои твой наш ваш
это этот эта эти то тот та те что как где когда почему зачем какой какая какое какие кто чем чтобы ли бы же вот
есть был была было были быть будет все весь вся так там тут здесь уже еще очень тоже также только
ο η το οι τα του της των τον την τους τις ενα ενας μια και να θα με σε για απο στο στη στην στον στα στις στους
μου σου μας σας αυτο αυτη αυτος αυτα ειναι ηταν που πως τι ποιος ποια ποιο ποτε οταν γιατι οτι αλλα ως εδω εκει πολυ
επισης μονο
der das dem ich wir ihr sie mich mir uns ist sind wird werden wurde habe haben kann soll sollte muss
wie wo wann warum wer welche welcher welches und oder aber auch nur noch schon sehr ein eine einen einem einer
auf aus bei nach von zu zum zur vor durch können koennen müssen muessen hier
el la los las un una unos unas del y de en por para pero que qué sobre desde hasta está están ser fue tiene tienen
tengo puedo puede pueden debo debe deben mi yo tú él ella nosotros ellos ellas te nos este esta estos estas esto
cómo dónde cuándo cuál cuáles quién porque también aquí muy
le une à dans avec je nous vous ils elles notre votre leur leurs cette ces cet est et sont suis peut peux doit dois
faut très aussi ici où quoi quand pourquoi quel quelle quels quelles qui
é um uma da das na nas ao aos pelo pela com sem são estão foi tem têm posso pode podem devo deve devem meu
minha eu ele nós eles você vocês isso isto esse essa qual quais onde quando quem também aqui muito
è di della dei delle gli uno che dal nel nella sul sulla alla dove quale quali chi perché sono siamo hanno può
possono mio mia io lui lei noi voi loro questo questa quello quella anche qui molto
של את על עם זה זו זאת הוא היא הם הן אני אתה אנחנו אתם יש מה איך איפה מתי למה מי איזה איזו כמה האם אם או גם רק
כל כמו אבל כי אל עד כבר פה הזה הזאת זהו
في من إلى الى على عن مع هذا هذه ذلك تلك هو هي هم أنا انا نحن أنت انت ما ماذا كيف أين اين متى لماذا هل أو او ثم لكن
كان كانت يكون التي الذي الذين قد كل أي اي عند حتى إذا اذا أن ان إن هناك هنا كم
از به در با را و که این آن است هست هستند بود برای تا هم یا اما چه چی چیست چطور چگونه کجا کجاست چرا کدام چند کی
تو او شما آنها می ها های روی
का की के में है हैं था थी थे हो से को पर और या यह वह ये वे मैं हम आप तुम इस उस इसे उसे कि भी तो ही क्या कैसे कहाँ
कहां कब क्यों कौन किस कितना कितने कितनी लिए
het een voor zijn er aan ook als bij om naar uit wat waar wanneer waarom hoe welke mijn onze jullie hun ik
jij wij zij kan kunnen moet moeten wordt worden nog maar dit deze
og pa af av til som jeg hun om fra kan skal vil hvad hva vad hvor hvordan hur hvorfor varfor nar
hvem vem hvilken vilken och att fran jag ni detta denne dette meg sitt det
byc byl byla bylo ze od przez dla lub czy ta jak gdzie kiedy dlaczego co kto ktory ktora ktore jaki jaka
jakie moj moja nasz wasz jego jej tak tylko tez takze juz bardzo mnie wy oni
jsou byt byl byla bylo ve se od nebo ze ta ty jak kdy co kdo ktery ktera ktere jaky jaka jake muj
moje vas jeho jeji jejich tak uz velmi wy vy oni
ve bir bu ile icin ne nasil nerede neden nicin hangi siz onlar benim bizim gibi daha cok ama veya ya
nedir midir hangisi
і й але або що як де коли чому навіщо хто який яка яке які це цей ця ці той ті з із від під між ти він вона воно
ми ви вони мене мені мій моє мої твій його її їх є був була було були бути буде дуже теж також тільки вже ще
ke dari untuk dengan pada adalah itu apa bagaimana dimana kapan mengapa kenapa siapa saya kami kita anda
kamu mereka dia bisa dapat akan sudah juga hanya atau tetapi tapi
cua gi cac nhung duoc nao khi tai sao nay ở
si pe cu sunt fost ce unde cand pentru sau dar acest aceasta acesta cel cea cine
hogy egy hol mikor miert milyen melyik hogyan vagy ez azt
ja etta mika missa miten milloin miksi kuka kun mutta ovat oli tama tuo
""".split())

# The letters Hebrew writes onto the front of a word as prefixes that search reads a word without: the article ה,
# and ו, in ב, to ל (הפורט: the port; ובשרת: and in the server). Search reads a Hebrew word no memory holds without
# one or two of them when a memory holds a rest of three letters or more (memdir.search.terms.near_forms). Not
# from מ, that ש, as כ: many words begin with those letters of their own (מפתח key is no פתח open, מחשב computer
# no חשב; כלב dog no לב heart; break15), and a rest of two letters is too often another word.
HEBREW_PREFIXES = frozenset("הובל")
HEBREW_REST = 3

# Words that turn a fact into its opposite or its correction: a restated forgotten fact after one of them
# ("Do not use pnpm …", "It is wrong that …") is a correction, not the fact (DESIGN §5). "t" is what is
# left of "don't", "can't" and "isn't"; the next line is Chinese and Japanese (不 没 别 勿 非 无 未 错), the
# last Russian and Greek (не нет никогда; δεν μην οχι): none of them a function word.
NOT_WORDS = frozenset({"not", "no", "never", "cannot"})  # the plain "not" of English (memdir.search.conversation too)
NEGATIONS = NOT_WORDS | frozenset("""
nor t without stop stopped avoid neither none nobody nothing nowhere
wrong false incorrect untrue outdated obsolete mistaken
不 没 別 别 勿 非 无 無 未 错
не нет ни никогда δεν μην οχι
""".split())

# Negations of German, read where a person takes something back ("Vergiss das, wir nutzen kein pnpm mehr": the
# request to use pnpm is denied, memdir.consolidation.takeback.negates); not in NEGATIONS, which every matcher
# reads (a German word there changes what tombstones and coverage compare).
GERMAN_NEGATIONS = frozenset({"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals",
                              "nirgends", "nichts"})

# Chinese and Japanese words holding a character of NEGATIONS that deny nothing: 非常 "very", 不错 "not bad",
# 不过 "but", 不仅 "not only", 不断 "again and again", 不少 "many", 无论 "whatever", 没错 "right", 未来 "future",
# 别的 and 别人 "other(s)", 差不多 "about": a CJK run holding a negation character only inside one of them
# negates nothing (memdir.consolidation.takeback.negates).
CJK_NOT_NEGATING = frozenset({"非常", "不错", "不过", "不仅", "不断", "不少", "无论", "没错", "未来", "别的", "别人",
                              "差不多", "不久", "没问题", "没关系", "无所谓", "非得", "不得不"})

# Words that point at one particular thing, not at things in general: the definite articles, demonstratives,
# possessives and the speaker's people and place, English and German ("how do I deploy the api", "Wie
# installiere ich hier ein Paket?"). A how-to or what-is question without one asks what anyone could look up
# (memdir.search.general). "that" is not among them: it mostly opens a clause ("a function that calls an API").
POINTING_WORDS = frozenset("""
the this these those our ours my mine we us here your me
der die das dem den des diese dieser dieses diesem diesen hier wir uns
unser unsere unserer unseres unserem unseren unsers mein meine meiner meines meinem meinen
""".split())

# What a person says to keep a chat going, not what it is about: please (and its short forms), ok, yes.
PLEASE_WORDS = frozenset({"please", "pls", "plz"})  # a request's courtesy (memdir.search.conversation.remarks)
CHAT_WORDS = PLEASE_WORDS | frozenset({"ok", "okay", "yes"})

# What a person says of the work or the chat, not asks of it: thanks, praise and laughter ("thanks!", "great job",
# "redis is awesome", "lol", "that's funny"). A prompt holding one and no request, question or trouble is a remark
# (memdir.search.conversation.remarks): the words it shares with a note are no sign the note answers anything (recall47).
PRAISE_WORDS = frozenset({
    "thanks", "thank", "thx", "ty", "cheers", "love", "loved", "loving", "great", "awesome", "amazing", "nice",
    "cool", "neat", "sweet", "perfect", "excellent", "brilliant", "wonderful", "fantastic", "superb", "beautiful",
    "lovely", "impressive", "gorgeous", "kudos", "congrats", "congratulations", "bravo", "yay", "hooray", "wow",
    "lol", "lmao", "rofl", "haha", "hahaha", "hehe", "funny", "hilarious"
})

# Interjections and chat shorthand: sounds and tags around a request ("uh", "hmm", "lol", "btw"), and "one"
# as a pronoun ("the postgres one"). Search drops them from a query as it drops the function words
# (issue 28: "um postgres" scored 0.22 where "postgres" scored 0.99); the other matchers keep their lists.
INTERJECTIONS = frozenset("""
uh uhh um umm erm er hmm hm mm ah ahh oh ooh eh hey hi hello yo ya yeah yep yup nah lol lmao haha heh
btw fwiw imo imho tbh idk iirc afaik thx ty one
""".split())

# The grammar of CJK text as the search tokenizer's character bigrams show it (and one-character runs):
# Korean verb endings (합니다, 했습니다, 하세요 …), Japanese auxiliaries, endings and particles (ます,
# でした, ください, ている, は, を …) and Chinese particles and pronouns (的, 了, 吗, 我们, 什么 …). A bigram
# of these is grammar in any sentence, so a chat reply such as "고맙습니다" or "ありがとうございます" shares
# no content with a memory that ends its sentences the same way. Two families are rules, not listed
# (memdir.search.tokenize.is_stopword): a Hangul syllable closed by ㅂ before 니 (합니, 입니, 됩니, 습니:
# the formal ending -ㅂ니다/-ㅂ니까), and a hiragana of the i or e row before ま (りま, きま, しま: a verb
# stem before -ます).
CJK_FUNCTION_TERMS = frozenset("""
니다 니까 겠습 었습 았습 였습 했습 셨습 됐습 했어 했다 했고 했는 세요 에요 예요 어요 아요 해요 네요 군요 십시 시오
ます ませ せん まし した です でし しょ ょう ござ ざい くだ ださ さい てい いる てお おり って った ない なか
かっ でき きる れる られ だっ だろ ろう
は が を に で と も の へ や か ね よ な はい うん ええ 네 예
的 了 吗 呢 吧 啊 么 是 在 和 也 都 就
我们 你们 他们 她们 它们 这个 那个 这些 那些 什么 怎么 为什 就是 还是 但是 因为 所以 如果 已经 的话 是的 好的 了吗 一下 一个
언제 어디 무엇 누구 누가 얼마 어떻 떻게 어떤 왜 몇 いつ どこ なに どう なぜ だれ 哪里 哪儿 哪个 谁
""".split())

# Thai writes no space between words, so search reads a Thai run as character pairs (memdir.search.tokenize), and
# the pairs of a function word stand inside content words too (อง of ของ in ห้อง, room): no pair of them can be a
# stopword. A query's Thai run made of these words alone ("ของ และ ใน ที่", "คืออะไร") is dropped whole, as "the" is
# (memdir.search.tokenize.query_tokens): the common particles, prepositions, conjunctions, question words and the
# polite endings; not ไม่ (not), not การ and ความ (they begin nouns).
THAI_FUNCTION_WORDS = frozenset("""
ของ และ ใน ที่ เป็น คือ อะไร ไหน อย่างไร ยังไง ได้ ให้ มี จะ กับ จาก ว่า นี้ นั้น นี่ ไป มา อยู่ แล้ว ก็ หรือ แต่ เพื่อ
โดย ซึ่ง ไหม มั้ย ครับ ค่ะ คะ นะ ทำไม เมื่อไร เมื่อไหร่ ใคร ยัง ด้วย
""".split())

# The question words (each a function word: FUNCTION_WORDS, CJK_FUNCTION_TERMS): a question around a few words
# asks for those words, as a request does ("when is the backup?", "백업은 언제?": memdir.search.weighing.reads_as_request).
# German "was" (what) is an English word too: "was the release on Tuesday?" asks for release and Tuesday alike.
QUESTION_WORDS = frozenset("""
what when where which who why how
что где когда почему зачем как какой какая какое какие кто
τι πως που ποτε γιατι ποιος ποια ποιο
wie wo wann warum wer welche welcher welches was
qué cómo dónde cuándo cuál cuáles quién où quoi quand pourquoi quel quelle quels quelles qui
qual quais onde quem dove quale quali chi perché
מה איך איפה מתי למה מי איזה איזו כמה האם ما ماذا كيف أين اين متى لماذا هل كم أي اي
چه چی چیست چطور چگونه کجا کجاست چرا کدام چند کی क्या कैसे कहाँ कहां कब क्यों कौन किस कितना कितने कितनी
wat waar wanneer waarom hoe welke
hvad hva vad hvor hvordan hur hvorfor varfor nar hvem vem hvilken vilken
jak gdzie kiedy dlaczego co kto ktory ktora ktore jaki jaka jakie
jak kdy co kdo ktery ktera ktere jaky jaka jake
ne nasil nerede neden nicin hangi nedir hangisi
що як де коли чому навіщо хто який яка яке які
apa bagaimana dimana kapan mengapa kenapa siapa
gi nao sao
ce unde cand cine hol mikor miert milyen melyik hogyan mika missa miten milloin miksi kuka
언제 어디 무엇 누구 누가 얼마 어떻게 어떤 왜 몇 いつ どこ なに どう なぜ だれ 什么 怎么 为什么 哪里 哪儿 哪个 谁
""".split())

# What marks a prompt as asking, not remarking (memdir.search.conversation.remarks; English, folded words): the
# verbs of the work ("add", "fix", "deploy", "explain"), the words of wanting and modals ("need", "must", "let's"),
# and the verbs that open a question ("is it down?", "can you …"), which are asking only opening a sentence: in a
# remark they describe ("redis is awesome").
WORK_VERBS = frozenset({
    "add", "fix", "make", "put", "change", "update", "remove", "delete", "drop", "create", "write", "implement",
    "run", "deploy", "set", "move", "rename", "refactor", "check", "test", "build", "install", "configure",
    "enable", "disable", "migrate", "bump", "upgrade", "downgrade", "revert", "merge", "review", "debug",
    "investigate", "explain", "show", "tell", "remind", "help", "find", "use", "switch", "turn", "replace",
    "rewrite", "document", "clean", "retry", "restart", "rollback", "ship", "release"
})
WANTING_WORDS = frozenset({"need", "needs", "want", "wants", "must", "shall", "let", "lets", "let's"})
OPENING_VERBS = frozenset({"do", "does", "did", "is", "are", "was", "were", "can", "could", "would", "will", "should"})

# Trouble a note may bear on, besides NOT_WORDS (memdir.search.conversation.remarks): "but", "still", a failure, and
# the negated verbs as written ("doesn't"; memdir.consolidation.takeback keeps their stems apart).
TROUBLE_WORDS = frozenset({
    "but", "still", "yet", "fail", "fails", "failed", "failing", "failure", "error", "errors", "crash", "crashes",
    "crashed", "crashing", "broke", "broken", "break", "breaks", "bug", "bugs", "wrong", "stuck", "slow", "down",
    "missing", "issue", "issues", "problem", "problems", "hang", "hangs", "leak", "leaks", "killed", "dies",
    "died", "timeout", "timeouts"
})
NEGATED_VERBS = frozenset({"can't", "won't", "doesn't", "don't", "didn't", "isn't", "aren't", "wasn't"})

# Words that ask for information or help, not what it is about: "remind me about alembic", "any notes on
# postmark?", "kafka details", "ruff rules", "帮我审查一下代码", "배포 알려줘", "デプロイについて教えて". Search weighs
# them as generic words and reads a query made of them, function words and a few content words as those keywords
# (memdir.search.weighing.is_request; issue 28: "remind me about alembic" scored 0.06 where "alembic" scored 1.0).
# The CJK ones are cut out of a query's run before it is read as bigrams (memdir.search.tokenize.query_tokens), so
# no pair straddles a request and its topic; a one-character one only where it stands alone ("해 줘").
REQUEST_WORDS = frozenset("""
remind reminder tell know note notes info infos information detail details story anything something everything
explain describe summary summarize summarise recap overview whole help remember recall regarding rule rules
convention conventions guideline guidelines decide decided decision
帮我 帮忙 请帮 请问 告诉我 提醒我 一下 看看 给我 我想知道 想知道 关于 有关
教えて ください 下さい について とは お願い 知りたい
알려 알려줘 알려줘요 주세요 줘 줘요 줄래 해 해줘 해줘요 해주세요 해줄래 좀 대해 대해서 관해 관해서 관련 관련해서 뭐야 뭐
расскажи расскажите напомни напомните скажи скажите покажи покажите объясни объясните подскажи подскажите помоги
помогите вспомни знаешь насчет касательно информация инфо подробности детали заметка заметки
θυμισε θυμισου πες πειτε δειξε εξηγησε βοηθησε θυμασαι ξερεις σχετικα πληροφοριες λεπτομερειες σημειωση
σημειωσεις κανονας κανονες
""".split())

# Short forms every engineer writes for a longer word, read as that word by search (memdir.search.tokenize.stem)
# in memories and queries alike: "prod" finds "production", "the production db" finds "prod database". Only
# forms with one reading in a code base; a short form that is a word of its own (app, spec, lib) is not here. "doc"
# and "docs" are a document and documentation ("the docs" is "the documentation"); a size's unit is its word
# wherever written ("50GB", "2 GB", "a GiB" are gigabytes: the binary and the decimal unit are one topic).
SHORT_FORMS = {"prod": "production", "dev": "development", "db": "database", "env": "environment",
               "config": "configuration", "repo": "repository", "req": "request", "doc": "document", "pkg": "package",
               "kb": "kilobyte", "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte",
               "kib": "kilobyte", "mib": "megabyte", "gib": "gigabyte", "tib": "terabyte"}

# Units of time written right after a number, read as their word by search (memdir.search.tokenize) in memories and
# queries alike: "90d" is "90 days", "100/min" and "100 per minute" meet. After a number only: alone, "min" is as
# often "minimum" and "sec" "security". One letter (d, h, w, y) only joined to the number ("90d"), never as a word of
# its own ("7 d"); "m" (minute, month, metre, million) is no unit. "s" is the other way round: a second only as a
# word of its own ("900 s", "100/s", as SI writes it), never joined, where it is a plural ("429s", "A100s").
UNITS = {"ms": "millisecond", "s": "second", "sec": "second", "secs": "second", "min": "minute", "mins": "minute", "h": "hour",
         "hr": "hour", "hrs": "hour", "d": "day", "w": "week", "wk": "week", "wks": "week", "mo": "month",
         "y": "year", "yr": "year", "yrs": "year"}

# Units of data in bits, written with a capital prefix and a small b after a number (network speeds, link sizes):
# "50 Mb" is fifty megabits, an eighth of "50 MB". Case-sensitive keys: "MB", "mb" and "MiB" are bytes
# (SHORT_FORMS: "mb" as engineers write it in lower case is a megabyte), and "Mb" only is a megabit. Search and
# tombstones read such a unit after a number as its word (memdir.search.wordterms.read_word,
# memdir.tombstones.reading.long_forms): a forgotten "Max upload size is 50 megabytes" is not "… 50 Mb" (recall47).
BIT_UNITS = {"Kb": "kilobit", "Mb": "megabit", "Gb": "gigabit", "Tb": "terabit"}

# What a resolution is written before: "4K display", "8K video", "2K monitor" name a picture's width (about 4,000
# pixels), no count of thousands as "10k users" and "2K requests" do. Search reads a number with a capital K before
# one of these (or its plural) as no thousands (memdir.search.wordterms.is_resolution; recall47: "4K display" was
# also 4000). A small k stays thousands ("4k monitors" may count them), and so do nouns counted as often as
# pictured ("2K images", "10K streams").
RESOLUTION_NOUNS = frozenset({
    "display", "monitor", "screen", "video", "resolution", "tv", "television", "footage", "camera", "streaming",
    "uhd", "hdr", "res", "playback",
})

# Korean particles (josa) a noun carries attached, without a space: "배포를" is "배포" (deploy) as an object. Search
# reads a Hangul word without them (memdir.search.tokenize: "배포를", "배포는", "배포에서는" are "배포"), and a
# particle written right after a Latin word ("Redis에서") as nothing. The case, adverbial and auxiliary particles of
# the standard grammar (National Institute of Korean Language, 표준국어대사전 조사): longest first when read.
KOREAN_PARTICLES = frozenset("""
이 가 은 는 을 를 에 의 로 와 과 도 만 나 랑
에서 에게 으로 까지 부터 처럼 보다 한테 께서 이나 이랑 마다 조차 마저 밖에 에선 엔
""".split())

# Words whose final "e" the stemmer drops, so that they read as another word a code base writes: "route" as
# "rout", "guide" as "guid" (GUIDs), "suite" as "suit", "locale" as "local", "rationale" as "rational" (Snowball).
# Search keeps their e (memdir.search.stemming.stem), in the word and its plural; True where the word is a verb,
# its -ed and -ing forms then its own ("routed", "routing", "guided"; "suited" stays suit's). The pairs X and Xe
# both written 8 times or more in the docs and sources installed with memdir (26,100 words) that the stemmer makes
# one, less those whose shorter form is no word of a code base ("valu", "chang"; "wast", "quit"/"quite" a function word).
KEPT_E = {"route": True, "guide": True, "suite": False, "locale": False, "rationale": False}

# English plurals the stemmer cannot bring to their singular ("mice" is no form of "mouse" to Snowball), read as
# the singular by search (memdir.search.tokenize.stem). After the plural rules of the ``inflect`` package (its
# ``pl_sb_irregular`` table; -man, -mouse, -louse, -goose, -tooth, -foot; -f/-fe to -ves; the classical -ex/-ix to
# -ices, -is to -es, -on to -a, -us to -i, -a to -ae), the common nouns of those kept to one reading in a code base: not "data", "media", "dice" or "axes", which are words of their own there, nor
# a plural that is also a verb ("leaves", "lives", "bases", "diagnoses": the stemmer reads those as the verb). Also the
# nouns ending in -s whose -es plural the stemmer reads apart ("alias" is "alia", "aliases" "alias"; "bus", "buse"):
# break11, "git aliases" did not find the memory on a git alias. "people" is the plural of "person" (words46: "person"
# found no memory on "people"; "persons" is the stemmer's).
IRREGULAR_PLURALS = {
    "aliases": "alias", "buses": "bus", "busses": "bus", "canvases": "canvas", "lenses": "lens", "gases": "gas",
    "quizzes": "quiz", "irises": "iris",
    "mice": "mouse", "lice": "louse", "geese": "goose", "feet": "foot", "teeth": "tooth", "men": "man",
    "women": "woman", "people": "person", "children": "child", "oxen": "ox", "knives": "knife", "wives": "wife",
    "halves": "half", "wolves": "wolf", "shelves": "shelf", "selves": "self", "calves": "calf",
    "indices": "index", "vertices": "vertex", "matrices": "matrix", "appendices": "appendix",
    "apices": "apex", "cortices": "cortex", "theses": "thesis", "crises": "crisis",
    "hypotheses": "hypothesis", "parentheses": "parenthesis", "syntheses": "synthesis",
    "emphases": "emphasis", "criteria": "criterion", "phenomena": "phenomenon",
    "schemata": "schema", "corpora": "corpus", "genera": "genus", "cacti": "cactus", "fungi": "fungus",
    "nuclei": "nucleus", "radii": "radius", "stimuli": "stimulus", "syllabi": "syllabus", "alumni": "alumnus",
    "bacteria": "bacterium", "formulae": "formula", "antennae": "antenna", "vertebrae": "vertebra",
}

# British spellings read as the American word by search (memdir.search.stemming.stem) in memories and queries alike:
# "colour" finds "color", "serialise" "serializer", "centre" "data center" (break11: "color theme" scored 0.56 for a
# memory on the "colour theme", "organization" found no "organisation"). Closed lists, so no word is read as another
# by its ending alone ("revise", "promise", "contour", "tour" are no British spellings): the -our nouns (with their
# endings: "favourite", "behavioural"), the -ise verbs by their base ("organ" of organise, organisation, organiser;
# not the -ise verbs English writes so on both sides, "advise", "revise", "supervise", whose -ision nouns stay theirs),
# and single words with their plural (-re nouns also -red, -ring). A -yse verb is its -yze already (analyse).
# English verbs whose past forms the stemmer cannot bring to their base ("wrote" and "written" are no forms of
# "write" to Snowball), read as the base by search (memdir.search.stemming.stem) in memories and queries alike:
# kinds19, `search "written"` found nothing beside "Alice wrote the migration runbook", "overridden" nothing beside
# "override". The strong verbs a code base writes, less each form that is a word of its own there or a function
# word: left (a left join), led, fed, saw, rose, bound, ground, wound, spoke, stuck, flew (fly.io), bit, shot, felt,
# thought; went/gone (Go), got/gotten (GET, got), did/done, said, saw/seen, came, won (won't); knew/known, told
# (request words: memdir.text.words.REQUEST_WORDS); driven, given and their verbs (event-driven, "given that").
IRREGULAR_VERBS = {
    "wrote": "write", "written": "write", "rewrote": "rewrite", "rewritten": "rewrite", "overwrote": "overwrite",
    "overwritten": "overwrite", "ran": "run", "reran": "rerun", "overran": "overrun", "built": "build",
    "rebuilt": "rebuild", "broke": "break", "broken": "break", "chose": "choose", "chosen": "choose",
    "froze": "freeze", "frozen": "freeze", "unfroze": "unfreeze", "unfrozen": "unfreeze", "sent": "send",
    "found": "find", "kept": "keep", "took": "take", "taken": "take", "began": "begin", "begun": "begin",
    "forgot": "forget", "forgotten": "forget", "hid": "hide", "hidden": "hide", "threw": "throw", "thrown": "throw",
    "rethrew": "rethrow", "rethrown": "rethrow", "grew": "grow", "grown": "grow", "outgrew": "outgrow",
    "outgrown": "outgrow", "spoken": "speak", "brought": "bring", "taught": "teach", "caught": "catch",
    "bought": "buy", "fought": "fight", "sought": "seek", "paid": "pay", "lost": "lose", "made": "make",
    "meant": "mean", "sold": "sell", "spent": "spend", "fell": "fall", "fallen": "fall", "shook": "shake",
    "shaken": "shake", "stole": "steal", "stolen": "steal", "hung": "hang", "dug": "dig", "spun": "spin",
    "met": "meet", "slept": "sleep", "stood": "stand", "understood": "understand",
    "misunderstood": "misunderstand", "dealt": "deal", "lent": "lend", "wore": "wear", "worn": "wear",
    "drew": "draw", "drawn": "draw", "redrew": "redraw", "redrawn": "redraw", "woke": "wake", "woken": "wake",
    "forbade": "forbid", "forbidden": "forbid", "overrode": "override", "overridden": "override", "undid": "undo",
    "undone": "undo", "withdrew": "withdraw", "withdrawn": "withdraw", "withheld": "withhold", "held": "hold",
    "arose": "arise", "arisen": "arise", "became": "become", "heard": "hear", "slid": "slide", "learnt": "learn",
    "burnt": "burn", "spelt": "spell", "oversaw": "oversee", "overseen": "oversee", "mistook": "mistake",
    "mistaken": "mistake", "undertook": "undertake", "undertaken": "undertake", "forgave": "forgive",
    "forgiven": "forgive", "foresaw": "foresee", "foreseen": "foresee", "swore": "swear", "sworn": "swear",
    "sank": "sink", "sunk": "sink",
}

BRITISH_OUR = frozenset("""
colour behaviour favour flavour honour humour labour neighbour harbour rumour vapour armour odour endeavour parlour
rigour tumour savour vigour valour clamour candour fervour saviour
""".split())
BRITISH_ISE = frozenset("""
organ reorgan serial deserial initial reinitial normal denormal optim author custom final visual synchron
desynchron minim maxim priorit depriorit categor summar emphas standard special local capital util memor sanit
token detoken parallel virtual container stabil apolog critic central decentral general personal real recogn
random parameter parametr vector memo modular digit item monet character mobil global international internal
operational modern harmon symbol neutral rational incentiv quant binar polar regular equal steril pressur jeopard
scrutin theor trivial legal penal material familiar popular atom immun human fantas commercial industrial vapor
hospital italic canonical anonym pseudonym sympath dramat magnet alphabet crystall econom patron revolution
legitim subsid amort lemmat stigmat sensit desensit hypothes energ
""".split())
BRITISH_WORDS = {
    "centre": "center", "metre": "meter", "kilometre": "kilometer", "centimetre": "centimeter",
    "millimetre": "millimeter", "litre": "liter", "millilitre": "milliliter", "theatre": "theater", "fibre": "fiber",
    "calibre": "caliber", "spectre": "specter", "lustre": "luster", "sabre": "saber", "sombre": "somber",
    "meagre": "meager", "manoeuvre": "maneuver", "licence": "license", "defence": "defense", "offence": "offense",
    "pretence": "pretense", "catalogue": "catalog", "dialogue": "dialog", "analogue": "analog", "epilogue": "epilog",
    "grey": "gray", "aluminium": "aluminum", "programme": "program", "judgement": "judgment", "ageing": "aging",
    "artefact": "artifact", "sceptic": "skeptic", "sceptical": "skeptical", "scepticism": "skepticism",
    "mould": "mold", "plough": "plow", "fulfil": "fulfill", "fulfilment": "fulfillment", "enrol": "enroll",
    "enrolment": "enrollment", "instil": "instill", "jewellery": "jewelry", "paediatric": "pediatric",
    "anaesthesia": "anesthesia", "encyclopaedia": "encyclopedia", "orthopaedic": "orthopedic", "cosy": "cozy",
    "practise": "practice", "practised": "practiced", "practising": "practicing", "pyjamas": "pajamas",
    "moustache": "mustache", "oestrogen": "estrogen", "haemoglobin": "hemoglobin", "leukaemia": "leukemia",
}

__all__ = ["BIT_UNITS", "BRITISH_ISE", "BRITISH_OUR", "BRITISH_WORDS", "CHAT_WORDS", "CJK_FUNCTION_TERMS", "HEBREW_PREFIXES", "HEBREW_REST",
           "THAI_FUNCTION_WORDS",
           "IRREGULAR_PLURALS", "IRREGULAR_VERBS", "KEPT_E", "KOREAN_PARTICLES", "QUESTION_WORDS", "REQUEST_WORDS", "RESOLUTION_NOUNS", "SHORT_FORMS", "UNITS",
           "CJK_NOT_NEGATING", "FUNCTION_WORDS", "GERMAN_NEGATIONS", "INTERJECTIONS", "NEGATIONS", "POINTING_WORDS", "PRAISE_WORDS"]
