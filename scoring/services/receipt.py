"""Receipt: the organizer marks a signed súmula received; its result becomes official and the layer
above is told through ``scoring.hook.result_official``. ``official_result`` reads that result.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden

from tables import links as table_links
from tables.models import TableLink

from .. import access, holds, hook
from ..models import Match, MatchEvent, Signature
from .base import _event, _lock
from .versions import current_version


def mark_received(match: Match, by) -> Match:
    """Art. 25: the winners hand the signed súmula in at the organizing table; the organizer receives it
    and the result becomes official."""
    with transaction.atomic():
        match = _lock(match)
        if not access.is_organizer(by, match):
            raise Forbidden(_("Only the organizer receives súmulas at the organizing table (art. 25)."))
        if match.status == Match.Status.RECEIVED:
            raise Conflict(_("The súmula was already received by the organizer (art. 25)."), "status")
        if match.status != Match.Status.SIGNED:
            raise Conflict(_("The súmula is received once both pairs signed it (art. 25)."), "status")
        holds.refuse_if_held(match)  # an open dispute of an entry first
        version = current_version(match)
        if match.referee_id and not version.signatures.filter(role=Signature.Role.REFEREE).exists():
            raise Conflict(_("The referee has not countersigned the súmula yet."), "status")
        match.status, match.received_at, match.received_by = Match.Status.RECEIVED, timezone.now(), by
        match.save(update_fields=["status", "received_at", "received_by", "updated_at"])
        # the table's links die with the receipt, for good: a later correction reopens the súmula for
        # the referee and the organizer, not for the table; a new link only by a reissue
        closed = table_links.close(match, by, TableLink.ClosedAs.RECEIVED)
        _event(match, MatchEvent.Kind.RECEIVED, by, version=version.number, digest=version.digest,
               links_closed=closed)
        # The result is official now: the tournament advances in the same transaction (scoring.hook).
        hook.result_official(match)
        return match


def official_result(match: Match) -> dict | None:
    """The official result (art. 25: once the signed súmula was received), or None.

    ``{"winner": team, "winner_pair_id", "loser_pair_id", "games": [a, b], "game_scores": [[a, b], ...],
    "points": [a, b], "version": n, "digest"}`` — ``points`` sums the tentos of every game.
    """
    if not match.is_official:
        return None
    version = current_version(match)
    document = version.content
    scores = [game["score"] for game in document["games"]]
    winner = document["result"]["winner"]
    teams = document["teams"]
    return {"winner": winner, "winner_pair_id": teams[winner]["pair_id"], "loser_pair_id": teams[1 - winner]["pair_id"],
            "games": document["result"]["games"], "game_scores": scores,
            "points": [sum(s[0] for s in scores), sum(s[1] for s in scores)],
            "version": version.number, "digest": version.digest}
