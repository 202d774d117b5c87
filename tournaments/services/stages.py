"""Stages: a tournament is an ordered list of stages (``Stage.position`` 1, 2, ...), each with its
format, seeding, tiebreaks and match format; the pairs of a later stage qualify from the stage
before it by a rule (the top N overall, from a given place: places 5-8 for a consolation
bracket; or the top K of each group, plus the best N of the next place across the groups).

This module owns: adding, changing and removing stages before they start
(:func:`add_stage`, :func:`update_stage`, :func:`remove_stage`), the qualifiers a rule gives
(:func:`stage_qualifiers`), starting the next stage once the current one is complete
(:func:`start_next_stage`, the organizer may give the qualifiers himself with a reason, audited),
and keeping a started stage in agreement with the results of the stage before it
(:func:`check_later_stages`: a changed result that changes the qualifiers rebuilds the next
stage while nothing of it was played, and is refused, 409 naming the stage, once it was, unless
the knockout it seeds is the same bracket but for its seed numbers).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Match

from ..models import AuditEntry, BracketNode, Bye, GroupMember, Pair, Result, Round, Stage, Tournament
from draw.pairing.elimination import same_draw
from draw.pairing.group_knockout import knockout_seeding, rank_across_groups
from draw.pairing.round_robin import group_name
from draw.pairing.seeding import seed_by_lot, seed_by_rating
from draw.pairing.swiss import recommended_swiss_rounds
from .base import TournamentError, _audit, _has_entries, _lock_tournament, _reason, _require_manager
from .brackets import _draw_bracket
from .check_in import _upcoming
from .draw import _draw_groups, _generate_group_round, _generate_swiss_round
from .formats import clean_stage_settings, stage_json
from .progress import _refresh_status, stage_complete
from .standings import _load_results, group_tables_and_results, stage_ranking


@dataclass(frozen=True)
class Qualifiers:
    """The pairs a stage's rule qualifies, in seed order, and what keeps the rule from being met
    (a group with fewer pairs left than qualify from it...): then ``order`` is a proposal (fewer
    from that group, the best remaining pairs instead) the organizer confirms with a reason."""

    order: list[int]
    problems: list[str]


def stages_of(tournament: Tournament) -> list[Stage]:
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    for st in stages:
        st.tournament = tournament
    return stages


def _source_pool(source: Stage) -> list[int]:
    if source.position == 1:
        return list(Pair.objects.filter(tournament_id=source.tournament_id).exclude(status=Pair.Status.PENDING)
                    .order_by("pk").values_list("pk", flat=True))
    return list(source.entrants)


def stage_qualifiers(stage: Stage, *, withdrawn: set[int] | None = None) -> Qualifiers:
    """The qualifiers of ``stage`` (position 2 or later) by its rule, from the standings of the stage
    before it. ``withdrawn`` pairs never qualify (default: every withdrawn pair)."""
    tournament = stage.tournament
    source = Stage.objects.get(tournament=tournament, position=stage.position - 1)
    source.tournament = tournament
    if withdrawn is None:
        withdrawn = set(Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN)
                        .values_list("pk", flat=True))
    data = _load_results(tournament).of_stage(source.pk)
    data.withdrawn = frozenset(withdrawn)
    pool = _source_pool(source)
    problems: list[str] = []
    if stage.qualification == Stage.Qualification.PER_GROUP and source.has_groups:
        tables = group_tables_and_results(source, data, set(pool))
        k = stage.qualifiers_per_group
        rankings = [[p for p in table.ranking() if p not in withdrawn] for _g, table, _r in tables]
        # equal records keep the group order (A1 before B1); a better record moves a pair up; a bye
        # scores nothing and groups of different sizes compare as the stage says (drop_last)
        cross = rank_across_groups([table for _g, table, _r in tables], lot=False,
                                   group_results=[results for _g, _t, results in tables],
                                   unequal=stage.unequal_groups, count_walkover_scores=source.walkover_scores)
        cross = [p for p in cross if p not in withdrawn]
        for (g, _table, _results), ranking in zip(tables, rankings):
            if len(ranking) < k:
                problems.append(_("Group %(group)s has %(left)s pair(s) left of the %(count)s that qualify from it.")
                                % {"group": group_name(g), "left": len(ranking), "count": k})
        top = {p for ranking in rankings for p in ranking[:k]}
        missing = sum(max(0, k - len(r)) for r in rankings)
        next_place = [r[k] for r in rankings if len(r) > k]
        extras = [p for p in cross if p in set(next_place)][:stage.qualifiers or 0]
        if missing:  # the proposal: fewer from the short group, the best remaining pairs instead
            extras += [p for p in cross if p not in top and p not in extras][:missing]
        extras = [p for p in cross if p in set(extras)]
        if not problems and stage.is_bracket:
            # the best of the next place are seeded inside the crossing: no group mates in round one
            order = [q.pair_id for q in knockout_seeding(rankings, k, cross_ranking=cross, extras=extras)]
        else:
            order = [p for p in cross if p in top] + extras
        return Qualifiers(order, problems)
    if stage.qualification == Stage.Qualification.PER_GROUP:
        problems.append(_("The stage before has no groups: qualify the top N overall."))
    ranking, _places = stage_ranking(source, data, pool)
    ranking = [p for p in ranking if p not in withdrawn]
    start = stage.qualify_from - 1
    count = stage.qualifiers or max(0, len(ranking) - start)
    order = ranking[start:start + count]
    if len(order) < count:
        problems.append(_("Only %(left)s pair(s) are left for the %(count)s places from place %(start)s.")
                        % {"left": len(order), "count": count, "start": stage.qualify_from})
    return Qualifiers(order, problems)


def _current(tournament: Tournament) -> Stage | None:
    stages = stages_of(tournament)
    started = [st for st in stages if st.started_at is not None]
    return started[-1] if started else (stages[0] if stages else None)


def start_stage(stage: Stage, rnd: Round, order: list[int], by) -> None:
    """Enter ``order`` (seed order) in ``stage`` and generate its first round ``rnd``."""
    stage.entrants = list(order)
    stage.started_at = timezone.now()
    stage.save(update_fields=["entrants", "started_at", "entrants_adjusted", "updated_at"])
    rnd.stage = stage
    if len(order) < 2:
        raise Conflict(_("At least 2 pairs are needed to start %(stage)s.") % {"stage": stage.display_name},
                       "qualifiers")
    order = _reseed(stage, order)
    if stage.is_bracket:
        _draw_bracket(stage, rnd, order, by)
    elif stage.has_groups:
        _draw_groups(stage, order, rnd)
        _generate_group_round(stage, rnd, 1, by)
    else:
        if stage.swiss_rounds is None:
            stage.swiss_rounds = recommended_swiss_rounds(len(order))
            stage.save(update_fields=["swiss_rounds", "updated_at"])
        _generate_swiss_round(stage, rnd, by, first_order=order)


def _reseed(stage: Stage, order: list[int]) -> list[int]:
    """A later stage's draw order: its qualifiers in the standings' order (seeding ``order``, the
    default), or drawn again among them by lot (the lot seed kept on the stage, so a rebuild draws
    the same) or by rating."""
    if stage.seeding == Stage.Seeding.LOT:
        seeding = seed_by_lot(order, stage.lot_seed)
        if stage.lot_seed != seeding.lot_seed:
            stage.lot_seed = seeding.lot_seed
            stage.save(update_fields=["lot_seed", "updated_at"])
        return list(seeding.order)
    if stage.seeding == Stage.Seeding.RATING:
        ratings = {pk: r for pk, r in Pair.objects.filter(pk__in=order, rating__isnull=False)
                   .values_list("pk", "rating")}
        return list(seed_by_rating(order, ratings).order)
    return list(order)


def _clean_qualifiers(tournament: Tournament, value: object, source: Stage) -> list[int]:
    if not isinstance(value, (list, tuple)) or not all(type(p) is int for p in value):
        raise TournamentError(_("List the qualifiers' pair ids in seed order."), "qualifiers")
    if len(set(value)) != len(value):
        raise TournamentError(_("A pair is listed twice."), "qualifiers")
    pool = set(_source_pool(source))
    status = dict(Pair.objects.filter(tournament=tournament, pk__in=list(value)).values_list("pk", "status"))
    for pk in value:
        if pk not in status:
            raise TournamentError(_("No pair with id %(id)s in this tournament.") % {"id": pk}, "qualifiers")
        if status[pk] != Pair.Status.CONFIRMED:
            raise TournamentError(_("Pair %(id)s is not a confirmed pair (withdrawn or pending).") % {"id": pk},
                                  "qualifiers")
        if pk not in pool:
            raise TournamentError(_("Pair %(id)s did not play %(stage)s.") % {"id": pk, "stage": source.display_name},
                                  "qualifiers")
    return list(value)


def start_next_stage(tournament: Tournament, by, *, qualifiers: list[int] | None = None, reason: str = "") -> Round:
    """Start the stage after the current one, once the current one is complete: its qualifiers by
    its rule, seeded from the standings (groups crossed, A1 v B2; group winners by their records),
    or the organizer's own list (seed order) with a reason, audited (the way through when a
    withdrawal leaves a group short). Returns the stage's first round."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        current = _current(tournament)
        if current is None or current.started_at is None:
            raise Conflict(_("Make the draw first (generate the first round)."), "round")
        following = Stage.objects.filter(tournament=tournament, position=current.position + 1).first()
        if following is None:
            raise Conflict(_("%(stage)s is the last stage.") % {"stage": current.display_name}, "stage")
        if not stage_complete(current):
            raise Conflict(_("%(stage)s is not complete: every match must have an official result first.")
                           % {"stage": current.display_name}, "stage")
        following.tournament = tournament
        return _start_next(tournament, following, by, qualifiers=qualifiers, reason=reason)


def _start_next(tournament: Tournament, stage: Stage, by, *, qualifiers=None, reason: str = "") -> Round:
    source = Stage.objects.get(tournament=tournament, position=stage.position - 1)
    proposal = stage_qualifiers(stage)
    if qualifiers is None:
        if proposal.problems:
            raise Conflict(" ".join(proposal.problems) + " " + _(
                "Give the qualifiers yourself (fewer from that group, or the best remaining pair), with a "
                "reason."), "qualifiers")
        order = proposal.order
        stage.entrants_adjusted = False
    else:
        reason = _reason(reason, required=True)
        order = _clean_qualifiers(tournament, qualifiers, source)
        stage.entrants_adjusted = order != proposal.order
    rnd = _upcoming(tournament)
    rnd.tournament = tournament
    start_stage(stage, rnd, order, by)
    if qualifiers is not None:
        _audit(tournament, by, AuditEntry.Action.QUALIFIERS_ADJUSTED, reason=reason, round=rnd,
               before={"stage": stage.position, "qualifiers": proposal.order, "problems": proposal.problems},
               after={"stage": stage.position, "qualifiers": order})
    _audit(tournament, by, AuditEntry.Action.STAGE_STARTED, round=rnd,
           after={"stage": stage.position, "entrants": order})
    _refresh_status(tournament)
    return rnd


def stage_played(stage: Stage) -> bool:
    """Whether anything of the stage was played: a result (other than a walkover of a withdrawn
    pair) or an entry on a súmula of its rounds."""
    match_ids = list(Match.objects.filter(round__stage=stage).values_list("pk", flat=True))
    kept = (Result.objects.filter(match_id__in=match_ids)
            .exclude(kind=Result.Kind.WALKOVER, absent__status=Pair.Status.WITHDRAWN)
            .exclude(kind=Result.Kind.DOUBLE_WALKOVER, pair_a__status=Pair.Status.WITHDRAWN,
                     pair_b__status=Pair.Status.WITHDRAWN))
    return kept.exists() or _has_entries(match_ids)


def unstart_stage(stage: Stage) -> Round:
    """Delete what a stage's start created (its rounds' matches, byes, groups, bracket) and return
    its first round, emptied (the caller starts it again)."""
    rounds = list(Round.objects.filter(stage=stage).order_by("number"))
    first = rounds[0]
    match_ids = list(Match.objects.filter(round__in=rounds).values_list("pk", flat=True))
    Result.objects.filter(match_id__in=match_ids).delete()
    BracketNode.objects.filter(stage=stage).delete()
    Match.objects.filter(pk__in=match_ids).delete()
    Bye.objects.filter(round__in=rounds).delete()
    GroupMember.objects.filter(stage=stage).delete()
    for later in rounds[1:]:
        later.delete()
    first.phase, first.generated_at, first.lot_seed, first.name, first.unavoided = "", None, None, "", []
    first.save(update_fields=["phase", "generated_at", "lot_seed", "name", "unavoided"])
    stage.bracket_seeds, stage.bracket_first_round = [], None
    stage.save(update_fields=["bracket_seeds", "bracket_first_round", "updated_at"])
    return first


def check_later_stages(tournament: Tournament, by) -> None:
    """Keep every started later stage in agreement with the stage before it: when a changed result
    changes its qualifiers, rebuild it while nothing of it was played; refuse (409 naming the
    stage) once it was. Qualifiers the organizer chose by hand stay as he chose them."""
    for stage in stages_of(tournament):
        if stage.position == 1 or stage.started_at is None or stage.entrants_adjusted:
            continue
        withdrawn = set(Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN,
                                            withdrawn_at__lt=stage.started_at).values_list("pk", flat=True))
        proposal = stage_qualifiers(stage, withdrawn=withdrawn)
        if proposal.problems or proposal.order == list(stage.entrants):
            continue
        if stage_played(stage):
            if (stage.format == Stage.Format.SINGLE_ELIMINATION and stage.seeding == Stage.Seeding.ORDER
                    and same_draw(stage.entrants, proposal.order)):
                # the same qualifiers and not one meeting changed (seeds 2 and 3 of four swapped): the
                # bracket stays as drawn, its seed numbers as they were
                continue
            if set(proposal.order) == set(stage.entrants):
                raise Conflict(_("This result changes the seeding of %(stage)s, and with it who meets whom there, "
                                 "which has already been played: change the results of %(stage)s first, or "
                                 "leave this one as it is.") % {"stage": stage.display_name}, "stage")
            raise Conflict(_("This result changes who qualified for %(stage)s, which has already been played: "
                             "change the results of %(stage)s first, or leave this one as it is.")
                           % {"stage": stage.display_name}, "stage")
        rnd = unstart_stage(stage)
        rnd.tournament = tournament
        start_stage(stage, rnd, proposal.order, by)
        _audit(tournament, by, AuditEntry.Action.ROUND_REGENERATED, round=rnd,
               reason=_("The qualifiers of %(stage)s changed with a result of the stage before.")
               % {"stage": stage.display_name},
               before={"stage": stage.position}, after={"stage": stage.position, "entrants": proposal.order})


def stage_state(stage: Stage) -> str:
    """``waiting`` (not started), ``in_progress`` or ``complete``."""
    if stage.started_at is None:
        return "waiting"
    return "complete" if stage_complete(stage) else "in_progress"


def add_stage(tournament: Tournament, by, **settings) -> Stage:
    """Add a stage after the last one (before it starts; to a finished tournament too, which it
    reopens: a top cut decided after a Swiss): its format and options as for
    :func:`~tournaments.services.formats.configure_stage`, and its qualifiers rule
    (``qualification``: ``overall`` or ``per_group``; ``qualifiers``, ``qualifiers_per_group``,
    ``qualify_from``)."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        stages = stages_of(tournament)
        if not stages:
            raise Conflict(_("Choose the tournament's format first."), "stage")
        if "format" not in settings:
            raise TournamentError(_("Choose a format."), "format")
        finished = tournament.status == Tournament.Status.FINISHED
        stage = Stage(tournament=tournament, position=stages[-1].position + 1)
        clean_stage_settings(stage, settings, later=True)
        stage.save()
        # a top cut added to a finished event reopens it: its last stage is now one not played
        _refresh_status(tournament)
        _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED,
               after=stage_json(stage) | ({"reopened": True} if finished else {}))
        return stage


def update_stage(stage: Stage, by, **settings) -> Stage:
    """Change a stage that has not started."""
    with transaction.atomic():
        tournament = _lock_tournament(stage.tournament_id)
        _require_manager(by, tournament)
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        stage.tournament = tournament
        if stage.started_at is not None or (stage.position == 1 and Round.objects.filter(
                tournament=tournament, generated_at__isnull=False).exists()):
            raise Conflict(_("%(stage)s has started: it no longer changes.") % {"stage": stage.display_name}, "stage")
        before = stage_json(stage)
        clean_stage_settings(stage, settings, later=stage.position > 1)
        stage.save()
        _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED, before=before, after=stage_json(stage))
        return stage


def remove_stage(stage: Stage, by) -> None:
    """Remove the last stage, while it has not started (the first stage stays: change it instead)."""
    with transaction.atomic():
        tournament = _lock_tournament(stage.tournament_id)
        _require_manager(by, tournament)
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        if stage.position == 1:
            raise Conflict(_("The first stage stays: change its format instead."), "stage")
        if stage.started_at is not None:
            raise Conflict(_("%(stage)s has started.") % {"stage": stage.display_name}, "stage")
        if Stage.objects.filter(tournament=tournament, position__gt=stage.position).exists():
            raise Conflict(_("Remove the stages after it first."), "stage")
        before = stage_json(stage)
        stage.delete()
        _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED, before=before, after=None)
