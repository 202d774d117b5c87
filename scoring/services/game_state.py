"""Where the current game stands, as the table page shows it: the match's last game with its counts
and next dealer (one query), the entry state a page or the API shows, and the refusal of a device
that is behind (:class:`PositionConflict`, 409 with that state).

Shared by the writes of a hand (``hand_entry``) and of an undo (``entry``).
"""
from __future__ import annotations

from django.db.models import OuterRef, Subquery

from config.errors import Conflict
from referee.engine.game import dealer_in_turn
from referee.engine.preview import hand_shape

from ..models import Game, HandEntry, Match, PenaltyEntry
from .base import rules_of


class PositionConflict(Conflict):
    """The entry was sent for another position than the current one; ``state`` says where the game is."""

    def __init__(self, message: str, state: dict, field: str = "position") -> None:
        super().__init__(message, field)
        self.state = state


def _last(model, field: str, **only) -> Subquery:
    """``field`` of the game's last entry of ``model`` (by position; among those matching ``only``), None
    when it has none."""
    return Subquery(model.objects.filter(game=OuterRef("pk"), **only).order_by("-position").values(field)[:1])


#: built once (every entry reads them; each query resolves its own copy)
_LAST_ENTRIES = {"last_hand_number": _last(HandEntry, "number"), "last_hand_dealer": _last(HandEntry, "dealer"),
                 "last_hand_position": _last(HandEntry, "position"),
                 "last_penalty_position": _last(PenaltyEntry, "position"),
                 # the last penalty whose ruling ended the hand in play: the deal passed after it (art. 4)
                 "last_ending_dealer": _last(PenaltyEntry, "dealer", dealer__isnull=False),
                 "last_ending_position": _last(PenaltyEntry, "position", dealer__isnull=False)}


def current_game(match: Match) -> Game | None:
    """The match's last game with ``hand_count``, ``entry_count`` (hands and penalties) and ``dealer``
    (of the next hand: after the last hand played out or ended by a ruling's tento, art. 4), in one query."""
    game = Game.objects.filter(match_id=match.pk).annotate(**_LAST_ENTRIES).order_by("-number").first()
    if game is not None:
        game.hand_count = game.last_hand_number or 0
        game.entry_count = max(game.last_hand_position or 0, game.last_penalty_position or 0)
        ended = sorted((position, dealer) for position, dealer in (
            (game.last_hand_position, game.last_hand_dealer), (game.last_ending_position, game.last_ending_dealer))
            if position is not None)
        game.dealer = dealer_in_turn(game.first_dealer, [dealer for _, dealer in ended])  # art. 1, 4
    return game


def state_of(match: Match, game_number: int | None, score, dealer: int, hand: int, entries: int,
             rules=None) -> dict:
    """The entry state the table page shows (the API's ``state``), without a query."""
    base = {"status": match.status, "games": [match.games_a, match.games_b], "winner": match.winner}
    if match.winner is not None or game_number is None:
        return {**base, "over": True, "game": None}
    rules = rules or rules_of(match)
    score = tuple(score)
    return {**base, "over": False, "game": game_number, "hand": hand, "score": list(score), "dealer": dealer,
            "entries": entries, **hand_shape(score, rules)}


def hand_facts(score: tuple[int, int], rules) -> dict:
    """What the score makes of the next hand, from the engine (art. 18, 24): ``state`` (normal, eleven,
    iron), ``eleven_team`` (the team at 11 in a mão de onze, else None) and ``value`` (the tento in play
    before any raise: 3 in a mão de onze, the mão de ferro's value, else 1): the engine's ``hand_shape``."""
    shape = hand_shape(score, rules)
    return {key: shape[key] for key in ("state", "eleven_team", "value")}


def current_state(match: Match) -> dict:
    """The state now, from the database (two queries)."""
    match = Match.objects.get(pk=match.pk)
    game = current_game(match)
    if game is None or game.winner is not None:
        return state_of(match, None, (0, 0), 0, 1, 0)
    return state_of(match, game.number, game.score, game.dealer, game.hand_count + 1, game.entry_count)
