"""A game to 12: adding a hand's points to the score, the end of the game, the next dealer.

The game ends when a team reaches 12; by default a hand cannot take a team past 12
(option ``score_cap``). The deal passes to the player on the dealer's right, who leads
the first trick (art. 4; the README's seats run counter-clockwise).
"""
from __future__ import annotations

from .cards import parse_card
from .errors import ReportError
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


def hand_start(score: tuple[int, int], rules: RuleSet) -> tuple[bool, int | None, int]:
    """What the score makes of the next hand: (mão de ferro, the team at 11 or None, the hand's value).

    art. 18: one team at 11 plays a mão de onze, worth 3; both at 11, the mão de ferro, worth
    ``iron_hand_value``; otherwise a hand starts at 1 (art. 11). One rule for the full replay, the fast
    path and the summary ("no rule exists twice").
    """
    iron, eleven_team = eleven_state(score)
    return iron, eleven_team, rules.iron_hand_value if iron else 1 if eleven_team is None else 3


def eleven_state(score: tuple[int, int]) -> tuple[bool, int | None]:
    """(mão de ferro: both teams at 11, the team at 11 in a mão de onze or None) (art. 18)."""
    a, b = score
    if a == 11 and b == 11:
        return True, None
    return False, 0 if a == 11 else 1 if b == 11 else None


def eleven_refused(team: int, rules: RuleSet) -> tuple[int, int]:
    """(the team that scores, the points) when ``team``, at 11, refuses to play the mão de onze (art. 18;
    the texts' 1 point, option ``eleven_run_points``)."""
    return 1 - team, rules.eleven_run_points


def game_winner(score: tuple[int, int]) -> int | None:
    if score[0] >= GAME_POINTS:
        return 0
    if score[1] >= GAME_POINTS:
        return 1
    return None


def next_dealer(dealer: int) -> int:
    return (dealer + 1) % 4


def first_dealer(draws: dict[int, object]) -> int | list[int]:
    """art. 1: each player draws a card; the highest card in truco deals first.

    Before any vira there are no manilhas, so the order is the common one (3 highest).
    Returns the dealer's seat, or the seats tied at the top, who draw again.
    """
    if not draws or any(type(seat) is not int or not 0 <= seat <= 3 for seat in draws):
        raise ReportError("draws", "game.draws")
    ranks = {seat: parse_card(card, f"draws.{seat}") // 4 for seat, card in draws.items()}
    top = max(ranks.values())
    leaders = sorted(seat for seat, rank in ranks.items() if rank == top)
    return leaders[0] if len(leaders) == 1 else leaders


def claim_matches(claimed: object, winner: int | None, points: int) -> bool:
    """Whether the table's claimed result (``{"winner": 0, 1 or null, "points": n}``) is the engine's (art. 25);
    ReportError when the claim cannot be read. One rule for the full replay and the fast path."""
    if type(claimed) is not dict or set(claimed) - {"winner", "points"} or "winner" not in claimed:
        raise ReportError("claimed", "claimed.object")
    if claimed["winner"] not in (0, 1, None) or type(claimed["winner"]) is bool:
        raise ReportError("claimed.winner", "claimed.winner")
    claimed_points = claimed.get("points", 0)
    if type(claimed_points) is not int:
        raise ReportError("claimed.points", "claimed.points")
    return claimed["winner"] == winner and claimed_points == points
