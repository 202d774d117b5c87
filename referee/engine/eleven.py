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

Limits (a report may not make the referee's machine work for seconds): the search visits at
most ``MAX_NODES`` positions, a few tenths of a second, and raises :class:`ProofNotSettled`
past that, so the caller refuses the proof instead of half-applying it; the result of a
search is kept (``_RESULTS``, the last ``RESULTS_KEPT`` hands), so the same hand re-sent is
not searched again.
"""
from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

from .tricks import hand_winner, leader_after_tie, trick_result


#: Most positions one proof may visit: about half a second here; 800 random mãos de onze never needed it.
MAX_NODES = 100_000
RESULTS_KEPT = 512
_RESULTS: OrderedDict[tuple, bool | None] = OrderedDict()  # None: not settled within MAX_NODES


class ProofNotSettled(Exception):
    """The search met its bound before settling the proof."""


def sure_win(strength: tuple[int, ...], deal: dict[int, list[int]], team: int, dealer: int,
             seen: set[int], deck: frozenset[int] | None = None, tied_winner: int | None = None,
             max_nodes: int = MAX_NODES, lead_after_tie: str = "tying_player") -> bool:
    """Whether ``team``'s dealt cards win the hand against any opponents' cards and play.

    Raises :class:`ProofNotSettled` when the search would visit more than ``max_nodes`` positions.
    """
    from .cards import DECK_CARDS

    deck = deck if deck is not None else DECK_CARDS["sujo"]
    key = (strength, tuple(sorted(deal[team])), tuple(sorted(deal[team + 2])), team, dealer,
           frozenset(seen), deck, tied_winner, max_nodes, lead_after_tie)
    if key in _RESULTS:
        _RESULTS.move_to_end(key)
        result = _RESULTS[key]
    else:
        try:
            result = _search(strength, deal, team, dealer, seen, deck, tied_winner, max_nodes, lead_after_tie)
        except ProofNotSettled:
            result = None
        _RESULTS[key] = result
        if len(_RESULTS) > RESULTS_KEPT:
            _RESULTS.popitem(last=False)
    if result is None:
        raise ProofNotSettled
    return result


def _search(strength: tuple[int, ...], deal: dict[int, list[int]], team: int, dealer: int,
            seen: set[int], deck: frozenset[int], tied_winner: int | None, max_nodes: int,
            lead_after_tie: str = "tying_player") -> bool:
    nodes = [max_nodes]
    first_player = (dealer + 1) & 3
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
        nodes[0] -= 1
        if nodes[0] < 0:
            raise ProofNotSettled
        if len(table) == 4:
            result, seat, tying = trick_result(list(table))
            new_results = results + (result,)
            decided, winner = hand_winner(list(new_results))
            if decided:
                return winner == team if winner is not None else tied_winner == team
            next_leader = seat if result is not None else leader_after_tie(
                list(table), lead_after_tie, first_player, leader, tying)
            return search(hands, left, new_results, next_leader, ())
        seat = (leader + len(table)) & 3
        if seat & 1 == team:
            mine = hands[seat >> 1]
            return any(
                search(_without(hands, seat >> 1, i), left, results, leader, table + ((seat, v),))
                for i, v in reversed(tuple(enumerate(mine))) if i == 0 or mine[i - 1] != v
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
            for v in sorted(options, reverse=True)
        )

    # hands[seat >> 1] holds a team seat's cards: seats 0/2 or 1/3 → 0/1
    return search((own[team], own[team + 2]), pool_counts, (), (dealer + 1) % 4, ())


def _without(hands: tuple, which: int, index: int) -> tuple:
    hand = hands[which]
    reduced = hand[:index] + hand[index + 1:]
    return (reduced, hands[1]) if which == 0 else (hands[0], reduced)


def _take(left: tuple, value: int) -> tuple:
    return tuple((v, n - 1) if v == value else (v, n) for v, n in left if not (v == value and n == 1))
