"""A person asking in French, Spanish, Portuguese, Russian — or with the bare Japanese and Korean imperatives —
to remember something fires the gate, and the rules extractor keeps what they asked to keep without the
request's words (inject40: the gate knew English, Chinese, German, and the polite Japanese and Korean forms
only). The same languages' ordinary sentences, and their "I remember", fire nothing."""

from __future__ import annotations

import pytest

from memdir.consolidation.extractors.rules import classify
from memdir.consolidation.gate import check, sentence_rules
from memdir.consolidation.transcripts import read_transcript


def rules_of(sentence: str) -> set[str]:
    return {rule for rule, _ in sentence_rules(sentence)}


CASES = [
    ("Retiens que le serveur de staging écoute sur le port 6543.",
     "Le serveur de staging écoute sur le port 6543.", "Je me souviens de ce jour-là."),
    ("N’oublie pas que le déploiement se fait le vendredi.", "Le déploiement se fait le vendredi.",
     "Il faut retenir la leçon du dernier incident."),
    ("Recuerda que el servidor de staging escucha en el puerto 6543.",
     "El servidor de staging escucha en el puerto 6543.", "Recuerdo que el servidor era lento."),
    ("No olvides: el despliegue es los viernes.", "El despliegue es los viernes.", "El servidor está lento hoy."),
    ("Lembre-se de que o servidor de staging escuta na porta 6543.",
     "O servidor de staging escuta na porta 6543.", "Eu lembro que o servidor caiu ontem."),
    ("Não esqueça que o deploy é na sexta.", "O deploy é na sexta.", "Lembra que fomos lá?"),
    ("Запомни, что staging слушает порт 6543.", "Staging слушает порт 6543.", "Я помню, что сервер падал."),
    ("Не забудь: деплой по пятницам.", "Деплой по пятницам.", "Сервер сегодня медленный."),
    ("覚えて：本番データベースは毎晩3時にバックアップされる", "本番データベースは毎晩3時にバックアップされる",
     "その件は覚えています。"),
    ("本番は金曜日にデプロイしない、覚えてね。", "本番は金曜日にデプロイしない", "覚えてる？"),
    ("기억해라: 스테이징 서버는 6543 포트를 씁니다", "스테이징 서버는 6543 포트를 씁니다", "그 회의를 기억해요."),
]


@pytest.mark.parametrize("request_, kept, ordinary", CASES)
def test_a_request_fires_and_keeps_its_content_an_ordinary_sentence_does_not(request_, kept, ordinary):
    assert rules_of(request_) == {"remember"}
    assert classify(request_) == ("project", kept)
    assert rules_of(ordinary) == set()  # the same language saying something else, or "I remember"
    assert classify(ordinary) is None


@pytest.mark.parametrize("said, back", [
    ("Le serveur de staging écoute sur le port 6543.", "Retiens-le."),
    ("El servidor de staging escucha en el puerto 6543.", "Recuérdalo."),
    ("O servidor de staging escuta na porta 6543.", "Lembre-se disso."),
    ("Сервер staging слушает порт 6543.", "Запомни это."),
])
def test_a_request_pointing_back_fires_with_what_it_points_to(said, back):
    asked = check(read_transcript([{"role": "user", "content": f"{said} {back}"}]))
    assert [(h.rule, h.sentence) for h in asked.hits] == [("remember", f"{said} {back}")]
    alone = check(read_transcript([{"role": "user", "content": said}]))  # control: the fact without the request
    assert alone.hits == () and not alone.fire


def test_the_middle_of_a_long_message_is_read_for_every_language_s_request():
    """A cut message reads its middle for requests after a quick look for a request's word
    (gate.REQUEST_WORDS): each request above, in German, Korean, Japanese and Chinese too, passes that look."""
    from memdir.consolidation.gate import said_hits

    asked = [case[0] for case in CASES]
    asked += ["Merk dir bitte: Die Größe der Log-Dateien ist auf 50 MB begrenzt.", "기억해 주세요: 스테이징 서버는 6543",
              "覚えておいて：本番データベースは毎晩3時にバックアップされる", "记住：发布分支是 release/2026。",
              "Put this into CLAUDE.md: tests run with -x.", "We deploy on Fridays. Write it down."]
    for text in asked:
        assert [rules for _, rules in said_hits(text, requests=500)] != [], text
        assert said_hits(text, requests=500) == [(s, [h for h in r if h[0] == "remember"]) for s, r in said_hits(text)]
    assert said_hits("Le serveur est lent aujourd’hui. Сервер сегодня медленный.", requests=500) == []  # control
