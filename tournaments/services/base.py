"""Shared by the tournament services: the error type, who may manage a tournament, locking
(match first, then tournament), the audit log entry, input coercion, and the W.O. result row
(shared by the organizer's walkover and the automatic walkovers of withdrawn pairs).
"""
from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from draw.models.stages import stage_in_play
from scoring import services as scoring_services
from scoring.access import manages
from scoring.models import Match, MatchEvent, SumulaVersion

from ..models import AuditEntry, Pair, Result, Round, Stage, Tournament
from draw.pairing.standings import Tiebreak
from ..result_seals import seal_result


MAX_SEED = 2**63 - 1
REASON_MAX = 300
SWISS_ONLY_TIEBREAKS = (Tiebreak.BUCHHOLZ.value, Tiebreak.MEDIAN_BUCHHOLZ.value)


TournamentError = ServiceError  # refused input (400); Forbidden (403) and Conflict (409) as in config.errors


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def can_manage(user, tournament: Tournament) -> bool:
    """The tournament's organizer, staff and superusers manage a tournament (events.access.manages,
    the project's one definition); everyone may read it."""
    return manages(user, tournament)


def _require_manager(user, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise Forbidden(_("Only the tournament's organizer can do this."))


def _actor(user):
    return user if _is_user(user) else None


def _lock_tournament(tournament: Tournament | int) -> Tournament:
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def _lock_match(match: Match | int) -> Match:
    pk = match.pk if isinstance(match, Match) else match
    return Match.objects.select_for_update().get(pk=pk)


def _stage_of(tournament: Tournament) -> Stage:
    """The stage in play (``draw.models.stages.stage_in_play``), refused as a conflict before a format."""
    try:
        stage = stage_in_play(tournament)
    except Stage.DoesNotExist:
        raise Conflict(_("Choose the tournament's format first."), "stage") from None
    stage.tournament = tournament
    return stage


def _first_stage(tournament: Tournament) -> Stage:
    stage = Stage.objects.filter(tournament=tournament, position=1).first()
    if stage is None:
        raise Conflict(_("Choose the tournament's format first."), "stage")
    stage.tournament = tournament
    return stage


def _drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()


def _reason(reason: object, *, required: bool) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if reason is not None and not isinstance(reason, str):
        raise TournamentError(_("The reason is a text."), "reason")
    if required and not text:
        raise TournamentError(_("A manual change needs a reason: it is kept in the tournament's audit log."),
                              "reason")
    if len(text) > REASON_MAX:
        raise TournamentError(_("The reason is a text of at most 300 characters."), "reason")
    return text


def _audit(tournament: Tournament, by, action: str, *, reason: str = "", round: Round | None = None,
           match: Match | None = None, before=None, after=None) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament, actor=_actor(by), action=action, reason=reason, round=round,
        match=match, before=before, after=after,
    )


def _int(value: object, field: str, *, minimum: int = 0, maximum: int = MAX_SEED, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if type(value) is not int or not minimum <= value <= maximum:
        raise TournamentError(
            _("Give a whole number from %(minimum)s to %(maximum)s.") % {"minimum": minimum, "maximum": maximum},
            field,
        )
    return value


def _bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise TournamentError(_("Give true or false."), field)
    return value


def _pair_of(tournament: Tournament, value: Pair | int | None, field: str) -> Pair:
    pk = value.pk if isinstance(value, Pair) else value
    if type(pk) is not int:
        raise TournamentError(_("Name a pair of this tournament by its id."), field)
    pair = Pair.objects.filter(pk=pk, tournament=tournament).first()
    if pair is None:
        raise TournamentError(_("No pair with id %(id)s in this tournament.") % {"id": pk}, field)
    return pair


def _has_entries(match_ids: Iterable[int]) -> bool:
    """Whether any of these matches has something on its súmula (an event, a version, a signature)."""
    ids = list(match_ids)
    return (
        MatchEvent.objects.filter(match_id__in=ids).exists()
        or SumulaVersion.objects.filter(match_id__in=ids).exists()
        or Match.objects.filter(pk__in=ids).exclude(status=Match.Status.OPEN).exists()
    )


def _walkover_result(match: Match, tournament: Tournament, *, absent: Pair, by, reason: str = "") -> Result:
    """An unsaved walkover: the present pair wins as many games 12-0 as the match format needs."""
    games = match.best_of // 2 + 1
    a_absent = match.pair_a_id == absent.pk
    return seal_result(Result(  # sealed as it is built: saved one by one or in bulk (result_seals.py)
        match=match, tournament=tournament, kind=Result.Kind.WALKOVER, pair_a_id=match.pair_a_id,
        pair_b_id=match.pair_b_id, winner_id=match.pair_b_id if a_absent else match.pair_a_id, absent=absent,
        games_a=0 if a_absent else games, games_b=games if a_absent else 0,
        points_a=0 if a_absent else 12 * games, points_b=12 * games if a_absent else 0,
        reason=reason, recorded_by=_actor(by),
    ))


def _close_sumulas(results, by, cause: str) -> None:
    """Tell scoring to close the súmulas of ``results`` (W.O.s, double W.O.s) with their cause and reason:
    nothing enters them afterwards (art. 26; ``scoring.services.close_sumulas``). ``cause``: walkover,
    disqualification or withdrawal."""
    scoring_services.close_sumulas(
        [(result.match, cause, None if result.absent_id is None else 0 if result.absent_id == result.match.pair_a_id
          else 1, result.reason) for result in results], by)


def _double_walkover_result(match: Match, tournament: Tournament, *, by, reason: str) -> Result:
    """An unsaved double walkover: both pairs absent, no winner, no games, no tentos."""
    return seal_result(Result(  # sealed as it is built, like a walkover (result_seals.py)
        match=match, tournament=tournament, kind=Result.Kind.DOUBLE_WALKOVER, pair_a_id=match.pair_a_id,
        pair_b_id=match.pair_b_id, winner_id=None, absent=None, reason=reason, recorded_by=_actor(by)))


def _result_json(result: Result | None) -> dict | None:
    if result is None:
        return None
    return {"kind": result.kind, "winner": result.winner_id, "absent": result.absent_id,
            "games": [result.games_a, result.games_b], "points": [result.points_a, result.points_b],
            "reason": result.reason}


def _check_match(match: Match, tournament: Tournament) -> None:
    if match.tournament_id != tournament.pk or match.round_id is None:
        raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")


def _managed_match(match: Match | int, by) -> tuple[Match, Tournament]:
    """Lock a match of a tournament's rounds and its tournament (in that order, as scoring's receipt
    does), for an organizer's action on it. Call inside a transaction."""
    match = _lock_match(match)
    tournament = _lock_tournament(match.tournament_id) if match.tournament_id else None
    if tournament is None:
        raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")
    _require_manager(by, tournament)
    _check_match(match, tournament)
    return match, tournament


def _match_json(match: Match) -> dict:
    return {"id": match.pk, "pair_a": match.pair_a_id, "pair_b": match.pair_b_id, "table": match.table,
            "referee": match.referee_id}
