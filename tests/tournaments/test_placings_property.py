"""Property: for random events of every bracket and group format, played to the end with random
results, withdrawals, disqualifications and places set by hand (art. 26), the final table
(``services.standings``) agrees with an independent computation written here from the stored facts
alone (results, bracket match codes, group members, pair statuses, overrides):

* a single elimination: one more than the number of pairs that went further (the third-place match
  and the matches for places 5 to 8 order the semifinal and quarterfinal losers);
* a double elimination: the deciding grand final, then the losers' round of the second loss;
* a round robin or a Swiss: matches won (a Swiss: then Buchholz), head-to-head among the pairs still tied (recomputed while it
  separates, among the pairs still in), point difference, points scored, then the recorded lot;
  with several groups by group place first, then across the groups by record per match, without
  head-to-head;
* groups then knockout: the knockout's places, then the others in the group stage's order;
* withdrawn and disqualified pairs after every pair still in;
* a place set by hand moves only that pair: every other pair keeps its order and its ties.
"""
from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.models import BracketNode, Bye, GroupMember, Pair, Result, Stage, Tournament
from draw.pairing.standings import lot_numbers

pytestmark = pytest.mark.django_db
_slugs = itertools.count(1)

FORMATS = [
    ("single_elimination", {"third_place": False, "classification": False}),
    ("single_elimination", {"third_place": True, "classification": False}),
    ("single_elimination", {"third_place": False, "classification": True}),
    ("single_elimination", {"third_place": True, "classification": True}),
    ("double_elimination", {"grand_final_reset": True}),
    ("double_elimination", {"grand_final_reset": False}),
    ("round_robin", {"group_count": 1}),
    ("swiss", {"swiss_rounds": 3}),
    ("round_robin", {"group_count": 2}),
    ("groups_knockout", {"group_count": 2, "qualifiers_per_group": 2}),
    ("groups_knockout", {"group_count": 2, "qualifiers_per_group": 2, "third_place": True}),
]


# ------------------------------------------------------------------------------- the event


def play_event(rng: random.Random, format: str, options: dict, pairs: int, leave: int) -> Tournament:
    org = pf.organizer(f"org{next(_slugs)}")
    t = f.tournament(org, slug=f"copa-{next(_slugs)}")
    f.pairs(t, pairs)
    services.configure_stage(t, org, format=format, **options)
    services.generate_first_round(t, org)
    left = leave
    for _ in range(300):
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            break
        if left and rng.random() < 0.25:
            still = list(Pair.objects.filter(tournament=t, status=Pair.Status.CONFIRMED).order_by("pk"))
            if len(still) > 4:
                pair = rng.choice(still)
                if rng.random() < 0.5:
                    services.disqualify_pair(pair, org, "conduta (art. 26)")
                else:
                    services.withdraw_pair(pair, org, "desistência")
                left -= 1
                continue
        matches = pf.open_matches(t)
        for m in matches:
            winner = rng.choice([m.pair_a, m.pair_b])
            loser_points = rng.randint(0, 11)
            a_won = winner.pk == m.pair_a_id
            services.set_result(m, org, winner=winner.pk, games=[1, 0] if a_won else [0, 1],
                                points=[12, loser_points] if a_won else [loser_points, 12], reason="test")
        if not matches:
            services.generate_next_round(t, org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    count = Pair.objects.filter(tournament=t).count()
    for pair in rng.sample(list(Pair.objects.filter(tournament=t).order_by("pk")), rng.randint(0, 2)):
        taken = {o["place"] for o in (t.placing_overrides or {}).values()}
        place = rng.choice([p for p in range(1, count + 1) if p not in taken])
        services.override_placing(t, org, pair=pair.pk, place=place, reason="decisão da comissão (art. 26)")
        t.refresh_from_db()
    return t


# -------------------------------------------------------------- the independent computation


def results_of(stage: Stage) -> list[dict]:
    out = []
    for r in Result.objects.filter(match__round__stage=stage).order_by("match_id"):
        out.append({"a": r.pair_a_id, "b": r.pair_b_id, "winner": r.winner_id, "pa": r.points_a, "pb": r.points_b,
                    "walkover": r.kind in ("walkover", "double_walkover"), "double": r.kind == "double_walkover",
                    "match": r.match_id})
    return out


def competition_places(keys: dict[int, tuple]) -> dict[int, int]:
    """One more than the number of pairs with a better key."""
    return {p: 1 + sum(1 for q in keys if keys[q] > keys[p]) for p in keys}


def bracket_keys(stage: Stage) -> dict[int, tuple]:
    winner = {r.match_id: r.winner_id for r in Result.objects.filter(match__round__stage=stage)}
    nodes = list(BracketNode.objects.filter(stage=stage).exclude(match=None))
    played = [(n, winner[n.match_id], n.match.pair_b_id if winner[n.match_id] == n.match.pair_a_id
               else n.match.pair_a_id) for n in nodes if n.match_id in winner]
    pairs = list(stage.bracket_seeds)
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        finals = sorted((item for item in played if item[0].section == "grand_final"), key=lambda i: i[0].code)
        _node, champion, second = finals[-1]
        out_in = {lost: n.bracket_round for n, _w, lost in played if n.section == "losers"}
        return {p: (10**6 if p == champion else 10**6 - 1 if p == second else out_in.get(p, 0),) for p in pairs}
    rounds = max(n.bracket_round for n in BracketNode.objects.filter(stage=stage, section="winners"))
    out_round = {lost: n.bracket_round for n, _w, lost in played if n.section == "winners"}
    extra: dict[int, int] = {}
    for n, won, lost in played:
        if n.code == "3P":
            extra[won], extra[lost] = 1, 0
        elif n.code in ("5P", "7P"):
            top = 4 if n.code == "5P" else 2
            extra[won], extra[lost] = top, top - 1
    for n, won, lost in played:  # a semifinal of 5-8 whose next match was not needed (a bye)
        if n.code.startswith("5S"):
            extra.setdefault(won, 3)
            extra.setdefault(lost, 2)
    return {p: (out_round.get(p, rounds + 1), extra.get(p, 0)) for p in pairs}


def table_order(ids: list[int], results: list[dict], lot_seed: int, last: set[int], byes: list[int] = (),
                swiss: bool = False) -> list[int]:
    """A round robin table, best first (see the module docstring); a Swiss puts Buchholz (the sum of
    the opponents' wins, a bye worth a win) right after the wins."""
    won, pf_, pa = defaultdict(int), defaultdict(int), defaultdict(int)
    for p in byes:
        won[p] += 1
    for r in results:
        if r["winner"] is not None:
            won[r["winner"]] += 1
    buchholz = {p: sum(won[r["b"] if r["a"] == p else r["a"]] for r in results
                       if p in (r["a"], r["b"]) and not r["double"]) for p in ids}
    for r in results:
        if not r["walkover"]:
            pf_[r["a"]] += r["pa"]
            pa[r["a"]] += r["pb"]
            pf_[r["b"]] += r["pb"]
            pa[r["b"]] += r["pa"]
    lot = lot_numbers(ids, lot_seed)

    def h2h(group: list[int]) -> dict[int, int]:
        members = set(group)
        return {p: sum(1 for r in results if not r["double"] and r["winner"] == p
                       and r["a"] in members and r["b"] in members) for p in group}

    def by(group: list[int], criterion: str) -> list[int]:
        if len(group) == 1:
            return group
        if criterion == "lot":
            return sorted(group, key=lambda p: lot[p])
        following = {"won": "buchholz" if swiss else "h2h", "buchholz": "h2h", "h2h": "diff", "diff": "points",
                     "points": "lot"}[criterion]
        value = {"won": lambda: {p: won[p] for p in group}, "h2h": lambda: h2h(group),
                 "buchholz": lambda: {p: buchholz[p] for p in group},
                 "diff": lambda: {p: pf_[p] - pa[p] for p in group},
                 "points": lambda: {p: pf_[p] for p in group}}[criterion]()
        out = []
        for v in sorted(set(value.values()), reverse=True):
            bucket = [p for p in group if value[p] == v]
            again = criterion == "h2h" and 1 < len(bucket) < len(group)
            out += by(bucket, "h2h" if again else following)
        return out

    still = [p for p in ids if p not in last]
    gone = [p for p in ids if p in last]
    return by(still, "won") + by(gone, "won") if gone else by(still, "won")


def group_stage_order(stage: Stage, results: list[dict], withdrawn: set[int]) -> list[int]:
    groups: dict[int, list[int]] = defaultdict(list)
    for g, p in GroupMember.objects.filter(stage=stage).order_by("group", "number").values_list("group", "pair_id"):
        groups[g].append(p)
    last = withdrawn if stage.withdrawn_last else set()
    keyed = []
    for g in sorted(groups):
        ids = groups[g]
        inside = [r for r in results if r["a"] in ids and r["b"] in ids]
        order = table_order(ids, inside, stage.standings_lot_seed, last)
        lot = lot_numbers(ids, stage.standings_lot_seed)
        for place, p in enumerate(order, start=1):
            mine = [r for r in inside if p in (r["a"], r["b"])]
            played = max(1, len(mine))
            wins = sum(1 for r in mine if r["winner"] == p)
            scored = sum((r["pa"] if r["a"] == p else r["pb"]) for r in mine if not r["walkover"])
            conceded = sum((r["pb"] if r["a"] == p else r["pa"]) for r in mine if not r["walkover"])
            record = (Fraction(wins, played), Fraction(scored - conceded, played), Fraction(scored, played))
            keyed.append((place, tuple(-v for v in record), lot[p], g, p))
    return [item[-1] for item in sorted(keyed)]


def expected_places(t: Tournament) -> dict[int, int]:
    stages = list(Stage.objects.filter(tournament=t).order_by("position"))
    first = stages[0]
    pairs = list(Pair.objects.filter(tournament=t).order_by("pk").values_list("pk", flat=True))
    withdrawn = set(Pair.objects.filter(tournament=t, status=Pair.Status.WITHDRAWN).values_list("pk", flat=True))
    # (pair, place, order among equal places) before withdrawals and overrides
    if first.bracket_first_round is not None:
        places = competition_places(bracket_keys(first))
        seed = {p: i for i, p in enumerate(first.bracket_seeds)}
        table = sorted(((p, places[p], seed[p]) for p in places), key=lambda row: (row[1], row[2]))
    elif first.format == Stage.Format.SWISS:
        byes = list(Bye.objects.filter(round__tournament=t).values_list("pair_id", flat=True))
        order = table_order(pairs, results_of(first), first.standings_lot_seed,
                            withdrawn if first.withdrawn_last else set(), byes, swiss=True)
        table = [(p, i, i) for i, p in enumerate(order, start=1)]
    elif len(stages) == 1 and first.group_count == 1:
        order = table_order(pairs, results_of(first), first.standings_lot_seed,
                            withdrawn if first.withdrawn_last else set())
        table = [(p, i, i) for i, p in enumerate(order, start=1)]
    else:
        order = group_stage_order(first, results_of(first), withdrawn)
        table = [(p, i, i) for i, p in enumerate(order, start=1)]
        knockout = stages[1] if len(stages) > 1 and stages[1].started_at is not None else None
        if knockout is not None:
            places = competition_places(bracket_keys(knockout))
            seed = {p: i for i, p in enumerate(knockout.bracket_seeds)}
            top = sorted(((p, places[p], seed[p]) for p in places), key=lambda row: (row[1], row[2]))
            rest = [p for p in order if p not in places]
            table = top + [(p, len(top) + i, 0) for i, p in enumerate(rest, start=1)]
    # withdrawn and disqualified pairs after every pair still in
    still = [row for row in table if row[0] not in withdrawn]
    gone = [row for row in table if row[0] in withdrawn]
    final = {p: 1 + sum(1 for _q, other, _s in still if other < place) for p, place, _s in still}
    final |= {p: len(still) + i for i, (p, _place, _s) in enumerate(gone, start=1)}
    # places set by hand: only those pairs move
    fixed = {int(p): o["place"] for p, o in (t.placing_overrides or {}).items()}
    if fixed:
        before = dict(final)
        kept = [p for p in final if p not in fixed]
        for p in kept:
            better = sum(1 for q in kept if before[q] < before[p])
            final[p] = next(n for n in range(1, len(final) + 2)
                            if n == 1 + better + sum(1 for m, at in fixed.items()
                                                     if at < n or (at == n and before[m] != before[p])))
        final |= fixed
    return final


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choice=st.integers(0, len(FORMATS) - 1), seed=st.integers(0, 2**32 - 1), pairs=st.integers(5, 9),
       leave=st.integers(0, 2))
def test_placings_agree_with_an_independent_computation(choice, seed, pairs, leave):
    format, options = FORMATS[choice]
    if format == "round_robin" and options["group_count"] == 2 or format == "groups_knockout":
        pairs = 8  # groups of equal size (groups of different sizes: tests/draw)
    t = play_event(random.Random(seed), format, options, pairs, leave)
    got = {line.pair.pk: line.rank for line in services.standings(Tournament.objects.get(pk=t.pk)).rows}
    event(f"{format} {sorted(k for k, v in options.items() if v is True)}")
    event(f"withdrawn: {Pair.objects.filter(tournament=t, status=Pair.Status.WITHDRAWN).count()}, "
          f"set by hand: {len(t.placing_overrides or {})}")
    assert got == expected_places(t)
