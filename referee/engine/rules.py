"""Rule sets: the regulamento técnico as the default, and every club variant as a named option.

A rule set is a preset plus options that override it. The default preset,
``regulamento-tecnico``, is the regulation with its silences filled from the common texts
(see ``shared/regulation/README.md``). Each option below names its source; an unknown
option, preset or value is a :class:`ReportError` naming it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import ReportError, shown


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    choices: tuple[Any, ...]
    default: Any
    doc: str


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("deck", ("sujo", "limpo", "limpo+7"), "sujo",
           "Deck in use: 40 cards (art. 10 implies it), or the clean decks of the common texts."),
    Option("all_tied", ("nobody", "dealer_team", "first_player_team"), "nobody",
           "All three tricks tied: nobody scores (art. 11.4); the dealer's team wins (regras 4 jogadores, "
           "JTB case 5; alias dealer_wins_all_tied: true); or the team of the first player (mão). "
           "A tied mão de ferro follows iron_tie instead (art. 20)."),
    Option("iron_tie", ("nobody", "dealer_team", "first_player_team"), "nobody",
           "A tied mão de ferro (11-11, all three tricks tied): nobody scores and the deal passes on (art. 20); "
           "the dealer's team wins it, as any hand of three tied tricks (regras 4 jogadores, JTB case 5, "
           "which give the mão de ferro no rule of its own); or the team of the hand's first player (mão) "
           "wins it (peers' engines)."),
    Option("lead_after_tie", ("tying_player", "first_player", "trick_leader", "first_tying_player",
                              "nearest_tying_player"), "tying_player",
           "Who leads after a tied trick (the regulation is silent): the player who tied, the last to show "
           "the top card (regras 4 jogadores, 'jogo empatado'); the first player of the hand, right of the "
           "dealer (JTB case 1); whoever led the tied trick; the first player who showed the tying card; "
           "or the tied player nearest the first player of the hand."),
    Option("cover_after_tied_first", (True, False), True,
           "May a card be covered in tricks 2-3 after a tied first trick? Yes by default; JTB forbids it."),
    Option("show_highest_after_tied_first", (False, True), False,
           "After a tied first trick, must a player show the highest card? No (art. 11.5); JTB says yes."),
    Option("raises", ("in_turn", "any_time"), "in_turn",
           "Who may raise: the player in turn, teams alternating (art. 12); or anyone at any time "
           "(regras 4 jogadores)."),
    Option("fold_any_time", (False, True), False,
           "May a team fold (give up) a hand without a raise to refuse? Not by default (art. 13: one loses "
           "points only by running from a raise); some clubs allow it, the opponents scoring the value in play."),
    Option("false_call", ("truco", "tento"), "truco",
           "A false call ('Jorge', 'Turco'): counts as truco when accepted (art. 16); or it is a tento "
           "(regras 4 jogadores): the opponents score the value in play."),
    Option("raise_in_eleven", ("art19", "game", "art19_match"), "art19",
           "A raise in a mão de onze: the offender loses 3, or the game if the opponents have 9-11 (art. 19, "
           "'a partida' read as the game, the súmula's 'Partida 1'); art19_match: the same, but 'a partida' "
           "read as the whole match; or always the game (regras 4 jogadores, JTB)."),
    Option("eleven_run_points", (1, 3), 1,
           "Points the opponents score when the team at 11 refuses to play the mão de onze (common texts: 1)."),
    Option("blind_iron_hand", (False, True), False,
           "Mão de ferro (11-11) played blind, nobody looking at their cards (como jogar, JTB): looking at "
           "one's own cards there is the infraction saw_cards_blind_iron."),
    Option("iron_hand_value", (3, 1), 3,
           "Value of the mão de ferro: 3 like any mão de onze (art. 18 calls it a mão de onze), or 1."),
    Option("house_sanctions", ("tento", "warning"), "tento",
           "Sanction of the infractions whose article states none (art. 10 burned card, art. 14 and 18 "
           "partner's cards): the tento in play, from the house rules (regras 4 jogadores, 'o valor do "
           "tento'); or a warning, recorded with no points. Marked as a house rule wherever shown."),
    Option("bottom_of_deck", ("before_first_card", "any_time"), "before_first_card",
           "art. 5, looking at the bottom of the deck, claimed when? Before the first card by default (art. 5 "
           "sits among the dealing rules, art. 2-6, and voiding a hand in play would let a losing dealer void "
           "it by looking); any_time: until the hand ends, voiding it (the deal is lost, nobody scores)."),
    Option("wrong_cards_in_eleven", ("art6", "art19"), "art6",
           "In a mão de onze or de ferro, the truco of art. 6 by the dealer's opponents after a wrong deal, before "
           "the first card: the art. 6 claim by default (the dealer accepts: pays 3; runs: loses 1; asks: loses "
           "the deal), art. 6 naming the very case; art19: a raise like any other, art. 19's offence."),
    Option("score_cap", (True, False), True,
           "A hand cannot take a team past 12 (the game is to 12); off, the sheet records the raw sum."),
)}


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str = "regulamento-tecnico"
    deck: str = "sujo"
    all_tied: str = "nobody"
    iron_tie: str = "nobody"
    lead_after_tie: str = "tying_player"
    cover_after_tied_first: bool = True
    show_highest_after_tied_first: bool = False
    raises: str = "in_turn"
    fold_any_time: bool = False
    false_call: str = "truco"
    raise_in_eleven: str = "art19"
    eleven_run_points: int = 1
    blind_iron_hand: bool = False
    iron_hand_value: int = 3
    house_sanctions: str = "tento"
    bottom_of_deck: str = "before_first_card"
    wrong_cards_in_eleven: str = "art6"
    score_cap: bool = True

    def options(self) -> dict[str, Any]:
        """Every option with its value (the preset's name left out)."""
        data = asdict(self)
        del data["preset"]
        return data

    def as_dict(self) -> dict[str, Any]:
        options = _OPTIONS_BY_ID.get(id(self))  # a canonical rule set (kept alive: its id is its own)
        if options is None:
            options = _OPTIONS_DICT.get(self)
            if options is None:
                options = _OPTIONS_DICT[self] = self.options()
        return {"preset": self.preset, "options": dict(options)}


_OPTIONS_DICT: dict[RuleSet, dict[str, Any]] = {}
_OPTIONS_BY_ID: dict[int, dict[str, Any]] = {}  # id of a canonical rule set (see _CANONICAL) -> its options


DEFAULT = RuleSet()

PRESETS: dict[str, RuleSet] = {
    "regulamento-tecnico": DEFAULT,
    # The house rules for four players (regras-truco-4-jogadores.txt).
    "regras-4-jogadores": replace(
        DEFAULT, preset="regras-4-jogadores", all_tied="dealer_team", iron_tie="dealer_team", raises="any_time",
        false_call="tento", raise_in_eleven="game", blind_iron_hand=True,
    ),
    # Truco Brasileiro (truco-brasileiro-jtb.txt).
    "jtb": replace(
        DEFAULT, preset="jtb", all_tied="dealer_team", iron_tie="dealer_team", lead_after_tie="first_player",
        cover_after_tied_first=False, show_highest_after_tied_first=True, raise_in_eleven="game",
        blind_iron_hand=True,
    ),
}

assert {f.name for f in fields(RuleSet)} == set(OPTIONS) | {"preset"}

#: Names the regulation's README uses for variants, read as the engine's options.
ALIASES: dict[str, tuple[str, dict]] = {
    "dealer_wins_all_tied": ("all_tied", {True: "dealer_team", False: "nobody"}),
}

_CACHE: dict[tuple, RuleSet] = {}  # a rule set as spelled in a report -> its canonical RuleSet
_CANONICAL: dict[RuleSet, RuleSet] = {}  # one object per rule set, kept alive for good


def _canonical(rules: RuleSet) -> RuleSet:
    if len(_CANONICAL) >= 1024:
        return rules
    kept = _CANONICAL.setdefault(rules, rules)
    if kept is rules:
        _OPTIONS_BY_ID[id(rules)] = rules.options()
    return kept


for _rules in PRESETS.values():
    _canonical(_rules)


#: (preset, options, their types, rule set) of the last spelling read (None before any)
_LAST: tuple | None = None


def _remember(preset: object, options: dict, types: tuple, rules: RuleSet) -> None:
    global _LAST
    _LAST = (preset, dict(options), types, rules)  # one assignment: a reader sees the old or the new


def rule_set_from(spec: object, field: str = "rules") -> RuleSet:
    """The rule set a report names: ``{"preset": ..., "options": {...}}``, or the default when absent."""
    if spec is None:
        return DEFAULT
    if type(spec) is dict:  # a spelling seen before: one look-up (it was validated when first seen)
        options = spec.get("options")
        if type(options) is dict and (len(spec) == 1 or (len(spec) == 2 and "preset" in spec)):
            preset = spec.get("preset", "regulamento-tecnico")
            last = _LAST  # the spelling of the previous report: a batch spells one rule set again and again
            if last is not None and options == last[1] and preset == last[0]:  # compared in C, no key built
                types = tuple(map(type, options.values()))
                if types == last[2]:
                    return last[3]
            try:
                types = tuple(map(type, options.values()))
                cached = _CACHE.get((preset, tuple(options.items()), types))
            except TypeError:
                cached = None
            if cached is not None:
                _remember(preset, options, types, cached)
                return cached
    if not isinstance(spec, dict):
        raise ReportError(field, "rules.not_object")
    unknown = set(spec) - {"preset", "options"}
    if unknown:
        raise ReportError(f"{field}.{sorted(unknown)[0]}", "rules.unknown_field")
    preset = spec.get("preset", "regulamento-tecnico")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise ReportError(f"{field}.options", "rules.options")
    try:
        # The spelling as sent (order and types: True == 1 but is another value here), read in C: each
        # spelling is validated once and maps to its canonical rule set (equal rule sets are one object).
        key = (preset, tuple(options.items()), tuple(map(type, options.values())))
        cached = _CACHE.get(key)
    except TypeError:  # unhashable option values: validated (and refused) below
        key, cached = None, None
    if cached is not None:
        return cached
    base = PRESETS.get(preset) if isinstance(preset, str) else None
    if base is None:
        raise ReportError(f"{field}.preset", "rules.preset", {"value": shown(preset), "known": ", ".join(PRESETS)})
    changes = {}
    for name, value in options.items():
        if name in ALIASES and type(value) is bool:
            name, value = ALIASES[name][0], ALIASES[name][1][value]
        option = OPTIONS.get(name)
        if option is None:
            raise ReportError(f"{field}.options.{name}", "rules.option", {"known": ", ".join(OPTIONS)})
        if not any(value == choice and type(value) is type(choice) for choice in option.choices):
            allowed = ", ".join(repr(c).lower() if isinstance(c, bool) else repr(c) for c in option.choices)
            raise ReportError(f"{field}.options.{name}", "rules.option_value", {"value": shown(value), "allowed": allowed})
        changes[name] = value
    rules = replace(base, **changes)
    rules = _canonical(rules)
    if key is not None and len(_CACHE) < 1024:
        _CACHE[key] = rules
    return rules
