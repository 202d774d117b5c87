"""Prohibited pairings: pairs of one club or family avoided as a cost in the Swiss
matching and in the group draw, never a hard rule; reported when they could not be kept apart.
Checked against brute force over every pairing / every draw that keeps the pots."""
from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.avoidance import avoided_pairs, avoiding_groups, meetings
from draw.pairing.round_robin import snake_groups
from draw.pairing.swiss import pair_swiss_round
from tests.draw.test_pairing_swiss import all_pairings, check_structure, objective, small_fields


def avoid_sets(n: int):
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    return st.lists(st.sampled_from(pairs), unique=True, max_size=min(len(pairs), 6)) if pairs else st.just([])


@st.composite
def fields_with_avoidance(draw):
    entrants = draw(small_fields(max_pairs=8))
    avoid = [frozenset(p) for p in draw(avoid_sets(len(entrants)))]
    return entrants, avoid


def avoided_boards(boards, avoid) -> int:
    return sum(1 for a, b in boards if frozenset((a, b)) in avoid)


@settings(max_examples=150, deadline=None)
@given(fields_with_avoidance(), st.sampled_from([None, 1, 2]))
def test_swiss_finds_a_pairing_avoiding_them_when_one_exists_and_reports_the_rest(case, window):
    """Lexicographic: fewest rematches / repeated byes first (criterion 1), then fewest avoided
    boards (1b): equal to the brute-force minimum over every pairing of the field, whatever the window;
    ``unavoided`` lists exactly the avoided boards that were paired."""
    entrants, avoid = case
    result = pair_swiss_round(entrants, avoid=avoid, window=window)
    check_structure(entrants, result)
    ids = [e.pair_id for e in entrants]
    best = min((objective(entrants, boards, bye)[0], avoided_boards(boards, avoid))
               for boards, bye in all_pairings(ids))
    boards = [(p.home, p.away) for p in result.pairings]
    got = (objective(entrants, boards, result.bye)[0], avoided_boards(boards, avoid))
    assert got == best
    assert {frozenset(p) for p in result.unavoided} == {frozenset(b) for b in boards if frozenset(b) in avoid}


def test_swiss_round_one_moves_a_club_mate_and_keeps_the_fold_otherwise():
    """Round one of 8, fold 1-5 2-6 3-7 4-8; 1 and 5 are of one club: the nearest change is 1-6 2-5."""
    from draw.pairing.swiss import SwissEntrant

    entrants = [SwissEntrant(i) for i in range(1, 9)]
    plain = pair_swiss_round(entrants)
    assert [(p.home, p.away) for p in plain.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    result = pair_swiss_round(entrants, avoid=[{1, 5}])
    assert [(p.home, p.away) for p in result.pairings] == [(1, 6), (2, 5), (3, 7), (4, 8)]
    assert result.unavoided == ()
    # a club of the whole field but one pair: at least three boards of club mates, and said so
    forced = pair_swiss_round(entrants, avoid=[{a, b} for a in range(1, 8) for b in range(a + 1, 8)])
    assert len(forced.unavoided) == 3


def test_a_field_without_avoided_pairs_is_paired_as_before():
    from draw.pairing.swiss import SwissEntrant

    field = [SwissEntrant(i, score=(i % 3), opponents=frozenset({(i + 1) % 10})) for i in range(10)]
    assert pair_swiss_round(field) == pair_swiss_round(field, avoid=[{100, 101}])


def test_tags_become_avoided_pairs():
    tags = {1: ["Clube Lagoa"], 2: [" clube lagoa "], 3: ["família Souza", "Clube Sol"], 4: ["Família souza"], 5: []}
    assert avoided_pairs(tags) == {frozenset({1, 2}), frozenset({3, 4})}


@st.composite
def draws(draw):
    g = draw(st.integers(min_value=2, max_value=3))
    n = draw(st.integers(min_value=g * 2, max_value=min(9, g * 3)))
    avoid = [frozenset(p) for p in draw(avoid_sets(n))]
    return list(range(n)), g, avoid


def pot_keeping_draws(seeded, g):
    """Every draw that keeps each pot (snake row) one per group, in the snake's group places."""
    pots = [seeded[i:i + g] for i in range(0, len(seeded), g)]
    cols = [[c if r % 2 == 0 else g - 1 - c for c in range(len(p))] for r, p in enumerate(pots)]

    def rec(r, groups):
        if r == len(pots):
            yield groups
            return
        for perm in permutations(cols[r]):
            new = [list(x) for x in groups]
            for p, c in zip(pots[r], perm):
                new[c].append(p)
            yield from rec(r + 1, new)

    yield from rec(0, [[] for _ in range(g)])


@settings(max_examples=80, deadline=None)
@given(draws())
def test_group_draw_keeps_them_apart_when_a_draw_that_keeps_the_pots_can(case):
    seeded, g, avoid = case
    result = avoiding_groups(seeded, g, avoid)
    assert sorted(map(len, result.groups)) == sorted(map(len, snake_groups(seeded, g)))
    assert sorted(p for grp in result.groups for p in grp) == seeded
    best = min(len(meetings(d, avoid)) for d in pot_keeping_draws(seeded, g))
    assert len(result.unavoided) == best and not result.exhausted
    assert set(map(frozenset, result.unavoided)) == set(map(frozenset, meetings(result.groups, avoid)))
    if not avoid:
        assert result.groups == snake_groups(seeded, g) and result.moved == 0


def test_group_draw_example():
    """8 pairs, 2 groups: snake A = 1 4 5 8, B = 2 3 6 7; 1 and 4 are one family: 4 and 3 swap."""
    result = avoiding_groups([1, 2, 3, 4, 5, 6, 7, 8], 2, [frozenset({1, 4})])
    assert result.groups == ((1, 3, 5, 8), (2, 4, 6, 7)) and result.unavoided == () and result.moved == 2
