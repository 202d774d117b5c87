"""The rules engine's violations and notes rendered in the page's language with the pairs' names.

The engine reports each violation and note as data (``key``, ``params``: ``referee.engine.messages``);
:func:`render` turns one into a sentence in the active language (Brazilian Portuguese by default,
English) naming the pairs as the match does, with the agreement of ``scoring.words.pair_names``:
"os Zapeiros perdem o tento em jogo", "as cartas do Bando", "a dupla Ana e Bia aceita"; a seat by its player and pair ("Caio Reis, do Copas",
never "assento 1": the súmula and the rulings are a record of people). The same for
the engine's refusals (:func:`render_error`: a code and its parameters) and for what rows store as data,
a ruling's message and a penalty's reason (:func:`render_stored`). Text stored before messages were data
(a violation without ``key``, a ruling or penalty without data) is shown as it was written.
"""
from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import get_language

from referee.engine.messages import TEXTS, language
from referee.engine.messages import render as render_message

from .pair_names import contracted, is_plural, split_article


def team_names(teams) -> list[str] | None:
    """Two names from a match (``pair_a``/``pair_b``), a súmula's ``teams`` or a pair of names."""
    if teams is None:
        return None
    if hasattr(teams, "pair_a"):
        teams = [teams.pair_a, teams.pair_b]
    if not isinstance(teams, Sequence) or isinstance(teams, str) or len(teams) != 2:
        return None
    names = []
    for team in teams:
        name = team.get("name") if isinstance(team, dict) else getattr(team, "name", team)
        if not isinstance(name, str) or not name.strip():
            return None
        names.append(" ".join(name.split()))
    return names


def seat_players(teams) -> list[tuple[str, str]] | None:
    """``(player, pair)`` names at the engine's seats 0-3 (seats 0 and 2 are the first pair's, partners
    opposite: ``scoring.display.seat_names``) from a match or a súmula's ``teams``; None when unknown."""
    if teams is None:
        return None
    if hasattr(teams, "pair_a"):
        pairs = [teams.pair_a, teams.pair_b]
        try:
            players = [[p.first_player.name, p.second_player.name] for p in pairs]
        except AttributeError:
            return None
        names = [p.name for p in pairs]
    elif isinstance(teams, Sequence) and len(teams) == 2 and all(isinstance(t, dict) for t in teams):
        players = [t.get("players") or [] for t in teams]
        names = [t.get("name") or "" for t in teams]
    else:
        return None
    seats = []
    for seat in range(4):
        team = players[seat % 2]
        if len(team) <= seat // 2 or not isinstance(team[seat // 2], str) or not team[seat // 2].strip():
            return None
        seats.append((" ".join(team[seat // 2].split()), " ".join(str(names[seat % 2]).split())))
    return seats


def _seat_words(seats: list[tuple[str, str]]):
    def words(seat: int, form: str, lang: str) -> str:
        if not 0 <= seat < 4:
            return str(seat)
        player, pair = seats[seat]
        if lang == "en":
            pair = english(pair)
            return f"{player}, {pair}" if form == "seat" else f"{player} ({pair})"
        pair = of(pair) if pair else ""
        text = (f"{player}, {pair}" if form == "seat" else f"{player} ({pair})") if pair else player
        return f"de {text}" if form == "seat_of" else text

    return words


def _is_dupla(name: str) -> bool:
    return name.casefold().startswith("dupla ")


def subject(name: str, the: str = "a ", *, first: bool = False) -> str:
    """The pair as the subject of a sentence: "os Zapeiros" ("Os Zapeiros" ``first`` in the
    sentence), "o Bando", "a dupla Ana e Bia" ("a Dupla Teste" for a name that already says it)."""
    article, rest = split_article(name)
    if article is not None:
        return name if first else f"{article} {rest}"
    the = the or "a "
    return f"{the}{name}" if _is_dupla(name) else f"{the}dupla {name}"


def english(name: str) -> str:
    """The pair inside an English sentence: the Portuguese article becomes "the" ("Os Zapeiros" → "the
    Zapeiros", capitalised at the start of a sentence by :func:`render`); a name without one is unchanged."""
    article, rest = split_article(name)
    return name if article is None else f"the {rest}"


def of(name: str, word: str = "d") -> str:
    """"de" + the pair: "dos Zapeiros", "do Bando", "da dupla Ana e Bia"."""
    if split_article(name)[0] is not None:
        text = contracted("de", name)
    else:
        text = f"da {name}" if _is_dupla(name) else f"da dupla {name}"
    return text[:1].upper() + text[1:] if word.isupper() else text


def render(item: dict, teams=None, lang: str | None = None) -> str:
    """One violation or note of a verdict as a sentence in ``lang`` (the active language by default); one
    stored before messages were data (no ``key``) shows its stored sentence as it was written."""
    if not isinstance(item, dict):
        return ""
    if not isinstance(item.get("key"), str):  # stored before messages were data: its text, unchanged
        return item.get("message", "")
    return _render(item["key"], item.get("params") or {}, teams, lang)


def render_error(error: dict, teams=None, lang: str | None = None) -> str:
    """A refusal of the engine (``{"field", "code", "article", "params", "message"}``) in ``lang`` with the
    pairs' names; an error without a known code (a JSON error) keeps its ``message``."""
    if not isinstance(error, dict):
        return ""
    code = error.get("code")
    if not isinstance(code, str) or code not in TEXTS:
        return error.get("message", "")
    return _render(code, error.get("params") or {}, teams, lang)


def is_message(data: object) -> bool:
    """Whether ``data`` is a message as data: ``{"key": a known key, "params": {...}}``."""
    return (isinstance(data, dict) and isinstance(data.get("key"), str) and data["key"] in TEXTS
            and isinstance(data.get("params", {}), dict) and set(data) <= {"key", "params"})


def render_stored(data: object, text: str, teams=None, lang: str | None = None) -> str:
    """What a row stores as data (a ruling's message, a penalty's reason: ``{"key", "params"}``) rendered
    in ``lang`` with the pairs' names; a row written before (no data) shows its ``text`` as it was written."""
    if is_message(data):
        return _render(data["key"], data.get("params") or {}, teams, lang)
    return text or ""


def _render(key: str, params: dict, teams, lang: str | None) -> str:
    lang = language(lang or get_language())
    names = team_names(teams)
    seats = seat_players(teams)
    seat_words = _seat_words(seats) if seats else None
    if names is None:
        return render_message(key, params, lang, seat_words=seat_words)

    def words(team: int, form: str, lang: str) -> str:
        name = names[team]
        if lang == "en":
            return english(name)
        return of(name) if form == "of" else subject(name)

    text = render_message(key, params, lang, words, lambda team: is_plural(names[team]), seat_words)
    return text[:1].upper() + text[1:] if text[:1].islower() and _starts_with_name(text, names, lang) else text


def _starts_with_name(text: str, names: list[str], lang: str) -> bool:
    return any(text.startswith(english(name) if lang == "en" else subject(name)) for name in names)
