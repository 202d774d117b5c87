"""State for the entry and signing pages: what the page shows, its token, and the matches a user
may see.
"""
from __future__ import annotations

from django.db.models import Q

from referee.engine.game import dealer_in_turn
from referee.engine.summary import ENDINGS, allowed_values

from .. import access
from ..content import match_queryset
from ..models import Match, SumulaVersion
from .base import _is_user, rules_of
from .entry import ended_dealers, state_token
from .game_state import hand_facts


def entry_state(match: Match, games: list) -> dict:
    """What the entry page and the API show about the hand to enter (no queries: ``games`` loaded)."""
    rules = rules_of(match)
    game = games[-1] if games else None
    if match.winner is not None or game is None or game.winner is not None:
        return {"over": match.winner is not None, "game": None}
    hands = [e for e in game.entries if e.kind == "hand"]
    score = (game.score_a, game.score_b)
    dealer = dealer_in_turn(game.first_dealer, ended_dealers(game.entries))  # art. 1, 4
    endings = [ending for ending in ENDINGS if ending != "fold" or rules.fold_any_time]
    allowed = {ending: list(allowed_values(rules, score, ending)) for ending in endings}
    return {"over": False, "game": game.number, "score": list(score), "dealer": dealer, "hand": len(hands) + 1,
            **hand_facts(score, rules), "allowed": allowed,
            "can_set_dealer": not hands, "entries": len(game.entries)}


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
