"""What follows from new official results: the bracket advances and the tournament's status
(in progress or finished) is refreshed.
"""
from __future__ import annotations

from scoring.models import Match

from ..models import BracketNode, Result, Round, Stage, Tournament
from .brackets import _advance_bracket
from .draw import _group_members, _group_round_count


def _unofficial_matches(tournament: Tournament) -> int:
    return (Match.objects.filter(tournament=tournament, round__isnull=False)
            .exclude(pk__in=Result.objects.filter(tournament=tournament).values("match_id"))
            .count())


def _after_results(tournament: Tournament, by) -> None:
    """Advance what follows from new official results: the bracket, and the tournament's status."""
    stage = Stage.objects.filter(tournament=tournament).first()
    if stage is None:
        return
    stage.tournament = tournament
    if stage.bracket_first_round is not None:
        _advance_bracket(stage, by)
    _refresh_status(tournament, stage)


def _refresh_status(tournament: Tournament, stage: Stage) -> None:
    """Finished once the bracket is complete, or every round of a Swiss / round robin is official."""
    if tournament.status not in (Tournament.Status.IN_PROGRESS, Tournament.Status.FINISHED):
        return
    if stage.bracket_first_round is not None:
        done = not BracketNode.objects.filter(stage=stage, winner__isnull=True, unplayed=False).exists()
    elif stage.format == Stage.Format.SWISS:
        rounds = Round.objects.filter(tournament=tournament, phase=Round.Phase.SWISS).count()
        done = rounds >= (stage.swiss_rounds or 0) and not _unofficial_matches(tournament)
    elif stage.format == Stage.Format.ROUND_ROBIN:
        rounds = Round.objects.filter(tournament=tournament, phase=Round.Phase.GROUPS).count()
        done = rounds >= _group_round_count(_group_members(stage)) and not _unofficial_matches(tournament)
    else:
        done = False
    status = Tournament.Status.FINISHED if done else Tournament.Status.IN_PROGRESS
    if status != tournament.status:
        tournament.status = status
        tournament.save(update_fields=["status"])
