"""The fast path of the replay: a hand played cleanly, judged in one flat loop.

Most reports are ordinary hands: cards played in turn, raises in order answered by the other team,
perhaps a mão de onze decision. :func:`clean_verdict` replays exactly those, applying the same
checks as :class:`~referee.engine.hand.HandReplay` (art. 4, 11-13, 18, 23 …), and gives up —
returns ``None`` — at the first thing that is not clean: any event or field it does not know, any
check that fails, any violation to report, an option it does not model. The caller then replays
the report with the full engine, which gives the error or the violations. So the fast path never
decides anything the full engine would decide otherwise; ``tests/referee/test_engine_fast_path.py``
checks that both give the same verdict, on clean and broken hands.

One source for each rule: the loop is the fast path's own, the rules are not. A trick is
resolved by :func:`~referee.engine.tricks.trick_result` and the next leader by ``leader_after_tie``, the
hand by ``hand_winner`` and three tied tricks by ``tied_hand_winner``, a call by
:func:`~referee.engine.raises.raise_back_fault` / ``new_raise_faults``, the hand's start (mão de onze, de ferro) by
:func:`~referee.engine.game.hand_start` and a refused mão de onze by ``eleven_refused``, the score and the game's end by
:func:`~referee.engine.game.add_points` / ``game_winner``, the claim by ``game.claim_matches`` — the very
functions the full replay and the summary apply. ``tests/referee/test_engine_oracle.py`` compares both
paths with an oracle written apart from the text.

Why it exists: profiling (``benchmarks/engine.py``) showed the time of a clean hand spread over
method calls, attribute look-ups and per-event dispatch of the general replay, not in any one rule.
"""
from __future__ import annotations

from .cards import CARD_LOOKUP, DECK_MASKS
from .errors import printable
from .game import add_points, claim_matches, eleven_refused, game_winner, hand_start
from .raises import CALLS, NEXT_VALUE, new_raise_faults, raise_back_fault
from .rules import DEFAULT, rule_set_from
from .tricks import COVERED, hand_winner, leader_after_tie, strengths, tied_hand_winner, trick_result

_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}
_FIELDS = frozenset({"rules", "dealer", "vira", "score", "deal", "events", "claimed", "id"})
_ZERO = (0, 0)
_DEFAULT_PRESET = DEFAULT.preset
_DEFAULT_OPTIONS = DEFAULT.as_dict()["options"]


def clean_verdict(report: dict, max_events: int) -> dict | None:  # noqa: C901 (one flat loop on purpose)
    """The verdict of a cleanly played hand, or None when the full engine must judge the report.

    A missing key or an unhashable value raises (KeyError, TypeError): the caller
    (:func:`referee.engine.verdict.check_report`) takes that as None too.
    """
    if not _FIELDS.issuperset(report):
        return None
    spec = report.get("rules")
    if spec is None:
        rules = DEFAULT
        rules_dict = {"preset": _DEFAULT_PRESET, "options": _DEFAULT_OPTIONS.copy()}
    else:
        rules = rule_set_from(spec)
        if rules.show_highest_after_tied_first:
            return None
        rules_dict = rules.as_dict()
    dealer = report["dealer"]
    if type(dealer) is not int or not 0 <= dealer <= 3:
        return None
    lookup = CARD_LOOKUP.get
    vira = lookup(report["vira"])  # every key of CARD_LOOKUP is a str: anything else is None
    deck_mask = DECK_MASKS[rules.deck]
    if vira is None or not deck_mask >> vira & 1:
        return None
    score = report.get("score", _ZERO)
    if score is not _ZERO:
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
            if type(cards) is not list or len(cards) != 3:
                return None
            c0, c1, c2 = cards
            c0, c1, c2 = lookup(c0), lookup(c1), lookup(c2)
            if c0 is None or c1 is None or c2 is None:
                return None
            mask = 1 << c0 | 1 << c1 | 1 << c2
            if mask.bit_count() != 3:
                return None
            held[_SEATS[key]] = mask  # four distinct keys of "0".."3": every seat once
            dealt |= mask
        if dealt.bit_count() != 12 or dealt & ~unseen:
            return None
    events = report["events"]
    if type(events) is not list or len(events) > max_events:
        return None

    strength = strengths(rules.deck, vira)
    iron, eleven_team, value = hand_start((a, b), rules)  # art. 18: the same function as the full replay
    eleven_decided = eleven_team is None
    raising = eleven_team is None and not iron
    in_turn = rules.raises == "in_turn"
    cover_after_tie = rules.cover_after_tied_first
    lead_option = rules.lead_after_tie
    first = (dealer + 1) & 3
    turn = leader = first
    can_play = eleven_decided  # no raise pending, the mão de onze decided
    pending_value = pending_team = last_raiser = None
    plays: list[tuple[int, int]] = []  # (seat, strength) of the trick being played
    results: list[int | None] = []
    tricks: list[dict] = []
    winner = None
    points = 0
    ended_by = None
    for event in events:
        if ended_by is not None or type(event) is not dict:
            return None
        if "play" in event:
            # In turn: each seat once per trick, so at most three cards each (the trick count ends the hand).
            seat = event["seat"]
            if seat is not turn or not can_play:  # `is`: an int, never True for 1 (else: the full replay)
                return None
            size = len(event)
            covered = False
            if size != 2:
                covered = event["covered"]  # three keys: seat, play and covered, or a KeyError
                if size != 3:
                    return None
                if covered is not False:
                    if covered is not True or not results:
                        return None
                    if results[0] is None and not cover_after_tie:
                        return None
            card = lookup(event["play"])
            if card is None or not unseen >> card & 1:
                return None
            if held is not None and not held[seat] >> card & 1:
                return None
            unseen ^= 1 << card
            plays.append((seat, COVERED if covered else strength[card]))
            if len(plays) < 4:
                turn = (seat + 1) & 3
                continue
            # The trick is complete: the same rules as the full replay (tricks.trick_result, leader_after_tie).
            team, best_seat, tying_seat = trick_result(plays)
            results.append(team)
            if team is None:
                tricks.append({"number": len(results), "winner": None, "seat": None, "tie": True})
                leader = tying_seat if lead_option == "tying_player" else leader_after_tie(
                    plays, lead_option, first, leader, tying_seat)
            else:
                tricks.append({"number": len(results), "winner": team, "seat": best_seat, "tie": False})
                leader = best_seat
            if len(results) > 1:
                decided, hand_team = hand_winner(results)
                if decided:
                    if hand_team is not None:
                        winner, points, ended_by = hand_team, value, "tricks"
                    else:
                        winner = tied_hand_winner(rules, dealer, iron)
                        points = 0 if winner is None else value
                        ended_by = "iron_tie" if iron else "all_tied"
            plays = []
            turn = leader
        elif "call" in event:
            seat = event["seat"]
            call = event["call"]
            if len(event) != 2 or not raising or type(seat) is not int or not 0 <= seat <= 3 or type(call) is not str:
                return None
            team = seat & 1
            # The same raise rules as the full replay (raises.raise_back_fault, raises.new_raise_faults).
            if pending_value is not None:
                if raise_back_fault(call, team, pending_value, pending_team) is not None:
                    return None
                value, last_raiser = pending_value, pending_team  # a raise-back accepts the call it answers
                asked = NEXT_VALUE[value]
                if CALLS[call] != asked:
                    return None
            else:
                if new_raise_faults(call, team, seat, value, last_raiser, turn, in_turn):
                    return None
                asked = NEXT_VALUE[value]
            pending_value, pending_team = asked, team
            can_play = False
        elif "answer" in event:
            seat = event["seat"]
            answer = event["answer"]
            if len(event) != 2 or pending_value is None or type(seat) is not int or not 0 <= seat <= 3 \
                    or seat & 1 == pending_team:
                return None
            if answer == "run":
                winner, points, ended_by = pending_team, value, "run"
            elif answer == "accept":
                value, last_raiser = pending_value, pending_team
            else:
                return None
            pending_value = None
            can_play = True
        elif "eleven" in event:
            team = event["team"]
            decision = event["eleven"]
            if len(event) != 2 or eleven_decided or type(team) is not int or team != eleven_team:
                return None
            eleven_decided = can_play = True
            if decision == "run":
                winner, value = eleven_refused(team, rules)
                points, ended_by = value, "eleven_refused"
            elif decision != "play":
                return None
        else:
            return None
    if ended_by is None:
        return None

    # The score after the hand and the game's end: the same functions as the full replay.
    a_after, b_after = add_points((a, b), winner, points, rules)
    game = game_winner((a_after, b_after))
    verdict = {
        "valid": True,
        "rules": rules_dict,
        "winner": winner,
        "points": points,
        "hand_value": value,
        "score_before": [a, b],
        "score_after": [a_after, b_after],
        "tricks": tricks,
        "ended_by": ended_by,
        "game_winner": game,
        "next_dealer": first,
        "violations": [],
    }
    if "claimed" in report:
        # game.claim_matches, as the full replay: a malformed claim raises (the full replay words it)
        if not claim_matches(report["claimed"], winner, points):
            return None  # the full engine words the mismatch
        verdict["claim_matches"] = True
    if "id" in report:
        verdict["id"] = printable(report["id"])
    return verdict
