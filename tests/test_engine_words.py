"""The rules engine's sentences with the pairs named (issue 14 §4, scoring/words/engine_words.py): the verb
agrees with a plural name ("os Zapeiros perdem"), "de" contracts with its article ("dos Zapeiros"),
a name without an article keeps "a dupla"; and no engine sentence that names a pair is left with
its number (every f-string of referee/engine read with ``ast``)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scoring.words.engine_words import VERBS, name_pairs

ENGINE = Path(__file__).resolve().parent.parent / "referee" / "engine"
PLURAL, SINGULAR, BARE = "Os Zapeiros", "O Bando", "Ana e Bia"


@pytest.mark.parametrize(("text", "names", "expected"), [
    ("a dupla 0 perde o tento em jogo (3)", (PLURAL, SINGULAR), "Os Zapeiros perdem o tento em jogo (3)"),
    ("a dupla 1 perde o tento em jogo (3)", (PLURAL, SINGULAR), "O Bando perde o tento em jogo (3)"),
    ("a dupla 0 perde o tento em jogo (3)", (BARE, SINGULAR), "a dupla Ana e Bia perde o tento em jogo (3)"),
    ("Palavra (assento 2): a dupla 0 perde o tento em jogo (1)", (PLURAL, SINGULAR),
     "Palavra (assento 2): os Zapeiros perdem o tento em jogo (1)"),
    ("com o adversário a 9, a dupla 1 perde três tentos", (SINGULAR, PLURAL),
     "com o adversário a 9, os Zapeiros perdem três tentos"),
    ("há um truco pendente: a dupla 1 aceita, corre ou aumenta antes de qualquer carta (art. 13, 17)",
     (SINGULAR, PLURAL),
     "há um truco pendente: os Zapeiros aceitam, correm ou aumentam antes de qualquer carta (art. 13, 17)"),
    ("há um doze pendente e nada vai além do doze: a chamada não vale; a dupla 0 aceita ou corre do doze",
     (PLURAL, SINGULAR),
     "há um doze pendente e nada vai além do doze: a chamada não vale; os Zapeiros aceitam ou correm do doze"),
    ("quem corre da mão de onze é a dupla 0: marca a dupla 1", (PLURAL, SINGULAR),
     "quem corre da mão de onze são os Zapeiros: marca o Bando"),
    ("quem corre da mão de onze é a dupla 1: marca a dupla 0", (PLURAL, SINGULAR),
     "quem corre da mão de onze é o Bando: marcam os Zapeiros"),
    ("as cartas da dupla 0 não garantem a vitória; a mão deve ser jogada", (PLURAL, SINGULAR),
     "as cartas dos Zapeiros não garantem a vitória; a mão deve ser jogada"),
    ("a prova da dupla 1 não pôde ser conferida a tempo", (PLURAL, BARE),
     "a prova da dupla Ana e Bia não pôde ser conferida a tempo"),
    ("a mesa anotou dupla 1 com 1 ponto(s); pelas regras, a dupla 0 marca 3 ponto(s)", (PLURAL, SINGULAR),
     "a mesa anotou 1 ponto para o Bando; pelas regras, os Zapeiros marcam 3 pontos"),
    ("a mesa anotou dupla None com 0 ponto(s); pelas regras, a dupla 1 marca 1 ponto(s)", (SINGULAR, PLURAL),
     "a mesa anotou que ninguém marca; pelas regras, os Zapeiros marcam 1 ponto"),
    ("a dupla 1 fez a última provocação; o próximo aumento é da outra dupla", (SINGULAR, PLURAL),
     "Os Zapeiros fizeram a última provocação; o próximo aumento é da outra dupla"),
    ("o assento 3 é da dupla que provocou; responde a dupla 0", (PLURAL, SINGULAR),
     "o assento 3 é da dupla que provocou; respondem os Zapeiros"),
])
def test_the_pairs_are_named_and_the_verbs_agree(text, names, expected):
    assert name_pairs(text, names) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("os eventos terminam antes de a mão ser decidida (1 vaza(s) completa(s))",
     "os eventos terminam antes de a mão ser decidida (1 vaza completa)"),
    ("(2 vaza(s) completa(s))", "(2 vazas completas)"), ("0 ponto(s)", "0 pontos")])
def test_counts_agree(text, expected):
    assert name_pairs(text, (PLURAL, SINGULAR)) == expected


def test_a_name_that_reads_like_a_number_is_not_read_twice():
    assert name_pairs("a dupla 0 perde; marca a dupla 1", ("Dupla 1", "Dupla 0")) == \
        "a Dupla 1 perde; marca a Dupla 0"


def test_without_names_or_numbers_the_text_is_kept():
    assert name_pairs("a dupla 0 perde", None) == "a dupla 0 perde"
    assert name_pairs("a dupla 0 perde", ("", "X")) == "a dupla 0 perde"
    assert name_pairs("Celular tocou: a dupla desistiu", (PLURAL, SINGULAR)) == "Celular tocou: a dupla desistiu"
    assert name_pairs("", (PLURAL, SINGULAR)) == ""


def test_names_come_from_a_match_or_a_sumula_document():
    class Pair:
        def __init__(self, name):
            self.name = name

    class Match:
        pair_a, pair_b = Pair(PLURAL), Pair(SINGULAR)

    assert name_pairs("a dupla 0 perde", Match()) == "Os Zapeiros perdem"
    assert name_pairs("a dupla 1 perde", [{"name": PLURAL}, {"name": SINGULAR}]) == "O Bando perde"


def engine_sentences() -> list[tuple[str, str]]:
    """Every f-string of the engine that names a pair by number, with each value as "1"."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        if path.name == "messages.py":  # violations and notes as data: tests/scoring/test_engine_messages.py
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            text = "".join(part.value if isinstance(part, ast.Constant) else "1" for part in node.values)
            if re.search(r"dupla 1\b", text):
                found.append((f"{path.name}:{node.lineno}", text))
    return found


def test_the_engine_sentences_are_found():
    # the refused reports' errors and the summary's: still finished sentences (violations and notes are data)
    assert len(engine_sentences()) >= 6


@pytest.mark.parametrize(("where", "text"), engine_sentences())
def test_no_engine_sentence_keeps_a_pair_number_or_a_singular_verb(where, text):
    for names in ((PLURAL, PLURAL), (BARE, BARE)):
        out = name_pairs(text, names)
        assert not re.search(r"dupla [01]\b", out), (where, out)
        assert "ponto(s)" not in out, (where, out)
    out = name_pairs(text, (PLURAL, PLURAL))
    singular = "|".join(map(re.escape, VERBS))
    assert not re.search(rf"(?i)os Zapeiros ({singular})(?![\w])", out), (where, out)
    assert not re.search(rf"(?<![\w])({singular}) os Zapeiros", out), (where, out)
