"""No code reaches a sentence: every violation, note and refusal of the rules engine
(``referee.engine.messages``, ``referee.engine.error_messages``), rendered for a page through
``scoring.words.engine_messages`` in pt_BR, says its enum values in words (a hand's ending, the state of
the game, a rule set's name, a house sanction) and never shows a snake_case identifier; what a request must
type (a JSON field, a code it may send) is shown quoted. Pairs named with a plural article take the
plural verb ("quem decide a mão de onze são os Zapeiros", art. 18)."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from referee.engine.infractions import CATALOG
from referee.engine.messages import PARAM_WORDS, TEXTS
from referee.engine.rules import OPTIONS, PRESETS
from referee.engine.summary import ENDINGS
from scoring.words.engine_messages import render, render_error

TEAMS = ["Os Zapeiros", "Copas"]
_PLACEHOLDER = re.compile(r"\{(\w+)(?:@(\w+)(?::[^:}]*:[^}]*)?)?\}")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
ENUM_VALUES = (set(ENDINGS) | set(PARAM_WORDS["ended_by"]) | set(PRESETS) | set(OPTIONS)
               | {v for option in OPTIONS.values() for v in option.choices if isinstance(v, str)})
# in English some values are plain words ("three tied tricks", "nothing to run from"): only codes count there
CODE_LIKE = {value for value in ENUM_VALUES if re.search(r"[_\-+0-9]", value)}
# enum values that are also plain Portuguese words (or the game's own words) in a sentence
PORTUGUESE_WORDS = {"tento", "truco", "sujo", "limpo"}


def _sample(name: str, form: str | None, variant: object):
    if name.endswith("team") or name in ("offender", "beneficiary", "winner") or form in (
            "seat", "seat_the", "seat_of") or form == "n":
        return 0 if name != "eleven_team" else 0
    nested = {"why": {"key": "refusal.start", "params": {}},
              "who": {"key": "summary.tied_winner", "params": {"team": 1}},
              "ruling": {"key": "ruling", "params": {"what": "Palavra de orientação", "seat": 1, "infraction":
                         "guidance_word", "consequence": {"key": "consequence.warning", "params": {}}}},
              "consequence": {"key": "consequence.house_tento", "params": {"offender": 0, "points": 3}},
              "claimed": {"key": "claim.team", "params": {"team": 1, "points": 1}},
              "actual": {"key": "actual.team", "params": {"team": 0, "points": 3}}}
    if name in nested:
        return nested[name]
    if name in PARAM_WORDS:
        return variant if variant in PARAM_WORDS[name] else next(iter(PARAM_WORDS[name]))
    lists = {"codes": ", ".join(CATALOG), "endings": ", ".join(ENDINGS), "known": ", ".join(PRESETS),
             "fields": "seat, play, covered", "allowed": "True, False", "seats": "1, 3"}
    if name in lists:
        return lists[name]
    return {"what": "Olhou a boca do baralho", "infraction": "bottom_of_deck", "article": "art. 5",
            "call": "truco", "pending": "truco", "counts_as": "truco", "card": "7-paus", "cards": "7-paus, 4-ouros",
            "value": repr("carta_errada"), "said": "Jorge", "kind": "play", "error": "ValueError",
            "step": {"key": "step.tento", "params": {}}, "nth": 2, "reason": "a mesa pediu",
            "description": "a carta caiu", "deck": "sujo"}.get(name, 3)


def _cases():
    for key, (pt, _en) in sorted(TEXTS.items()):
        names = {(m.group(1), m.group(2)) for m in _PLACEHOLDER.finditer(pt)}
        variants = [None]
        for name, _form in sorted(names, key=str):  # a set: sorted, so every process collects the same cases
            if name in PARAM_WORDS:
                variants = list(PARAM_WORDS[name])
        for variant in variants:
            yield pytest.param(key, {n: _sample(n, f, variant) for n, f in names}, id=f"{key}-{variant}")


def _codes_in(text: str, values: set[str] = ENUM_VALUES) -> list[str]:
    bare = _QUOTED.sub(" ", text)
    tokens = set(_SNAKE.findall(bare))
    tokens |= {word for word in re.findall(r"[\w+-]+", bare) if word in values and word not in PORTUGUESE_WORDS}
    return sorted(tokens)


@pytest.mark.parametrize(("key", "params"), list(_cases()))
def test_no_code_reaches_the_sentence_in_portuguese(key, params):
    with translation.override("pt-br"):
        as_refusal = render_error({"code": key, "params": params, "message": ""}, TEAMS)
        as_item = render({"key": key, "params": params}, TEAMS)
    assert as_refusal == as_item
    assert _codes_in(as_refusal) == [], as_refusal
    assert not _PLACEHOLDER.search(as_refusal), as_refusal  # every placeholder filled


@pytest.mark.parametrize(("key", "params"), list(_cases()))
def test_no_code_reaches_the_sentence_in_english(key, params):
    text = render_error({"code": key, "params": params, "message": ""}, TEAMS, "en")
    assert _codes_in(text, CODE_LIKE) == [], text


def test_the_pair_deciding_the_mao_de_onze_takes_the_plural_verb():
    """art. 18: the team at eleven decides; "Os Zapeiros" is plural, "Copas" a (singular) dupla."""
    with translation.override("pt-br"):
        plural = render_error({"code": "eleven.team", "params": {"team": 0}}, TEAMS)
        singular = render_error({"code": "eleven.team", "params": {"team": 1}}, TEAMS)
    assert plural == "quem decide a mão de onze são os Zapeiros (art. 18)"
    assert singular == "quem decide a mão de onze é a dupla Copas (art. 18)"


@pytest.mark.parametrize(("key", "params", "expected"), [
    ("consequence.warning", {}, "advertência, sem perda de pontos — sanção das regras da casa"),
    ("event.after_hand", {"ended_by": "tricks"}, "a mão já tinha terminado (vencida nas vazas) antes deste evento"),
    ("infraction.eleven_only", {}, "aumento na mão de onze (art. 19) só cabe na mão de onze ou na de ferro"),
    ("summary.all_tied", {"who": {"key": "actual.nobody", "params": {}}, "article": "art. 11.4",
                          "preset": "regulamento-tecnico"},
     "com as três vazas empatadas ninguém marca (art. 11.4; conjunto de regras: Regulamento Técnico)"),
    ("infraction.refused", {"infraction": "bottom_of_deck", "what": "Olhou a boca do baralho", "article": "art. 5",
                            "why": {"key": "refusal.deal_window", "params": {}}},
     "a falta “olhou a boca do baralho” (art. 5) não cabe aqui: só pode ser pedida no início da mão"),
])
def test_the_findings_sentences_read_as_a_referee_says_them(key, params, expected):
    with translation.override("pt-br"):
        text = render_error({"code": key, "params": params}, TEAMS)
    assert text.startswith(expected) or expected in text, text


def test_english_names_the_pair_without_the_portuguese_article_and_agrees():
    """English says "the Zapeiros" mid-sentence, "The Zapeiros" first, with the plural verb."""
    decided = render_error({"code": "eleven.team", "params": {"team": 0}}, TEAMS, "en")
    loses = render({"key": "consequence.tento", "params": {"offender": 0, "points": 3}}, TEAMS, "en")
    single = render({"key": "consequence.tento", "params": {"offender": 1, "points": 3}}, TEAMS, "en")
    assert decided == "the mão de onze is decided by the Zapeiros (art. 18)"
    assert loses == "The Zapeiros lose the tento in play (3)"
    assert single == "Copas loses the tento in play (3)"
    for key, params in (("eleven.team", {"team": 0}), ("summary.eleven_runner", {"eleven_team": 0, "team": 1}),
                        ("actual.team", {"team": 0, "points": 2})):
        text = render_error({"code": key, "params": params}, TEAMS, "en")
        assert " Os " not in text and not text.startswith("Os "), text
