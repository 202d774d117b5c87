"""Where the draw stands: whether a stage is complete, and the tournament's status (in progress or
finished) refreshed from it, with its circuits' placings. ``after_results.advance_draw`` calls it
after new official results.
"""
from __future__ import annotations

from scoring.models import Match

from ..models import BracketNode, Result, Round, Stage, Tournament
from . import season_hooks
from .draw import _group_members, _group_round_count


def _unofficial_matches(tournament: Tournament) -> int:
    return (Match.objects.filter(tournament=tournament, round__isnull=False)
            .exclude(pk__in=Result.objects.filter(tournament=tournament).values("match_id"))
            .count())


def _unofficial_in(stage: Stage) -> bool:
    return (Match.objects.filter(round__stage=stage)
            .exclude(pk__in=Result.objects.filter(tournament_id=stage.tournament_id).values("match_id")).exists())


def stage_complete(stage: Stage) -> bool:
    """A started stage is complete when its bracket is decided, or every round of its Swiss or
    round robin was generated and has official results."""
    if stage.started_at is None:
        return False
    if stage.bracket_first_round is not None:
        return not BracketNode.objects.filter(stage=stage, winner__isnull=True, unplayed=False).exists()
    if stage.format == Stage.Format.SWISS:
        rounds = Round.objects.filter(stage=stage, phase=Round.Phase.SWISS).count()
        return rounds >= (stage.swiss_rounds or 0) and not _unofficial_in(stage)
    if stage.has_groups:
        rounds = Round.objects.filter(stage=stage, phase=Round.Phase.GROUPS).count()
        return rounds >= _group_round_count(_group_members(stage), stage.legs) and not _unofficial_in(stage)
    return False


def _refresh_status(tournament: Tournament, stage: Stage | None = None) -> None:
    """Finished once the last stage is complete (its bracket decided, or every round of its Swiss
    or round robin official)."""
    if tournament.status not in (Tournament.Status.IN_PROGRESS, Tournament.Status.FINISHED):
        return
    last = Stage.objects.filter(tournament=tournament).order_by("-position").first()
    if last is None:
        return
    last.tournament = tournament
    done = stage_complete(last)
    status = Tournament.Status.FINISHED if done else Tournament.Status.IN_PROGRESS
    if status != tournament.status:
        tournament.status = status
        tournament.save(update_fields=["status"])
    _carry_over(tournament)


def _carry_over(tournament: Tournament) -> None:
    """What outlives the tournament: its placings in the circuits it is a stage of (final once it is
    finished; the seasons app, told through ``season_hooks``). The players' ratings follow the results
    themselves (``after_results``)."""
    season_hooks.placings_changed(tournament)
