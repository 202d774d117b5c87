"""The prize table's arithmetic: shared places split the sum of their prizes equally, to the
centavo, the leftover centavos to the earliest sign-ups; the pool is a percentage of the fees."""
from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from finance.split import Prize, place_money, pool, shares, split_equally

D = Decimal


def test_a_tie_for_third_splits_third_and_fourth_prizes():
    # Três Lagoas: R$1,500 / 700 / 400 / 200, a motorbike to the winner; pairs 7 and 3 tie at 3rd
    prizes = [Prize(1, D("1500"), item="Moto"), Prize(2, D("700")), Prize(3, D("400")), Prize(4, D("200"))]
    got = shares(prizes, [(1, 1), (2, 2), (7, 3), (3, 3), (9, 5)])
    assert [(s.pair, s.place, s.money, s.items, s.tied_with) for s in got] == [
        (1, 1, D("1500.00"), ("Moto",), 1), (2, 2, D("700.00"), (), 1),
        (3, 3, D("300.00"), (), 2), (7, 3, D("300.00"), (), 2)]


def test_the_leftover_centavo_goes_to_the_earliest_sign_up():
    assert split_equally(D("100.00"), [30, 10, 20]) == {10: D("33.34"), 20: D("33.33"), 30: D("33.33")}
    assert split_equally(D("0.02"), [5, 4, 3]) == {3: D("0.01"), 4: D("0.01"), 5: D("0")}


def test_the_pool_is_a_percentage_of_the_fees_collected():
    assert pool(D("1200.00"), D("50")) == D("600.00")
    assert pool(D("100.00"), D("33.333")) == D("33.33")  # rounded down: the rest stays in the balance
    prizes = [Prize(1, D("100"), D("60")), Prize(2, D("0"), D("40"))]
    assert place_money(prizes, D("600.00")) == {1: D("460.00"), 2: D("240.00")}


def test_a_shared_object_is_listed_for_every_pair_of_the_tie():
    got = shares([Prize(1, item="Troféu"), Prize(2, D("50"))], [(4, 1), (8, 1)])
    assert [(s.pair, s.money, s.items) for s in got] == [(4, D("25.00"), ("Troféu",)), (8, D("25.00"), ("Troféu",))]


def test_pairs_past_the_prize_places_take_nothing():
    assert shares([Prize(1, D("10"))], [(1, 1), (2, 2), (3, 3)]) == shares([Prize(1, D("10"))], [(1, 1)])


MONEY = st.decimals(min_value=D("0"), max_value=D("20000"), places=2, allow_nan=False, allow_infinity=False)


@st.composite
def tables(draw):
    n_pairs = draw(st.integers(1, 16))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n_pairs, max_size=n_pairs, unique=True))
    placings, place, i = [], 1, 0
    while i < n_pairs:  # standard competition ranking, ties of any size
        k = draw(st.integers(1, n_pairs - i))
        placings += [(pair, place) for pair in ids[i:i + k]]
        place, i = place + k, i + k
    prizes = [Prize(p, draw(MONEY)) for p in range(1, draw(st.integers(1, n_pairs + 2)) + 1)]
    return prizes, placings


@given(tables())
def test_the_split_is_exact_and_equal_to_the_centavo(table):
    prizes, placings = table
    got = shares(prizes, placings)
    money = place_money(prizes)
    # what is paid is exactly the prizes of the places the pairs occupy
    occupied = len(placings)
    assert sum((s.money for s in got), D("0")) == sum((m for p, m in money.items() if p <= occupied), D("0"))
    by_place: dict[int, list[Decimal]] = {}
    for s in got:
        assert s.money == s.money.quantize(D("0.01")) and s.money >= 0
        by_place.setdefault(s.place, []).append(s.money)
    for amounts in by_place.values():
        assert max(amounts) - min(amounts) <= D("0.01")
    # the same placings in another order split the same way
    assert shares(prizes, list(reversed(placings))) == got


@given(st.decimals(min_value=D("0"), max_value=D("99999"), places=2), st.lists(st.integers(1, 999), min_size=1,
                                                                                max_size=12, unique=True))
def test_an_equal_split_sums_exactly(total, pairs):
    got = split_equally(total, pairs)
    assert sum(got.values()) == total and max(got.values()) - min(got.values()) <= D("0.01")
    assert sorted(got, key=lambda p: -got[p])[0] == min(pairs) or len(set(got.values())) == 1
