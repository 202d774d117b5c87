"""Whether a match's games and tentos (points) agree with its winner.

This module owns the consistency check of a result typed in by hand (an organizer's
result, art. 26): the standings add up the tentos for the point difference ("saldo de
tentos", a default tiebreak), so a result with the winner on 3 and the loser on 12 would
give both pairs a wrong difference.

A game is played to 12 points (the regulamento técnico counts to 12: a team "at eleven"
plays the mão de onze, art. 18-19, both at 11 the mão de ferro, art. 20; the winners hand in
the súmula, art. 25).  So, in every game:

* the winner of the game has reached 12: exactly 12 when a hand cannot take a team past
  12 (the rule set's ``score_cap``, the default), at most 11 + 12 = 23 otherwise;
* the loser of the game stayed below 12 (0 to 11).

For a match of ``best_of`` games (1, 3 or 5) the winner of the match wins ``best_of // 2
+ 1`` games and the loser fewer; the tentos are totals over the games, so with ``W`` and
``L`` the games each won and ``cap`` the most a game winner can have (12, or 23):

* the match winner's tentos lie in ``[12 W, cap W + 11 L]``;
* the match loser's tentos lie in ``[12 L, 11 W + cap L]``.

Best of 1 is the case ``W = 1, L = 0``: the winner has 12 (12 to 23 without the cap), the
loser 0 to 11; 60-0 in a best of 1 and 3-12 won by the pair on 3 are both refused.

Pure Python: the service calls :func:`check_match_score` and turns :class:`ScoreError`
(``field`` is ``"games"`` or ``"points"``, ``code`` names the broken rule) into its own
translated 400 error.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GAME_POINTS", "ScoreError", "points_bounds", "check_match_score"]

GAME_POINTS = 12
"""A game is won by the first pair to reach 12 (art. 18-20: the hand of eleven, the iron hand at 11-11)."""
MAX_HAND_POINTS = 12
"""The most one hand is worth: a "doze" accepted (art. 11, 13)."""


class ScoreError(ValueError):
    """A result whose games or tentos contradict its winner. ``code`` is one of
    ``best_of``, ``games``, ``winner_points``, ``loser_points``; ``bounds`` the allowed range
    of the tentos, when the tentos are at fault."""

    def __init__(self, message: str, *, field: str, code: str, bounds: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.bounds = bounds


@dataclass(frozen=True)
class PointsBounds:
    winner: tuple[int, int]
    loser: tuple[int, int]


def points_bounds(winner_games: int, loser_games: int, *, score_cap: bool = True) -> PointsBounds:
    """The tentos the match winner and the match loser may have, given the games each won."""
    cap = GAME_POINTS if score_cap else GAME_POINTS - 1 + MAX_HAND_POINTS
    below = GAME_POINTS - 1
    w, lost = winner_games, loser_games
    return PointsBounds(
        winner=(GAME_POINTS * w, cap * w + below * lost),
        loser=(GAME_POINTS * lost, below * w + cap * lost),
    )


def check_match_score(
    best_of: int,
    games: tuple[int, int],
    points: tuple[int, int],
    *,
    score_cap: bool = True,
) -> None:
    """Raise :class:`ScoreError` unless ``games`` and ``points``, given as ``(winner, loser)`` of
    the match, are a possible result of a best-of-``best_of`` match to 12 points."""
    if best_of not in (1, 3, 5):
        raise ScoreError(f"a match is played to the best of 1, 3 or 5 games, not {best_of}",
                         field="best_of", code="best_of")
    need = best_of // 2 + 1
    won, lost = games
    if won != need or not 0 <= lost < need:
        raise ScoreError(f"in a best of {best_of} the winner wins {need} games and the other fewer",
                         field="games", code="games")
    bounds = points_bounds(won, lost, score_cap=score_cap)
    winner_points, loser_points = points
    low, high = bounds.winner
    if not low <= winner_points <= high:
        raise ScoreError(
            f"the winner of {won}-{lost} in games has between {low} and {high} tentos (games to {GAME_POINTS}), "
            f"not {winner_points}",
            field="points", code="winner_points", bounds=bounds.winner,
        )
    low, high = bounds.loser
    if not low <= loser_points <= high:
        raise ScoreError(
            f"the loser of {won}-{lost} in games has between {low} and {high} tentos (games to {GAME_POINTS}), "
            f"not {loser_points}",
            field="points", code="loser_points", bounds=bounds.loser,
        )
