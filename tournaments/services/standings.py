"""Standings: the official results of a tournament (or of one of its stages) ranked with its
tiebreaks (``draw.pairing.standings``), a knockout by its placings
(``draw.pairing.placings``), as lines the pages and the API show.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..models import Bye, GroupMember, Pair, Result, Round, Stage, Tournament, default_tiebreaks
from draw.pairing.group_knockout import rank_across_groups
from draw.pairing.round_robin import group_name
from draw.pairing.placings import Placing, Placings, bracket_placings, overall_placings, placing_reason
from draw.pairing.standings import MatchResult, Standings, compute_standings


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
    place: int | None = None
    stage: int | None = None  # the stage whose ranking decided this place (overall table of several stages)
    stage_name: str = ""
    decided_by: str = ""  # "bracket" (the round reached), "standings" (the stage's tiebreaks), "organizer"
    override_reason: str = ""  # the organizer's reason when he set this place by hand
    drawn: int = 0  # a bye worth a draw and counted as played (Truco matches are not drawn)
    why: str = ""  # the final table: the place and why ("5º–8º: perderam nas quartas"; ``placing_words``)

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    def as_dict(self) -> dict:
        return {"rank": self.rank, "pair": self.pair.pk, "pair_name": self.pair.name,
                "withdrawn": self.pair.status == Pair.Status.WITHDRAWN, "played": self.played, "won": self.won,
                "drawn": self.drawn, "lost": self.lost, "byes": self.byes, "games_for": self.games_for,
                "games_against": self.games_against, "points_for": self.points_for,
                "points_against": self.points_against, "point_difference": self.point_difference,
                "tiebreaks": self.values, "lot": self.lot, "place": self.place, "stage": self.stage,
                "stage_name": self.stage_name, "decided_by": self.decided_by,
                "override_reason": self.override_reason, "why": self.why}


@dataclass(frozen=True)
class StandingsTable:
    """The standings: overall ``rows``, and per group (``[(name, rows)]``) for round robin groups."""

    tiebreaks: list[str]
    lot_seed: int
    walkover_scores: bool
    rows: list[StandingLine]
    groups: list[tuple[str, list[StandingLine]]]
    stages: list[dict] = field(default_factory=list)  # overall table of several stages: each deciding stage
    bye_value: str = "win"
    bye_played: bool = True

    def as_dict(self) -> dict:
        return {"tiebreaks": self.tiebreaks, "lot_seed": self.lot_seed, "walkover_scores": self.walkover_scores,
                "rows": [r.as_dict() for r in self.rows],
                "groups": [{"name": name, "rows": [r.as_dict() for r in rows]} for name, rows in self.groups],
                "stages": self.stages, "bye_value": self.bye_value, "bye_played": self.bye_played}


@dataclass
class _Loaded:
    results: list[tuple[MatchResult, str]]
    byes: list[int]
    stage_of_result: list[int | None] = field(default_factory=list)
    match_ids: list[int] = field(default_factory=list)
    stage_of_bye: list[int | None] = field(default_factory=list)
    withdrawn: frozenset[int] = frozenset()  # withdrawn and disqualified pairs (ranked last where a stage says so)
    members: dict = field(default_factory=dict)  # stage pk -> its groups' members, read once (shared by of_stage)

    def of_stage(self, stage_id: int | None) -> "_Loaded":
        """The results and byes of one stage's rounds."""
        keep = [i for i, s in enumerate(self.stage_of_result) if s == stage_id]
        byes = [b for b, s in zip(self.byes, self.stage_of_bye) if s == stage_id]
        return _Loaded([self.results[i] for i in keep], byes, [stage_id] * len(keep),
                       [self.match_ids[i] for i in keep], [stage_id] * len(byes), self.withdrawn, self.members)

    def last(self, stage: Stage) -> frozenset[int]:
        """The pairs ``stage`` ranks after every pair still in (its ``withdrawn_last``)."""
        return self.withdrawn if stage.withdrawn_last else frozenset()


def _load_results(tournament: Tournament, stage: Stage | None = None) -> _Loaded:
    """Official results (with their round's phase and stage) and byes: two queries. With ``stage``,
    only the results and byes of its rounds."""
    rows = Result.objects.filter(tournament=tournament)
    bye_rows = Bye.objects.filter(round__tournament=tournament)
    if stage is not None:
        rows, bye_rows = rows.filter(match__round__stage=stage), bye_rows.filter(round__stage=stage)
    rows = rows.values_list("pair_a_id", "pair_b_id", "games_a", "games_b", "points_a", "points_b", "winner_id",
                            "kind", "match__round__phase", "match__round__stage_id", "match_id").order_by("match_id")
    results, stages, match_ids = [], [], []
    for a, b, ga, gb, pa, pb, w, kind, phase, stage_id, match_id in rows:
        double = kind == Result.Kind.DOUBLE_WALKOVER
        results.append((MatchResult(a, b, ga, gb, pa, pb, w, kind == Result.Kind.WALKOVER or double, double),
                        phase or ""))
        stages.append(stage_id)
        match_ids.append(match_id)
    byes, bye_stages = [], []
    for pair_id, stage_id in bye_rows.values_list("pair_id", "round__stage_id"):
        byes.append(pair_id)
        bye_stages.append(stage_id)
    return _Loaded(results, byes, stages, match_ids, bye_stages)


def bye_rule(stage: Stage) -> dict:
    """The stage's bye rule as :func:`~draw.pairing.standings.compute_standings` takes it."""
    return {"bye_value": stage.bye_value, "bye_played": stage.bye_played}


def _ranked_pair_ids(tournament: Tournament) -> list[int]:
    return list(Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
                .order_by("pk").values_list("pk", flat=True))


def _number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _lines(table: Standings, pairs: dict[int, Pair], places: dict[int, int | None] | None = None,
           order: list[int] | None = None) -> list[StandingLine]:
    rows = {row.pair_id: row for row in table.rows}
    ids = order if order is not None else [row.pair_id for row in table.rows]
    out = []
    for i, pair_id in enumerate(ids):
        row = rows[pair_id]
        place = places.get(pair_id) if places is not None else None
        rank = place if place is not None else (i + 1 if places is not None else row.rank)
        out.append(StandingLine(rank=rank, pair=pairs[row.pair_id], played=row.played, won=row.won,
                                lost=row.lost, byes=row.byes, games_for=row.games_for,
                                games_against=row.games_against, points_for=row.points_for,
                                points_against=row.points_against,
                                values={t.value: _number(v) for t, v in row.values.items()}, lot=row.lot,
                                place=place, drawn=row.drawn))
    return out


def withdrawn_last(lines: list[StandingLine]) -> list[StandingLine]:
    """Withdrawn (and disqualified) pairs below every pair still in, each part in its order (the
    stage's ``withdrawn_last``, on by default): the pairs still in are renumbered among themselves
    (places shared in a bracket stay shared: 5, 5, 5, 5 for the quarterfinal losers), the withdrawn
    pairs take the places after them, one each."""
    still = [line for line in lines if line.pair.status != Pair.Status.WITHDRAWN]
    gone = [line for line in lines if line.pair.status == Pair.Status.WITHDRAWN]
    if not gone:
        return lines
    out = []
    for i, line in enumerate(still):
        place = line.place
        if place is not None:
            place = 1 + sum(1 for other in still if other.place is not None and other.place < line.place)
        out.append(replace(line, rank=place if place is not None else i + 1, place=place))
    has_places = any(line.place is not None for line in lines)
    for j, line in enumerate(gone, start=len(still) + 1):
        out.append(replace(line, rank=j, place=j if has_places else line.place))
    return out


def placed_by_hand(lines: list[StandingLine], overrides: dict) -> list[StandingLine]:
    """The organizer's final places (``Tournament.placing_overrides``: pair id to place and reason,
    art. 26): each such pair takes the place set, and only it moves. Every other pair keeps its
    order and its ties (one quarterfinal loser placed 8th leaves the three others sharing 5th, never
    5, 6, 7); its place is one more than the number of pairs ahead of it: the other pairs placed
    better before, and the pairs set by hand at a better place, or at its own place when they did
    not share it before (a 4th placed 3rd takes 3rd from the pair that had it; a semifinal loser
    confirmed 3rd leaves the other one 3rd too). Pairs still in a bracket (no place) stay on top."""
    fixed = {int(p): o for p, o in overrides.items()}
    if not fixed:
        return lines
    bracket = any(line.place is not None for line in lines)

    def before(line: StandingLine) -> int | None:
        return line.place if bracket else line.rank

    moved = [(fixed[line.pair.pk]["place"], before(line)) for line in lines if line.pair.pk in fixed]
    kept = [line for line in lines if line.pair.pk not in fixed]
    out = []
    for line in kept:
        old = before(line)
        if old is None:
            out.append(line)
            continue
        better = sum(1 for other in kept if before(other) is not None and before(other) < old)
        place = 1 + better
        while True:
            ahead = sum(1 for at, was in moved if at < place or (at == place and was != old))
            if 1 + better + ahead == place:
                break
            place = 1 + better + ahead
        out.append(replace(line, rank=place, place=place if line.place is not None else None))
    for line in lines:
        if line.pair.pk in fixed:
            at = fixed[line.pair.pk]["place"]
            out.append(replace(line, rank=at, place=at, decided_by="organizer",
                               override_reason=fixed[line.pair.pk]["reason"]))
    still_in = [line for line in out if line.place is None and bracket]
    return still_in + sorted((line for line in out if not (line.place is None and bracket)),
                             key=lambda line: line.rank)


def group_tables(stage: Stage, data: _Loaded, pair_ids: set[int],
                 members: dict[int, list[int]] | None = None) -> list[tuple[int, Standings]]:
    """The pure standings of each group of ``stage`` (group matches of the stage only)."""
    return [(g, table) for g, table, _results in group_tables_and_results(stage, data, pair_ids, members)]


def group_tables_and_results(stage: Stage, data: _Loaded, pair_ids: set[int],
                             members: dict[int, list[int]] | None = None
                             ) -> list[tuple[int, Standings, list[MatchResult]]]:
    """Each group of ``stage``: its index, its standings and the match results they come from."""
    if members is None:
        members = data.members.get(stage.pk)
    if members is None:
        members = defaultdict(list)
        for group, pair_id in (GroupMember.objects.filter(stage=stage).order_by("group", "number")
                               .values_list("group", "pair_id")):
            members[group].append(pair_id)
        data.members[stage.pk] = members
    group_of = {p: g for g, ids in members.items() for p in ids}
    out = []
    for g in sorted(members):
        ids = [p for p in members[g] if p in pair_ids]
        inside = [r for r, phase in data.results
                  if phase == Round.Phase.GROUPS and group_of.get(r.pair_a) == g and group_of.get(r.pair_b) == g]
        byes = [b for b in data.byes if group_of.get(b) == g]
        out.append((g, compute_standings(inside, stage.tiebreaks, pairs=ids, byes=byes,
                                         lot_seed=stage.standings_lot_seed,
                                         count_walkover_scores=stage.walkover_scores, ranked_last=data.last(stage),
                                         **bye_rule(stage)), inside))
    return out


def stage_table(stage: Stage, data: _Loaded, pair_ids: list[int]) -> Standings:
    """The pure standings of one stage: its own results, its tiebreaks (``data`` already the stage's)."""
    results = [r for r, _phase in data.results if r.pair_a in pair_ids and r.pair_b in pair_ids]
    return compute_standings(results, stage.tiebreaks, pairs=pair_ids, byes=[b for b in data.byes if b in pair_ids],
                             lot_seed=stage.standings_lot_seed, count_walkover_scores=stage.walkover_scores,
                             ranked_last=data.last(stage), **bye_rule(stage))


def stage_ranking(stage: Stage, data: _Loaded, pair_ids: list[int],
                  reasons: dict[int, tuple] | None = None) -> tuple[list[int], dict[int, int | None]]:
    """A stage's pairs best first and their places: a bracket by its placings (champion, final
    loser, third-place match, then by the round lost: ``draw.pairing.placings``), a group stage by
    group place then across the groups (:func:`group_stage_ranking`), any other stage by its
    standings. ``reasons`` (optional) gets why each pair is where it is: ``("bracket",
    PlacingReason)``, ``("group", group index, place in the group)`` or ``("standings",)``."""
    reasons = reasons if reasons is not None else {}
    if stage.bracket_first_round is not None:
        from .brackets import stage_bracket

        bracket = stage_bracket(stage, data)
        if bracket is not None:
            placings = bracket_placings(bracket)
            reasons.update({row.pair_id: ("bracket", placing_reason(bracket, row)) for row in placings.rows})
            return placings.ranking(), {row.pair_id: row.place for row in placings.rows}
    if stage.has_groups:
        order = group_stage_ranking(stage, data, pair_ids, reasons)
        if order is not None:
            return order, {p: i for i, p in enumerate(order, start=1)}
    table = stage_table(stage, data, pair_ids)
    reasons.update({p: ("standings",) for p in table.ranking()})
    return table.ranking(), {row.pair_id: row.rank for row in table.rows}


def group_stage_ranking(stage: Stage, data: _Loaded, pair_ids: list[int],
                        reasons: dict[int, tuple] | None = None) -> list[int] | None:
    """A group stage's pairs best first: by their place in their group (its own table, head-to-head
    among the group's pairs), then the pairs of one place across the groups by their records per
    match, without head-to-head (they did not meet; ``draw.pairing.group_knockout.rank_across_groups``,
    groups of different sizes compared as the stage says), then by lot. None before the groups are
    drawn. Pairs outside the groups follow in the order of the stage's pooled table."""
    tables = group_tables_and_results(stage, data, set(pair_ids))
    if not tables:
        return None
    order = rank_across_groups([table for _g, table, _r in tables], lot=True,
                               group_results=[results for _g, _t, results in tables],
                               unequal=stage.unequal_groups, count_walkover_scores=stage.walkover_scores)
    if reasons is not None:
        reasons.update({row.pair_id: ("group", g, place) for g, table, _r in tables
                        for place, row in enumerate(table.rows, start=1)})
    inside = set(order)
    rest = [p for p in stage_table(stage, data, pair_ids).ranking() if p not in inside]
    if reasons is not None:
        reasons.update({p: ("standings",) for p in rest})
    return order + rest


def final_ranking(stages: list[Stage], data: _Loaded, pair_ids: list[int],
                  deciding: dict[int, Stage] | None = None,
                  reasons: dict[int, tuple] | None = None) -> tuple[list[int], dict]:
    """The tournament's table across its stages. The first stage ranks every pair; each later
    stage started re-ranks its entrants in the block of places they held: a knockout of the top 8
    puts its placings on places 1-8 and the pairs that did not reach it follow in the order of the
    stage they left (``draw.pairing.placings.overall_placings``); a consolation bracket of
    places 5-8 re-orders places 5-8. A pair still in a knockout has no place yet (None)."""
    started = [st for st in stages if st.started_at is not None] or stages[:1]
    known = set(pair_ids)
    one = len(stages) == 1
    ranking, stage_places = stage_ranking(started[0], data if one else data.of_stage(started[0].pk), pair_ids,
                                          reasons)
    order = list(ranking)
    places: dict[int, int | None] = dict(stage_places)
    if deciding is not None:
        deciding.update({p: started[0] for p in order})
    for st in started[1:]:
        entrants = [p for p in st.entrants if p in known]
        ranking, stage_places = stage_ranking(st, data.of_stage(st.pk), entrants, reasons)
        inside = set(ranking)
        if deciding is not None:
            deciding.update({p: st for p in ranking})
        base = next((i for i, p in enumerate(order) if p in inside), len(order))
        rest = [p for p in order if p not in inside]
        if base == 0:
            rows = overall_placings(Placings(tuple(Placing(stage_places.get(p), p) for p in ranking), False), rest)
            order = [row.pair_id for row in rows]
            places = {row.pair_id: row.place for row in rows}
            continue
        order = rest[:base] + ranking + rest[base:]
        places = {p: i + 1 for i, p in enumerate(order)}
        places.update({p: (base + stage_places[p] if stage_places.get(p) is not None else None) for p in ranking})
    for p in pair_ids:
        if p not in places:
            order.append(p)
            places[p] = len(order)
            if deciding is not None:
                deciding[p] = started[0]
    return order, places


def _decided_lines(lines: list[StandingLine], deciding: dict[int, Stage], data: _Loaded,
                   pair_ids: list[int]) -> tuple[list[StandingLine], list[dict]]:
    """The overall table's lines with each row's figures from the stage that decided its place
    (a Swiss's places 9-24 with the Swiss's own wins, Buchholz and saldo, not the sums
    over every stage), and that stage named; and the deciding stages, in order, for the legend."""
    tables: dict[int, dict[int, StandingLine]] = {}
    used: dict[int, Stage] = {}
    for st in {st.pk: st for st in deciding.values()}.values():
        ids = [p for p in (pair_ids if st.position == 1 else st.entrants) if p in set(pair_ids)]
        table = stage_table(st, data.of_stage(st.pk), ids)
        pairs = {line.pair.pk: line.pair for line in lines}
        tables[st.pk] = {line.pair.pk: line for line in _lines(table, pairs)}
        used[st.pk] = st
    out = []
    for line in lines:
        st = deciding.get(line.pair.pk)
        own = tables.get(st.pk, {}).get(line.pair.pk) if st is not None else None
        if own is None:
            out.append(line)
            continue
        by = "bracket" if st.bracket_first_round is not None else "standings"
        out.append(StandingLine(rank=line.rank, pair=line.pair, played=own.played, won=own.won, lost=own.lost,
                                byes=own.byes, games_for=own.games_for, games_against=own.games_against,
                                points_for=own.points_for, points_against=own.points_against, values=own.values,
                                lot=own.lot, place=line.place, stage=st.position, stage_name=st.display_name,
                                decided_by=by, drawn=own.drawn))
    legend = [{"position": st.position, "name": st.display_name, "tiebreaks": list(st.tiebreaks),
               "decided_by": "bracket" if st.bracket_first_round is not None else "standings",
               "lot_seed": st.standings_lot_seed}
              for st in sorted(used.values(), key=lambda st: st.position)]
    return out, legend


def standings(tournament: Tournament, stage: Stage | None = None) -> StandingsTable:
    """The standings from the official results only (received súmulas, walkovers, organizer's
    results) and the byes. Pending registrations are left out; withdrawn pairs stay with what
    they played.

    Without ``stage``: the tournament's table, every result counted, ordered as the tournament
    ends (a knockout by its placings; pairs out earlier in the order of the stage they left,
    :func:`final_ranking`), groups from its latest group stage. With ``stage``: that stage's
    own results, ranked by its tiebreaks (a knockout by its placings). Runs a constant number
    of queries (five without a started bracket) whatever the number of pairs."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    for st in stages:
        st.tournament = tournament
    main = stage or (stages[0] if stages else None)
    tiebreaks = main.tiebreaks if main else default_tiebreaks()
    lot_seed = main.standings_lot_seed if main else 0
    walkover_scores = main.walkover_scores if main else False
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
             .select_related("first_player", "second_player", "substitute").order_by("pk")}
    data = _load_results(tournament)
    data.withdrawn = frozenset(p for p, pair in pairs.items() if pair.status == Pair.Status.WITHDRAWN)
    if stage is not None and len(stages) > 1:
        data = data.of_stage(stage.pk)
    ids = list(pairs)
    if stage is not None and stage.position > 1:
        ids = [p for p in stage.entrants if p in pairs]
    results = [r for r, _phase in data.results if r.pair_a in pairs and r.pair_b in pairs]
    overall = compute_standings(results, tiebreaks, pairs=ids, byes=[b for b in data.byes if b in ids],
                                lot_seed=lot_seed, count_walkover_scores=walkover_scores,
                                ranked_last=data.last(main) if main else (), **(bye_rule(main) if main else {}))
    places = order = None
    deciding: dict[int, Stage] = {}
    reasons: dict[int, tuple] = {}
    if stage is not None and stage.bracket_first_round is not None:
        order, places = stage_ranking(stage, data, ids)
    elif stage is None and (len(stages) > 1 or (main is not None and (main.bracket_first_round is not None
                                                                       or (main.has_groups
                                                                           and main.group_count > 1)))):
        order, places = final_ranking(stages, data, ids, deciding, reasons)
    groups: list[tuple[str, list[StandingLine]]] = []
    with_groups = [st for st in stages if st.has_groups and (st.started_at is not None or st.position == 1)]
    group_stage = stage if stage is not None else (with_groups[-1] if with_groups else None)
    if group_stage is not None and group_stage.has_groups:
        group_data = data.of_stage(group_stage.pk) if len(stages) > 1 and stage is None else data
        for g, table in group_tables(group_stage, group_data, set(pairs)):
            group_lines = _lines(table, pairs)
            groups.append((group_name(g), withdrawn_last(group_lines) if group_stage.withdrawn_last else group_lines))
    lines = _lines(overall, pairs, places, order)
    legend: list[dict] = []
    if stage is None and len(stages) > 1 and deciding:
        lines, legend = _decided_lines(lines, deciding, data, ids)
    if main is not None and main.withdrawn_last:
        lines = withdrawn_last(lines)
    if stage is None and tournament.placing_overrides:
        lines = placed_by_hand(lines, tournament.placing_overrides)
    if stage is None and stages:
        from .placing_words import explained

        lines = explained(lines, reasons or {p: ("standings",) for p in ids}, deciding, stages,
                          main.withdrawn_last)
    return StandingsTable(list(tiebreaks), lot_seed, walkover_scores, lines, groups, legend,
                          main.bye_value if main else "win", main.bye_played if main else True)
