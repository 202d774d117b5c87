"""The prize table's arithmetic, pure Python (no Django): money to the centavo, never floats.

Shared places (the chess and bridge convention, as Swiss-Manager's prize lists do): ``k`` pairs
tied at place ``p`` occupy places ``p .. p+k-1`` and split the sum of those places' money equally.
The sum rarely divides to the centavo: every pair gets the quotient rounded down, and the ``r``
centavos left over go one each to the first ``r`` pairs of the tie by registration order (the
lowest pair id first, the earliest sign-up). So the shares add up exactly to the places' sum and
differ by at most one centavo, and the same tie always splits the same way. An object prize
(a trophy, a motorbike) cannot be split: every pair of the tie that covers its place is listed
for it, and the organizer records who took it.

The prize pool: a percentage of the fees collected (paid less refunded) added to the places'
fixed money, each place taking its own percentage of the pool, rounded down to the centavo; what
rounding leaves stays in the event's balance.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Prize:
    """One place's prize: fixed ``money``, a ``pool_percent`` of the pool, and/or an ``item``."""

    place: int
    money: Decimal = Decimal("0.00")
    pool_percent: Decimal = Decimal("0")
    item: str = ""


@dataclass(frozen=True)
class Share:
    """What one pair takes: its place, money to the centavo, the objects of its places, the tie size."""

    pair: int
    place: int
    money: Decimal
    items: tuple[str, ...] = ()
    tied_with: int = 1


def cents(value: Decimal) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_DOWN)


def pool(collected: Decimal, percent: Decimal) -> Decimal:
    """The prize pool: ``percent`` of the fees ``collected``, rounded down to the centavo."""
    return cents(Decimal(collected) * Decimal(percent) / 100)


def place_money(prizes: Iterable[Prize], pool_total: Decimal = Decimal("0")) -> dict[int, Decimal]:
    """Each place's money: its fixed money plus its percentage of ``pool_total`` (rounded down)."""
    return {p.place: cents(p.money) + cents(Decimal(pool_total) * p.pool_percent / 100) for p in prizes}


def split_equally(total: Decimal, pairs: list[int]) -> dict[int, Decimal]:
    """``total`` split among ``pairs`` to the centavo: the leftover centavos go to the lowest ids."""
    if not pairs:
        return {}
    total_cents = int(cents(total) * 100)
    each, left = divmod(total_cents, len(pairs))
    ordered = sorted(pairs)
    return {pair: Decimal(each + (1 if i < left else 0)) / 100 for i, pair in enumerate(ordered)}


def shares(prizes: Iterable[Prize], placings: Iterable[tuple[int, int]],
           pool_total: Decimal = Decimal("0")) -> list[Share]:
    """Every placed pair's share: ``placings`` are ``(pair id, place)`` in standard competition
    ranking (1, 2, 3, 3, 5: a tie at 3 covers places 3 and 4). Pairs past the prize places take
    nothing and are left out."""
    prizes = list(prizes)
    money = place_money(prizes, pool_total)
    items = {p.place: p.item for p in prizes if p.item}
    by_place: dict[int, list[int]] = {}
    for pair, place in placings:
        by_place.setdefault(place, []).append(pair)
    result: list[Share] = []
    for place in sorted(by_place):
        tied = by_place[place]
        covered = range(place, place + len(tied))
        total = sum((money.get(p, Decimal("0")) for p in covered), Decimal("0.00"))
        objects = tuple(items[p] for p in covered if p in items)
        if total <= 0 and not objects:
            continue
        for pair, amount in sorted(split_equally(total, tied).items()):
            result.append(Share(pair=pair, place=place, money=amount.quantize(CENT), items=objects,
                                tied_with=len(tied)))
    return result


def total_of(values: Mapping[int, Decimal] | Iterable[Decimal]) -> Decimal:
    items = values.values() if isinstance(values, Mapping) else values
    return sum(items, Decimal("0.00")).quantize(CENT)
