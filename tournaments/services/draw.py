"""The draw: seeding the entrants (by lot, order or rating), drawing round-robin groups and
writing a group round, and pairing a Swiss round (through ``draw.pairing``).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Match

from ..models import GroupMember, Pair, Round, Stage, Tournament, new_lot_seed
from draw.pairing.avoidance import avoided_pairs, avoiding_groups
from draw.pairing.round_robin import round_robin
from draw.pairing.seeding import Seeding, seed_by_lot, seed_by_order, seed_by_rating
from draw.pairing.standings import compute_standings
from draw.pairing.swiss import entrants_from_history, entrants_from_standings, pair_swiss_round
from . import season_hooks
from .base import TournamentError, _int
from .standings import _load_results, _ranked_pair_ids, bye_rule
from .writing import _mark_generated, _withdrawn_ids, _write_fixed_boards, stage_best_of, write_pairings


def _entrants(tournament: Tournament, rnd: Round, stage: Stage | None = None) -> list[Pair]:
    """Pairs drawn or paired in ``rnd``: confirmed and, when the tournament requires it, checked
    in; in a later stage, only its qualifiers (``stage.entrants``)."""
    qs = Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED)
    if stage is not None and stage.position > 1:
        qs = qs.filter(pk__in=list(stage.entrants))
    if tournament.check_in_required:
        qs = qs.filter(check_ins__round=rnd)
    return list(qs.order_by("pk"))


def _organizer_order(pairs: Sequence[Pair]) -> list[Pair]:
    return sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.registered_at, p.pk))


def _seed(stage: Stage, pairs: Sequence[Pair], seed: int | None) -> Seeding:
    if stage.seeding == Stage.Seeding.LOT:
        return seed_by_lot([p.pk for p in sorted(pairs, key=lambda p: p.pk)], seed)
    ordered = _organizer_order(pairs)
    if stage.seeding == Stage.Seeding.RATING:
        return seed_by_rating([p.pk for p in ordered], {p.pk: p.rating for p in ordered})
    if stage.seeding == Stage.Seeding.PLAYERS:  # the pairs' combined ratings now (seasons, season_hooks)
        combined = season_hooks.pair_ratings(ordered)
        return seed_by_rating([p.pk for p in ordered], {pk: r.mu - 3 * r.sigma for pk, r in combined.items()})
    return seed_by_order([p.pk for p in ordered])


def _check_lot_seed(stage: Stage, seed: object) -> int | None:
    if seed is None:
        return None
    if stage.seeding != Stage.Seeding.LOT:
        raise TournamentError(_("A seed is given only for a draw by lot."), "seed")
    return _int(seed, "seed", maximum=2**31 - 1)


def _group_members(stage: Stage) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = defaultdict(list)
    for group, pair_id in stage.group_members.order_by("group", "number").values_list("group", "pair_id"):
        groups[group].append(pair_id)
    return dict(groups)


def avoided(stage: Stage, stage_round: int = 1) -> frozenset:
    """The pairs of the stage's tournament that share an avoid tag (club, family) or a player's club,
    to be kept apart in the stage's round ``stage_round`` (``Stage.avoid_rounds``: up to that round;
    empty, every round): prohibited pairings."""
    if stage.avoid_rounds is not None and stage_round > stage.avoid_rounds:
        return frozenset()
    tags = {}
    for pk, raw, first_club, second_club in (Pair.objects.filter(tournament_id=stage.tournament_id)
                                             .values_list("pk", "avoid_tags", "first_player__club__name",
                                                          "second_player__club__name")):
        # the players' clubs (a CSV's "clube 1" / "clube 2", a player's club) are avoid tags by default,
        # the same as a tag typed with the club's name
        own = [t for t in raw.split(",") if t.strip()] + [c for c in (first_club, second_club) if c]
        if own:
            tags[pk] = own
    return avoided_pairs(tags)


def _draw_groups(stage: Stage, order: Sequence[int], rnd: Round) -> None:
    # snake seeding, with pairs sharing an avoid tag moved inside their pot when that keeps them apart;
    # a lot among equally good draws, with the draw's seed (one is drawn and recorded when the
    # seeding was not by lot): the same seed gives the same groups
    if stage.lot_seed is None:
        stage.lot_seed = new_lot_seed()
        stage.save(update_fields=["lot_seed", "updated_at"])
    rnd.lot_seed = stage.lot_seed
    draw = avoiding_groups(order, stage.group_count, avoided(stage), lot_seed=stage.lot_seed)
    groups = draw.groups
    rnd.unavoided = [list(p) for p in draw.unavoided]
    following = Stage.objects.filter(tournament_id=stage.tournament_id, position=stage.position + 1,
                                     qualification=Stage.Qualification.PER_GROUP).first()
    minimum = 2 if following is None else max(2, following.qualifiers_per_group)
    if any(len(g) < minimum for g in groups):
        raise Conflict(_("%(count)s pairs do not fill %(groups)s groups of at least %(minimum)s pairs.")
                       % {"count": len(order), "groups": stage.group_count, "minimum": minimum}, "group_count")
    GroupMember.objects.bulk_create([
        GroupMember(stage=stage, pair_id=pair_id, group=g, number=i + 1)
        for g, members in enumerate(groups) for i, pair_id in enumerate(members)
    ])


def _group_round_count(groups: dict[int, list[int]], legs: int = 1) -> int:
    """Rounds of the groups' schedule: the Berger rounds, twice in a double round robin."""
    return legs * max((len(round_robin(m)) for m in groups.values()), default=0)


def _generate_group_round(stage: Stage, rnd: Round, schedule_round: int, by) -> list[Match]:
    """Round ``schedule_round`` of every group; in the second leg of a double round robin the
    Berger rounds again, home and away exchanged."""
    groups = _group_members(stage)
    games: list[tuple[int, int]] = []
    byes: list[int] = []
    single = max((len(round_robin(m)) for m in groups.values()), default=0)
    second_leg = schedule_round > single
    number = schedule_round - single if second_leg else schedule_round
    for g in sorted(groups):
        rounds = round_robin(groups[g])
        if number <= len(rounds):
            this = rounds[number - 1]
            games.extend((game.away, game.home) if second_leg else (game.home, game.away) for game in this.games)
            if this.bye is not None:
                byes.append(this.bye)
    rnd.stage = stage
    _mark_generated(rnd, Round.Phase.GROUPS)
    best_of = stage_best_of(stage, schedule_round, _group_round_count(groups, stage.legs))
    return _write_fixed_boards(rnd, games, byes, _withdrawn_ids(stage.tournament), by, best_of=best_of)


def _swiss_entrants_order(stage: Stage, entrant_ids: set[int]) -> list:
    """Swiss entrants in standing order (official results and byes so far)."""
    tournament = stage.tournament
    data = _load_results(tournament, stage if stage.position > 1 else None)
    pairs = [p for p in _ranked_pair_ids(tournament) if stage.position == 1 or p in set(stage.entrants)]
    table = compute_standings(
        [r for r, _phase in data.results], stage.tiebreaks, pairs=pairs, byes=data.byes,
        lot_seed=stage.standings_lot_seed, count_walkover_scores=stage.walkover_scores, **bye_rule(stage),
    )
    entrants = entrants_from_standings(table, [r for r, _phase in data.results])
    return [e for e in entrants if e.pair_id in entrant_ids]


def _generate_swiss_round(stage: Stage, rnd: Round, by, *, first_order: Sequence[int] | None = None) -> list[Match]:
    if first_order is not None:
        entrants = entrants_from_history(first_order, {}, {})
    else:
        ids = {p.pk for p in _entrants(stage.tournament, rnd, stage)}
        entrants = _swiss_entrants_order(stage, ids)
    if len(entrants) < 2:
        raise Conflict(_("At least 2 pairs are needed to pair a round."), "pairs")
    number = Round.objects.filter(stage=stage, phase=Round.Phase.SWISS).exclude(pk=rnd.pk).count() + 1
    # top half v bottom half, or neighbours; club mates apart when possible (a cost: prohibited pairings)
    paired = pair_swiss_round(entrants, order=stage.swiss_order, avoid=avoided(stage, number))
    rnd.unavoided = [list(p) for p in paired.unavoided]
    rnd.stage = stage
    _mark_generated(rnd, Round.Phase.SWISS)
    boards = [(p.home, p.away, p.board) for p in paired.pairings]
    number = Round.objects.filter(stage=stage, phase=Round.Phase.SWISS).count()
    return write_pairings(rnd, boards, byes=[paired.bye] if paired.bye is not None else [], by=by,
                          best_of=stage_best_of(stage, number, stage.swiss_rounds))
