"""Every refusal of the engine names its article, and the people it speaks of (``error_messages.ERRORS``).

A refusal that applies a rule carries the rule's article and says it in both languages ("(art. 4)"), as a
referee would; only a refusal about the report's form (JSON shapes, codes, options: no rule of the
regulation is at stake) has none, and those are listed here one by one so that a new refusal chooses. A
seat is named through the seat forms (``{seat@seat_the}``), so a page that knows the players names them
("Caio Reis (do Copas)"), never "assento 1"."""
from __future__ import annotations

import re

import pytest

from referee.engine.error_messages import ERRORS
from referee.engine.errors import ARTICLE_IN_PARAMS
from referee.engine.messages import render

# the report's form, not a rule: no article applies (docs/hand-report.md writes "—")
FORM_ONLY = {
    "report.not_object", "report.unknown_field", "report.events", "report.too_many_events", "report.score",
    "report.nested", "report.internal",
    "deal.not_object", "deal.seats", "deal.list", "deal.missing", "deal.not_in_deck", "deal.twice",
    "card.not_text", "card.invalid", "card.not_in_deck", "card.played",
    "event.not_object", "event.actions", "event.unknown_field", "event.seat", "event.team",
    "play.covered", "play.seat_played", "play.three_cards", "play.not_dealt",
    "infraction.unknown", "infraction.seat",
    "rules.not_object", "rules.unknown_field", "rules.options", "rules.preset", "rules.option", "rules.option_value",
    "claimed.object", "claimed.winner", "claimed.points",
    "summary.not_object", "summary.ended_by", "summary.winner", "summary.value_int", "summary.winner_missing",
}
# parts of another refusal, which carries the article: the "why" of infraction.refused (the infraction's
# article) and who scores three tied tricks (summary.all_tied); summary.no_ending names the hand's state
PARTS = {"refusal.dealer", "refusal.start", "refusal.blind_iron", "summary.tied_winner", "summary.no_ending"}

SEAT_PARAMS = ("seat", "dealer", "turn")


def test_every_refusal_of_a_rule_names_its_article_in_both_languages():
    without = {code for code, (article, _pt, _en) in ERRORS.items() if not article}
    assert without - ARTICLE_IN_PARAMS == FORM_ONLY | PARTS
    for code, (article, pt, en) in ERRORS.items():
        if code in ARTICLE_IN_PARAMS:
            assert "{article}" in pt and "{article}" in en, code
        elif article:
            first = article.split(",")[0]
            assert first in pt and first in en, (code, article)


@pytest.mark.parametrize("code", sorted(code for code, (_a, pt, _en) in ERRORS.items()
                                        if re.search(r"\{(%s)[}@]" % "|".join(SEAT_PARAMS), pt)))
def test_a_refusal_names_the_player_at_a_seat_when_the_page_knows_them(code):
    names = {0: "Ana Souza", 1: "Caio Reis", 2: "Beto Lima", 3: "Duda Melo"}

    def seat_words(seat: int, form: str, lang: str) -> str:
        return ("de " if form == "seat_of" and lang == "pt" else "") + names[seat]

    params = {"seat": 1, "dealer": 3, "turn": 2, "trick": 2, "card": "4-paus", "cards": "5-paus", "team": 0}
    for lang in ("pt", "en"):
        text = render(code, params, lang, seat_words=seat_words)
        assert "Caio Reis" in text or "Duda Melo" in text, (code, lang, text)
        assert "assento" not in text and "seat 1" not in text, (code, lang, text)
