"""Standings: the official results of a tournament ranked with its tiebreaks
(``tournaments.pairing.standings``), as lines the pages and the API show.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from ..models import Bye, GroupMember, Pair, Result, Round, Stage, Tournament, default_tiebreaks
from ..pairing.round_robin import group_name
from ..pairing.standings import MatchResult, Standings, compute_standings


@dataclass(frozen=True)
class StandingLine:
    """One pair's row: rank, totals, the value of each tiebreak (in the stage's order) and its lot."""

    rank: int
    pair: Pair
    played: int
    won: int
    lost: int
    byes: int
    games_for: int
    games_against: int
    points_for: int
    points_against: int
    values: dict
    lot: int

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    def as_dict(self) -> dict:
        return {"rank": self.rank, "pair": self.pair.pk, "pair_name": self.pair.name,
                "withdrawn": self.pair.status == Pair.Status.WITHDRAWN, "played": self.played, "won": self.won,
                "lost": self.lost, "byes": self.byes, "games_for": self.games_for,
                "games_against": self.games_against, "points_for": self.points_for,
                "points_against": self.points_against, "point_difference": self.point_difference,
                "tiebreaks": self.values, "lot": self.lot}


@dataclass(frozen=True)
class StandingsTable:
    """The standings: overall ``rows``, and per group (``[(name, rows)]``) for round robin groups."""

    tiebreaks: list[str]
    lot_seed: int
    walkover_scores: bool
    rows: list[StandingLine]
    groups: list[tuple[str, list[StandingLine]]]

    def as_dict(self) -> dict:
        return {"tiebreaks": self.tiebreaks, "lot_seed": self.lot_seed, "walkover_scores": self.walkover_scores,
                "rows": [r.as_dict() for r in self.rows],
                "groups": [{"name": name, "rows": [r.as_dict() for r in rows]} for name, rows in self.groups]}


@dataclass
class _Loaded:
    results: list[tuple[MatchResult, str]]
    byes: list[int]


def _load_results(tournament: Tournament) -> _Loaded:
    """Official results (with their round's phase) and byes: two queries."""
    rows = (Result.objects.filter(tournament=tournament)
            .values_list("pair_a_id", "pair_b_id", "games_a", "games_b", "points_a", "points_b", "winner_id",
                         "kind", "match__round__phase").order_by("match_id"))
    results = [
        (MatchResult(a, b, ga, gb, pa, pb, w, kind == Result.Kind.WALKOVER), phase or "")
        for a, b, ga, gb, pa, pb, w, kind, phase in rows
    ]
    byes = list(Bye.objects.filter(round__tournament=tournament).values_list("pair_id", flat=True))
    return _Loaded(results, byes)


def _ranked_pair_ids(tournament: Tournament) -> list[int]:
    return list(Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
                .order_by("pk").values_list("pk", flat=True))


def _number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _lines(table: Standings, pairs: dict[int, Pair]) -> list[StandingLine]:
    return [
        StandingLine(rank=row.rank, pair=pairs[row.pair_id], played=row.played, won=row.won, lost=row.lost,
                     byes=row.byes, games_for=row.games_for, games_against=row.games_against,
                     points_for=row.points_for, points_against=row.points_against,
                     values={t.value: _number(v) for t, v in row.values.items()}, lot=row.lot)
        for row in table.rows
    ]


def standings(tournament: Tournament) -> StandingsTable:
    """The standings from the official results only (received súmulas, walkovers, organizer's
    results) and the byes, ranked by the stage's tiebreaks then by lot with the stage's recorded
    seed; per group too for round robin groups (group matches only). Pending registrations are
    left out; withdrawn pairs stay with what they played. Runs a constant number of queries
    (five) whatever the number of pairs."""
    stage = Stage.objects.filter(tournament=tournament).first()
    tiebreaks = stage.tiebreaks if stage else default_tiebreaks()
    lot_seed = stage.standings_lot_seed if stage else 0
    walkover_scores = stage.walkover_scores if stage else False
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
             .select_related("first_player", "second_player", "substitute").order_by("pk")}
    data = _load_results(tournament)
    results = [r for r, _phase in data.results if r.pair_a in pairs and r.pair_b in pairs]
    overall = compute_standings(results, tiebreaks, pairs=list(pairs), byes=[b for b in data.byes if b in pairs],
                                lot_seed=lot_seed, count_walkover_scores=walkover_scores)
    groups: list[tuple[str, list[StandingLine]]] = []
    if stage is not None and stage.has_groups:
        members: dict[int, list[int]] = defaultdict(list)
        for group, pair_id in (GroupMember.objects.filter(stage=stage).order_by("group", "number")
                               .values_list("group", "pair_id")):
            members[group].append(pair_id)
        group_of = {p: g for g, ids in members.items() for p in ids}
        for g in sorted(members):
            ids = [p for p in members[g] if p in pairs]
            inside = [r for r, phase in data.results
                      if phase == Round.Phase.GROUPS and group_of.get(r.pair_a) == g and group_of.get(r.pair_b) == g]
            byes = [b for b in data.byes if group_of.get(b) == g]
            table = compute_standings(inside, tiebreaks, pairs=ids, byes=byes, lot_seed=lot_seed,
                                      count_walkover_scores=walkover_scores)
            groups.append((group_name(g), _lines(table, pairs)))
    return StandingsTable(list(tiebreaks), lot_seed, walkover_scores, _lines(overall, pairs), groups)
