"""The stems of memdir's word lists, computed once (written by ``tests/search/test_wordstems.py``,
which asserts they are what the rules compute from the lists: edit the lists, never this file).

Each set is a rule's answer that is the same in every process: :data:`STOPWORDS`
(:func:`memdir.search.stopwords.stopword_stems`), :data:`CHAT` (:func:`memdir.search.stopwords.chat_stems`),
:data:`REQUESTS` (:func:`memdir.search.tokenize.request_terms_of_words`), :data:`QUESTIONS`
(:func:`memdir.search.relevance.question_terms_of_words`). They hold (:func:`hold`) where the Snowball
stemmers are those of :data:`SNOWBALL`; elsewhere (another release, PyStemmer's C stemmers) the rules compute them.
"""

from __future__ import annotations

from .stemming import snowball


def hold() -> bool:
    """True when this process stems as the sets were computed (the same Snowball release, :data:`SNOWBALL`).
    Raises :class:`memdir.errors.MissingExtra` without ``snowballstemmer``."""
    return snowball() == SNOWBALL


SNOWBALL = "3.1.1"  # the release whose stemmers computed the sets

STOPWORDS = frozenset({
    "a", "aber", "about", "abov", "afaik", "after", "again", "against",
    "ah", "ahh", "all", "alla", "am", "an", "anch", "and",
    "ani", "ao", "aqui", "are", "aren", "as", "at", "auch",
    "auf", "aus", "aussi", "avec", "be", "becaus", "been", "befor",
    "bei", "below", "between", "both", "btw", "but", "by", "can",
    "ces", "cet", "cett", "che", "chi", "com", "como", "could",
    "cual", "cuando", "d", "da", "dal", "dan", "das", "de",
    "debe", "deben", "debo", "dei", "del", "dell", "della", "dem",
    "der", "desd", "deve", "devem", "devo", "di", "did", "didn",
    "do", "doe", "doesn", "doi", "doit", "don", "dond", "dove",
    "down", "durch", "dure", "each", "eh", "ein", "einem", "einen",
    "einer", "el", "ele", "ell", "ella", "ello", "en", "er",
    "erm", "ess", "essa", "est", "esta", "estan", "estao", "esto",
    "et", "eu", "faut", "few", "foi", "for", "from", "fue",
    "further", "fwiw", "gli", "habe", "haben", "had", "haha", "hanno",
    "has", "hasta", "have", "he", "heh", "hello", "her", "here",
    "herself", "hey", "hi", "hier", "him", "himself", "his", "hm",
    "hmm", "how", "i", "ich", "ici", "idk", "if", "ihr",
    "iirc", "il", "imho", "imo", "in", "into", "io", "is",
    "isn", "isso", "ist", "isto", "it", "itself", "je", "just",
    "kann", "koennen", "konnen", "la", "las", "le", "lei", "leur",
    "ll", "lmao", "lol", "loro", "los", "lui", "m", "me",
    "meu", "mi", "mia", "mich", "minha", "mio", "mir", "mm",
    "molto", "more", "most", "muessen", "muito", "muss", "mussen", "muy",
    "my", "myself", "na", "nach", "nah", "nas", "nel", "nella",
    "no", "noch", "noi", "nor", "nos", "nosotro", "not", "notr",
    "nous", "nur", "oder", "of", "off", "oh", "ok", "okay",
    "on", "onc", "ond", "one", "onli", "ooh", "or", "other",
    "ou", "our", "ourselv", "out", "over", "own", "para", "pela",
    "pelo", "perch", "pero", "peut", "peux", "pleas", "pls", "plz",
    "pode", "podem", "por", "porqu", "posso", "possono", "pourquoi", "pued",
    "pueden", "puedo", "puo", "quai", "qual", "quali", "quand", "quando",
    "que", "quel", "quell", "quella", "quello", "quem", "questa", "questo",
    "qui", "quien", "quoi", "re", "s", "same", "sao", "schon",
    "sehr", "sem", "ser", "she", "should", "siamo", "sie", "sind",
    "so", "sobr", "soll", "sollt", "some", "sono", "sont", "such",
    "sui", "sul", "sulla", "t", "tambem", "tambien", "tbh", "te",
    "tem", "tengo", "than", "that", "the", "their", "them", "themselv",
    "then", "there", "these", "they", "this", "those", "through", "thx",
    "tien", "tienen", "to", "too", "tres", "tu", "ty", "uh",
    "uhh", "um", "uma", "umm", "un", "una", "und", "under",
    "une", "uno", "until", "up", "us", "ve", "veri", "voce",
    "voi", "von", "vor", "votr", "vous", "wann", "warum", "was",
    "wasn", "we", "welch", "welcher", "wer", "werden", "were", "weren",
    "what", "when", "where", "whi", "which", "while", "who", "whom",
    "wie", "will", "wir", "wird", "with", "wo", "won", "would",
    "wurd", "y", "ya", "yeah", "yep", "yes", "yo", "you",
    "your", "yourself", "yourselv", "yup", "zu", "zum", "zur", "αλλ",
    "απ", "αυτ", "για", "γιατ", "εδ", "εινα", "εκ", "εν",
    "επισ", "η", "ητ", "θα", "κα", "μασ", "με", "μια",
    "μον", "μου", "να", "ο", "οι", "οτ", "οταν", "ποι",
    "πολ", "ποτ", "που", "πωσ", "σασ", "σε", "σου", "στ",
    "στην", "στισ", "στον", "τα", "την", "τησ", "τι", "τισ",
    "το", "τον", "του", "τουσ", "των", "ωσ", "а", "без",
    "будет", "бы", "был", "быт", "в", "вам", "вас", "ваш",
    "ве", "во", "вот", "все", "вся", "вы", "где", "да",
    "для", "до", "ег", "ее", "ей", "ем", "ест", "ещ",
    "же", "за", "зач", "зде", "и", "из", "ил", "им",
    "их", "к", "как", "ко", "когд", "кто", "ли", "межд",
    "мен", "мне", "мно", "мо", "мы", "на", "над", "нам",
    "нас", "наш", "но", "о", "об", "он", "от", "очен",
    "по", "под", "поч", "при", "про", "с", "со", "та",
    "так", "такж", "там", "тво", "те", "теб", "то", "тож",
    "тольк", "тот", "тут", "ты", "у", "уж", "чем", "через",
    "что", "чтоб", "эт", "этот", "я", "אבל", "או", "איזה",
    "איזו", "איך", "איפה", "אל", "אם", "אנחנו", "אני", "את",
    "אתה", "אתם", "גם", "האם", "הוא", "הזאת", "הזה", "היא",
    "הם", "הן", "זאת", "זה", "זהו", "זו", "יש", "כבר",
    "כי", "כל", "כמה", "כמו", "למה", "מה", "מי", "מתי",
    "עד", "על", "עם", "פה", "רק", "של", "آن", "آنها",
    "أن", "أنا", "أنت", "أو", "أي", "أين", "إذا", "إلى",
    "إن", "اذا", "از", "است", "التي", "الذي", "الذين", "الى",
    "اما", "ان", "انا", "انت", "او", "اي", "اين", "این",
    "با", "برای", "به", "بود", "تا", "تلك", "تو", "ثم",
    "حتى", "در", "ذلك", "را", "روی", "شما", "على", "عن",
    "عند", "في", "قد", "كان", "كانت", "كل", "كم", "كيف",
    "لكن", "لماذا", "ما", "ماذا", "متى", "مع", "من", "می",
    "نحن", "ها", "های", "هذا", "هذه", "هست", "هستند", "هل",
    "هم", "هنا", "هناك", "هو", "هي", "و", "يكون", "چرا",
    "چطور", "چند", "چه", "چگونه", "چی", "چیست", "کجا", "کجاست",
    "کدام", "که", "کی", "یا", "आप", "इस", "इसे", "उस",
    "उसे", "और", "कब", "कहाँ", "कहां", "का", "कि", "कितना",
    "कितनी", "कितने", "किस", "की", "के", "कैसे", "को", "कौन",
    "क्या", "क्यों", "तुम", "तो", "था", "थी", "थे", "पर",
    "भी", "में", "मैं", "यह", "या", "ये", "लिए", "वह",
    "वे", "से", "हम", "ही", "है", "हैं", "हो",
})

CHAT = frozenset({
    "afaik", "ah", "ahh", "btw", "eh", "er", "erm", "fwiw",
    "haha", "heh", "hello", "hey", "hi", "hm", "hmm", "idk",
    "iirc", "imho", "imo", "lmao", "lol", "mm", "nah", "oh",
    "ok", "okay", "one", "ooh", "pleas", "pls", "plz", "tbh",
    "thx", "ty", "uh", "uhh", "um", "umm", "ya", "yeah",
    "yep", "yes", "yo", "yup",
})

REQUESTS = frozenset({
    "anyth", "convent", "decid", "decis", "describ", "detail", "everyth", "explain",
    "guidelin", "help", "info", "inform", "know", "note", "overview", "recal",
    "recap", "regard", "rememb", "remind", "rule", "someth", "stori", "summari",
    "summariz", "tell", "whole", "βοηθ", "δειξ", "εξηγ", "θυμ", "θυμισ",
    "κανον", "λεπτομερει", "ξερ", "πειτε", "πεσ", "πληροφορι", "σημειωσ", "σχετ",
    "вспомн", "дета", "заметк", "знаеш", "инф", "информац", "касательн", "напомн",
    "насчет", "объясн", "подробн", "подскаж", "покаж", "помог", "расскаж", "скаж",
    "いて", "えて", "お願", "くだ", "さい", "たい", "ださ", "つい",
    "とは", "につ", "りた", "一下", "下さ", "关于", "告诉", "帮忙",
    "帮我", "想知", "我想", "提醒", "教え", "有关", "看看", "知り",
    "知道", "给我", "诉我", "请帮", "请问", "醒我", "願い", "관련",
    "관해", "대해", "려줘", "련해", "뭐", "뭐야", "세요", "알려",
    "좀", "주세", "줄래", "줘", "줘요", "해", "해서", "해주",
    "해줄", "해줘",
})

QUESTIONS = frozenset({
    "chi", "como", "cual", "cuando", "dond", "dove", "how", "ond",
    "ou", "perch", "pourquoi", "quai", "qual", "quali", "quand", "que",
    "quel", "quell", "quem", "qui", "quien", "quoi", "wann", "warum",
    "was", "welch", "welcher", "wer", "what", "when", "where", "whi",
    "which", "who", "wie", "wo", "γιατ", "ποι", "ποτ", "που",
    "πωσ", "τι", "где", "зач", "как", "когд", "кто", "поч",
    "что", "איזה", "איזו", "איך", "איפה", "האם", "כמה", "למה",
    "מה", "מי", "מתי", "أي", "أين", "اي", "اين", "كم",
    "كيف", "لماذا", "ما", "ماذا", "متى", "هل", "چرا", "چطور",
    "چند", "چه", "چگونه", "چی", "چیست", "کجا", "کجاست", "کدام",
    "کی", "कब", "कहाँ", "कहां", "कितना", "कितनी", "कितने", "किस",
    "कैसे", "कौन", "क्या", "क्यों", "いつ", "だれ", "どう", "どこ",
    "なぜ", "なに", "为什", "什么", "哪个", "哪儿", "哪里", "怎么",
    "谁", "누가", "누구", "떻게", "몇", "무엇", "어디", "어떤",
    "어떻", "언제", "얼마", "왜",
})


__all__ = ["CHAT", "QUESTIONS", "REQUESTS", "SNOWBALL", "STOPWORDS", "hold"]
