"""Ruling on a claimed infraction: whether the claim is allowed now, and what it costs.

A referee at the table knows the state of the game (:class:`TableState`), not every card:
``propose_ruling`` takes the infraction's code (see ``infractions.CATALOG``), the seat of
the offender and that state, and returns the :class:`Ruling` the regulation gives, with its
article and its effect on the score. The hand replay uses the same two functions, so a
claim is judged the same way in a hand report and at the table.

Who may claim: a tento is always claimed by the offender's opponents (regras 4 jogadores,
"tento"); cases the catalog does not cover go to the organizer (art. 26).
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import ReportError, shown
from .game import add_points, eleven_state, game_winner, points_to_game
from .infractions import CATALOG, HOUSE, Infraction
from .messages import render
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class TableState:
    """The state of the game when a claim is made."""

    score: tuple[int, int]
    dealer: int
    value: int = 1  # the hand's value in play: the tento (before a pending raise)
    raised_team: int | None = None  # the team facing a raise not yet answered
    any_card: bool = False  # a card of this hand is on the table
    wrong_deal: bool = False  # a seat got too many or too few cards (art. 6)

    @property
    def iron(self) -> bool:
        return eleven_state(self.score)[0]

    @property
    def eleven_team(self) -> int | None:
        """The team at 11 in a mão de onze (None when nobody, or both: mão de ferro; art. 18)."""
        return eleven_state(self.score)[1]


@dataclass(frozen=True, slots=True)
class Ruling:
    code: str
    article: str
    title: str
    offender: int  # team
    beneficiary: int | None  # team that scores, None when nobody does
    points: int
    ends_hand: bool
    deal_lost: bool
    score_after: tuple[int, int]
    game_winner: int | None
    consequence: str  # Portuguese: what the ruling does to the score ("" when nothing)
    house_sanction: bool = False  # the consequence comes from the house rules, not the regulation
    match_loss: bool = False  # art. 19 read as the match (raise_in_eleven: "art19_match"): the offender loses it
    consequence_key: str = "consequence.none"  # the consequence as data (messages.MESSAGES)
    consequence_params: tuple = ()  # its parameters, as (name, value) pairs

    def message(self, seat: int) -> str:
        """The sentence for the referee and the súmula, in Portuguese with the pairs by number."""
        data = self.message_data(seat)
        return render(data["key"], data["params"])

    def message_data(self, seat: int) -> dict:
        """The sentence as data, ``{"key", "params"}`` (``ruling`` or ``ruling.recorded``, the consequence
        nested), for whoever renders it in the reader's language with the pairs' names."""
        key = "ruling" if self.consequence else "ruling.recorded"
        return {"key": key, "params": {"infraction": self.code, "what": self.title, "seat": seat,
                                       "consequence": self.consequence_data()}}

    def consequence_data(self) -> dict:
        """The consequence as a nested message: ``{"key", "params"}`` (see :mod:`referee.engine.messages`)."""
        return {"key": self.consequence_key, "params": dict(self.consequence_params)}


def claim_refusal(entry: Infraction, seat: int, state: TableState, rules: RuleSet) -> dict | None:
    """Why this infraction cannot be claimed against ``seat`` now (a message: ``{"key", "params"}``, the
    ``refusal.*`` codes of ``error_messages.ERRORS``), or None when it can."""
    for condition in entry.requires:
        if condition == "dealer" and seat != state.dealer:
            return {"key": "refusal.dealer", "params": {"dealer": state.dealer, "seat": seat}}
        if condition == "start" and state.any_card:
            return {"key": "refusal.start", "params": {}}
        if condition == "deal_window" and state.any_card and rules.bottom_of_deck != "any_time":
            return {"key": "refusal.deal_window", "params": {}}
        if condition == "raised" and state.raised_team != seat & 1:
            return {"key": "refusal.raised", "params": {}}
        if condition == "eleven_opponents" and not (
                state.iron or (state.eleven_team is not None and seat & 1 != state.eleven_team)):
            return {"key": "refusal.eleven_opponents", "params": {}}
        if condition == "wrong_deal" and not state.wrong_deal:
            return {"key": "refusal.wrong_deal", "params": {}}
        if condition == "blind_iron" and not (state.iron and rules.blind_iron_hand):
            return {"key": "refusal.blind_iron", "params": {}}
    return None


def refused_params(entry: Infraction, refusal: dict) -> dict:
    """The parameters of ``infraction.refused``: the infraction, its article and why (nested)."""
    return {"infraction": entry.code, "what": entry.title, "article": entry.article, "why": refusal}


def _raise_in_eleven(rules: RuleSet, state: TableState, offender: int) -> tuple[int, str, str, bool]:
    """art. 19: points the opponents score, the article, why, and whether the offender loses the match.

    "perde ... a partida" is read as the game (the súmula's "Partida 1") by default; ``art19_match``
    reads it as the whole match.
    """
    theirs = state.score[1 - offender]
    option = rules.raise_in_eleven
    if option != "game" and theirs < 9:
        return 3, "art. 19", "consequence.eleven_three", False
    points = points_to_game(state.score, 1 - offender)
    if option == "art19_match":
        return points, "art. 19", "consequence.eleven_match", True
    article = "art. 19" if option == "art19" else HOUSE
    return points, article, "consequence.eleven_game", False


def propose_ruling(rules: RuleSet, code: str, seat: int, state: TableState, facts: dict | None = None) -> Ruling:
    """The ruling for ``code`` committed by ``seat``; ReportError when the claim does not apply now.

    ``facts`` completes what the state cannot know: for ``wrong_card_count`` the dealer's
    answer to the truco, ``{"outcome": "accepted" | "run" | "asked"}`` (art. 6).
    """
    entry = CATALOG.get(code) if isinstance(code, str) else None
    if entry is None:
        raise ReportError("infraction", "infraction.unknown", {"value": shown(code), "codes": ", ".join(CATALOG)})
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ReportError("seat", "infraction.seat")
    refusal = claim_refusal(entry, seat, state, rules)
    if refusal:
        raise ReportError("infraction", "infraction.refused", refused_params(entry, refusal))
    offender = seat & 1
    article, title = entry.article, entry.title
    params: dict = {"offender": offender}
    beneficiary: int | None = 1 - offender
    points, ends_hand, deal_lost, match_loss = 0, False, False, False
    house = entry.house_sanction
    if code == "wrong_card_count":  # art. 6: what the trucado dealer did
        outcome = (facts or {}).get("outcome")
        if outcome not in ("accepted", "run", "asked"):
            raise ReportError("facts.outcome", "infraction.outcome")
        offender, beneficiary = state.dealer & 1, 1 - (state.dealer & 1)
        params["offender"] = offender
        points, ends_hand = {"accepted": 3, "run": 1, "asked": 0}[outcome], True
        if outcome == "asked":
            beneficiary, deal_lost = None, True
        key = {"accepted": "consequence.dealer_accepted", "run": "consequence.dealer_ran",
               "asked": "consequence.dealer_asked"}[outcome]
    elif code == "raise_in_eleven":
        if state.eleven_team is None and not state.iron:
            raise ReportError("infraction", "infraction.eleven_only")
        points, article, key, match_loss = _raise_in_eleven(rules, state, offender)
        params["theirs"] = state.score[1 - offender]
        ends_hand = True
    elif code == "false_call" and rules.false_call == "tento":
        points, ends_hand, article, house = state.value, True, HOUSE, True
        key = "consequence.house_tento"
    elif house and rules.house_sanctions == "warning":
        beneficiary = None
        key = "consequence.warning"
    elif house:
        points, ends_hand = state.value, True
        key = "consequence.house_tento"
    elif entry.consequence == "tento":
        points, ends_hand = state.value, True
        key = "consequence.tento"
    elif entry.consequence == "deal_lost":
        beneficiary, ends_hand, deal_lost = None, True, True
        key = "consequence.deal_lost"
    else:
        beneficiary = None
        key = "consequence.none"
    params["points"] = points
    consequence = render(key, params)
    after = add_points(state.score, beneficiary, points, rules)
    return Ruling(code, article, title, offender, beneficiary, points, ends_hand, deal_lost, after,
                  game_winner(after), consequence, house, match_loss, key, tuple(params.items()))
