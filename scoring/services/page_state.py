"""State for the entry and signing pages: what the page shows, its token, and the matches a user
may see.
"""
from __future__ import annotations

from django.db.models import Q

from django.utils import timezone

from referee.engine.game import dealer_in_turn
from referee.engine.preview import hand_shape
from referee.engine.preview import preview as engine_preview

from .. import access
from ..content import match_queryset
from ..models import Match, SumulaVersion
from .base import _is_user, rules_of
from .entry import ended_dealers, state_token
from .time_limit import hands_to_decide, starts_at_eleven


def entry_state(match: Match, games: list) -> dict:
    """What the entry page and the API show about the hand to enter (no queries: ``games`` loaded)."""
    rules = rules_of(match)
    game = games[-1] if games else None
    if match.winner is not None or game is None or game.winner is not None:
        return {"over": match.winner is not None, "game": None}
    hands = [e for e in game.entries if e.kind == "hand"]
    score = (game.score_a, game.score_b)
    dealer = dealer_in_turn(game.first_dealer, ended_dealers(game.entries))  # art. 1, 4
    return {"over": False, "game": game.number, "score": list(score), "dealer": dealer, "hand": len(hands) + 1,
            **hand_shape(score, rules), "can_set_dealer": not hands, "entries": len(game.entries)}


def preview(match: Match) -> dict:
    """The engine's preview of the hands a phone may queue while it cannot ask (``referee.engine.preview``):
    for every score a hand starts at, its shape and the score after each (winner, points), whether it ends
    the game, where the next game starts (11×11 under ``eleven_all`` past the time limit, art. 18, 20) and
    the games that win the match; under the room's ``higher_score`` or ``one_more_hand``, what that procedure
    decides once the time is up (``time_up``: the limit and the hands still to end before it decides; art. 26,
    docs/room.md). The table page and the súmula entry page read it instead of computing any rule
    (docs/table-links.md, "The offline preview")."""
    now = timezone.now()
    hands = hands_to_decide(match, now)
    time_up = None if hands is None else (int(match.time_up_at.timestamp() * 1000), hands)
    return engine_preview(rules_of(match), eleven_all=starts_at_eleven(match, now),
                          games_to_win=match.games_to_win, time_up=time_up)


def page_token(games: list) -> str:
    """The :func:`state_token` of loaded games (``content.load_games``)."""
    return state_token(games[-1].number, len(games[-1].entries)) if games else ""


def signing_state(match: Match, version: SumulaVersion | None, signatures: list) -> dict:
    roles = {s.role: s for s in signatures} if version else {}
    return {"signable": version is not None and match.winner is not None and match.status == Match.Status.OPEN,
            "team0": roles.get("team0"), "team1": roles.get("team1"), "referee": roles.get("referee")}


def matches_for(user):
    """Matches a user may enter (referee or organizer), newest first."""
    qs = match_queryset()
    if not _is_user(user):
        return qs.none()
    # an operator: every match, friendlies (no tournament) too: their organizers are the operators
    return qs.filter(access.operates_site_condition(user) | Q(referee=user) | access.organizes(user))
