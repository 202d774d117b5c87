"""The fast path of the replay: a hand played cleanly, judged in one flat loop.

Most reports are ordinary hands: cards played in turn, raises in order answered by the other team,
perhaps a mão de onze decision. :func:`clean_verdict` replays exactly those, applying the same
checks as :class:`~referee.engine.hand.HandReplay` (art. 4, 11-13, 18, 23 …), and gives up —
returns ``None`` — at the first thing that is not clean: any event or field it does not know, any
check that fails, any violation to report, an option it does not model. The caller then replays
the report with the full engine, which gives the error or the violations. So the fast path never
decides anything the full engine would decide otherwise; ``tests/referee/test_engine_fast_path.py``
checks that both give the same verdict, on clean and broken hands.

Why it exists: profiling (``benchmarks/engine.py``) showed the time of a clean hand spread over
method calls, attribute look-ups and per-event dispatch of the general replay, not in any one rule.
"""
from __future__ import annotations

from .cards import CARD_LOOKUP, DECK_MASKS
from .errors import printable
from .game import add_points, game_winner
from .raises import CALLS, NEXT_VALUE
from .rules import rule_set_from
from .tricks import hand_winner, leader_after_tie, strengths, trick_result

_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}
_PLAY2 = frozenset(("seat", "play"))
_PLAY3 = frozenset(("seat", "play", "covered"))
_CALL = frozenset(("seat", "call"))
_ANSWER = frozenset(("seat", "answer"))
_ELEVEN = frozenset(("team", "eleven"))
_FIELDS = frozenset({"rules", "dealer", "vira", "score", "deal", "events", "claimed", "id"})


def clean_verdict(report: dict, max_events: int) -> dict | None:  # noqa: C901 (one flat loop on purpose)
    """The verdict of a cleanly played hand, or None when the full engine must judge the report."""
    if not _FIELDS.issuperset(report):
        return None
    rules = rule_set_from(report.get("rules"))
    if rules.show_highest_after_tied_first:
        return None
    dealer = report.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        return None
    vira = CARD_LOOKUP.get(report.get("vira")) if type(report.get("vira")) is str else None
    deck_mask = DECK_MASKS[rules.deck]
    if vira is None or not deck_mask >> vira & 1:
        return None
    score = report.get("score", [0, 0])
    if type(score) is not list or len(score) != 2:
        return None
    a, b = score
    if type(a) is not int or type(b) is not int or not (0 <= a < 12 and 0 <= b < 12):
        return None
    unseen = deck_mask & ~(1 << vira)
    deal = report.get("deal")
    held = None
    if deal is not None:
        if type(deal) is not dict or len(deal) != 4:
            return None
        held = [0, 0, 0, 0]
        dealt = 0
        for key, cards in deal.items():
            seat = _SEATS.get(key)
            if seat is None or type(cards) is not list or len(cards) != 3:
                return None
            mask = 0
            for text in cards:
                card = CARD_LOOKUP.get(text) if type(text) is str else None
                if card is None:
                    return None
                mask |= 1 << card
            if mask.bit_count() != 3:
                return None
            held[seat] = mask
            dealt |= mask
        if dealt.bit_count() != 12 or dealt & ~unseen:
            return None
    events = report.get("events")
    if type(events) is not list or len(events) > max_events:
        return None

    strength = strengths(rules.deck, vira)
    iron = a == 11 and b == 11
    eleven_team = None if iron else 0 if a == 11 else 1 if b == 11 else None
    eleven_decided = eleven_team is None
    value = rules.iron_hand_value if iron else 3 if eleven_team is not None else 1
    raising = eleven_team is None and not iron
    in_turn = rules.raises == "in_turn"
    first = (dealer + 1) & 3
    turn = leader = first
    pending_value = pending_team = last_raiser = None
    plays: list[tuple[int, int]] = []
    results: list[int | None] = []
    tricks: list[dict] = []
    counts = [0, 0, 0, 0]
    winner = None
    points = 0
    ended_by = None
    for event in events:
        if ended_by is not None or type(event) is not dict:
            return None
        keys = event.keys()
        if keys == _PLAY2 or keys == _PLAY3:
            seat = event["seat"]
            if seat != turn or type(seat) is not int or pending_value is not None or not eleven_decided:
                return None
            covered = event.get("covered", False)
            if covered is not False:
                if covered is not True or not results:
                    return None
                if results[0] is None and not rules.cover_after_tied_first:
                    return None
            text = event["play"]
            card = CARD_LOOKUP.get(text) if type(text) is str else None
            if card is None or not unseen >> card & 1:
                return None
            if held is not None and not held[seat] >> card & 1:
                return None
            counts[seat] += 1
            if counts[seat] > 3:
                return None
            unseen ^= 1 << card
            plays.append((seat, 0 if covered else strength[card]))
            if len(plays) < 4:
                turn = (seat + 1) & 3
                continue
            team, best_seat, tying_seat = trick_result(plays)
            results.append(team)
            if team is None:
                tricks.append({"number": len(results), "winner": None, "seat": None, "tie": True})
                option = rules.lead_after_tie
                leader = tying_seat if option == "tying_player" else leader_after_tie(
                    plays, option, first, leader, tying_seat)
            else:
                tricks.append({"number": len(results), "winner": team, "seat": best_seat, "tie": False})
                leader = best_seat
            decided, hand_team = hand_winner(results)
            if decided:
                if hand_team is not None:
                    winner, points, ended_by = hand_team, value, "tricks"
                elif iron:
                    if rules.iron_tie == "nobody":
                        ended_by = "iron_tie"
                    else:
                        winner, points, ended_by = first & 1, value, "iron_tie"
                elif rules.all_tied == "nobody":
                    ended_by = "all_tied"
                else:
                    winner = dealer & 1 if rules.all_tied == "dealer_team" else first & 1
                    points, ended_by = value, "all_tied"
            plays = []
            turn = leader
        elif keys == _CALL:
            seat = event["seat"]
            call = event["call"]
            if not raising or type(seat) is not int or not 0 <= seat <= 3 or type(call) is not str:
                return None
            team = seat & 1
            if pending_value is not None:
                if pending_team == team or pending_value == 12:
                    return None
                value, last_raiser = pending_value, pending_team  # a raise-back accepts the call it answers
            else:
                if last_raiser == team or (in_turn and seat != turn):
                    return None
            asked = NEXT_VALUE.get(value)
            if asked is None or CALLS.get(call) != asked:
                return None
            pending_value, pending_team = asked, team
        elif keys == _ANSWER:
            seat = event["seat"]
            answer = event["answer"]
            if pending_value is None or type(seat) is not int or not 0 <= seat <= 3 or seat & 1 == pending_team:
                return None
            if answer == "run":
                winner, points, ended_by = pending_team, value, "run"
            elif answer == "accept":
                value, last_raiser = pending_value, pending_team
            else:
                return None
            pending_value = None
        elif keys == _ELEVEN:
            team = event["team"]
            decision = event["eleven"]
            if eleven_decided or type(team) is not int or team != eleven_team:
                return None
            eleven_decided = True
            if decision == "run":
                value = rules.eleven_run_points
                winner, points, ended_by = 1 - team, value, "eleven_refused"
            elif decision != "play":
                return None
        else:
            return None
    if ended_by is None:
        return None

    before = (a, b)
    after = add_points(before, winner, points, rules)
    verdict = {
        "valid": True,
        "rules": rules.as_dict(),
        "winner": winner,
        "points": points,
        "hand_value": value,
        "score_before": [a, b],
        "score_after": list(after),
        "tricks": tricks,
        "ended_by": ended_by,
        "game_winner": game_winner(after),
        "next_dealer": (dealer + 1) & 3,
        "violations": [],
    }
    if "claimed" in report:
        claimed = report["claimed"]
        if type(claimed) is not dict or claimed.keys() - {"winner", "points"} or "winner" not in claimed:
            return None
        claimed_winner = claimed["winner"]
        claimed_points = claimed.get("points", 0)
        if claimed_winner not in (0, 1, None) or type(claimed_winner) is bool or type(claimed_points) is not int:
            return None
        if claimed_winner != winner or claimed_points != points:
            return None  # the full engine words the mismatch
        verdict["claim_matches"] = True
    if "id" in report:
        verdict["id"] = printable(report["id"])
    return verdict
