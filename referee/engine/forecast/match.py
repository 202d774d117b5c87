"""A match in play: who wins it (best of N games) and when it ends, in hands and in minutes.

* The match: the first to win ``best_of // 2 + 1`` games; every game after the one in play starts at 0-0
  (or 11-11 once the time is up under the room's ``eleven_all`` procedure, docs/room.md), each with the
  chances of :mod:`.chain`. :func:`match_win_probability` and :func:`match_hands` are exact over the
  games won.
* Minutes: each hand lasts a random time with mean ``Pace.minutes_per_hand`` and coefficient of variation
  ``Pace.spread``, hands independent, and the mean itself is known only to a relative deviation
  ``Pace.doubt`` (a table's pace is guessed from few hands, or from the event's); ``k`` hands last a gamma
  law with the mean ``k m`` and the variance ``k (spread m)² + (k doubt m)²`` of that sum; the minutes to the
  end are the mixture over the hands left (:func:`match_hands`). Its quantiles (Wilson-Hilferty's
  approximation of the gamma) give the median and the 80 % interval (10 %-90 %).
* The time limit: the chance that the match is still on when the room's time runs out; with an
  end-of-time procedure the match ends soon after it (the hand in play, one more hand, or the game in
  play and the other games from 11-11), which caps the minutes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .chain import HandModel, Score, game_solution, game_win_probability, hands_distribution

INTERVAL = (0.1, 0.9)  # the 80 % interval
SITE_MINUTES_PER_HAND = 2.0  # the site's default pace, before any hand of an event
AT_RISK = 0.5  # a table is at risk of the time limit when it more likely than not plays past it
PROCEDURES = ("", "higher_score", "one_more_hand", "eleven_all")


@dataclass(frozen=True)
class Pace:
    """How long a hand takes at a table: the mean (minutes), the coefficient of variation of one hand, and
    the relative deviation of the mean itself (how sure the mean is)."""

    minutes_per_hand: float
    spread: float = 0.6
    doubt: float = 0.0

    def __post_init__(self) -> None:
        if not self.minutes_per_hand > 0 or not self.spread > 0 or self.doubt < 0:
            raise ValueError("pace: minutes per hand and spread must be positive, doubt not negative")


PACE_DOUBT = 0.3  # the relative deviation of a table's pace before its first hand (tables differ)


def pace_doubt(hands: int, weight: float = 4.0) -> float:
    """How unsure a table's pace is after ``hands`` of its own (:func:`blended_pace`'s ``weight``): from
    :data:`PACE_DOUBT` down as the hands come in (a mean of ``n`` hands: 1 / sqrt(n))."""
    return PACE_DOUBT * math.sqrt(weight / (max(hands, 0) + weight))


def blended_pace(hands: int, minutes: float, prior: float, weight: float = 4.0) -> float:
    """Minutes per hand from a table's own ``hands`` over ``minutes``, pulled toward ``prior`` (the
    event's or the site's pace) as if ``weight`` hands had been played at it: the table's own pace takes
    over as its hands come in."""
    if hands < 0 or minutes < 0 or prior <= 0:
        raise ValueError("pace: hands and minutes not negative, prior positive")
    return (minutes + weight * prior) / (hands + weight)


def _need(best_of: int) -> int:
    if best_of < 1 or best_of % 2 == 0:
        raise ValueError(f"best_of: an odd number of games, at least 1 (got {best_of})")
    return best_of // 2 + 1


def _check_games(games: tuple[int, int], need: int) -> None:
    if min(games) < 0 or max(games) >= need:
        raise ValueError(f"games: each below {need} while the match is in play (got {games})")


def match_win_probability(score: Score, games: tuple[int, int], model: HandModel, best_of: int = 1,
                          next_start: Score = (0, 0)) -> float:
    """The chance that team 0 wins the match: the game in play from ``score``, the next ones from
    ``next_start``, ``games`` won so far."""
    need = _need(best_of)
    _check_games(games, need)
    g = game_win_probability(next_start, model)
    now = game_win_probability(score, model)
    return now * _after(need, games[0] + 1, games[1], g) + (1 - now) * _after(need, games[0], games[1] + 1, g)


def _after(need: int, a: int, b: int, g: float) -> float:
    if a >= need:
        return 1.0
    if b >= need:
        return 0.0
    return g * _after(need, a + 1, b, g) + (1 - g) * _after(need, a, b + 1, g)


def _convolve(x: tuple[float, ...], y: tuple[float, ...]) -> tuple[float, ...]:
    out = [0.0] * (len(x) + len(y) - 1)
    for i, xi in enumerate(x):
        if xi < 1e-13:
            continue
        for j, yj in enumerate(y):
            out[i + j] += xi * yj
    return tuple(out)


def _add(x: tuple[float, ...], y: tuple[float, ...]) -> tuple[float, ...]:
    n = max(len(x), len(y))
    return tuple((x[i] if i < len(x) else 0.0) + (y[i] if i < len(y) else 0.0) for i in range(n))


@lru_cache(maxsize=1024)
def _rest(need: int, a: int, b: int, model: HandModel, start: Score) -> tuple[float, ...]:
    """The distribution of the hands of the games still to play once the games stand ``a``-``b``."""
    if a >= need or b >= need:
        return (1.0,)
    won, lost = hands_distribution(start, model)
    return _add(_convolve(won, _rest(need, a + 1, b, model, start)), _convolve(lost, _rest(need, a, b + 1, model, start)))


def match_hands(score: Score, games: tuple[int, int], model: HandModel, best_of: int = 1,
                next_start: Score = (0, 0)) -> tuple[float, ...]:
    """``dist[k]``: the chance that the match ends after exactly ``k`` more hands."""
    need = _need(best_of)
    _check_games(games, need)
    won, lost = hands_distribution(score, model)
    return _add(_convolve(won, _rest(need, games[0] + 1, games[1], model, next_start)),
                _convolve(lost, _rest(need, games[0], games[1] + 1, model, next_start)))


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _gamma_cdf(x: float, shape: float, scale: float) -> float:
    """P(X <= x) for a gamma law, by Wilson-Hilferty (a cube root of a gamma is nearly normal)."""
    if x <= 0:
        return 0.0
    v = 1.0 / (9.0 * shape)
    return _normal_cdf(((x / (shape * scale)) ** (1.0 / 3.0) - (1.0 - v)) / math.sqrt(v))


def minutes_cdf(minutes: float, hands: tuple[float, ...], pace: Pace) -> float:
    """The chance that the hands left (``hands``, a distribution) last no more than ``minutes``."""
    m, c2, d2 = pace.minutes_per_hand, pace.spread ** 2, pace.doubt ** 2
    total = hands[0] if minutes >= 0 else 0.0
    for k in range(1, len(hands)):
        if hands[k] > 1e-9:
            shape = k * k / (k * c2 + k * k * d2)  # the gamma with the mean k m and the variance above
            total += hands[k] * _gamma_cdf(minutes, shape, k * m / shape)
    return min(1.0, total / max(sum(hands), 1e-300))


def minutes_quantile(q: float, hands: tuple[float, ...], pace: Pace) -> float:
    """The ``q`` quantile of the minutes left (a bisection on :func:`minutes_cdf`, to 0.05 min)."""
    if not 0.0 < q < 1.0:
        raise ValueError("q: strictly between 0 and 1")
    mean = sum(k * h for k, h in enumerate(hands)) / max(sum(hands), 1e-300)
    low, high = 0.0, max(1.0, pace.minutes_per_hand * (mean * 4 + 10))
    if minutes_cdf(low, hands, pace) >= q:
        return 0.0
    while high - low > 0.05:
        middle = (low + high) / 2
        if minutes_cdf(middle, hands, pace) < q:
            low = middle
        else:
            high = middle
    return (low + high) / 2


@dataclass(frozen=True)
class Forecast:
    """What the model says of a match in play (probabilities for team 0, pair A; minutes from now)."""

    game_probability: float
    match_probability: float
    expected_hands: float
    minutes: float  # the median
    low: float  # the 80 % interval
    high: float
    time_risk: float | None = None  # the chance of playing past the time limit (None without one)

    @property
    def at_risk(self) -> bool:
        return self.time_risk is not None and self.time_risk >= AT_RISK


def forecast(score: Score, games: tuple[int, int], model: HandModel, pace: Pace, *, best_of: int = 1,
             in_hand: float = 0.0, time_left: float | None = None, procedure: str = "",
             next_start: Score = (0, 0)) -> Forecast:
    """The forecast of a match in play at ``score`` with ``games`` won.

    ``in_hand``: minutes since the last hand was entered (the hand in play has run that long: up to half a
    hand is taken off the minutes left); ``time_left``: minutes to the room's time limit (negative: past
    it), with its end-of-time ``procedure`` (docs/room.md); ``next_start``: the score the next games start at
    (11-11 once the time is up under ``eleven_all``)."""
    if procedure not in PROCEDURES:
        raise ValueError(f"procedure: one of {', '.join(repr(p) for p in PROCEDURES)}")
    hands = match_hands(score, games, model, best_of, next_start)
    expected = sum(k * h for k, h in enumerate(hands))
    head = min(max(in_hand, 0.0), pace.minutes_per_hand / 2)
    low, median, high = (max(0.0, minutes_quantile(q, hands, pace) - head) for q in (INTERVAL[0], 0.5, INTERVAL[1]))
    risk = None
    if time_left is not None:
        risk = 1.0 - minutes_cdf(time_left + head, hands, pace)
        cap = _cap(score, games, model, pace, best_of, time_left, procedure)
        if cap is not None:
            low, median, high = (min(v, cap) for v in (low, median, high))
    return Forecast(game_win_probability(score, model),
                    match_win_probability(score, games, model, best_of, next_start),
                    expected, median, low, high, risk)


def _cap(score: Score, games: tuple[int, int], model: HandModel, pace: Pace, best_of: int, time_left: float,
         procedure: str) -> float | None:
    """When the match ends at the latest under the end-of-time procedure (docs/room.md), in expected
    minutes: the hand in play (``higher_score``), one more (``one_more_hand``), or the game in play and the
    games left from 11-11 (``eleven_all``, each about one mão de ferro)."""
    if not procedure:
        return None
    after = max(time_left, 0.0)
    if procedure == "higher_score":
        return after + pace.minutes_per_hand
    if procedure == "one_more_hand":
        return after + 2 * pace.minutes_per_hand
    games_left = best_of - games[0] - games[1] - 1
    iron = game_solution(model).mean[(11, 11)]
    return after + pace.minutes_per_hand * (game_solution(model).mean.get(score, 0.0) + max(games_left, 0) * iron)
