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
  - ``hands``: every hand of the súmula is a small match between the two pairs, won by the pair
    that scored it, with the value at stake as its margin (a hand worth 12 tells more than a
    hand worth 1); a hand model with a larger ``beta`` (one hand is noisier than a match) and a
    smaller ``tau`` (there are many hands), so a match moves ratings about as far as a match
    result would, in the direction of the tentos won hand by hand;

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

METHODS = ("match", "margin", "hands")
MU, SIGMA = 25.0, 25.0 / 3.0
# openskill's defaults are beta = 25/6 and tau = 25/300. With them the predictions of a Truco match
# are overconfident (a log-loss of 0.67 on generated seasons, 0.60 with beta four times larger):
# one match to 12 is a noisy measure of two pairs. The betas below were chosen on generated
# seasons 1-3 (benchmarks/ratings.py) and are checked on seasons 6-10 (docs/ratings.md).
BETA, TAU = 4 * 25.0 / 6.0, 25.0 / 300.0
MARGIN = 6.0  # tentos: half a game
HAND_BETA, HAND_TAU, HAND_MARGIN = 3 * 25.0 / 6.0, TAU / 5.0, 2.0


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

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method: one of {', '.join(METHODS)}")
        self._model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU,
                                   margin=MARGIN if self.method == "margin" else 0.0)
        self._hand_model = PlackettLuce(mu=MU, sigma=SIGMA, beta=HAND_BETA, tau=HAND_TAU, margin=HAND_MARGIN)

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
        if self.method == "hands" and m.hands:
            return self._update_by_hands(m, before)
        state = [(r.mu, r.sigma) for r in before]
        if self.method == "margin":
            scores = [float(m.points_a), float(m.points_b)]
            if (scores[0] > scores[1]) != (m.winner == 0) or scores[0] == scores[1]:
                scores = [1.0, 0.0] if m.winner == 0 else [0.0, 1.0]  # tentos unknown (0-0) or odd: the win
            state = two_team_rate(state, m.winner, abs(scores[0] - scores[1]), BETA, TAU, MARGIN)
        else:
            state = two_team_rate(state, m.winner, 0.0, BETA, TAU, 0.0)
        return [Rating(mu, sigma) for mu, sigma in state]

    def _update_by_hands(self, m: RatedMatch, before: list[Rating]) -> list[Rating]:
        state = [(r.mu, r.sigma) for r in before]
        for side, value in m.hands:
            if side not in (0, 1) or value <= 0:
                continue
            state = two_team_rate(state, side, float(value), HAND_BETA, HAND_TAU, HAND_MARGIN)
        return [Rating(mu, sigma) for mu, sigma in state]


KAPPA = 0.0001  # openskill's default


def two_team_rate(state: list[tuple[float, float]], winner: int, score_diff: float, beta: float, tau: float,
                  margin: float) -> list[tuple[float, float]]:
    """openskill's ``PlackettLuce(beta=beta, tau=tau, margin=margin).rate`` of two teams of two, one
    winner (``ranks``, or ``scores`` that differ by ``score_diff``; 0: ranks only), written out for this
    one case on plain floats: the same operations in the same order (so bit for bit the same ratings,
    ``tests/tournaments/test_pairing_ratings.py`` checks it against openskill), without openskill's
    argument checks, deep copies and rating objects, which cost 8 times the arithmetic. ``state`` is
    ``[(mu, sigma)]`` of team a's two players then team b's; the answer in the same order.
    (Weng & Lin 2011, algorithm 4; openskill 6.2 ``PlackettLuce.rate``, ``_compute``, ``_sum_q``.)"""
    tau_squared = tau * tau
    sig = [math.sqrt(s * s + tau_squared) for _mu, s in state]
    mus = [mu for mu, _s in state]
    # the teams in rank order (the winner first), as openskill sorts them before computing
    order = (0, 1) if winner == 0 else (1, 0)
    team_mu = [mus[2 * t] + mus[2 * t + 1] for t in order]
    team_s2 = [sig[2 * t] ** 2 + sig[2 * t + 1] ** 2 for t in order]
    beta_squared = beta ** 2
    collective = 0.0
    collective += team_s2[0] + beta_squared
    collective += team_s2[1] + beta_squared
    c = math.sqrt(collective)
    adjusted = list(team_mu)
    if score_diff > 0:
        factor = math.log1p(score_diff / margin) if score_diff > margin and margin > 0.0 else 1.0
        shift = (team_mu[0] - team_mu[1]) * (factor - 1.0)
        adjusted = [team_mu[0] + (0.0 - shift), team_mu[1] + (0.0 + shift)]
    e_w, e_l = math.exp(adjusted[0] / c), math.exp(adjusted[1] / c)
    sum_w, sum_l = e_w + e_l, e_l
    # the winner (rank 0) compares with itself only; the loser with the winner and itself
    p = e_w / sum_w
    omega_w, delta_w = 0.0 + (1 - p) / 1, 0.0 + p * (1 - p) / 1
    p, p2 = e_l / sum_w, e_l / sum_l
    delta_l = 0.0 + p * (1 - p) / 1
    omega_l = 0.0 - p / 1
    delta_l += p2 * (1 - p2) / 1
    omega_l += (1 - p2) / 1
    out: list[tuple[float, float]] = [(0.0, 0.0)] * 4
    for rank, (omega, delta) in enumerate(((omega_w, delta_w), (omega_l, delta_l))):
        s2 = team_s2[rank]
        omega *= s2 / c
        delta *= s2 / c ** 2
        delta *= math.sqrt(s2) / c
        t = order[rank]
        for j in (2 * t, 2 * t + 1):
            mu, sigma = mus[j], sig[j]
            if omega >= 0:
                mu += (sigma ** 2 / s2) * omega * 1.0
                sigma *= math.sqrt(max(1 - (sigma ** 2 / s2) * delta * 1.0, KAPPA))
            else:
                mu += (sigma ** 2 / s2) * omega / 1.0
                sigma *= math.sqrt(max(1 - (sigma ** 2 / s2) * delta / 1.0, KAPPA))
            out[j] = (mu, sigma)
    return out


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
