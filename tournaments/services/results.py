"""Official results: the súmula's, copied when scoring says it became official
(:func:`record_official_result`, scoring's ``hook.result_official``), and the organizer's result set
by hand (:func:`set_result`). Walkovers are in ``walkovers``; what follows a result, in
``after_results``.
"""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Match
from tables import links as table_links
from tables.models import TableLink

from ..models import AuditEntry, Pair, Result
from ..result_seals import seal_result
from .base import (
    TournamentError,
    _actor,
    _audit,
    _int,
    _lock_match,
    _lock_tournament,
    _managed_match,
    _pair_of,
    _reason,
    _result_json,
)
from draw.pairing.scores import ScoreError, check_match_score
from .after_results import results_changed


def record_official_result(match: Match) -> Result | None:
    """Copy the official result of a tournament match (its súmula signed and received, art. 25) and
    advance the tournament: scoring calls this through ``scoring.hook.result_official`` (registered in
    ``TournamentsConfig.ready``); a friendly's match is ignored (None). Idempotent. A walkover or
    an organizer's result already recorded for the match stays (the súmula is then noted in the
    audit log); so does a result the bracket can no longer follow."""
    from scoring.services import official_result

    if match.tournament_id is None:
        return None  # a friendly
    with transaction.atomic():
        match = _lock_match(match)
        if match.tournament_id is None:
            return None
        data = official_result(match)
        if data is None:
            return None
        tournament = _lock_tournament(match.tournament_id)
        winner = data["winner_pair_id"]
        values = {"kind": Result.Kind.SUMULA, "pair_a_id": match.pair_a_id, "pair_b_id": match.pair_b_id,
                  "winner_id": winner, "absent": None, "games_a": data["games"][0], "games_b": data["games"][1],
                  "points_a": data["points"][0], "points_b": data["points"][1], "reason": "",
                  "sumula_version": data["version"]}
        existing = Result.objects.select_for_update().filter(match=match).first()
        if existing is not None and existing.kind != Result.Kind.SUMULA:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_IGNORED, match=match, round=match.round,
                   before=_result_json(existing), after={"sumula": data["digest"], "winner": winner},
                   reason=_("The organizer had already decided this match."))
            return existing
        if existing is not None and all(getattr(existing, k) == v for k, v in values.items() if k != "absent"):
            return existing
        before = _result_json(existing)
        try:
            with transaction.atomic():
                if existing is None:
                    result = seal_result(Result(match=match, tournament=tournament,
                                                recorded_by=match.received_by, **values))
                    result.save()
                else:
                    for key, value in values.items():
                        setattr(existing, key, value)
                    existing.recorded_at = timezone.now()
                    seal_result(existing).save()
                    result = existing
                results_changed(tournament, None, [match.pk])
        except Conflict as error:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_IGNORED, match=match, round=match.round,
                   before=before, after={"sumula": data["digest"], "winner": winner}, reason=error.message[:300])
            return Result.objects.filter(match=match).first()
        if before is not None:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_OFFICIAL, match=match,
                   round=match.round, before=before, after=_result_json(result))
        return result


def set_result(match: Match, by, *, winner: Pair | int, games: Sequence[int], points: Sequence[int] | None = None,
               reason: str) -> Result:
    """Override: the organizer sets (or replaces) a match's result by hand with a reason (art. 26);
    official at once, audited with the result before and after. ``games`` and ``points`` are
    ``[pair A, pair B]``; the winner wins the games the match format needs. The tentos must fit the
    winner (``draw.pairing.scores.check_match_score``: games to 12, art. 18-20; the winner of
    a best of 1 has 12, the loser 0-11), else 400 naming ``points``. Without ``points`` (None) the
    tentos are not known: 0-0 is recorded and not checked (the point difference then counts
    nothing for this match). A bracket follows the change unless a later match was already
    played with the old winner (refused); a result that changes who qualified for a later stage
    rebuilds it while unplayed, else is refused (409 naming the stage)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        winner = _pair_of(tournament, winner, "winner")
        if winner.pk not in (match.pair_a_id, match.pair_b_id):
            raise TournamentError(_("The winner is one of the match's two pairs."), "winner")
        if not isinstance(games, (list, tuple)) or len(games) != 2:
            raise TournamentError(_("Give the games won as [pair A, pair B]."), "games")
        checked = points is not None
        if points is None:
            points = (0, 0)
        if not isinstance(points, (list, tuple)) or len(points) != 2:
            raise TournamentError(_("Give the points (tentos) as [pair A, pair B]."), "points")
        games_a, games_b = (_int(g, "games", maximum=5) for g in games)
        points_a, points_b = (_int(p, "points", maximum=23 * 5) for p in points)
        need = match.best_of // 2 + 1
        won, lost = (games_a, games_b) if winner.pk == match.pair_a_id else (games_b, games_a)
        if won != need or lost >= need:
            raise TournamentError(_("In a best of %(best_of)s the winner wins %(need)s games and the other fewer.")
                                  % {"best_of": match.best_of, "need": need}, "games")
        if checked:
            _check_points(match, winner.pk == match.pair_a_id, (won, lost), (points_a, points_b))
        existing = Result.objects.select_for_update().filter(match=match).first()
        before = _result_json(existing)
        result = existing or Result(match=match, tournament=tournament)
        result.kind, result.pair_a_id, result.pair_b_id = Result.Kind.MANUAL, match.pair_a_id, match.pair_b_id
        result.winner, result.absent = winner, None
        result.games_a, result.games_b, result.points_a, result.points_b = games_a, games_b, points_a, points_b
        result.reason, result.recorded_by, result.recorded_at = reason, _actor(by), timezone.now()
        result.sumula_version = None
        seal_result(result).save()
        table_links.close(match, by, TableLink.ClosedAs.RESULT)  # no more entries (§2)
        _audit(tournament, by, AuditEntry.Action.RESULT_SET, reason=reason, match=match, round=match.round,
               before=before, after=_result_json(result))
        results_changed(tournament, by, [match.pk])
        return result


def _check_points(match: Match, a_won: bool, games: tuple[int, int], points: tuple[int, int]) -> None:
    """400 naming ``points`` unless the tentos fit the winner (games to 12, art. 18-20)."""
    won_points, lost_points = points if a_won else (points[1], points[0])
    cap = bool((match.rule_set or {}).get("options", {}).get("score_cap", True))
    try:
        check_match_score(match.best_of, games, (won_points, lost_points), score_cap=cap)
    except ScoreError as error:
        low, high = error.bounds or (0, 0)
        if error.code == "winner_points":
            message = _("The winner of %(won)s-%(lost)s in games has between %(low)s and %(high)s tentos (games "
                        "are played to 12, art. 18-20), not %(points)s.")
        else:
            message = _("The loser of %(won)s-%(lost)s in games has between %(low)s and %(high)s tentos (games "
                        "are played to 12, art. 18-20), not %(points)s.")
        raise TournamentError(message % {"won": games[0], "lost": games[1], "low": low, "high": high,
                                         "points": won_points if error.code == "winner_points" else lost_points},
                              "points") from None
