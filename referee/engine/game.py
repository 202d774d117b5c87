"""A game to 12: adding a hand's points to the score, the end of the game, the next dealer.

The game ends when a team reaches 12; by default a hand cannot take a team past 12
(option ``score_cap``). The deal passes to the player on the dealer's right, who leads
the first trick (art. 4; the README's seats run counter-clockwise).
"""
from __future__ import annotations

from .rules import RuleSet

GAME_POINTS = 12


def add_points(score: tuple[int, int], team: int | None, points: int, rules: RuleSet) -> tuple[int, int]:
    """The score after ``team`` scores ``points`` (nobody when team is None)."""
    if team is None or points == 0:
        return score
    total = score[team] + points
    if rules.score_cap and total > GAME_POINTS:
        total = GAME_POINTS
    return (total, score[1]) if team == 0 else (score[0], total)


def game_winner(score: tuple[int, int]) -> int | None:
    if score[0] >= GAME_POINTS:
        return 0
    if score[1] >= GAME_POINTS:
        return 1
    return None


def next_dealer(dealer: int) -> int:
    return (dealer + 1) % 4
