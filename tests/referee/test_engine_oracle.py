"""The engine's two paths (the fast path and the full replay) against an independent oracle
(tests/referee/oracle.py, written from the regulation's text, sharing no code with the engine), on random
hands under random options (every option of the rule set): clean hands (art. 11-13, 18-20), and hands with
faults and claims — folds (art. 13), false calls (art. 16), raises out of turn (art. 12), a pair answering
twice (art. 17), raises in a mão de onze (art. 19), tentos (art. 5, 6, 10, 24, the house rules).

Hands per run: ``HANDS_PER_EXAMPLE`` × the profile's examples — the default profile (50 examples) 500 hands,
as before; the ``ci`` profile (150 examples) 10,500 hands (tests/conftest.py)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine.verdict import _verdict

from .oracle import hand_outcome, play_hand, random_options

FIELDS = ("winner", "points", "ended_by", "score_after", "game_winner", "hand_value")
#: hands per Hypothesis example, by profile: the ci profile sees >= 10,000 hands, the default as many as before
HANDS_PER_EXAMPLE = {"ci": 70}
FAULTS_RATE = 0.06  # per player's turn, in half of the hands: about a third of the hands carry a fault or claim


def seen(verdict: dict) -> dict:
    """The verdict as the oracle states it: the result, the faults (code, article), art. 17's notes."""
    return {**{k: verdict[k] for k in FIELDS},
            "faults": sorted((v["code"], v["article"]) for v in verdict["violations"]),
            "pair_decisions": sum(1 for n in verdict.get("notes", ()) if n["code"] == "pair_decision"),
            "match_loser": verdict.get("match_loser")}


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_both_paths_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    for _ in range(HANDS_PER_EXAMPLE.get(settings.get_current_profile_name(), 10)):
        report, expected = play_hand(rng, random_options(rng), FAULTS_RATE if rng.random() < 0.5 else 0.0)
        for verdict in (check_report(report), _verdict(report)):
            assert verdict["valid"] is (not expected["faults"]), (report, verdict)
            assert seen(verdict) == expected, (report, verdict)


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
