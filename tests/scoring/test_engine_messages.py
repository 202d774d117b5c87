"""Messages as data: a verdict's violations and notes are rendered in the page's language with
the pairs' names (scoring/words/engine_messages.py), and check_hand renders them in English on request."""
import io
import json

from django.core.management import call_command
from django.utils import translation

from referee.engine import check_report
from referee.engine.messages import MESSAGES, render
from scoring.words.engine_messages import render as render_for_page

REPORT = {"dealer": 3, "vira": "4-ouros", "score": [0, 0], "claimed": {"winner": 1, "points": 3},
          "events": [{"seat": 0, "call": "truco", "said": "Turco"}, {"seat": 2, "call": "seis"},
                     {"seat": 1, "answer": "run"}]}
TEAMS = ["Os Zapeiros", "Bando"]


def test_every_message_has_both_languages_and_the_same_parameters():
    import re

    for key, (pt, en) in MESSAGES.items():
        names = lambda text: sorted(set(re.findall(r"\{(\w+)", text)))  # noqa: E731
        assert names(pt) == names(en), key


def test_violations_are_data_and_render_with_the_pairs_names_in_portuguese_and_english():
    verdict = check_report(REPORT)
    codes = [v["code"] for v in verdict["violations"]]
    assert codes == ["false_call", "raise_not_alternating", "claim_mismatch"]
    alternating = verdict["violations"][1]
    assert alternating["params"]["team"] == 0 and alternating["key"] == "raise_not_alternating.pending"
    with translation.override("pt-br"):
        assert render_for_page(alternating, TEAMS).startswith("Os Zapeiros aumentaram a própria provocação")
    with translation.override("en"):
        assert render_for_page(alternating, TEAMS).startswith("The Zapeiros raised their own call")
    mismatch = verdict["violations"][2]
    with translation.override("pt-br"):
        text = render_for_page(mismatch, TEAMS)
    assert text == "a mesa anotou 3 pontos para a dupla Bando; pelas regras, os Zapeiros marcam 1 ponto"
    assert render("claim_mismatch", mismatch["params"], "en") == \
        "the table noted 3 points for team 1; by the rules, team 0 scores 1 point"


def test_a_violation_stored_before_messages_were_data_is_shown_as_written():
    # no regular expressions over finished sentences any more; old rows stay readable
    old = {"code": "x", "article": "art. 13", "message": "a dupla 0 perde o tento em jogo (3)"}
    with translation.override("pt-br"):
        assert render_for_page(old, TEAMS) == "a dupla 0 perde o tento em jogo (3)"


def test_check_hand_renders_english_on_request_and_portuguese_by_default(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(REPORT), encoding="utf-8")
    outputs = {}
    for lang in ("pt", "en"):
        out = io.StringIO()
        try:
            call_command("check_hand", str(path), "--lang", lang, stdout=out)
        except Exception:  # exit 1: the report is invalid
            pass
        outputs[lang] = json.loads(out.getvalue())
    assert "não é uma chamada clara" in outputs["pt"]["violations"][0]["message"]
    assert outputs["en"]["violations"][0]["message"] == "\"Turco\" is not a clear call (art. 15); it counts as truco if accepted"


def test_check_hand_renders_a_refused_report_in_english_on_request(tmp_path):
    """A malformed report's error is data too: code, article, params; --lang en renders it, and the
    command's own JSON errors follow the same language."""
    path = tmp_path / "hands.jsonl"
    path.write_text('{"dealer": 3, "vira": "4-ouros", "score": [11, 4], "events": [{"seat": 0, "play": "3-espadas"}]}\n'
                    '{"a" 1}\n', encoding="utf-8")
    outputs = {}
    for lang in ("pt", "en"):
        out = io.StringIO()
        with translation.override("pt-br"):
            try:
                call_command("check_hand", str(path), "--lang", lang, stdout=out)
            except Exception:  # exit 1: invalid reports
                pass
        outputs[lang] = [json.loads(line)["error"] for line in out.getvalue().splitlines()]
    refused = outputs["en"][0]
    assert (refused["code"], refused["article"], refused["params"]) == ("eleven.undecided", "art. 18",
                                                                       {"team": 0, "number": 0})
    assert refused["message"].startswith("mão de onze: team 0 decides to play or run before the first card")
    assert outputs["pt"][0]["message"].startswith("mão de onze: a dupla 0 decide jogar ou correr")
    assert "Expecting ':' delimiter" in outputs["en"][1]["message"]
    assert "esperava dois-pontos" in outputs["pt"][1]["message"]


def test_json_errors_are_in_the_verdicts_language(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text('{"n": 1}\n{"a" 1}\n', encoding="utf-8")
    with translation.override("pt-br"):
        out = io.StringIO()
        try:
            call_command("check_hand", str(path), stdout=out)
        except Exception:
            pass
    message = [json.loads(line) for line in out.getvalue().splitlines()][1]["error"]["message"]
    assert "esperava dois-pontos" in message and "Expecting" not in message


def test_no_portuguese_message_keeps_a_pair_number_or_a_singular_verb_with_a_plural_name():
    import re

    from scoring.words.engine_messages import render as page

    params = {"team": 0, "offender": 0, "beneficiary": 1, "claimed_team": 0, "seat": 0, "points": 3, "tricks": 2,
              "theirs": 9, "count": 4, "card": "7-paus", "turn": 1, "call": "truco", "pending": "truco",
              "value": 1, "counts_as": "truco", "said": "Jorge", "dealer": 3, "what": "Título",
              "consequence": {"key": "consequence.tento", "params": {"offender": 0, "points": 3}},
              "claimed": {"key": "claim.team", "params": {"team": 0, "points": 1}},
              "actual": {"key": "actual.team", "params": {"team": 0, "points": 1}}}
    with translation.override("pt-br"):
        for key in MESSAGES:
            text = page({"key": key, "params": params}, TEAMS)
            assert not re.search(r"dupla [01]\b", text), (key, text)
            assert not re.search(r"(?i)os Zapeiros (perde|marca|aceita|corre|aumentou|fez|desistiu)\b", text), (key, text)
