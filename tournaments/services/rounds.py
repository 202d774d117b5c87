"""Rounds: generating the first round (the draw) and the next ones, regenerating a round
(organizer, with a reason), and listing a round's matches.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict
from scoring.models import Match

from ..models import AuditEntry, BracketNode, Bye, GroupMember, Pair, Result, Round, Stage, Tournament
from draw.pairing.swiss import recommended_swiss_rounds
from .base import (
    TournamentError,
    _audit,
    _drawn,
    _first_stage,
    _has_entries,
    _lock_tournament,
    _reason,
    _require_manager,
    _stage_of,
)
from .brackets import _draw_bracket
from .check_in import _last_generated, _round_numbered, _upcoming
from .draw import (
    _check_lot_seed,
    _draw_groups,
    _entrants,
    _generate_group_round,
    _generate_swiss_round,
    _group_members,
    _group_round_count,
    _seed,
)
from .progress import _refresh_status, _unofficial_matches, stage_complete
from ..room_hooks import room


def _round_json(rnd: Round) -> dict:
    matches = list(Match.objects.filter(round=rnd).order_by("table", "pk").values_list("pk", "pair_a_id",
                                                                                      "pair_b_id", "table"))
    return {"round": rnd.number, "lot_seed": rnd.lot_seed, "matches": [list(m) for m in matches],
            "byes": list(Bye.objects.filter(round=rnd).values_list("pair_id", flat=True))}


def _draw(stage: Stage, rnd: Round, by, seed: int | None) -> None:
    tournament = stage.tournament
    entrants = _entrants(tournament, rnd)
    if len(entrants) < 2:
        if tournament.check_in_required:
            raise Conflict(_("At least 2 confirmed pairs must be checked in for round %(number)s.")
                           % {"number": rnd.number}, "pairs")
        raise Conflict(_("At least 2 confirmed pairs are needed."), "pairs")
    seeding = _seed(stage, entrants, seed)
    stage.lot_seed = seeding.lot_seed
    rnd.lot_seed = seeding.lot_seed
    rnd.stage = stage
    if stage.format == Stage.Format.SWISS and stage.swiss_rounds is None:
        stage.swiss_rounds = recommended_swiss_rounds(len(entrants))
    order = list(seeding.order)
    stage.entrants, stage.started_at = order, timezone.now()
    stage.save(update_fields=["lot_seed", "swiss_rounds", "entrants", "started_at", "updated_at"])
    if stage.is_bracket:
        _draw_bracket(stage, rnd, order, by)
    elif stage.has_groups:
        _draw_groups(stage, order, rnd)
        _generate_group_round(stage, rnd, 1, by)
    else:
        _generate_swiss_round(stage, rnd, by, first_order=order)


def generate_first_round(tournament: Tournament, by, *, seed: int | None = None) -> Round:
    """The draw: seed the entrants (confirmed pairs, checked in when required) by the stage's
    method — by lot with ``seed`` or a fresh one, recorded on the stage and the round — and
    create round 1: the bracket (all its nodes, byes to the top seeds, the playable matches),
    the groups and their first Berger round, or the first Swiss round. Matches get tables 1..N
    and the referees assigned to those tables."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        stage = _first_stage(tournament)
        seed = _check_lot_seed(stage, seed)
        _refuse_finished(tournament)  # before "already made": what a finished tournament's draw meets is that rule
        if _drawn(tournament):
            raise Conflict(_("The draw was already made: generate the next round, or regenerate this one."),
                           "round")
        rnd = _round_numbered(tournament, 1)
        rnd.tournament = tournament
        _draw(stage, rnd, by, seed)
        later = room().after_draw(stage, rnd, by)  # the room's ready matches: the whole schedule now
        tournament.status = Tournament.Status.IN_PROGRESS
        tournament.save(update_fields=["status"])
        _audit(tournament, by, AuditEntry.Action.ROUND_GENERATED, round=rnd,
               after={**_round_json(rnd), "seeding": stage.seeding, "order": _seeding_order(stage)})
        for added in later:
            _audit(tournament, by, AuditEntry.Action.ROUND_GENERATED, round=added, after=_round_json(added))
        room().round_called(rnd)  # optional push and e-mail to the pairs
        return rnd


def _seeding_order(stage: Stage) -> list[int]:
    if stage.is_bracket:
        return list(stage.bracket_seeds)
    if stage.has_groups:
        return [pk for members in _group_members(stage).values() for pk in members]
    return []


def generate_next_round(tournament: Tournament, by) -> Round:
    """The next round of a Swiss or a round robin, once every match so far has an official result:
    a Swiss round paired from the stage's standings (no rematch while avoidable, checked-in pairs
    only when required); the next Berger round of every group (twice over in a double round
    robin). When the current stage is complete and another follows, it starts that stage with
    the qualifiers its rule gives (``stages.start_next_stage``; the organizer may give them
    himself there). Bracket rounds are not generated: they fill in by themselves as results
    become official."""
    from .stages import _start_next

    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        _refuse_finished(tournament)
        stage = _stage_of(tournament)
        last = _last_generated(tournament)
        if last is None:
            raise Conflict(_("Make the draw first (generate the first round)."), "round")
        following = Stage.objects.filter(tournament=tournament, position=stage.position + 1).first()
        if following is not None and stage_complete(stage):
            following.tournament = tournament
            return _start_next(tournament, following, by)
        if stage.is_bracket or stage.bracket_first_round is not None:
            raise Conflict(_("Bracket rounds fill in by themselves as results become official."), "round")
        missing = _unofficial_matches(tournament)
        if missing:
            raise Conflict(ngettext(
                "%(count)s match has no official result yet: every súmula must be received "
                "(or a walkover recorded) first.",
                "%(count)s matches have no official result yet: every súmula must be received "
                "(or a walkover recorded) first.", missing) % {"count": missing}, "round")
        rnd = _upcoming(tournament)
        rnd.tournament = tournament
        if stage.format == Stage.Format.SWISS:
            played = Round.objects.filter(stage=stage, phase=Round.Phase.SWISS).count()
            if played >= stage.swiss_rounds:
                raise Conflict(_("All %(count)s rounds of the Swiss were generated.") % {"count": stage.swiss_rounds},
                               "round")
            _generate_swiss_round(stage, rnd, by)
        else:
            done = Round.objects.filter(stage=stage, phase=Round.Phase.GROUPS).count()
            total = _group_round_count(_group_members(stage), stage.legs)
            if done < total:
                _generate_group_round(stage, rnd, done + 1, by)
            else:
                raise Conflict(_("All rounds of the round robin were generated."), "round")
        _audit(tournament, by, AuditEntry.Action.ROUND_GENERATED, round=rnd, after=_round_json(rnd))
        _refresh_status(tournament, stage)
        room().round_called(rnd)  # optional push and e-mail to the pairs
        return rnd


def _refuse_finished(tournament: Tournament) -> None:
    """A finished tournament's rounds are what was played: nothing is generated (again) in it."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished: its rounds can no longer be generated or generated again. "
                         "A wrong result is corrected on its match; a stage added afterwards reopens the tournament."),
                       "tournament")


def _stage_start(stage: Stage) -> int | None:
    return Round.objects.filter(stage=stage).order_by("number").values_list("number", flat=True).first()


def _restart_stage(tournament: Tournament, stage: Stage, rnd: Round, by, reason: str) -> Round:
    """The first round of a later stage generated again: the stage is started afresh with the same
    entrants, while nothing of it was played."""
    from .stages import stage_played, start_stage, unstart_stage

    if stage_played(stage):
        raise Conflict(_("A result of this round exists: the round can no longer be generated again."), "round")
    before = {**_round_json(rnd), "stage": stage.position}
    first = unstart_stage(stage)
    first.tournament = tournament
    start_stage(stage, first, list(stage.entrants), by)
    _audit(tournament, by, AuditEntry.Action.ROUND_REGENERATED, reason=reason, round=first, before=before,
           after={**_round_json(first), "stage": stage.position})
    _refresh_status(tournament, stage)
    return first


def regenerate_round(round: Round, by, *, seed: int | None = None, reason: str = "") -> Round:
    """Delete and recreate the matches of the last round while none of its súmulas has an entry and
    none of its results exists (walkovers of withdrawn pairs excepted: they are recreated).

    Round 1 (and the first knockout round) is drawn again: by lot with ``seed`` or a fresh seed,
    recorded. A bracket is redrawn whole. A later Swiss round is paired again (with the check-ins
    as they are now). Audited with the matches before and after."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        _refuse_finished(tournament)
        rnd = Round.objects.get(pk=round.pk)
        rnd.tournament = tournament
        stage = (Stage.objects.get(pk=rnd.stage_id) if rnd.stage_id is not None else _stage_of(tournament))
        stage.tournament = tournament
        seed = _check_lot_seed(stage, seed)
        if not rnd.is_generated:
            raise Conflict(_("Round %(number)s was not generated yet.") % {"number": rnd.number}, "round")
        if stage.position > 1 and rnd.number == _stage_start(stage):
            return _restart_stage(tournament, stage, rnd, by, reason)
        bracket_start = stage.bracket_first_round
        if bracket_start is not None and rnd.number >= bracket_start:
            if rnd.number != bracket_start:
                raise Conflict(_("Bracket rounds fill in by themselves; only the draw (round %(number)s) can be "
                                 "made again.") % {"number": bracket_start}, "round")
            rounds = list(Round.objects.filter(tournament=tournament, number__gte=rnd.number))
        else:
            last = _last_generated(tournament)
            if last.pk != rnd.pk:
                raise Conflict(_("Only the last round (%(number)s) can be generated again.")
                               % {"number": last.number}, "round")
            rounds = [rnd]
        if seed is not None and rnd.number != 1:
            raise TournamentError(_("A seed is given only when the draw is made again."), "seed")
        match_ids = list(Match.objects.filter(round__in=rounds).values_list("pk", flat=True))
        results = Result.objects.filter(match_id__in=match_ids)
        kept = (results.exclude(kind=Result.Kind.WALKOVER, absent__status=Pair.Status.WITHDRAWN)
                .exclude(kind=Result.Kind.DOUBLE_WALKOVER, pair_a__status=Pair.Status.WITHDRAWN,
                         pair_b__status=Pair.Status.WITHDRAWN))
        if kept.exists():
            raise Conflict(_("A result of this round exists: the round can no longer be generated again."), "round")
        if _has_entries(match_ids):
            raise Conflict(_("A súmula of this round has entries: the round can no longer be generated again."),
                           "round")
        before = {**_round_json(rnd), "stage_lot_seed": stage.lot_seed}
        results.delete()
        if rnd.number == bracket_start:
            BracketNode.objects.filter(stage=stage).delete()
            stage.bracket_seeds, stage.bracket_first_round = [], None
            stage.save(update_fields=["bracket_seeds", "bracket_first_round", "updated_at"])
        Match.objects.filter(pk__in=match_ids).delete()
        Bye.objects.filter(round__in=rounds).delete()
        for later in rounds:
            if later.pk != rnd.pk:
                if later.check_ins.exists():
                    later.phase, later.generated_at, later.name = "", None, ""
                    later.save(update_fields=["phase", "generated_at", "name"])
                else:
                    later.delete()
        rnd.phase, rnd.generated_at, rnd.lot_seed = "", None, None
        if rnd.number == bracket_start:
            rnd.name = ""
        rnd.save(update_fields=["phase", "generated_at", "lot_seed", "name"])
        if rnd.number == 1:
            GroupMember.objects.filter(stage=stage).delete()
            _draw(stage, rnd, by, seed)
        elif stage.format == Stage.Format.SWISS:
            _generate_swiss_round(stage, rnd, by)
        else:
            done = Round.objects.filter(stage=stage, phase=Round.Phase.GROUPS).count()
            _generate_group_round(stage, rnd, done + 1, by)
        _audit(tournament, by, AuditEntry.Action.ROUND_REGENERATED, reason=reason, round=rnd, before=before,
               after={**_round_json(rnd), "stage_lot_seed": stage.lot_seed})
        _refresh_status(tournament, stage)
        return rnd


def round_matches(round: Round) -> list[Match]:
    """The matches of a round by table (walkovers without a table last), with their pairs, players,
    referee, official result and bracket node, in a fixed number of queries (each knows ``round``:
    no query per match for ``match.round``)."""
    matches = list(
        Match.objects.filter(round=round)
        .select_related("pair_a__first_player", "pair_a__second_player", "pair_b__first_player",
                        "pair_b__second_player", "referee", "tournament_result", "bracket_node")
        .order_by("table", "pk")
    )
    for match in matches:
        match.round = round
    return matches
