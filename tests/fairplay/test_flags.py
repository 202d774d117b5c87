"""The fair-play flags on plain records (fairplay/flags.py): a game entered too fast, a súmula typed in one
burst after the match (not a phone's offline queue), a pair running from one opponent's raises."""
from __future__ import annotations

import random

from fairplay.flags import Hand, MatchRecord, all_flags, burst_flags, pace_flags, run_flags


def _match(match_id: int, times: list[float], started: float = 0.0, a: int = 1, b: int = 2, hands=None):
    m = MatchRecord(match_id, a, b, started)
    for i, at in enumerate(times):
        ended, value, winner = hands[i] if hands else ("tricks", 1, i % 2)
        m.hands.append(Hand(at, 1, ended, value, winner))
    return m


def test_a_game_entered_as_it_went_at_a_minute_a_hand_is_not_flagged():
    honest = _match(1, [60.0 * i for i in range(1, 16)])
    assert all_flags([honest]) == []


def test_a_game_of_twelve_hands_in_a_minute_is_flagged_for_its_pace():
    fast = _match(1, [5.0 * i for i in range(1, 13)], started=0.0)
    [flag] = pace_flags([fast])
    assert flag.kind == "pace" and flag.figure < 90 and flag.matches == (1,)
    assert burst_flags([fast]) == []  # entered at the start: not a súmula typed afterwards


def test_a_sumula_typed_long_after_the_start_is_a_burst_not_a_pace_flag():
    typed = _match(1, [1800.0 + 8 * i for i in range(14)], started=0.0)
    [flag] = burst_flags([typed])
    assert flag.detail["hands"] == 14 and flag.detail["minutes_after_start"] == 30.0
    assert pace_flags([typed]) == []


def test_an_offline_queue_sent_at_once_is_neither_a_burst_nor_a_fast_game():
    times = [60.0 * i for i in range(1, 4)] + [900.0 + 0.2 * i for i in range(6)] + [960.0, 1020.0]
    queued = _match(1, times)
    assert burst_flags([queued]) == [] and pace_flags([queued]) == []


def test_a_pair_running_from_one_opponents_raises_is_flagged_with_a_corrected_p_value():
    rng = random.Random(3)
    matches, match_id = [], 0
    for _meeting in range(8):
        for a, b in ((1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (4, 5)):
            match_id += 1
            hands = []
            for _ in range(20):
                if rng.random() < 0.5:
                    raiser = rng.randrange(2)
                    runner = 1 - raiser
                    rate = 0.95 if (a, b) == (1, 2) and runner == 0 else 0.2
                    hands.append(("run", 1, raiser) if rng.random() < rate else ("tricks", 3, rng.randrange(2)))
                else:
                    hands.append(("tricks", 1, rng.randrange(2)))
            matches.append(_match(match_id, [60.0 * i for i in range(20)], a=a, b=b, hands=hands))
    flags = run_flags(matches)
    assert [(f.pair, f.detail["opponent"]) for f in flags] == [(1, 2)]
    assert 0 < flags[0].p_value < 0.05 and flags[0].detail["tests"] >= 10 and len(flags[0].matches) == 8
