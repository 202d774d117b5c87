"""scoring.words.pair_names: a pair's name inside a Portuguese sentence."""
from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe
from hypothesis import given
from hypothesis import strategies as st

from scoring.words import pair_names


@pytest.mark.parametrize("name, plural", [
    ("Os Zapeiros", True), ("As Comadres", True), ("os zapeiros", True),
    ("O Bando", False), ("A Turma do Zap", False), ("Zapeiros", False), ("Ana e Bia", False),
    ("Os", False), ("Osvaldo e Zé", False), ("", False),
])
def test_a_name_is_plural_when_it_starts_with_os_or_as(name, plural):
    assert pair_names.is_plural(name) is plural
    assert pair_names.number(name) == (2 if plural else 1)


@pytest.mark.parametrize("preposition, name, expected", [
    ("de", "Os Zapeiros", "dos Zapeiros"), ("de", "As Comadres", "das Comadres"),
    ("de", "O Bando", "do Bando"), ("de", "A Turma do Zap", "da Turma do Zap"),
    ("por", "Os Zapeiros", "pelos Zapeiros"), ("em", "A Turma", "na Turma"), ("a", "Os Zapeiros", "aos Zapeiros"),
    ("de", "Ana e Bia", "de Ana e Bia"), ("De", "Os Zapeiros", "Dos Zapeiros"),
])
def test_a_preposition_joins_the_article(preposition, name, expected):
    assert pair_names.contracted(preposition, name) == expected


def test_contract_rewrites_the_name_in_a_portuguese_sentence_only():
    text = "W.O. registrado: vitória de Os Zapeiros."
    assert pair_names.contract(text, "Os Zapeiros", language="pt-br") == "W.O. registrado: vitória dos Zapeiros."
    assert pair_names.contract("vencida por A Turma", "A Turma", language="pt-br") == "vencida pela Turma"
    assert pair_names.contract("vitória de Ana e Bia", "Ana e Bia", language="pt-br") == "vitória de Ana e Bia"
    assert pair_names.contract("won by Os Zapeiros", "Os Zapeiros", language="en") == "won by Os Zapeiros"
    # another word ending in "de" is not a preposition
    assert pair_names.contract("Verde Os Zapeiros", "Os Zapeiros", language="pt-br") == "Verde Os Zapeiros"


def test_contract_keeps_html_safe_and_crosses_tags():
    html = mark_safe("vencida por <strong>Os Zapeiros &amp; Cia</strong>")
    out = pair_names.contract(html, "Os Zapeiros & Cia", language="pt-br")
    assert out == "vencida pelos <strong>Zapeiros &amp; Cia</strong>" and isinstance(out, SafeData)


@given(st.text(alphabet="abcdeéãç ", min_size=1, max_size=20))
def test_a_name_without_an_article_is_never_changed(rest):
    name = "Dupla " + rest.strip()
    assert pair_names.contract(f"vitória de {name}", name, language="pt-br") == f"vitória de {name}"
    assert pair_names.number(name) == 1


def test_template_filters_make_the_verb_agree():
    template = engines["django"].from_string(
        "{% load i18n pair_names %}{% blocktranslate count n=pair|pair_number with pair=pair a=1 b=0 %}"
        "{{ pair }} won the match ({{ a }}–{{ b }} in games).{% plural %}"
        "{{ pair }} won the match ({{ a }}–{{ b }} in games).{% endblocktranslate %}"
        "|{% filter contract:pair %}{% blocktranslate %}won by {{ pair }}{% endblocktranslate %}{% endfilter %}")
    with translation.override("pt-br"):
        assert template.render({"pair": "Os Zapeiros"}) == (
            "Os Zapeiros venceram o jogo (1–0 em partidas).|vencida pelos Zapeiros")
        assert template.render({"pair": "O Bando"}) == "O Bando venceu o jogo (1–0 em partidas).|vencida pelo Bando"
    with translation.override("en"):
        assert template.render({"pair": "Os Zapeiros"}) == "Os Zapeiros won the match (1–0 in games).|won by Os Zapeiros"
