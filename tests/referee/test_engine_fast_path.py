"""The fast path (``referee.engine.fast``) gives exactly the full replay's verdict, or steps aside.

Random legal hands under several rule sets, and the same hands broken in one place (a card
changed, an event dropped, duplicated or moved, a seat or call changed, a claim added): the
verdict of ``check_report`` must equal the one of the full replay alone.
"""
import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine import verdict as verdict_module
from referee.engine.fast import clean_verdict
from referee.engine.simulate import random_report

seeds = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = [None, {"lead_after_tie": "first_player"}, {"lead_after_tie": "nearest_tying_player"},
           {"all_tied": "dealer_team"}, {"iron_tie": "first_player_team"}, {"raises": "any_time"},
           {"cover_after_tied_first": False}, {"iron_hand_value": 1, "eleven_run_points": 3},
           {"score_cap": False}]


def full_replay(report):
    saved = verdict_module.clean_verdict
    verdict_module.clean_verdict = lambda *args: None
    try:
        return check_report(report)
    finally:
        verdict_module.clean_verdict = saved


def mutate(report: dict, rng: random.Random) -> dict:
    report = copy.deepcopy(report)
    events = report["events"]
    kind = rng.randrange(9)
    i = rng.randrange(len(events))
    if kind == 0:
        del events[i]
    elif kind == 1:
        events.insert(i, copy.deepcopy(events[rng.randrange(len(events))]))
    elif kind == 2:
        events.insert(rng.randrange(len(events) + 1), events.pop(i))
    elif kind == 3 and "seat" in events[i]:
        events[i]["seat"] = rng.choice([0, 1, 2, 3, 4, True, "1"])
    elif kind == 4 and "play" in events[i]:
        events[i]["play"] = rng.choice(["4-ouros", "3-paus", "A-espadas", "8-copas", 7, report["vira"]])
    elif kind == 5:
        events.insert(i, rng.choice([{"seat": i % 4, "call": rng.choice(["truco", "seis", "nove", "doze"])},
                                     {"seat": i % 4, "answer": rng.choice(["accept", "run"])},
                                     {"seat": i % 4, "play": "K-paus", "covered": True},
                                     {"team": i % 2, "eleven": "play"}]))
    elif kind == 6:
        report["claimed"] = {"winner": rng.choice([0, 1, None]), "points": rng.choice([0, 1, 3, 6])}
    elif kind == 7:
        report["score"] = rng.choice([[11, 11], [11, 3], [3, 11], [10, 10], [12, 0]])
    else:
        report["id"] = rng.choice(["mesa-1", "\ud800", 7, ["a"]])
    return report


@settings(max_examples=300, deadline=None)
@given(seed=seeds, options=st.sampled_from(OPTIONS), with_deal=st.booleans(), claim=st.booleans())
def test_legal_hands_get_the_full_replays_verdict(seed, options, with_deal, claim):
    report = random_report(random.Random(seed), with_deal=with_deal, claim=claim)
    if options:
        report["rules"] = {"preset": "regulamento-tecnico", "options": options}
    assert check_report(report) == full_replay(report)


@settings(max_examples=600, deadline=None)
@given(seed=seeds, options=st.sampled_from(OPTIONS), mutation=seeds)
def test_broken_hands_get_the_full_replays_verdict(seed, options, mutation):
    report = random_report(random.Random(seed))
    if options:
        report["rules"] = {"preset": "regulamento-tecnico", "options": options}
    broken = mutate(report, random.Random(mutation))
    assert check_report(broken) == full_replay(broken)


def test_the_fast_path_takes_the_plain_hands():
    rng = random.Random(8)
    reports = [random_report(rng) for _ in range(200)]
    assert all(clean_verdict(r, 64) is not None for r in reports)
