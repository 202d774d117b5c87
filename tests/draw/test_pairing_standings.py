"""Standings: every tiebreak, head-to-head among tied pairs only, total and reproducible order."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.standings import MatchResult, Tiebreak, compute_standings

ALL = list(Tiebreak)


def r(a, b, ga, gb, pa, pb, winner="auto", walkover=False):
    if winner == "auto":
        winner = a if ga > gb else b if gb > ga else None
    return MatchResult(a, b, ga, gb, pa, pb, winner, walkover)


def test_basic_criteria_values():
    results = [
        r("a", "b", 2, 1, 30, 25),
        r("b", "c", 2, 0, 24, 10),
        r("c", "a", 2, 1, 28, 20),
        r("a", "d", 2, 0, 24, 5),
        r("b", "d", 1, 1, 20, 20),  # draw
    ]
    s = compute_standings(results, ALL, lot_seed=1)
    row = {x.pair_id: x for x in s.rows}
    a, b = row["a"], row["b"]
    assert (a.won, a.lost, a.played) == (2, 1, 3)
    assert a.values[Tiebreak.MATCHES_WON] == 2 and b.values[Tiebreak.MATCHES_WON] == 1
    assert b.values[Tiebreak.MATCH_POINTS] == Fraction(3, 2)
    assert a.values[Tiebreak.GAMES_WON] == 5
    assert a.values[Tiebreak.POINT_DIFFERENCE] == (30 + 20 + 24) - (25 + 28 + 5)
    assert a.values[Tiebreak.POINTS_SCORED] == 74
    # Scores: a 2, b 1.5, c 1, d 0.5
    assert a.values[Tiebreak.BUCHHOLZ] == Fraction(3, 2) + 1 + Fraction(1, 2)
    assert a.values[Tiebreak.MEDIAN_BUCHHOLZ] == 1  # drop best (b) and worst (d)
    assert a.values[Tiebreak.SONNEBORN_BERGER] == Fraction(3, 2) + Fraction(1, 2)  # beat b and d
    assert b.values[Tiebreak.SONNEBORN_BERGER] == 1 + Fraction(1, 4)  # beat c, drew d
    assert s.ranking() == ["a", "b", "c", "d"]


def test_head_to_head_only_among_tied_pairs():
    # a, b, c all on 2 wins; within them a beat b, b beat c, c beat a (a cycle),
    # so head-to-head leaves them tied and point difference decides
    # (a +37, c +21, b +14).  d has 1 win, e none.
    results = [
        r("a", "b", 2, 0, 24, 10),
        r("b", "c", 2, 0, 24, 20),
        r("c", "a", 2, 0, 24, 23),
        r("a", "d", 2, 0, 24, 0),
        r("b", "d", 2, 0, 24, 0),
        r("c", "e", 2, 0, 24, 0),
        r("d", "e", 2, 0, 24, 0),
    ]
    s = compute_standings(results, [Tiebreak.MATCHES_WON, Tiebreak.HEAD_TO_HEAD, Tiebreak.POINT_DIFFERENCE], lot_seed=5)
    assert s.ranking() == ["a", "c", "b", "d", "e"]
    values = {x.pair_id: x.values[Tiebreak.HEAD_TO_HEAD] for x in s.rows}
    assert values["a"] == values["b"] == values["c"] == 1


def test_head_to_head_decides_between_two():
    results = [
        r("x", "y", 0, 2, 10, 24),  # y beat x
        r("x", "z", 2, 0, 24, 0),
        r("y", "w", 0, 2, 0, 24),
    ]
    # x, y and w: one win each (z none); x has the better point difference than y, but among the
    # tied three y won against x and x beat nobody of them (a cycle of all four would leave it to lot).
    by_diff = compute_standings(results, [Tiebreak.MATCHES_WON, Tiebreak.POINT_DIFFERENCE], lot_seed=0)
    by_h2h = compute_standings(results, [Tiebreak.MATCHES_WON, Tiebreak.HEAD_TO_HEAD], lot_seed=0)
    assert by_diff.ranking().index("x") < by_diff.ranking().index("y")
    assert by_h2h.ranking().index("y") < by_h2h.ranking().index("x")


def test_walkover_counts_as_win_only_by_default():
    results = [r("a", "b", 2, 0, 24, 0, walkover=True)]
    plain = {x.pair_id: x for x in compute_standings(results, lot_seed=0).rows}
    assert plain["a"].won == 1 and plain["a"].points_for == 0
    counted = {x.pair_id: x for x in compute_standings(results, lot_seed=0, count_walkover_scores=True).rows}
    assert counted["a"].points_for == 24


def test_byes_and_pairs_without_results():
    s = compute_standings([r("a", "b", 2, 0, 24, 3)], pairs=["a", "b", "c"], byes=["c"], lot_seed=2)
    row = {x.pair_id: x for x in s.rows}
    assert row["c"].byes == 1 and row["c"].values[Tiebreak.MATCHES_WON] == 1
    assert row["c"].values.get(Tiebreak.HEAD_TO_HEAD) == 0
    assert s.ranking()[-1] == "b"


def test_lot_seed_is_recorded_and_rejects_bad_input():
    s = compute_standings([r("a", "b", 1, 1, 10, 10)])
    assert isinstance(s.lot_seed, int)
    assert compute_standings([r("a", "b", 1, 1, 10, 10)], lot_seed=s.lot_seed) == s
    with pytest.raises(ValueError):
        compute_standings([], [Tiebreak.BUCHHOLZ, "buchholz"])
    with pytest.raises(ValueError):
        MatchResult("a", "a")
    with pytest.raises(ValueError):
        MatchResult("a", "b", winner="c")


@st.composite
def tournaments(draw):
    n = draw(st.integers(min_value=2, max_value=10))
    pairs = [f"p{i}" for i in range(n)]
    count = draw(st.integers(min_value=0, max_value=25))
    results = []
    for _ in range(count):
        a, b = draw(st.lists(st.sampled_from(pairs), min_size=2, max_size=2, unique=True))
        ga, gb = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        pa, pb = draw(st.integers(0, 30)), draw(st.integers(0, 30))
        winner = draw(st.sampled_from([a, b, None]))
        results.append(MatchResult(a, b, ga, gb, pa, pb, winner, draw(st.booleans())))
    criteria = draw(st.permutations(ALL))
    k = draw(st.integers(0, len(ALL)))
    return pairs, results, list(criteria[:k])


@given(tournaments(), st.integers(0, 2**31 - 1))
def test_total_order_and_reproducible(data, seed):
    pairs, results, criteria = data
    s = compute_standings(results, criteria, pairs=pairs, lot_seed=seed)
    assert [x.rank for x in s.rows] == list(range(1, len(pairs) + 1))
    assert sorted(s.ranking()) == sorted(pairs)  # a total order: every pair once, no shared rank
    assert len({x.lot for x in s.rows}) == len(pairs)
    # Deterministic for a seed, and independent of the order results are listed in.
    shuffled = results[:]
    random.Random(seed).shuffle(shuffled)
    assert compute_standings(shuffled, criteria, pairs=pairs, lot_seed=seed) == s
    # Without head-to-head the order is exactly the lexicographic one, lot last.
    if Tiebreak.HEAD_TO_HEAD not in criteria:
        keys = [tuple(x.values[t] for t in criteria) + (-x.lot,) for x in s.rows]
        assert keys == sorted(keys, reverse=True)
    else:
        # Criteria before head-to-head are still sorted.
        cut = criteria.index(Tiebreak.HEAD_TO_HEAD)
        keys = [tuple(x.values[t] for t in criteria[:cut]) for x in s.rows]
        assert keys == sorted(keys, reverse=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), order=st.permutations(list(range(8))), subset=st.sets(st.integers(0, 7), min_size=2))
def test_lot_orders_tied_pairs_the_same_in_every_table_and_input_order(seed, order, subset):
    """Nobody played: every pair is tied, so only the lot ranks them; a group table (a subset of the
    pairs, listed in any order) ranks its pairs as the overall table does."""
    overall = [row.pair_id for row in compute_standings([], pairs=list(range(8)), lot_seed=seed).rows]
    shuffled = [row.pair_id for row in compute_standings([], pairs=order, lot_seed=seed).rows]
    group = [row.pair_id for row in compute_standings([], pairs=sorted(subset), lot_seed=seed).rows]
    assert shuffled == overall
    assert group == [p for p in overall if p in subset]


# ---- head-to-head re-applied to the pairs a mini-table leaves tied


def test_head_to_head_is_reapplied_to_the_pairs_still_tied():
    """A>B, A>C, D>A, B>C, B>D, C>D among four pairs on equal wins: the mini-table gives A and B 2,
    C and D 1; head-to-head again inside {A, B} (A>B) and {C, D} (C>D) gives A, B, C, D. Applied once
    and then the point difference (B and D better), it gave B, A, D, C."""
    results = [
        r("A", "B", 1, 0, 12, 11),
        r("A", "C", 1, 0, 12, 11),
        r("D", "A", 1, 0, 12, 0),
        r("B", "C", 1, 0, 12, 0),
        r("B", "D", 1, 0, 12, 0),
        r("C", "D", 1, 0, 12, 11),
        # C and D also beat two outsiders, so all four have two wins.
        r("C", "E", 1, 0, 12, 11),
        r("D", "F", 1, 0, 12, 0),
    ]
    tiebreaks = [Tiebreak.MATCHES_WON, Tiebreak.HEAD_TO_HEAD, Tiebreak.POINT_DIFFERENCE, Tiebreak.POINTS_SCORED]
    s = compute_standings(results, tiebreaks, lot_seed=3)
    assert s.ranking()[:4] == ["A", "B", "C", "D"]
    h2h = {x.pair_id: x.values[Tiebreak.HEAD_TO_HEAD] for x in s.rows}
    assert (h2h["A"], h2h["B"], h2h["C"], h2h["D"]) == (1, 0, 1, 0)  # the last mini-table each was ranked in


@st.composite
def round_robins(draw):
    """Every pair meets every other once (draws allowed): lots of mini-table ties."""
    n = draw(st.integers(min_value=2, max_value=7))
    pairs = list(range(n))
    results = []
    for a in pairs:
        for b in pairs[a + 1 :]:
            results.append(MatchResult(a, b, winner=draw(st.sampled_from([a, b, None]))))
    return pairs, results


@given(round_robins(), st.integers(0, 2**31 - 1))
def test_head_to_head_ranks_each_tied_subset_as_its_own_table(data, seed):
    """With head-to-head as the only criterion: the pairs come in order of their points among all of
    them, and each set of pairs level on those points is ordered exactly as the table of the
    matches among themselves alone (head-to-head re-applied), with the same lot."""
    pairs, results = data
    ranking = compute_standings(results, [Tiebreak.HEAD_TO_HEAD], pairs=pairs, lot_seed=seed).ranking()
    points = {p: Fraction(0) for p in pairs}
    for m in results:
        if m.winner is None:
            points[m.pair_a] += Fraction(1, 2)
            points[m.pair_b] += Fraction(1, 2)
        else:
            points[m.winner] += 1
    assert [points[p] for p in ranking] == sorted(points.values(), reverse=True)
    levels = sorted(set(points.values()), reverse=True)
    if len(levels) == 1:
        return  # the mini-table separates nobody: lot (covered by the lot tests)
    for level in levels:
        tied = [p for p in ranking if points[p] == level]
        inside = [m for m in results if m.pair_a in tied and m.pair_b in tied]
        alone = compute_standings(inside, [Tiebreak.HEAD_TO_HEAD], pairs=sorted(tied), lot_seed=seed).ranking()
        assert tied == alone


def test_swiss_default_tiebreaks_have_buchholz():
    """The Swiss default tiebreaks had no Buchholz."""
    from tournaments.models import default_tiebreaks
    from draw.pairing.standings import DEFAULT_TIEBREAKS, default_tiebreaks_for

    swiss = default_tiebreaks_for("swiss")
    assert swiss[:2] == (Tiebreak.MATCHES_WON, Tiebreak.BUCHHOLZ)
    assert default_tiebreaks_for("round_robin") == DEFAULT_TIEBREAKS and Tiebreak.BUCHHOLZ not in DEFAULT_TIEBREAKS
    assert default_tiebreaks("swiss") == [t.value for t in swiss]
    assert default_tiebreaks() == [t.value for t in DEFAULT_TIEBREAKS]
    # a and c have one win each; a beat the pair that won its other match (b), c beat the pair that lost
    # everything (d): a's opponents are stronger, so a ranks first whatever the tentos say.
    results = [r("a", "b", 1, 0, 12, 11), r("b", "d", 1, 0, 12, 0), r("c", "d", 1, 0, 12, 0), r("e", "a", 1, 0, 12, 0),
               r("e", "c", 1, 0, 12, 11)]
    ranking = compute_standings(results, swiss, lot_seed=0).ranking()
    assert ranking.index("a") < ranking.index("c")


# ---- a double forfeit: both absent, no winner, a loss for each

def test_a_double_forfeit_is_a_loss_for_both_and_nothing_else():
    results = [MatchResult("a", "b", 0, 0, 0, 0, None, walkover=True, double_forfeit=True),
               MatchResult("a", "c", 1, 0, 12, 5, "a"), MatchResult("b", "c", 0, 1, 3, 12, "c")]
    order = [Tiebreak.MATCHES_WON, Tiebreak.MATCH_POINTS, Tiebreak.HEAD_TO_HEAD, Tiebreak.POINT_DIFFERENCE]
    table = compute_standings(results, order, lot_seed=1)
    rows = {r.pair_id: r for r in table.rows}
    # a: played 2 (the forfeit and c), won 1, lost 1: 1 point (not 1.5: the forfeit is no draw); saldo +7
    assert (rows["a"].played, rows["a"].won, rows["a"].drawn, rows["a"].lost) == (2, 1, 0, 1)
    assert rows["a"].values[Tiebreak.MATCH_POINTS] == 1 and rows["b"].values[Tiebreak.MATCH_POINTS] == 0
    assert (rows["b"].played, rows["b"].won, rows["b"].lost, rows["b"].points_for) == (2, 0, 2, 3)
    assert table.ranking() == ["a", "c", "b"] or table.ranking() == ["c", "a", "b"]
    with pytest.raises(ValueError):
        MatchResult("a", "b", winner="a", double_forfeit=True)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=3, max_value=7), st.randoms(use_true_random=False))
def test_played_is_won_drawn_and_lost_with_double_forfeits(n, rng):
    ids = [f"p{i}" for i in range(n)]
    results = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            kind = rng.choice(["win", "draw", "double"])
            if kind == "double":
                results.append(MatchResult(a, b, walkover=True, double_forfeit=True))
            else:
                results.append(MatchResult(a, b, 1, 0, 12, 3, rng.choice([a, b]) if kind == "win" else None))
    table = compute_standings(results, [Tiebreak.MATCH_POINTS, Tiebreak.BUCHHOLZ, Tiebreak.HEAD_TO_HEAD], lot_seed=2)
    doubles = sum(1 for r in results if r.double_forfeit)
    assert sum(r.lost for r in table.rows) == sum(r.won for r in table.rows) + 2 * doubles
    for r in table.rows:
        assert r.played == r.won + r.drawn + r.lost == n - 1


# ---- byes as the club decides

from draw.pairing.standings import ByeValue  # noqa: E402


def test_a_bye_worth_a_win_half_or_nothing_and_counted_as_played_or_not():
    results = [MatchResult("a", "b", 1, 0, 12, 4, "a")]
    order = [Tiebreak.MATCHES_WON, Tiebreak.MATCH_POINTS]

    def row(**kw):
        table = compute_standings(results, order, pairs=["a", "b", "c"], byes=["c"], lot_seed=1, **kw)
        r = next(r for r in table.rows if r.pair_id == "c")
        return (r.played, r.won, r.drawn, r.lost, r.values[Tiebreak.MATCHES_WON], r.values[Tiebreak.MATCH_POINTS])

    assert row() == (0, 0, 0, 0, 1, 1)  # the pure default: a win, not a match played (as before)
    assert row(bye_played=True) == (1, 1, 0, 0, 1, 1)
    assert row(bye_value="draw") == (0, 0, 0, 0, 0, Fraction(1, 2))
    assert row(bye_value="draw", bye_played=True) == (1, 0, 1, 0, 0, Fraction(1, 2))
    assert row(bye_value=ByeValue.NOTHING) == (0, 0, 0, 0, 0, 0)
    assert row(bye_value=ByeValue.NOTHING, bye_played=True) == (1, 0, 0, 1, 0, 0)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=3, max_value=7), st.sampled_from(list(ByeValue)), st.booleans(),
       st.randoms(use_true_random=False))
def test_played_is_won_drawn_lost_and_points_follow_the_bye_value(n, value, played, rng):
    ids = [f"p{i}" for i in range(n)]
    results = [MatchResult(a, b, 1, 0, 12, 3, rng.choice([a, b])) for i, a in enumerate(ids) for b in ids[i + 1:]
               if rng.random() < 0.6]
    byes = [rng.choice(ids) for _ in range(rng.randrange(4))]
    table = compute_standings(results, [Tiebreak.MATCH_POINTS, Tiebreak.MATCHES_WON], byes=byes, pairs=ids,
                              lot_seed=1, bye_value=value, bye_played=played)
    worth = {ByeValue.WIN: 1, ByeValue.DRAW: Fraction(1, 2), ByeValue.NOTHING: 0}[value]
    for r in table.rows:
        real_won = sum(1 for m in results if m.winner == r.pair_id)
        real_played = sum(1 for m in results if r.pair_id in (m.pair_a, m.pair_b))
        assert r.values[Tiebreak.MATCH_POINTS] == real_won + worth * r.byes == r.score
        assert r.values[Tiebreak.MATCHES_WON] == real_won + (r.byes if value is ByeValue.WIN else 0)
        if played:
            assert r.played == r.won + r.drawn + r.lost == real_played + r.byes
        else:
            assert r.played == r.won + r.drawn + r.lost == real_played
