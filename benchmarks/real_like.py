"""A held-out season closer to a club's real one, for the rating comparison (pure: no Django).

Never used to choose a rating parameter (those are chosen on benchmarks/seasons.py's tuning
seeds): it is the check that a choice is not an artefact of one generator's assumption.
What differs from the generated seasons:

- 96 players with a hidden strength that drifts between events (normal steps, deviation 0.15),
  and 48 to 80 of them at each event (an even number of pairs); 70 % of the pairs of the last
  event play together again when both come, and a pair plays a little above or below its
  partners' sum (a fixed chemistry, deviation 0.3);
- five rounds, the first drawn at random, the next paired Swiss-like (by wins so far);
- a match is best of 1, or best of 3 at a third of the events, played by the engine's rules
  (``referee.engine.game``: mão de onze worth 3, mão de ferro, art. 18; a team at 11 refuses
  25 % of mãos de onze); each table raises more or less (its share of raised hands scaled by 0.6
  to 1.6), 3 % of hands score nothing (not recorded), skill shows a little more in raised hands
  (a hand worth 1 at 0.9 times seasons.py's slope, a raised one at 1.3 times);
- 8 % of the results are set by hand (no hands recorded: the methods fall back on the result).
"""
from __future__ import annotations

import math
import random

from benchmarks.seasons import HAND_SLOPE, VALUES
from draw.pairing.ratings import RatedMatch
from referee.engine.game import add_points, eleven_refused, game_winner, hand_start
from referee.engine.rules import DEFAULT

PLAYERS, EVENTS, ROUNDS = 96, 12, 5


def _hand(rng: random.Random, diff: float, score: tuple[int, int], raises: float) -> tuple[int | None, int]:
    iron, eleven, value = hand_start(score, DEFAULT)
    if eleven is not None and not iron and rng.random() < 0.25:
        return eleven_refused(eleven, DEFAULT)
    if rng.random() < 0.03:
        return None, 0
    if not iron and eleven is None:
        shares = [VALUES[0][1]] + [p * raises for _, p in VALUES[1:]]
        value = rng.choices([v for v, _ in VALUES], shares)[0]
    slope = HAND_SLOPE * (0.9 if value == 1 else 1.3)
    return (0 if rng.random() < 1.0 / (1.0 + math.exp(-slope * diff)) else 1), value


def play_match(rng: random.Random, diff: float, best_of: int) -> tuple[int, int, int, tuple]:
    need, games, tentos, hands = best_of // 2 + 1, [0, 0], [0, 0], []
    raises = rng.uniform(0.6, 1.6)
    while max(games) < need:
        score = (0, 0)
        while (done := game_winner(score)) is None:
            side, value = _hand(rng, diff, score, raises)
            if side is None:
                continue
            hands.append((side, value))
            after = add_points(score, side, value, DEFAULT)
            tentos[side] += after[side] - score[side]
            score = after
        games[done] += 1
    return (0 if games[0] == need else 1), tentos[0], tentos[1], tuple(hands)


def season(seed: int = 99) -> list[RatedMatch]:
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.0) for _ in range(PLAYERS)]
    chemistry: dict[tuple[int, int], float] = {}
    last_pairs: list[tuple[int, int]] = []
    matches: list[RatedMatch] = []
    match_id = 0
    for event in range(EVENTS):
        strength = [s + rng.gauss(0.0, 0.15) for s in strength]
        size = 4 * rng.randint(12, 20)
        here = set(rng.sample(range(PLAYERS), size))
        pairs = [p for p in last_pairs if p[0] in here and p[1] in here and rng.random() < 0.7]
        alone = sorted(here - {x for p in pairs for x in p})
        rng.shuffle(alone)
        pairs += [tuple(sorted(alone[i:i + 2])) for i in range(0, len(alone), 2)]
        for p in pairs:
            chemistry.setdefault(p, rng.gauss(0.0, 0.3))
        best_of = 3 if event % 3 == 2 else 1
        wins = dict.fromkeys(pairs, 0)
        for rnd in range(ROUNDS):
            order = list(pairs)
            rng.shuffle(order)
            if rnd:
                order.sort(key=lambda p: -wins[p])
            for table, i in enumerate(range(0, len(order), 2), start=1):
                a, b = order[i], order[i + 1]
                diff = strength[a[0]] + strength[a[1]] + chemistry[a] - strength[b[0]] - strength[b[1]] - chemistry[b]
                winner, ta, tb, hands = play_match(rng, diff, best_of)
                wins[(a, b)[winner]] += 1
                match_id += 1
                if rng.random() < 0.08:
                    hands = ()
                matches.append(RatedMatch((seed, event, rnd, table), match_id, a, b, winner, ta, tb, hands))
        last_pairs = pairs
    return matches
