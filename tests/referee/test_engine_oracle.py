"""The engine's two paths (the fast path and the full replay) against an independent oracle
(tests/referee/oracle.py, written from the regulation's text, sharing no code with the engine), on random
legal hands under random options (art. 11-13, 18-20 and the options of the rule set)."""
import random

from hypothesis import given
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine.verdict import _verdict

from .oracle import hand_outcome, play_hand, random_options

FIELDS = ("winner", "points", "ended_by", "score_after", "game_winner", "hand_value")


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_both_paths_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    for _ in range(10):
        report, expected = play_hand(rng, random_options(rng))
        for verdict in (check_report(report), _verdict(report)):
            assert verdict["valid"] is True, (report, verdict)
            assert {k: verdict[k] for k in FIELDS} == expected, (report, verdict)


def test_the_oracle_reads_art_11_as_written():
    A, B = 0, 1
    assert hand_outcome([A, A]) == (True, A)
    assert hand_outcome([A, None]) == (True, A)  # art. 11.2: made the first, tied another
    assert hand_outcome([A, B, None]) == (True, A)
    assert hand_outcome([A, B, B]) == (True, B)
    assert hand_outcome([None, B]) == (True, B)  # art. 11.3
    assert hand_outcome([None, None, A]) == (True, A)
    assert hand_outcome([None, None, None]) == (True, None)  # art. 11.4
    assert hand_outcome([A, B]) == (False, None)
