"""Random legal hands, as reports: for the property tests, the benchmark and the demo.

``random_report(rng)`` deals a real deck and plays a hand by the default rules: players
in turn (art. 4, 12), no covered card in the first trick (art. 11.1), raises in order by
the player in turn with the teams alternating (art. 12), answers by the other team
(art. 13, 17), the mão de onze decision first (art. 18) and no raise in it (art. 19).
The engine must find no violation in any of them.
"""
from __future__ import annotations

import random

from .cards import CARD_NAMES, DECK_CARDS
from .game import hand_start
from .raises import CALL_FOR_VALUE, NEXT_VALUE
from .rules import DEFAULT
from .tricks import hand_winner, strengths, trick_result


def random_score(rng: random.Random) -> list[int]:
    roll = rng.random()
    if roll < 0.08:
        return [11, 11]
    if roll < 0.2:
        team = rng.randrange(2)
        score = [0, 0]
        score[team], score[1 - team] = 11, rng.randrange(11)
        return score
    return [rng.randrange(11), rng.randrange(11)]


def random_report(rng: random.Random, *, with_deal: bool = True, claim: bool = False,
                  score: list[int] | None = None, deck: str = "sujo") -> dict:
    """One random legal hand report under the default rule set (with ``deck``)."""
    cards = sorted(DECK_CARDS[deck])
    drawn = rng.sample(cards, 13)
    vira, hands = drawn[0], [drawn[1 + 3 * s: 4 + 3 * s] for s in range(4)]
    power = strengths(deck, vira)
    dealer = rng.randrange(4)
    score = list(score) if score is not None else random_score(rng)
    events: list[dict] = []
    iron, eleven, value = hand_start(tuple(score), DEFAULT)  # art. 18: the one rule of the hand's start
    winner, points = None, 0
    if eleven is not None:
        if rng.random() < 0.25:
            events.append({"team": eleven, "eleven": "run"})
            return _report(deck, dealer, vira, score, hands, events, with_deal, claim, 1 - eleven, 1)
        events.append({"team": eleven, "eleven": "play"})
    raising = eleven is None and not iron
    last_raiser = None
    leader = (dealer + 1) % 4
    results: list[int | None] = []
    held = [list(h) for h in hands]
    while True:
        table: list[tuple[int, int]] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            team = seat & 1
            if raising and value < 12 and last_raiser != team and rng.random() < 0.12:
                # the player in turn raises; answers may raise back
                caller = team
                asked = NEXT_VALUE[value]
                events.append({"seat": seat, "call": CALL_FOR_VALUE[asked]})
                while True:
                    answerer = (seat + 1 + 2 * rng.randrange(2)) % 4 if caller == team else seat
                    roll = rng.random()
                    if roll < 0.2:
                        events.append({"seat": answerer, "answer": "run"})
                        return _report(deck, dealer, vira, score, hands, events, with_deal, claim, caller, value)
                    if roll < 0.3 and asked < 12:
                        value = asked
                        caller = 1 - caller
                        asked = NEXT_VALUE[value]
                        events.append({"seat": answerer, "call": CALL_FOR_VALUE[asked]})
                        continue
                    events.append({"seat": answerer, "answer": "accept"})
                    value, last_raiser = asked, caller
                    break
            card = held[seat].pop(rng.randrange(len(held[seat])))
            covered = bool(results) and rng.random() < 0.1
            event = {"seat": seat, "play": CARD_NAMES[card]}
            if covered:
                event["covered"] = True
            events.append(event)
            table.append((seat, 0 if covered else power[card]))
        result, best_seat, tying_seat = trick_result(table)
        results.append(result)
        decided, winner = hand_winner(results)
        if decided:
            points = value if winner is not None else 0
            return _report(deck, dealer, vira, score, hands, events, with_deal, claim, winner, points)
        leader = best_seat if result is not None else tying_seat


def _report(deck, dealer, vira, score, hands, events, with_deal, claim, winner, points) -> dict:
    report: dict = {"dealer": dealer, "vira": CARD_NAMES[vira], "score": score, "events": events}
    if deck != "sujo":
        report["rules"] = {"preset": "regulamento-tecnico", "options": {"deck": deck}}
    if with_deal:
        report["deal"] = {str(s): [CARD_NAMES[c] for c in hands[s]] for s in range(4)}
    if claim:
        report["claimed"] = {"winner": winner, "points": points}
    return report
