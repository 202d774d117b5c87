"""Player ratings from official matches with openskill's Plackett-Luce model (pure: no Django).

Truco is played 2 vs 2, which openskill rates natively: each match is two teams of two
players. The module owns the order matches are rated in, the three methods, the history of
each player's rating and the prediction of a match (for the log-loss comparison):

* **order**: matches are rated by their ``key`` (the caller's deterministic sort key: the
  tournament's date, the tournament, the stage, the round, the table, the match id), ties
  broken by the match id, so the same matches give the same ratings whatever the order they
  are passed in (reproducible);
* **methods** (:data:`METHODS`):

  - ``match``: a win or a loss (openskill's ranks);
  - ``margin``: the tentos of the match count too (openskill's ``scores`` with a ``margin``:
    a win by more than :data:`MARGIN` tentos moves the ratings further, log-scaled);
  - ``hands``: the match's result, rated as ``match`` rates it, with its move on the mean scaled by
    how the hands went (:func:`hand_factor`, a margin-of-victory multiplier as in Elo systems):
    the winner's share of the tentos scored hand by hand, against the share a winner usually
    has (factor 1 without hands). The factor is always positive and grows with the share, and a
    winner's uncertainty never grows, so a winner never loses rating for winning and a larger
    win never counts less; about 1 on average, so the scale is the ``match`` method's
    (docs/ratings.md);

* a double walkover (no winner) and a walkover (nothing was played, art. 25-26: it is recorded,
  not won at the table) do not change ratings: only matches with a winner and ``played`` rate.

A rating is openskill's (``mu``, ``sigma``); the number shown is :func:`display` of it,
``1000 + 40 * (mu - 3 sigma)``: 1000 for a newcomer (openskill's conservative ordinal is 0),
rising as results and certainty come in.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Hashable, Iterable

from openskill.models import PlackettLuce

from .scores import GAME_POINTS

METHODS = ("match", "margin", "hands")
MU, SIGMA = 25.0, 25.0 / 3.0
# openskill's defaults are beta = 25/6 and tau = 25/300. With them the predictions of a Truco match
# are overconfident (a log-loss of 0.67 on generated seasons, 0.60 with beta four times larger):
# one match to 12 is a noisy measure of two pairs. The betas below were chosen on generated
# seasons 1-3 (benchmarks/ratings.py) and are checked on seasons 6-10 (docs/ratings.md).
BETA, TAU = 4 * 25.0 / 6.0, 25.0 / 300.0
MARGIN = 6.0  # tentos: half a game
# the hands method's factor exp(HAND_STRENGTH * (the winner's share of the tentos - HAND_CENTER)), chosen
# on the tuning seeds of three generated seasons (benchmarks/rating_eval.py --tune, docs/ratings.md)
HAND_STRENGTH, HAND_CENTER = 2.0, 0.76


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    """The rating shown to people: 1000 for a newcomer, 40 points per unit of openskill's ordinal."""
    return round(1000 + 40 * (mu - 3 * sigma))


@dataclass(frozen=True)
class RatedMatch:
    """A match as rated: two teams of two players, the winner (0: team a, 1: team b; ``None`` for
    no winner), the tentos, and the hands ``(scoring team, value at stake)`` in order."""

    key: tuple
    match_id: int
    team_a: tuple[Hashable, Hashable]
    team_b: tuple[Hashable, Hashable]
    winner: int | None
    points_a: int = 0
    points_b: int = 0
    hands: tuple[tuple[int, int], ...] = ()
    played: bool = True  # False for a walkover

    @property
    def rates(self) -> bool:
        return self.winner in (0, 1) and self.played


@dataclass(frozen=True)
class RatingChange:
    """One player's rating after one match (the history row), ``sequence`` its place in the order."""

    sequence: int
    match_id: int
    player: Hashable
    before: Rating
    after: Rating


@dataclass
class Ratings:
    """The ratings so far and their history; :meth:`rate` adds matches in order."""

    method: str = "match"
    current: dict = field(default_factory=dict)
    history: list[RatingChange] = field(default_factory=list)
    sequence: int = 0
    #: the hands method's (strength, center): :func:`hand_factor`
    hand_shape: tuple[float, float] = (HAND_STRENGTH, HAND_CENTER)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method: one of {', '.join(METHODS)}")
        self._model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU,
                                   margin=MARGIN if self.method == "margin" else 0.0)

    def get(self, player: Hashable) -> Rating:
        return self.current.get(player) or Rating()

    def win_probability(self, team_a: Iterable[Hashable], team_b: Iterable[Hashable]) -> float:
        """The chance that ``team_a`` beats ``team_b`` (openskill's ``predict_win``)."""
        a = [self._model.rating(mu=self.get(p).mu, sigma=self.get(p).sigma) for p in team_a]
        b = [self._model.rating(mu=self.get(p).mu, sigma=self.get(p).sigma) for p in team_b]
        return self._model.predict_win([a, b])[0]

    def rate(self, matches: Iterable[RatedMatch]) -> list[RatingChange]:
        """Rate ``matches`` in their order (:func:`ordered`), after those rated so far; return the changes."""
        added: list[RatingChange] = []
        for m in ordered(matches):
            if not m.rates:
                continue
            players = (*m.team_a, *m.team_b)
            before = [self.get(p) for p in players]
            after = self._update(m, before)
            self.sequence += 1
            for p, b, a in zip(players, before, after):
                self.current[p] = a
                added.append(RatingChange(self.sequence, m.match_id, p, b, a))
        self.history.extend(added)
        return added

    def _update(self, m: RatedMatch, before: list[Rating]) -> list[Rating]:
        if self.method == "hands":
            return self._update_by_hands(m, before)
        if self.method == "margin":
            scores = [float(m.points_a), float(m.points_b)]
            if (scores[0] > scores[1]) != (m.winner == 0) or scores[0] == scores[1]:
                scores = [1.0, 0.0] if m.winner == 0 else [0.0, 1.0]  # tentos unknown (0-0) or odd: the win
            return _rate(self._model, before, m.winner, abs(scores[0] - scores[1]))
        return _rate(self._model, before, m.winner, 0.0)

    def _update_by_hands(self, m: RatedMatch, before: list[Rating]) -> list[Rating]:
        factor = hand_factor(m.hands, m.winner, self.hand_shape)
        after = _rate(self._model, before, m.winner, 0.0)
        winners = (0, 1) if m.winner == 0 else (2, 3)
        return [Rating(a.mu if factor == 1.0 else b.mu + factor * (a.mu - b.mu),
                       min(a.sigma, b.sigma) if i in winners else a.sigma)
                for i, (b, a) in enumerate(zip(before, after))]


def hand_tentos(hands: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The tentos each team scored in ``hands`` (``(scoring team, value)`` in order), game by game: a
    game ends when a team reaches :data:`GAME_POINTS`, and counts at most that many (the score)."""
    total, game = [0, 0], [0, 0]
    for side, value in hands:
        if side not in (0, 1) or value <= 0:
            continue
        game[side] = min(GAME_POINTS, game[side] + value)
        if game[side] == GAME_POINTS:
            total, game = [total[0] + game[0], total[1] + game[1]], [0, 0]
    return total[0] + game[0], total[1] + game[1]


def hand_share(hands: Iterable[tuple[int, int]], winner: int) -> float | None:
    """The match winner's share of the tentos scored in the hands (:func:`hand_tentos`); ``None``
    without a hand that scored."""
    tentos = hand_tentos(hands)
    return tentos[winner] / sum(tentos) if sum(tentos) else None


def hand_factor(hands: Iterable[tuple[int, int]], winner: int,
                shape: tuple[float, float] = (HAND_STRENGTH, HAND_CENTER)) -> float:
    """How far the hands method moves the means, against the ``match`` method: ``exp(strength *
    (share - center))`` of :func:`hand_share`, 1 without hands. Positive (the result's direction
    stands), non-decreasing in the winner's tentos and non-increasing in the loser's."""
    strength, center = shape
    share = hand_share(hands, winner)
    return 1.0 if share is None else math.exp(strength * (share - center))


def _rate(model: PlackettLuce, before: list[Rating], winner: int, score_diff: float) -> list[Rating]:
    """openskill's ``rate`` of two teams of two (``before``: team a's players then team b's), one
    winner: by ``ranks``, or by ``scores`` that differ by ``score_diff`` when it is positive (the
    margin counts). The answer in the same order."""
    teams = [[model.rating(mu=r.mu, sigma=r.sigma) for r in before[:2]],
             [model.rating(mu=r.mu, sigma=r.sigma) for r in before[2:]]]
    if score_diff > 0:
        new = model.rate(teams, scores=[score_diff, 0.0] if winner == 0 else [0.0, score_diff])
    else:
        new = model.rate(teams, ranks=[0.0, 1.0] if winner == 0 else [1.0, 0.0])
    return [Rating(p.mu, p.sigma) for team in new for p in team]


def ordered(matches: Iterable[RatedMatch]) -> list[RatedMatch]:
    """The matches in the order they are rated: by ``key``, then by match id."""
    return sorted(matches, key=lambda m: (m.key, m.match_id))


def compute(matches: Iterable[RatedMatch], method: str = "match") -> Ratings:
    """Every player's rating and history from ``matches`` (reproducible: same matches, same ratings)."""
    ratings = Ratings(method)
    ratings.rate(matches)
    return ratings


def log_loss(matches: Iterable[RatedMatch], method: str = "match", warm_up: int = 0) -> tuple[float, int]:
    """How well ``method`` predicts each next match: before rating a match, the chance the
    ratings so far gave its winner; the mean of ``-ln(p)`` over the matches after the first
    ``warm_up`` (and the number of matches scored). Lower is better; 0.693 is a coin toss."""
    ratings = Ratings(method)
    total, n = 0.0, 0
    for i, m in enumerate(ordered(matches)):
        if not m.rates:
            continue
        if i >= warm_up:
            p = ratings.win_probability(m.team_a, m.team_b)
            p = p if m.winner == 0 else 1.0 - p
            total += -math.log(min(max(p, 1e-12), 1.0))
            n += 1
        ratings.rate([m])
    return (total / n if n else float("nan")), n


def pair_rating(a: Rating, b: Rating) -> Rating:
    """A pair's combined rating: openskill's team (the sum of the partners' ``mu`` and variances),
    shown per player (halved) so it reads on the same scale as one player's."""
    mu = (a.mu + b.mu) / 2
    sigma = math.sqrt(a.sigma ** 2 + b.sigma ** 2) / 2
    return Rating(mu, sigma)
