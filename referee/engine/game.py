"""A game to 12: adding a hand's points to the score, the end of the game, the next dealer, the value in play.

The game ends when a team reaches 12: nothing is added to a finished game, so only one team can
have 12 (12-12 cannot exist); by default a hand cannot take a team past 12 (option ``score_cap``).
The deal passes to the player on the dealer's right, who leads the first trick (art. 4; the
README's seats run counter-clockwise), whether the hand was played out or ended by a tento.

Each of these rules lives here once; the súmula, the table page, the referee's claims, rulings and
appeals call these functions rather than doing the arithmetic again.
"""
from __future__ import annotations

from collections.abc import Iterable

from .cards import parse_card
from .errors import ReportError
from .rules import RuleSet

GAME_POINTS = 12


def add_points(score: tuple[int, int], team: int | None, points: int, rules: RuleSet) -> tuple[int, int]:
    """The score after ``team`` scores ``points`` (nobody when team is None).

    A game ends when a team reaches 12 (the digest's score limit; art. 25 "terminada a partida"): a game
    already won takes no more points, so a tento claimed after the game-winning hand cannot make it 12-12.
    """
    if team is None or points == 0 or game_winner(score) is not None:
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


def game_start(eleven_all: bool = False) -> tuple[int, int]:
    """The score a game starts at: 0×0, or 11×11 for a game the room's ``eleven_all`` end-of-time procedure
    starts so (a mão de ferro from its first hand, art. 18, 20; docs/room.md)."""
    return (GAME_POINTS - 1, GAME_POINTS - 1) if eleven_all else (0, 0)


def value_fixed(score: tuple[int, int]) -> bool:
    """Whether the hand's value is fixed by the score: a mão de onze or de ferro, where nobody raises
    (art. 18, 19), so the tento in play is the hand's own value (:func:`value_in_play`)."""
    iron, eleven_team = eleven_state(score)
    return iron or eleven_team is not None


def eleven_state(score: tuple[int, int]) -> tuple[bool, int | None]:
    """(mão de ferro: both teams at 11, the team at 11 in a mão de onze or None) (art. 18)."""
    a, b = score
    at_eleven = GAME_POINTS - 1
    if a == at_eleven and b == at_eleven:
        return True, None
    return False, 0 if a == at_eleven else 1 if b == at_eleven else None


def eleven_refused(team: int, rules: RuleSet) -> tuple[int, int]:
    """(the team that scores, the points) when ``team``, at 11, refuses to play the mão de onze (art. 18;
    the texts' 1 point, option ``eleven_run_points``)."""
    return 1 - team, rules.eleven_run_points


def game_winner(score: tuple[int, int]) -> int | None:
    """The team that reached 12, or None while the game goes on. Both at 12 cannot happen through
    :func:`add_points` (a finished game takes no more points); such a score is refused."""
    a, b = score
    if a >= GAME_POINTS and b >= GAME_POINTS:
        raise ValueError(f"score {a}-{b}: a game ends when the first team reaches {GAME_POINTS}")
    if a >= GAME_POINTS:
        return 0
    if b >= GAME_POINTS:
        return 1
    return None


def next_dealer(dealer: int) -> int:
    """art. 4: the deal passes to the right, to the player who led the hand just ended."""
    return (dealer + 1) % 4


def points_to_game(score: tuple[int, int], team: int) -> int:
    """How many points take ``team`` to 12, the end of the game (what a lost game costs: art. 19, a match lost)."""
    return max(0, GAME_POINTS - score[team])


def dealer_in_turn(first_dealer: int, ended: Iterable[int | None] = ()) -> int:
    """The dealer of the next hand of a game (art. 1, 4): the table's draw for the game's first hand, then
    the seat after the dealer of the last hand that ended.

    ``ended``: for each entry of the game in order, the dealer of the hand it ended, or None for an entry
    that ended no hand (a penalty between hands, a warning). A hand played out ends its hand; so does a
    ruling that ends it (art. 24 "perda do tento em jogo", the house rules' tentos, art. 5's lost deal):
    the deal passes after it as after any hand.
    """
    last = None
    for dealer in ended:
        if dealer is not None:
            last = dealer
    return first_dealer if last is None else next_dealer(last)


def value_in_play(score: tuple[int, int], rules: RuleSet, stated: int | None = None) -> int:
    """The tento in play (art. 24 "perda do tento em jogo"): what the hand is worth now.

    In a mão de onze (3, art. 18) or a mão de ferro (``iron_hand_value``) nobody raises (art. 19), so the
    value is the hand's own whatever is stated; otherwise the value the table states (1, 3, 6, 9, 12 as
    raised, art. 11, 13), or 1 before any raise. ReportError ``value.fixed_eleven`` / ``value.fixed_iron`` when a stated value contradicts
    the mão de onze or de ferro.
    """
    iron, _eleven_team, start = hand_start(score, rules)
    if value_fixed(score):
        if stated is not None and stated != start:
            raise ReportError("value", "value.fixed_iron" if iron else "value.fixed_eleven",
                              {"value": stated, "fixed": start})
        return start
    return start if stated is None else stated


def time_up_result(games: tuple[int, int], score: tuple[int, int] | None) -> tuple[int | None, int | None]:
    """The room's end-of-time procedure once its hands are played (``higher_score``, ``one_more_hand``;
    docs/room.md, the regulation being silent): ``(the match's winner, the team given the game in play)``.

    More games wins, the game in play counted for no one; games level, the pair ahead in the game in play
    (``score``, None when no game is in play) wins and is given that game; level there too, ``(None, None)``:
    the tie rule, play goes on hand by hand. One rule for the entry, the penalties and the corrections.
    """
    if games[0] != games[1]:
        return (0 if games[0] > games[1] else 1), None
    if score is None or score[0] == score[1]:
        return None, None
    ahead = 0 if score[0] > score[1] else 1
    return ahead, ahead


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
