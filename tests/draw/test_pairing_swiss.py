"""Swiss pairing: exactness against brute force, no avoidable rematch, byes, windows."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.standings import MatchResult, Tiebreak, compute_standings
from draw.pairing.swiss import (
    SwissEntrant,
    SwissRound,
    entrants_from_history,
    entrants_from_standings,
    pair_swiss_round,
    recommended_swiss_rounds,
)


def standing(entrants: list[SwissEntrant]) -> list[SwissEntrant]:
    """The pairer's own order: stable by score, descending."""
    return sorted(entrants, key=lambda e: -Fraction(e.score))


def order_cost(ordered: list[SwissEntrant], a, b, order: str) -> int:
    """Criterion 4 of swiss.py for one board: the fold (top half v bottom half of the score group)
    or the neighbour distance; a board across score groups costs the squared standing distance."""
    pos = {e.pair_id: i for i, e in enumerate(ordered)}
    i, j = sorted((pos[a], pos[b]))
    score_i, score_j = Fraction(ordered[i].score), Fraction(ordered[j].score)
    if order == "neighbour" or score_i != score_j:
        return (j - i) ** 2
    group = [k for k, e in enumerate(ordered) if Fraction(e.score) == score_i]
    m, half = len(group), len(group) // 2
    x, y = group.index(i), group.index(j)
    same_half = (y < half) or (x >= m - half)  # an odd group's middle pair is in either half
    return (y - x - half) ** 2 + (m * m if same_half else 0)


def objective(entrants: list[SwissEntrant], boards, bye, order: str = "fold") -> tuple:
    """Lexicographic objective of a pairing (smaller is better), as documented in swiss.py."""
    ordered = standing(entrants)
    pos = {e.pair_id: i for i, e in enumerate(ordered)}
    by_id = {e.pair_id: e for e in ordered}
    fewest = min(e.byes for e in ordered)
    bad = sum(1 for a, b in boards if b in by_id[a].opponents or a in by_id[b].opponents)
    if bye is not None and by_id[bye].byes > fewest:
        bad += 1
    score = sum(int(2 * (Fraction(by_id[a].score) - Fraction(by_id[b].score))) ** 2 for a, b in boards)
    rank = sum(order_cost(ordered, a, b, order) for a, b in boards)
    return (bad, -(pos[bye] if bye is not None else 0), score, rank)


def all_pairings(ids: list):
    """Every way to pair ``ids`` (with one bye if odd): yields (boards, bye)."""
    if len(ids) % 2 == 1:
        for k, bye in enumerate(ids):
            rest = ids[:k] + ids[k + 1 :]
            for boards, _ in all_pairings(rest):
                yield boards, bye
        return
    if not ids:
        yield [], None
        return
    first = ids[0]
    for k in range(1, len(ids)):
        rest = ids[1:k] + ids[k + 1 :]
        for boards, _ in all_pairings(rest):
            yield [(first, ids[k])] + boards, None


def result_key(entrants, result: SwissRound, order: str = "fold") -> tuple:
    return objective(entrants, [(p.home, p.away) for p in result.pairings], result.bye, order)


def check_structure(entrants, result: SwissRound) -> None:
    ids = [e.pair_id for e in entrants]
    seen = [p.home for p in result.pairings] + [p.away for p in result.pairings]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(ids)
    assert (result.bye is None) == (len(ids) % 2 == 0)
    pos = {e.pair_id: i for i, e in enumerate(standing(entrants))}
    for board, p in enumerate(result.pairings, start=1):
        assert p.board == board
        assert pos[p.home] < pos[p.away]  # home is the higher-standing pair
    by_id = {e.pair_id: e for e in entrants}
    assert result.rematches == sum(
        1 for p in result.pairings if p.away in by_id[p.home].opponents or p.home in by_id[p.away].opponents
    )


@st.composite
def small_fields(draw, max_pairs=9):
    n = draw(st.integers(min_value=2, max_value=max_pairs))
    scores = draw(st.lists(st.integers(min_value=0, max_value=6), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    met = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    byes = draw(st.lists(st.integers(min_value=0, max_value=2), min_size=n, max_size=n))
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    for i, j in met:
        opponents[i].add(j)
        opponents[j].add(i)
    return [
        SwissEntrant(pair_id=i, score=Fraction(scores[i], 2), opponents=frozenset(opponents[i]), byes=byes[i])
        for i in range(n)
    ]


@pytest.mark.parametrize("order", ["fold", "neighbour"])
@given(entrants=small_fields())
def test_exact_against_brute_force(entrants, order):
    """With the default window (covering small fields) every criterion is exactly optimal."""
    result = pair_swiss_round(entrants, order=order)
    check_structure(entrants, result)
    ids = [e.pair_id for e in entrants]
    best = min(objective(entrants, boards, bye, order) for boards, bye in all_pairings(ids))
    assert result_key(entrants, result, order) == best


@given(small_fields(), st.integers(min_value=1, max_value=3))
def test_narrow_window_never_keeps_an_avoidable_rematch(entrants, window):
    """Widening from a tiny window still reaches the global minimum of rematches and repeat byes."""
    result = pair_swiss_round(entrants, window=window)
    check_structure(entrants, result)
    ids = [e.pair_id for e in entrants]
    fewest_bad = min(objective(entrants, boards, bye)[0] for boards, bye in all_pairings(ids))
    assert result_key(entrants, result)[0] == fewest_bad


def simulate(n: int, rounds: int, seed: int, window: int | None = None):
    """Play ``rounds`` Swiss rounds with random results; yields (entrants, result) per round."""
    rng = random.Random(seed)
    strength = {i: rng.random() for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    byes = dict.fromkeys(range(n), 0)
    for _ in range(rounds):
        order = sorted(range(n), key=lambda i: (-score[i], -sum(score[o] for o in opponents[i]), i))
        entrants = entrants_from_history(order, score, opponents, byes)
        result = pair_swiss_round(entrants, window=window)
        yield entrants, result
        for p in result.pairings:
            opponents[p.home].add(p.away)
            opponents[p.away].add(p.home)
            a, b = p.home, p.away
            score[a if rng.random() < strength[a] / (strength[a] + strength[b]) else b] += 1
        if result.bye is not None:
            byes[result.bye] += 1
            score[result.bye] += 1


@pytest.mark.parametrize("n,seed", [(21, 1), (32, 2), (47, 3), (64, 4), (101, 5)])
def test_simulated_tournament_has_no_rematch_and_bye_to_lowest(n, seed):
    rounds = recommended_swiss_rounds(n) + 1
    for entrants, result in simulate(n, rounds, seed):
        check_structure(entrants, result)
        assert result.rematches == 0
        assert not result.repeated_bye
        if n % 2:
            fewest = min(e.byes for e in entrants)
            eligible = [e.pair_id for e in standing(entrants) if e.byes == fewest]
            assert result.bye == eligible[-1]


@pytest.mark.parametrize("order", ["fold", "neighbour"])
@pytest.mark.parametrize("seed", range(6))
def test_windowed_equals_complete_graph_optimum(seed, order):
    """The default window loses nothing against the complete graph on realistic histories."""
    rng = random.Random(seed)
    n = rng.randint(30, 90)
    *_, (entrants, _) = simulate(n, 6, seed)
    windowed = pair_swiss_round(entrants, order=order)
    complete = pair_swiss_round(entrants, window=n, order=order)
    assert result_key(entrants, windowed, order) == result_key(entrants, complete, order)


def test_round_one_is_monrad_order_as_an_option():
    entrants = [SwissEntrant(pair_id=f"p{i}") for i in range(1, 8)]
    result = pair_swiss_round(entrants, order="neighbour")
    assert [(p.home, p.away) for p in result.pairings] == [("p1", "p2"), ("p3", "p4"), ("p5", "p6")]
    assert result.bye == "p7"


def test_rematch_forces_nearest_swap():
    entrants = [
        SwissEntrant("a", 1, frozenset({"b"})),
        SwissEntrant("b", 1, frozenset({"a"})),
        SwissEntrant("c", 1),
        SwissEntrant("d", 1),
    ]
    result = pair_swiss_round(entrants)
    assert [(p.home, p.away) for p in result.pairings] == [("a", "c"), ("b", "d")]


def test_floater_goes_to_nearest_score_group():
    entrants = [
        SwissEntrant("a", 2),
        SwissEntrant("b", 1),
        SwissEntrant("c", 1),
        SwissEntrant("d", 1),
        SwissEntrant("e", 0),
        SwissEntrant("f", 0),
    ]
    result = pair_swiss_round(entrants)
    assert [(p.home, p.away) for p in result.pairings] == [("a", "b"), ("c", "d"), ("e", "f")]


def test_unavoidable_rematch_is_reported():
    # Three pairs that all met each other plus a bye: someone must replay.
    entrants = [
        SwissEntrant("a", 2, frozenset({"b", "c"}), byes=1),
        SwissEntrant("b", 1, frozenset({"a", "c"}), byes=1),
        SwissEntrant("c", 1, frozenset({"a", "b"}), byes=1),
    ]
    result = pair_swiss_round(entrants)
    assert result.complete_graph_fallback
    assert result.rematches == 1
    assert result.bye == "c"


def test_deterministic():
    runs = [[(r.pairings, r.bye) for _, r in simulate(41, 5, seed=9)] for _ in range(2)]
    assert runs[0] == runs[1]


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        pair_swiss_round([SwissEntrant("a", Fraction(1, 3)), SwissEntrant("b")])
    with pytest.raises(ValueError):
        pair_swiss_round([SwissEntrant("a"), SwissEntrant("a")])


def test_recommended_rounds():
    assert [recommended_swiss_rounds(n) for n in (1, 2, 3, 8, 9, 1024)] == [0, 1, 2, 3, 4, 10]


@pytest.mark.parametrize("seed", range(8))
def test_widening_on_dense_histories_matches_complete_graph_rematch_count(seed):
    """Many rounds for few pairs: a window of 1 must widen (or fall back) to the exact minimum."""
    rng = random.Random(seed)
    n = rng.randint(10, 24)
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < 0.55:
                opponents[i].add(j)
                opponents[j].add(i)
    entrants = [
        SwissEntrant(i, rng.randint(0, 8), frozenset(opponents[i]), rng.randint(0, 1)) for i in range(n)
    ]
    narrow = pair_swiss_round(entrants, window=1)
    complete = pair_swiss_round(entrants, window=n)
    check_structure(entrants, narrow)
    assert result_key(entrants, narrow)[0] == result_key(entrants, complete)[0]


def test_entrants_from_standings():
    results = [
        MatchResult("a", "b", 2, 0, 24, 5, "a"),
        MatchResult("c", "d", 2, 1, 24, 20, "c", walkover=True),
    ]
    standings = compute_standings(results, [Tiebreak.MATCHES_WON], pairs=["a", "b", "c", "d", "e"], byes=["e"], lot_seed=1)
    entrants = entrants_from_standings(standings, results)
    by_id = {e.pair_id: e for e in entrants}
    assert [e.pair_id for e in entrants] == standings.ranking()
    assert by_id["e"].score == 1 and by_id["e"].byes == 1 and by_id["b"].score == 0
    assert by_id["c"].opponents == {"d"}
    unmet = {e.pair_id: e for e in entrants_from_standings(standings, results, walkovers_count_as_met=False)}
    assert unmet["c"].opponents == frozenset() and unmet["a"].opponents == {"b"}
    result = pair_swiss_round(entrants)
    assert result.rematches == 0 and result.bye != "e"


# ---- top half against bottom half by default


def test_round_one_pairs_top_half_against_bottom_half_by_default():
    """Round one paired neighbours (1-2, 3-4, ...); FIDE, start.gg and Challonge pair 1-5, 2-6, 3-7, 4-8."""
    result = pair_swiss_round([SwissEntrant(pair_id=i) for i in range(1, 9)])
    assert [(p.home, p.away) for p in result.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    odd = pair_swiss_round([SwissEntrant(pair_id=i) for i in range(1, 8)])
    assert odd.bye == 7
    assert [(p.home, p.away) for p in odd.pairings] == [(1, 4), (2, 5), (3, 6)]


def test_later_rounds_fold_inside_each_score_group():
    entrants = [SwissEntrant(i, 1, frozenset({i + 4})) for i in range(1, 5)] + [
        SwissEntrant(i, 0, frozenset({i - 4})) for i in range(5, 9)
    ]
    result = pair_swiss_round(entrants)
    assert [(p.home, p.away) for p in result.pairings] == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_fold_avoids_a_rematch_by_moving_the_bottom_half():
    """1 and 5 met: the bottom half is transposed (1-6, 2-5), not paired inside a half (1-4, 5-8)."""
    entrants = [SwissEntrant(i, 0, frozenset({5} if i == 1 else {1} if i == 5 else set())) for i in range(1, 9)]
    result = pair_swiss_round(entrants)
    assert [(p.home, p.away) for p in result.pairings] == [(1, 6), (2, 5), (3, 7), (4, 8)]


def test_fold_downfloater_meets_the_top_of_the_next_group():
    entrants = [SwissEntrant(i, 2 if i <= 3 else 1) for i in range(1, 9)]
    result = pair_swiss_round(entrants)
    # 3 pairs on 2: 1-2 is the only board inside (1-2 are the top and bottom halves of {1, 2}), 3 floats
    # to 4 (the top of the next group), and 5, 6, 7, 8 fold.
    assert [(p.home, p.away) for p in result.pairings] == [(1, 2), (3, 4), (5, 7), (6, 8)]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=60), st.booleans())
def test_fold_of_one_score_group_without_history(half, odd):
    """Round one of any size: seed k meets seed k + n/2; with an odd field the last seed has the bye."""
    n = 2 * half + odd
    result = pair_swiss_round([SwissEntrant(pair_id=i) for i in range(n)])
    assert [(p.home, p.away) for p in result.pairings] == [(k, k + half) for k in range(half)]
    assert result.bye == (n - 1 if odd else None)


def test_unknown_order_is_refused():
    with pytest.raises(ValueError):
        pair_swiss_round([SwissEntrant("a"), SwissEntrant("b")], order="zigzag")
