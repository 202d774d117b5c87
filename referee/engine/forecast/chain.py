"""One game to 12 as a Markov chain over its score states: who wins it and how many hands are left.

A state is the score ``(team 0, team 1)``; a hand moves it to another score with a probability that
depends only on the score (:func:`outcomes`). The rules come from the engine, never re-derived here:

* what the next hand is worth and whether it is a mão de onze or de ferro: :func:`~..game.hand_start`
  (art. 18: one team at 11 plays for 3; both at 11, the mão de ferro, for ``iron_hand_value``; else the
  hand starts at 1 and may be raised to 3, 6, 9, 12: art. 11, 13);
* what a refused mão de onze gives the opponents: :func:`~..game.eleven_refused` (art. 18);
* the score after a hand and the end of the game: :func:`~..game.add_points`, :func:`~..game.game_winner`
  (a game ends when a team reaches 12, capped by ``score_cap``);
* a hand of three tied tricks: nobody scores (art. 11.4; a tied mão de ferro, art. 20), or the dealer's
  or first player's team scores it under the variants ``all_tied`` / ``iron_tie``; the deal passes on,
  so either team's, half the time each.

The hand model (:class:`HandModel`): team 0 wins a hand that someone wins with probability ``p``; a
hand that can be raised scores 1, 3, 6, 9 or 12 points with the probabilities ``points`` (a run from a
raise scores the value before it: the same five numbers), whoever wins it; a share ``no_score`` of hands
score nothing (all tricks tied, art. 11.4; a lost deal, art. 5); the team at 11 refuses a mão de onze
with probability ``eleven_refused``. Scores only rise, so the chain has no cycle but a hand that scores
nothing (a self-loop): every state is solved once, from the highest scores down (:func:`game_solution`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..game import GAME_POINTS, add_points, eleven_refused, game_winner, hand_start
from ..rules import DEFAULT, RuleSet

#: What a hand that can be raised scores (art. 11, 13: 1, truco 3, seis 6, nove 9, doze 12; a run scores
#: the value before the raise, one of these too).
POINTS = (1, 3, 6, 9, 12)
#: The share of each, by default (the generated seasons' frequencies, benchmarks/seasons.py).
DEFAULT_POINTS = (0.58, 0.27, 0.09, 0.04, 0.02)
NO_SCORE = 0.02  # hands that score nothing: three tied tricks (art. 11.4), a lost deal (art. 5)
ELEVEN_REFUSED = 0.2  # mãos de onze refused by the team at 11 (art. 18)
PRIOR_HANDS = 30  # the defaults count as this many hands against an event's own (:func:`observed_hands`)

Score = tuple[int, int]
#: The states of a game in play: no team at 12 (``game_winner`` is None).
STATES: tuple[Score, ...] = tuple((a, b) for a in range(GAME_POINTS) for b in range(GAME_POINTS))


@dataclass(frozen=True)
class HandModel:
    """How hands go at one table (see the module's docstring); hashable, so the solutions are cached."""

    p: float = 0.5
    points: tuple[float, ...] = DEFAULT_POINTS
    no_score: float = NO_SCORE
    eleven_refused: float = ELEVEN_REFUSED
    rules: RuleSet = DEFAULT

    def __post_init__(self) -> None:
        for name in ("p", "no_score", "eleven_refused"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}: a probability, between 0 and 1 (got {value})")
        if self.no_score >= 1.0:
            raise ValueError("no_score: some hands must score, or the game never ends")
        if len(self.points) != len(POINTS) or any(q < 0 for q in self.points) or sum(self.points) <= 0:
            raise ValueError(f"points: {len(POINTS)} shares, not negative, for {POINTS}")
        total = sum(self.points)
        object.__setattr__(self, "points", tuple(q / total for q in self.points))


def observed_hands(scored: dict[int, int], tied: int) -> tuple[tuple[float, ...], float]:
    """``(points, no_score)`` for :class:`HandModel` from an event's hands: ``scored[v]`` hands that scored
    ``v`` points, ``tied`` that scored nothing; each share pulled toward the defaults as if
    :data:`PRIOR_HANDS` hands had gone their way, and rounded to 0.01 (so that tables share solutions)."""
    counted = sum(scored.get(v, 0) for v in POINTS)
    points = tuple(max(0.01, round((scored.get(v, 0) + PRIOR_HANDS * q) / (counted + PRIOR_HANDS), 2))
                   for v, q in zip(POINTS, DEFAULT_POINTS))
    no_score = round((tied + PRIOR_HANDS * NO_SCORE) / (counted + tied + PRIOR_HANDS), 2)
    return points, min(no_score, 0.5)


def outcomes(score: Score, model: HandModel) -> dict[Score, float]:
    """The score after the next hand, with its probability (the score itself when nobody scores)."""
    rules = model.rules
    iron, eleven_team, value = hand_start(score, rules)  # art. 18: the hand's value and kind
    out: dict[Score, float] = {}

    def add(probability: float, team: int | None, points: int) -> None:
        if probability > 0.0:
            after = add_points(score, team, points, rules)
            out[after] = out.get(after, 0.0) + probability

    played = 1.0
    if eleven_team is not None:  # the team at 11 may refuse: the opponents score (art. 18)
        played -= model.eleven_refused
        add(model.eleven_refused, *eleven_refused(eleven_team, rules))
    scored = played * (1.0 - model.no_score)
    if iron or eleven_team is not None:  # no raise in a mão de onze or de ferro (art. 19): its own value
        add(scored * model.p, 0, value)
        add(scored * (1.0 - model.p), 1, value)
    else:
        for points, share in zip(POINTS, model.points):
            add(scored * model.p * share, 0, points)
            add(scored * (1.0 - model.p) * share, 1, points)
    tied = played * model.no_score
    if (rules.iron_tie if iron else rules.all_tied) == "nobody":  # art. 11.4, art. 20
        add(tied, None, 0)
    else:  # the dealer's or first player's team: the deal passes on (art. 4), either team's
        add(tied / 2, 0, value)
        add(tied / 2, 1, value)
    return out


@dataclass(frozen=True)
class GameSolution:
    """For every state of a game in play: the chance that team 0 wins it, and the mean and variance of
    the number of hands to its end (hands that score nothing included)."""

    win: dict[Score, float]
    mean: dict[Score, float]
    variance: dict[Score, float]


@lru_cache(maxsize=256)
def _steps(model: HandModel) -> dict[Score, dict[Score, float]]:
    return {score: outcomes(score, model) for score in STATES}


def _solve(model: HandModel, steps: dict[Score, dict[Score, float]] | None = None) -> GameSolution:
    """Solve the chain exactly: each state from the states its next hand leads to (higher scores first);
    a self-loop of probability ``s`` divides by ``1 - s``."""
    steps = steps if steps is not None else _steps(model)
    win: dict[Score, float] = {}
    mean: dict[Score, float] = {}
    second: dict[Score, float] = {}
    for score in sorted(STATES, key=lambda s: -(s[0] + s[1])):
        stay = w = e = m = 0.0
        for after, probability in steps[score].items():
            if after == score:
                stay += probability
                continue
            winner = game_winner(after)
            if winner is not None:
                w += probability * (winner == 0)
            else:
                w += probability * win[after]
                e += probability * mean[after]
                m += probability * second[after]
        go = 1.0 - stay
        win[score] = w / go
        mean[score] = (1.0 + e) / go
        # N = 1 + N' : E[N^2] = 1 + 2 E[N'] + E[N'^2], N' the hands after this one (this state again with ``stay``)
        second[score] = (1.0 + 2.0 * (e + stay * mean[score]) + m) / go
    variance = {s: max(0.0, second[s] - mean[s] ** 2) for s in STATES}
    return GameSolution(win, mean, variance)


#: :func:`_solve`, kept for the last models asked (a table's model changes only with its ratings and the
#: event's figures, which the callers round).
game_solution = lru_cache(maxsize=256)(_solve)


def game_win_probability(score: Score, model: HandModel) -> float:
    """The chance that team 0 wins the game from ``score`` (1 or 0 once it is over)."""
    winner = game_winner(score)
    if winner is not None:
        return 1.0 if winner == 0 else 0.0
    return game_solution(model).win[score]


TAIL = 1e-9  # the forward pass stops when less than this probability is still in play
MAX_HANDS = 400


@lru_cache(maxsize=2048)
def hands_distribution(score: Score, model: HandModel) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``(ends[0], ends[1])``: ``ends[team][k]`` the chance that the game from ``score`` ends after exactly
    ``k`` more hands, won by ``team``. Exact up to a tail below :data:`TAIL` (left out; the sums fall short
    of 1 by no more), computed forward hand by hand."""
    winner = game_winner(score)
    if winner is not None:
        return ((1.0,), (0.0,)) if winner == 0 else ((0.0,), (1.0,))
    ends: tuple[list[float], list[float]] = ([0.0], [0.0])
    alive = {score: 1.0}
    steps = _steps(model)
    while alive and sum(alive.values()) > TAIL and len(ends[0]) <= MAX_HANDS:
        ended = [0.0, 0.0]
        after: dict[Score, float] = {}
        for state, mass in alive.items():
            for target, probability in steps[state].items():
                won = game_winner(target)
                if won is None:
                    after[target] = after.get(target, 0.0) + mass * probability
                else:
                    ended[won] += mass * probability
        ends[0].append(ended[0])
        ends[1].append(ended[1])
        alive = after
    return tuple(ends[0]), tuple(ends[1])


@lru_cache(maxsize=1024)
def hand_probability(game_probability: float, model: HandModel = HandModel(), *, start: Score = (0, 0)) -> float:
    """The chance ``p`` of winning a hand that makes a game from ``start`` won with ``game_probability``
    under ``model``'s other parameters: what a rating's prediction of a game says about a hand. The game's
    chance rises with ``p`` (:func:`game_solution`), so a bisection finds it (to 1e-7); its trials are not
    kept."""
    if not 0.0 <= game_probability <= 1.0:
        raise ValueError(f"game_probability: between 0 and 1 (got {game_probability})")
    low, high = 0.0, 1.0
    for _ in range(24):
        middle = (low + high) / 2
        trial = _with_p(model, middle)
        chance = game_winner(start) == 0 if game_winner(start) is not None else _solve(trial, {s: outcomes(s, trial) for s in STATES}).win[start]
        if chance < game_probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _with_p(model: HandModel, p: float) -> HandModel:
    return HandModel(p=round(p, 9), points=model.points, no_score=model.no_score,
                     eleven_refused=model.eleven_refused, rules=model.rules)
