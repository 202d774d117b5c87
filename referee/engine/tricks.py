"""Vira and manilhas, the strength of a card, who wins a trick and who wins the hand.

- The manilha is the rank after the vira in the deck in use, wrapping 3 → 4 (como jogar;
  JTB "hierarquia"); on a clean deck the sequence is the deck's own (vira 3 → Q on *limpo*).
- Manilhas rank by suit: ouros < espadas < copas < paus (zap). Common cards rank
  4 5 6 7 Q J K A 2 3; equal common cards tie, suits never break it (art. 11.2–11.4 speak
  of ties; JTB: "o naipe ... não altera").
- A covered card is worth nothing (como jogar, "esconder"), and may not be played in the
  first trick (art. 11.1).
- The hand goes to the team that wins two tricks, with the ties of art. 11.2–11.4 and 11.6.
"""
from __future__ import annotations

from .cards import DECKS

COVERED = 0  # the strength of a covered card: below every shown card
_MANILHA_BASE = 20  # manilha strength = 20 + suit index; common cards 1..10

_STRENGTHS: dict[tuple[str, int], tuple[int, ...]] = {}


def manilha_rank(deck: str, vira: int) -> int:
    """Rank index of the manilha for this vira: the next rank of the deck, wrapping around."""
    ranks = DECKS[deck]
    position = ranks.index(vira // 4)
    return ranks[(position + 1) % len(ranks)]


def strengths(deck: str, vira: int) -> tuple[int, ...]:
    """Strength of each of the 40 cards for this vira (cached: 10 ranks × 3 decks at most)."""
    key = (deck, vira // 4)
    table = _STRENGTHS.get(key)
    if table is None:
        manilha = manilha_rank(deck, vira)
        table = tuple(
            _MANILHA_BASE + card % 4 if card // 4 == manilha else card // 4 + 1 for card in range(40)
        )
        _STRENGTHS[key] = table
    return table


def trick_result(plays: list[tuple[int, int]]) -> tuple[int | None, int, int]:
    """Resolve a trick from ``(seat, strength)`` in the order played.

    Returns ``(winning team or None for a tie, winning seat, tying seat)``. Partners who tie
    for the highest card win it for their team (the first of them is the winning seat); a
    tie across the teams leaves the trick tied, and the tying seat is the last player who
    showed a card of the top strength.
    """
    best = -1
    best_seat = tying_seat = -1
    teams = 0  # bit 1: team 0 holds the best; bit 2: team 1 holds it
    for seat, strength in plays:
        if strength > best:
            best, best_seat, tying_seat, teams = strength, seat, seat, 1 << (seat & 1)
        elif strength == best:
            tying_seat = seat
            teams |= 1 << (seat & 1)
    if teams == 3:
        return None, best_seat, tying_seat
    return best_seat & 1, best_seat, tying_seat


def hand_winner(results: list[int | None]) -> tuple[bool, int | None]:
    """Whether the tricks so far decide the hand, and for whom (None: all three tied, art. 11.4).

    art. 11.2: the team that made the first trick wins by making or tying one of the others.
    art. 11.3: a tied first trick is decided by the second, or by the third if that ties too.
    art. 11.6: a raiser who made the first trick wins with a tie in the third.
    """
    n = len(results)
    if n < 2:
        return False, None
    first, second = results[0], results[1]
    if n == 2:
        if first is None:
            return (True, second) if second is not None else (False, None)
        if second is None or second == first:
            return True, first
        return False, None
    third = results[2]
    if first is None:  # tied first and second
        return True, third
    if third is None:  # art. 11.2 / 11.6: the first trick decides
        return True, first
    return True, third


def tied_hand_winner(rules, dealer: int, iron: bool) -> int | None:
    """Who wins a hand whose three tricks tied: the one rule, for the replay, the fast path and the summary.

    By ``rules.all_tied`` (``iron_tie`` in a mão de ferro): nobody (art. 11.4; art. 20), the dealer's team
    (regras 4 jogadores "jogo empatado"; JTB case 5) or the team of the first player (mão).
    """
    option = rules.iron_tie if iron else rules.all_tied
    if option == "nobody":
        return None
    return dealer & 1 if option == "dealer_team" else (dealer + 1) & 1


def leader_after_tie(plays: list[tuple[int, int]], option: str, first_player: int, trick_leader: int,
                     tying_seat: int) -> int:
    """Who leads the trick after a tied one, by the rule set's ``lead_after_tie`` (the regulation is silent).

    ``tying_player``: the last player who showed the top card (``tying_seat``); ``first_player``: the
    hand's first player; ``trick_leader``: whoever led the tied trick; ``first_tying_player``: the first
    player who showed the top card; ``nearest_tying_player``: of the players who showed the top card,
    the nearest to the first player of the hand, counting counter-clockwise from him.
    """
    if option == "tying_player":
        return tying_seat
    if option == "first_player":
        return first_player
    if option == "trick_leader":
        return trick_leader
    best = max(strength for _, strength in plays)
    tied = [seat for seat, strength in plays if strength == best]
    if option == "first_tying_player":
        return tied[0]
    return min(tied, key=lambda seat: (seat - first_player) & 3)
