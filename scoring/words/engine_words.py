"""The rules engine's finished sentences with the pairs' names (issue 14 §4), for what is still stored as text.

A verdict's violations and notes are data since issue 23 and are rendered by
``scoring.words.engine_messages``. What is still a finished Portuguese sentence — a ruling's message
and a penalty's reason stored on the súmula, a refused report's error, a violation stored before
issue 23 — goes through :func:`name_pairs` here. The engine speaks of the pairs by number: "a dupla 0 perde o tento em jogo (3)", "marca a dupla 1", "as cartas da dupla
0", "a mesa anotou dupla 1 com 3 ponto(s)". Where such a sentence is shown to people (the hand
checker, the súmula's violations and penalties, the rulings, a refused entry), :func:`name_pairs`
puts the match's pair names in, with the agreement ``scoring.words.pair_names`` gives:

- the verb agrees with a plural name: "Os Zapeiros perdem", "marcam os Zapeiros", "os Zapeiros
  aceitam ou correm do doze" (the name's article in lower case inside a sentence, as after a
  contraction); "o Bando perde", "a dupla Ana e Bia perde" (a name without an article keeps
  "a dupla");
- "de" contracts with the name's article: "as cartas dos Zapeiros", "a prova do Bando";
- "N ponto(s)" becomes "1 ponto" / "3 pontos" ("1 vaza completa", "2 vazas completas").

One pass over the text (a name that itself reads "Dupla 1" is never read again). Only the verbs
the engine uses after or before a pair are known (:data:`VERBS`); ``tests/test_engine_words.py``
renders every engine sentence that names a pair and fails on one left with a number.
"""
from __future__ import annotations

import re

from .engine_messages import of, subject, team_names
from .pair_names import is_plural

#: the engine's verbs with a pair as subject: singular -> plural
VERBS = {
    "perde": "perdem", "marca": "marcam", "aceita": "aceitam", "corre": "correm", "aumenta": "aumentam",
    "aumentou": "aumentaram", "fez": "fizeram", "decide": "decidem", "responde": "respondem", "é": "são",
}
_VERB = "(?:" + "|".join(re.escape(v) for v in sorted(VERBS, key=len, reverse=True)) + r")(?![\w])"
_PATTERN = re.compile(
    r"(?<![\w])(?:"
    # "a mesa anotou dupla 1 com 3 ponto(s)" (the table's claim, verdict.py)
    r"(?P<noted>anotou dupla (?P<noted_team>[01]|None) com (?P<noted_points>\d+|None) ponto\(s\))"
    # "a dupla 1 aceita, corre ou aumenta"
    rf"|(?P<subject>(?P<subject_the>[Aa] )?dupla (?P<subject_team>[01]) (?P<verbs>{_VERB}(?:(?:, | ou | e ){_VERB})*))"
    # "marca a dupla 1", "é a dupla 0"
    rf"|(?P<after>(?P<after_verb>{_VERB}) a dupla (?P<after_team>[01]))"
    # "as cartas da dupla 0"
    r"|(?P<of>(?P<of_word>[Dd])a dupla (?P<of_team>[01]))"
    # any other "a dupla 1" / "dupla 1"
    r"|(?P<bare>(?P<bare_the>[Aa] )?dupla (?P<bare_team>[01]))"
    # "3 ponto(s)", "1 vaza(s) completa(s)"
    r"|(?P<count>(?P<count_n>\d+) (?P<count_words>\w+\(s\)(?: \w+\(s\))*))"
    r")(?![\w])"
)


def agree(verbs: str, name: str) -> str:
    """``verbs`` ("aceita ou corre") in the plural when the name is plural."""
    if not is_plural(name):
        return verbs
    return re.sub(_VERB, lambda m: VERBS[m.group(0)], verbs)


def points(n: int | str) -> str:
    return f"{n} ponto" if str(n) == "1" else f"{n} pontos"


_names = team_names


def name_pairs(text: str, teams) -> str:
    """``text`` (an engine sentence) with pair 0 and pair 1 named after ``teams``; unchanged when
    the names are not known."""
    names = _names(teams)
    if not text or not isinstance(text, str) or names is None:
        return text

    def replace(m: re.Match) -> str:
        first = not text[:m.start()].strip() or text[:m.start()].rstrip().endswith((".", "!", "?"))
        if m.group("noted"):
            team, n = m.group("noted_team"), m.group("noted_points")
            if team == "None":
                return "anotou que ninguém marca"
            return f"anotou {points(n)} para {subject(names[int(team)], 'a ')}"
        if m.group("subject"):
            name = names[int(m.group("subject_team"))]
            return f"{subject(name, m.group('subject_the') or '', first=first)} {agree(m.group('verbs'), name)}"
        if m.group("after"):
            name = names[int(m.group("after_team"))]
            return f"{agree(m.group('after_verb'), name)} {subject(name)}"
        if m.group("of"):
            return of(names[int(m.group("of_team"))], m.group("of_word"))
        if m.group("bare"):
            return subject(names[int(m.group("bare_team"))], m.group("bare_the") or "", first=first)
        n = m.group("count_n")
        return f"{n} " + m.group("count_words").replace("(s)", "" if n == "1" else "s")

    return _PATTERN.sub(replace, text)
