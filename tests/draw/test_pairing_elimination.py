"""Single and double elimination: seeding order, byes, propagation, losses, termination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.double_elimination import double_elimination, drop_order
from draw.pairing.elimination import (
    EliminationBracket,
    Section,
    bracket_size,
    first_round_pairs,
    next_round,
    record_results,
    same_draw,
    single_elimination,
    standard_seed_order,
)


def play_out(bracket: EliminationBracket, rng: random.Random, limit: int = 10_000):
    """Play random results until complete; returns (bracket, losses, played pairs per match)."""
    losses: Counter = Counter()
    history: list[tuple[str, frozenset]] = []
    for _ in range(limit):
        if bracket.complete:
            break
        playable = bracket.playable()
        assert playable, "bracket stuck with undecided matches"
        results = {}
        for m in playable:
            winner = rng.choice([m.top.pair, m.bottom.pair])
            results[m.match_id] = winner
            losses[m.bottom.pair if winner == m.top.pair else m.top.pair] += 1
            history.append((m.match_id, frozenset((m.top.pair, m.bottom.pair))))
        bracket = record_results(bracket, results)
    else:  # pragma: no cover
        raise AssertionError("did not terminate")
    return bracket, losses, history


def test_bracket_size():
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 1000, 1024, 1025)] == [2, 4, 4, 8, 8, 16, 1024, 1024, 2048]
    with pytest.raises(ValueError):
        bracket_size(1)


def test_standard_order_classic_layouts():
    assert first_round_pairs(4) == [(1, 4), (2, 3)]
    assert first_round_pairs(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    assert first_round_pairs(16)[:4] == [(1, 16), (8, 9), (5, 12), (4, 13)]
    assert first_round_pairs(16) == [(1, 16), (8, 9), (5, 12), (4, 13), (6, 11), (3, 14), (7, 10), (2, 15)]


@pytest.mark.parametrize("k", range(1, 12))
def test_standard_order_separates_top_seeds(k):
    size = 2**k
    order = standard_seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for a, b in first_round_pairs(size):
        assert a + b == size + 1
    # Seeds 1..2^j lie in 2^j different sections of size size / 2^j.
    for j in range(k + 1):
        span = size >> j
        sections = [order.index(s) // span for s in range(1, 2**j + 1)]
        assert len(set(sections)) == 2**j
    # In particular seeds 1 and 2 are in opposite halves.
    assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=200))
def test_single_elimination_shape_and_byes(n):
    bracket = single_elimination(list(range(1, n + 1)))
    size = bracket.size
    assert size & (size - 1) == 0 and size // 2 < n <= size
    assert len(bracket.winners[0]) == size // 2  # 2^k slots in round one
    byes = [m for m in bracket.winners[0] if m.top.bye or m.bottom.bye]
    assert len(byes) == size - n
    for m in byes:  # byes go to the top seeds, never bye against bye
        assert not (m.top.bye and m.bottom.bye)
        assert m.unplayed and m.winner in range(1, size - n + 1)
    for rnd in bracket.winners[1:]:
        for m in rnd:
            assert not m.top.bye and not m.bottom.bye  # byes only in round one


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=70), st.integers(0, 10**6), st.booleans())
def test_single_elimination_random_play(n, seed, third_place):
    bracket = single_elimination(list(range(n)), third_place=third_place)
    done, losses, _ = play_out(bracket, random.Random(seed))
    champion = done.champion
    assert champion is not None and losses[champion] == 0
    third = done.third_place
    third_loser = third.loser if third is not None else None
    for p in range(n):
        if p != champion:
            assert losses[p] == (2 if p == third_loser else 1)
    if third is not None and not third.unplayed:
        semis = done.winners[-2]
        assert {third.top.pair, third.bottom.pair} == {semis[0].loser, semis[1].loser}


def test_next_round_from_winners():
    bracket = single_elimination(["a", "b", "c", "d", "e"])
    first = bracket.winners[0]
    assert [(m.top.pair, m.bottom.pair) for m in first] == [("a", None), ("d", "e"), ("c", None), ("b", None)]
    second = next_round(first, {"W1-2": "e"})
    assert [(m.top.pair, m.bottom.pair) for m in second] == [("a", "e"), ("c", "b")]
    assert second[0].top.seed == 1 and second[0].bottom.seed == 5
    final = next_round(second, {"W2-1": "e", "W2-2": "b"})
    assert [(m.match_id, m.top.pair, m.bottom.pair) for m in final] == [("W3-1", "e", "b")]
    with pytest.raises(ValueError):
        next_round(second, {"W2-1": "zz", "W2-2": "b"})


def test_record_results_validation_and_third_place():
    bracket = single_elimination(["a", "b", "c", "d"], third_place=True)
    with pytest.raises(ValueError):
        record_results(bracket, {"W2-1": "a"})  # pairs not known yet
    with pytest.raises(ValueError):
        record_results(bracket, {"W1-1": "b"})  # b is not in W1-1 (a v d)
    with pytest.raises(ValueError):
        record_results(bracket, {"nope": "a"})
    bracket = record_results(bracket, {"W1-1": "a", "W1-2": "c"})
    assert (bracket.third_place.top.pair, bracket.third_place.bottom.pair) == ("d", "b")
    bracket = record_results(bracket, {"W2-1": "c", "3P": "b"})
    assert bracket.champion == "c" and bracket.complete
    assert bracket.third_place.winner == "b"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(0, 10**6))
def test_double_elimination_every_non_champion_loses_twice(n, seed):
    bracket = double_elimination(list(range(n)), reset=True)
    done, losses, _ = play_out(bracket, random.Random(seed))
    champion = done.champion
    assert champion is not None
    assert losses[champion] <= 1
    for p in range(n):
        if p != champion:
            assert losses[p] == 2, (p, losses)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(0, 10**6))
def test_double_elimination_without_reset(n, seed):
    done, losses, _ = play_out(double_elimination(list(range(n)), reset=False), random.Random(seed))
    champion = done.champion
    assert champion is not None and losses[champion] <= 1
    final = done.finals[0]
    for p in range(n):
        if p == champion:
            continue
        # Only the winners' champion beaten in the single grand final leaves with one loss.
        expected = 1 if (p == final.top.pair and final.winner != p) else 2
        assert losses[p] == expected


def test_grand_final_reset_only_when_losers_champion_wins():
    bracket = double_elimination(["a", "b", "c", "d"])
    bracket = record_results(bracket, {"W1-1": "a", "W1-2": "b", "L1-1": "d", "W2-1": "a", "L2-1": "b"})
    gf1, gf2 = bracket.finals
    assert (gf1.top.pair, gf1.bottom.pair) == ("a", "b") and not gf2.playable
    won = record_results(bracket, {"GF1": "a"})
    assert won.champion == "a" and won.finals[1].unplayed and won.complete
    reset = record_results(bracket, {"GF1": "b"})
    assert reset.champion is None and reset.finals[1].playable
    with pytest.raises(ValueError):
        record_results(won, {"GF2": "a"})
    assert record_results(reset, {"GF2": "a"}).champion == "a"


@pytest.mark.parametrize("k", range(3, 11))
def test_drop_rounds_cannot_rematch_structurally(k):
    """Losers dropping from winners' rounds 2-4 never meet their own winners' sub-bracket."""
    size = 2**k
    bracket = double_elimination(list(range(size)))

    def leaves(match_id: str) -> set[int]:
        """Round-one slot positions whose pairs can reach a match."""
        m = bracket.match(match_id)
        if m.section is Section.WINNERS and m.round_number == 1:
            return {2 * m.position, 2 * m.position + 1}
        out: set[int] = set()
        for slot in (m.top, m.bottom):
            out |= leaves(slot.source.match_id)
        return out

    for r in range(2, min(k, 4) + 1):
        drop_round = bracket.losers[2 * (r - 1) - 1]
        minimum = 2 if r == 2 else 4
        if len(drop_round) < minimum:
            continue
        for m in drop_round:
            assert m.bottom.source.takes == "loser"
            assert not leaves(m.top.source.match_id) & leaves(m.bottom.source.match_id)


def test_drop_order_cycle():
    assert drop_order(4, 1) == [3, 2, 1, 0]
    assert drop_order(4, 2) == [1, 0, 3, 2]
    assert drop_order(4, 3) == [2, 3, 0, 1]
    assert drop_order(4, 4) == [0, 1, 2, 3]
    assert drop_order(1, 3) == [0]


def test_double_elimination_layout_sizes():
    bracket = double_elimination(list(range(16)))
    assert [len(r) for r in bracket.winners] == [8, 4, 2, 1]
    assert [len(r) for r in bracket.losers] == [4, 4, 2, 2, 1, 1]
    assert [m.match_id for m in bracket.finals] == ["GF1", "GF2"]
    ids = [m.match_id for m in bracket.matches()]
    assert len(ids) == len(set(ids)) == 15 + 14 + 2


# ---- same_draw: two seedings giving the same bracket but for the seed numbers



def test_seeds_2_and_3_of_four_swapped_are_the_same_draw():
    assert same_draw(["p1", "p2", "p3", "p4"], ["p1", "p3", "p2", "p4"])  # 1 v 4 and 2 v 3 either way
    assert not same_draw(["p1", "p2", "p3", "p4"], ["p1", "p4", "p2", "p3"])  # 1 v 3 now
    assert not same_draw(["p1", "p2", "p3", "p4"], ["p1", "p2", "p3", "p5"])  # another qualifier
    # of eight: 2 v 7 and 3 v 6 become 3 v 7 and 2 v 6
    assert not same_draw([f"p{i}" for i in range(1, 9)], ["p1", "p3", "p2", "p4", "p5", "p6", "p7", "p8"])
    # of eight: seeds 1 and 2 swapped (and 8 and 7) but not 4-5 and 3-6: p4 v p5 now in p2's half
    assert not same_draw([f"p{i}" for i in range(1, 9)], ["p2", "p1", "p3", "p4", "p5", "p6", "p8", "p7"])
    # the halves trade places whole (1-2, 3-4, 5-6, 7-8 swapped): every meeting stays
    assert same_draw([f"p{i}" for i in range(1, 9)], ["p2", "p1", "p4", "p3", "p6", "p5", "p8", "p7"])


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.randoms(use_true_random=False))
def test_same_draw_means_the_same_meetings_in_every_round(n, rng):
    """Plain check: with the same draw, whoever wins, every match of every round has the same two pairs."""
    a = [f"p{i}" for i in range(n)]
    b = list(a)
    i, j = rng.randrange(n), rng.randrange(n)
    b[i], b[j] = b[j], b[i]
    strength = dict(zip(a, rng.sample(range(n), n)))  # distinct: each match has one stronger pair

    def meetings(seeded):
        bracket, out = single_elimination(seeded), set()
        while not bracket.complete:
            winners = {}
            for m in bracket.all_matches():
                if m.top.pair is not None and m.bottom.pair is not None and m.winner is None:
                    out.add(frozenset((m.top.pair, m.bottom.pair)))
                    winners[m.match_id] = max(m.top.pair, m.bottom.pair, key=strength.get)
            bracket = record_results(bracket, winners)
        return out

    if same_draw(a, b):
        assert meetings(a) == meetings(b)
    assert same_draw(a, a)
