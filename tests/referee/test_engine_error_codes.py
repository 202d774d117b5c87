"""Messages as data everywhere: the engine's refusals carry a code, its article and parameters
(``referee/engine/error_messages.py``), every code is documented in docs/hand-report.md, and each renders
in Portuguese and English with the pairs' names; no English in a Portuguese verdict."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine.error_messages import ERRORS
from referee.engine.errors import ReportError
from referee.engine.messages import MESSAGES, TEXTS, render, render_error
from referee.engine.rules import DEFAULT
from referee.engine.rulings import TableState, propose_ruling
from referee.engine.summary import check_summary

DOC = (Path(__file__).resolve().parents[2] / "docs" / "hand-report.md").read_text(encoding="utf-8")
PLACEHOLDER = re.compile(r"\{(\w+)")
SAMPLE = {"seat": 1, "turn": 2, "dealer": 3, "team": 1, "eleven_team": 0, "number": 0, "card": "4-paus",
          "cards": "4-paus, 7-copas", "deck": "sujo", "count": 4, "max": 64, "a": 12, "b": 3, "trick": 2,
          "call": "truco", "value": "'x'", "fields": "a, b", "kind": "play", "ended_by": "tricks",
          "seats": "2", "known": "a, b", "allowed": "1, 3", "codes": "x, y", "what": "Palavra", "article": "art. 18",
          "why": {"key": "refusal.raised", "params": {}}, "who": {"key": "actual.nobody", "params": {}},
          "preset": "jtb", "choices": "3", "state": "eleven", "endings": "tricks, run", "error": "KeyError",
          "infraction": "guidance_word", "fixed": 3}


def test_every_code_and_key_is_documented_in_the_hand_report_guide():
    missing = [code for code in [*ERRORS, *MESSAGES] if code != "consequence.none" and f"| `{code}` |" not in DOC]
    assert not missing, f"not documented in docs/hand-report.md: {missing}"


def test_every_refusal_renders_in_both_languages_with_the_same_parameters():
    for code, (article, pt, en) in ERRORS.items():
        assert article == "" or article.startswith("art. "), code
        assert set(PLACEHOLDER.findall(pt)) == set(PLACEHOLDER.findall(en)), code
        for lang in ("pt", "en"):
            text = render(code, SAMPLE, lang)
            assert text and not PLACEHOLDER.search(text.replace('{"', "").replace("{...}", "")), (code, lang, text)


def test_a_refusal_is_a_code_an_article_and_parameters():
    verdict = check_report({"dealer": 3, "vira": "4-ouros", "score": [11, 4],
                            "events": [{"seat": 0, "play": "3-espadas"}]})
    error = verdict["error"]
    assert error["code"] == "eleven.undecided" and error["article"] == "art. 18"
    assert error["params"] == {"team": 0, "number": 0}
    assert error["message"].startswith("mão de onze: a dupla 0 decide jogar ou correr")
    english = render_error(error, "en")
    assert english.startswith("mão de onze: team 0 decides to play or run") and "art. 18" in english


def test_a_summary_refusal_names_the_pairs_in_the_page_language():
    try:
        check_summary(DEFAULT, (11, 4), 0, {"winner": 0, "ended_by": "eleven_refused", "value": 1})
    except ReportError as error:
        refused = error
    assert (refused.code, refused.article, refused.field) == ("summary.eleven_runner", "art. 18", "winner")
    plural = {0: "os Zapeiros"}

    def words(team, form, lang):
        return plural.get(team, "a dupla Copas") if lang == "pt" else ["The Zapeiros", "Copas"][team]

    assert render_error(refused.as_dict(), "pt", words, lambda team: team == 0) == \
        "quem corre da mão de onze são os Zapeiros: marca a dupla Copas (art. 18)"
    assert render_error(refused.as_dict(), "en", words, lambda team: team == 0) == \
        "the team that runs from the mão de onze is The Zapeiros: Copas scores (art. 18)"


def test_a_refused_claim_cites_the_infractions_article():
    state = TableState(score=(3, 4), dealer=3, any_card=True)
    try:
        propose_ruling(DEFAULT, "bottom_of_deck", 3, state)
    except ReportError as error:
        refused = error
    assert refused.code == "infraction.refused" and refused.article == "art. 5"
    assert refused.params["why"] == {"key": "refusal.deal_window", "params": {}}
    assert "does not apply here" in render_error(refused.as_dict(), "en")


def test_a_ruling_is_data_with_its_consequence_nested():
    ruling = propose_ruling(DEFAULT, "guidance_word", 2, TableState(score=(3, 4), dealer=3, value=3))
    data = ruling.message_data(2)
    assert data["key"] == "ruling" and data["params"]["consequence"]["key"] == "consequence.tento"
    assert render(data["key"], data["params"]) == ruling.message(2)
    assert "team 0 loses the tento in play (3)" in render(data["key"], data["params"], "en")


REPORTS = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 15) | st.sampled_from(["4-ouros", "Truco!", "8-paus", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["dealer", "vira", "events", "score", "deal", "rules", "seat", "play", "call", "answer",
                         "eleven", "team", "preset", "options", "claimed"]), inner, max_size=5),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(REPORTS)
def test_any_refusal_is_a_known_code_rendered_from_its_data(report):
    """Property: whatever is sent, a refusal's message is its code's sentence from its parameters, and the
    same data renders in English without a Portuguese sentence left in it."""
    verdict = check_report(report)
    error = verdict.get("error")
    if error is None:
        return
    assert error["code"] in TEXTS and error["code"] in ERRORS
    assert error["message"] == render(error["code"], error["params"])[:401].rstrip("…") or \
        error["message"].endswith("…")
    assert render_error(error, "en") != error["message"] or error["code"] in ("fold.true",)
