"""Generated seasons for the ratings benchmark and the log-loss comparison (pure: no Django).

A season: ``players`` with a hidden strength (normal, mean 0, deviation 1); ``tournaments``
events in which the players form new pairs at random and the pairs meet at random for
``rounds`` rounds; each match is one game to 12 played hand by hand. A team's strength is the
sum of its partners'. What a hand shows of the strengths is the season's **assumption**
(:data:`ASSUMPTIONS`):

- ``neutral``: a hand is won by team A with probability ``1 / (1 + exp(-HAND_SLOPE * (strength A
  - strength B)))``; its value at stake is 1 (no raise), 3 (truco), 6, 9 or 12 with the
  frequencies of :data:`VALUES`, drawn independently of who wins (the hand-level rating is not
  favoured by construction);
- ``raised``: skill shows in the raised hands: the value is drawn first, a hand worth 1 is won
  with half the slope, a raised hand with twice it (the stronger pair wins the trucos);
- ``luck``: the raised hands are luck: a hand worth 1 is won with 1.5 times the slope, a raised
  hand with 0.2 times it (a truco is a bluff that pays at random).

The last hand's value is recorded as drawn, the score capped at 12 (as the súmula's hands are
read: the value at stake). A held-out season closer to real play is benchmarks/real_like.py.
"""
from __future__ import annotations

import math
import random

from draw.pairing.ratings import RatedMatch

HAND_SLOPE = 0.35
VALUES = ((1, 0.58), (3, 0.27), (6, 0.09), (9, 0.04), (12, 0.02))
ASSUMPTIONS = ("neutral", "raised", "luck")
_SLOPES = {"raised": (0.5, 2.0), "luck": (1.5, 0.2)}  # (a hand worth 1, a raised hand) x HAND_SLOPE


def _value(rng: random.Random) -> int:
    x, acc = rng.random(), 0.0
    for value, p in VALUES:
        acc += p
        if x < acc:
            return value
    return 1


def _chance(slope: float, diff: float) -> float:
    return 1.0 / (1.0 + math.exp(-slope * diff))


def play_game(rng: random.Random, diff: float, assumption: str = "neutral") -> tuple[int, int, int, tuple[tuple[int, int], ...]]:
    """One game to 12: (winner side, tentos a, tentos b, hands)."""
    p = _chance(HAND_SLOPE, diff)
    score = [0, 0]
    hands = []
    while max(score) < 12:
        if assumption == "neutral":
            side = 0 if rng.random() < p else 1
            value = _value(rng)
        else:
            value = _value(rng)
            low, high = _SLOPES[assumption]
            side = 0 if rng.random() < _chance(HAND_SLOPE * (low if value == 1 else high), diff) else 1
        hands.append((side, value))
        score[side] = min(12, score[side] + value)
    return (0 if score[0] == 12 else 1), score[0], score[1], tuple(hands)


def season(seed: int = 2026, players: int = 64, tournaments: int = 10, rounds: int = 5,
           first_id: int = 0, assumption: str = "neutral") -> list[RatedMatch]:
    if assumption not in ASSUMPTIONS:
        raise ValueError(f"assumption: one of {', '.join(ASSUMPTIONS)}")
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.0) for _ in range(players)]
    matches: list[RatedMatch] = []
    match_id = first_id
    for t in range(tournaments):
        ids = list(range(players))
        rng.shuffle(ids)
        pairs = [(ids[i], ids[i + 1]) for i in range(0, players - 1, 2)]
        for r in range(rounds):
            order = list(pairs)
            rng.shuffle(order)
            for table, i in enumerate(range(0, len(order) - 1, 2), start=1):
                a, b = order[i], order[i + 1]
                diff = strength[a[0]] + strength[a[1]] - strength[b[0]] - strength[b[1]]
                winner, pa, pb, hands = play_game(rng, diff, assumption)
                match_id += 1
                matches.append(RatedMatch((seed, t, r, table), match_id, a, b, winner, pa, pb, hands))
    return matches
