"""Round robin: Berger order against the FIDE tables; every pair meets every other once."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.round_robin import (
    berger_table,
    group_name,
    group_round_robins,
    round_robin,
    snake_groups,
)


def parse(table: str) -> list[list[tuple[int, int]]]:
    rounds = []
    for line in table.strip().splitlines():
        _, boards = line.split(":")
        rounds.append([tuple(int(x) for x in b.strip().split("-")) for b in boards.split(",")])
    return rounds


# FIDE Handbook C.05, Annex 1 (Berger tables), first-named player has white.
FIDE_4 = """
1: 1-4, 2-3
2: 4-3, 1-2
3: 2-4, 3-1
"""
FIDE_6 = """
1: 1-6, 2-5, 3-4
2: 6-4, 5-3, 1-2
3: 2-6, 3-1, 4-5
4: 6-5, 1-4, 2-3
5: 3-6, 4-2, 5-1
"""
FIDE_8 = """
1: 1-8, 2-7, 3-6, 4-5
2: 8-5, 6-4, 7-3, 1-2
3: 2-8, 3-1, 4-7, 5-6
4: 8-6, 7-5, 1-4, 2-3
5: 3-8, 4-2, 5-1, 6-7
6: 8-7, 1-6, 2-5, 3-4
7: 4-8, 5-3, 6-2, 7-1
"""
FIDE_10_SOME_ROUNDS = {
    1: [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
    2: [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
    5: [(3, 10), (4, 2), (5, 1), (6, 9), (7, 8)],
    8: [(10, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
    9: [(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
}


@pytest.mark.parametrize("n,table", [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_berger_matches_fide_tables(n, table):
    assert berger_table(n) == parse(table)


def test_berger_matches_fide_rows_for_ten():
    table = berger_table(10)
    assert len(table) == 9
    for number, boards in FIDE_10_SOME_ROUNDS.items():
        assert table[number - 1] == boards


@pytest.mark.parametrize("odd,even", [(3, 4), (5, 6), (7, 8), (9, 10)])
def test_odd_count_uses_the_next_table_with_a_bye(odd, even):
    assert berger_table(odd) == berger_table(even)
    rounds = round_robin(list(range(1, odd + 1)))
    for rnd, boards in zip(rounds, berger_table(even)):
        expected_bye = next(a if b == even else b for a, b in boards if even in (a, b))
        assert rnd.bye == expected_bye
        assert [(g.home, g.away) for g in rnd.games] == [(a, b) for a, b in boards if even not in (a, b)]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40))
def test_every_pair_meets_every_other_exactly_once(n):
    entrants = [f"p{i}" for i in range(n)]
    rounds = round_robin(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    byes = Counter()
    for rnd in rounds:
        in_round = Counter()
        for g in rnd.games:
            met[frozenset((g.home, g.away))] += 1
            in_round[g.home] += 1
            in_round[g.away] += 1
        if rnd.bye is not None:
            in_round[rnd.bye] += 1
            byes[rnd.bye] += 1
        assert set(in_round.values()) == {1}  # at most once a round...
        assert len(in_round) == n  # ...and everybody is placed (exactly once when n is even)
        assert (rnd.bye is None) == (n % 2 == 0)
        assert [g.board for g in rnd.games] == list(range(1, len(rnd.games) + 1))
    assert set(met) == {frozenset(c) for c in combinations(entrants, 2)}
    assert set(met.values()) == {1}
    if n % 2:
        assert sorted(byes) == sorted(entrants) and set(byes.values()) == {1}


def test_snake_groups():
    assert snake_groups(list(range(1, 11)), 3) == ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    assert snake_groups(list(range(1, 9)), 2) == ((1, 4, 5, 8), (2, 3, 6, 7))
    assert snake_groups([1, 2, 3], 1) == ((1, 2, 3),)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=60), st.integers(min_value=1, max_value=8))
def test_snake_groups_balanced(n, groups):
    split = snake_groups(list(range(n)), groups)
    sizes = [len(g) for g in split]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(x for g in split for x in g) == list(range(n))


def test_group_round_robins_and_names():
    groups = group_round_robins(list("abcdefgh"), 2)
    assert [g.name for g in groups] == ["A", "B"]
    assert groups[0].entrants == ("a", "d", "e", "h")
    assert [(x.home, x.away) for x in groups[0].rounds[0].games] == [("a", "h"), ("d", "e")]
    assert [group_name(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
