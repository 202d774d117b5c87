"""Mão de onze and mão de ferro: art. 21, proving a sure win instead of playing.

A team at 11 "whose cards guarantee the victory need not play them, only prove it"
(art. 21). The proof holds when the team wins the hand whatever cards the opponents hold
and however they play. The check is a game search in which the opponents may show any
card not yet seen (the vira and the team's own cards are seen), which is exactly "any
holding, any play": every sequence of distinct cards they show is some holding.

To keep the search small the opponents' cards are grouped by how they compare with the
team's cards (only that decides tricks); in each group they may show its lowest or its
highest card (the highest matters only for which opponent leads next). Raises cannot
happen in a mão de onze (art. 19), so only tricks count.
"""
from __future__ import annotations

from functools import lru_cache

from .tricks import hand_winner, trick_result


def sure_win(strength: tuple[int, ...], deal: dict[int, list[int]], team: int, dealer: int,
             seen: set[int], deck: frozenset[int] | None = None, tied_winner: int | None = None) -> bool:
    """Whether ``team``'s dealt cards win the hand against any opponents' cards and play."""
    from .cards import DECK_CARDS

    deck = deck if deck is not None else DECK_CARDS["sujo"]
    own = {seat: tuple(sorted(strength[c] for c in deal[seat])) for seat in (team, team + 2)}
    taken = set(seen) | {c for seat in own for c in deal[seat]}
    pool = sorted(strength[c] for c in deck if c not in taken)
    team_values = sorted({v for hand in own.values() for v in hand})

    def group(value: int) -> int:
        below = sum(1 for t in team_values if t < value)
        return 2 * below + (1 if value in team_values else 0)

    groups: dict[int, list[int]] = {}
    for value in pool:
        groups.setdefault(group(value), []).append(value)
    pool_counts = tuple(sorted((v, pool.count(v)) for v in set(pool)))

    @lru_cache(maxsize=None)
    def search(hands: tuple, left: tuple, results: tuple, leader: int, table: tuple) -> bool:
        if len(table) == 4:
            result, seat, tying = trick_result(list(table))
            new_results = results + (result,)
            decided, winner = hand_winner(list(new_results))
            if decided:
                return winner == team if winner is not None else tied_winner == team
            next_leader = seat if result is not None else tying
            return search(hands, left, new_results, next_leader, ())
        seat = (leader + len(table)) & 3
        if seat & 1 == team:
            mine = hands[seat >> 1]
            return any(
                search(_without(hands, seat >> 1, i), left, results, leader, table + ((seat, v),))
                for i, v in enumerate(mine) if i == 0 or mine[i - 1] != v
            )
        available = dict(left)
        options = set()
        for members in groups.values():
            present = [v for v in members if available.get(v, 0) > 0]
            if present:
                options.add(present[0])
                options.add(present[-1])
        return all(
            search(hands, _take(left, v), results, leader, table + ((seat, v),))
            for v in sorted(options)
        )

    # hands[seat >> 1] holds a team seat's cards: seats 0/2 or 1/3 → 0/1
    return search((own[team], own[team + 2]), pool_counts, (), (dealer + 1) % 4, ())


def _without(hands: tuple, which: int, index: int) -> tuple:
    hand = hands[which]
    reduced = hand[:index] + hand[index + 1:]
    return (reduced, hands[1]) if which == 0 else (hands[0], reduced)


def _take(left: tuple, value: int) -> tuple:
    return tuple((v, n - 1) if v == value else (v, n) for v, n in left if not (v == value and n == 1))
