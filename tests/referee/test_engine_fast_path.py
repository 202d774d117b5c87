"""The fast path (``referee.engine.fast``) gives exactly the full replay's verdict, or steps aside.

Random legal hands under several rule sets and rule specs, and the same hands broken in one place (a
card changed, an event dropped, duplicated or moved, a seat or call changed, a claim added, a key
dropped or added, a value of the wrong type): the verdict of ``check_report`` must equal the one of
the full replay alone.
"""
import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine import verdict as verdict_module
from referee.engine.fast import clean_verdict
from referee.engine.simulate import random_report

seeds = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = [None, {"lead_after_tie": "first_player"}, {"lead_after_tie": "nearest_tying_player"},
           {"lead_after_tie": "first_tying_player"}, {"lead_after_tie": "trick_leader"},
           {"all_tied": "dealer_team"}, {"all_tied": "first_player_team"}, {"iron_tie": "first_player_team"},
           {"iron_tie": "dealer_team"},
           {"raises": "any_time"}, {"cover_after_tied_first": False}, {"iron_hand_value": 1, "eleven_run_points": 3},
           {"score_cap": False}, {"deck": "limpo"}]
# Rule specs spelled other ways than {"preset": ..., "options": ...} with the default preset.
SPECS = [{}, {"preset": "regulamento-tecnico"}, {"preset": "jtb"}, {"preset": "regras-4-jogadores"},
         {"options": {"dealer_wins_all_tied": True}}]


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
    elif kind == 8:
        report["id"] = rng.choice(["mesa-1", "\ud800", 7, ["a"], 1e16, {"k": [1.5]}])
    else:
        mutate_shape(report, rng)
    return report


def mutate_shape(report: dict, rng: random.Random) -> None:
    """A key dropped or added, a value of the wrong type (unhashable, bool, float, big int), in the
    report, an event or the deal: the fast path must step aside (or raise, which also hands over)."""
    events = report["events"]
    event = events[rng.randrange(len(events))]
    kind = rng.randrange(10)
    if kind == 0:
        report.pop(rng.choice(["dealer", "vira", "events", "score", "deal"]), None)
    elif kind == 1:
        event.pop(rng.choice(sorted(event)))
    elif kind == 2:
        event[rng.choice(["covered", "seat", "said", "x", "call", "answer", "play", "team"])] = \
            rng.choice([True, False, 1, "truco", "accept", "4-ouros"])
    elif kind == 3:
        key = rng.choice(sorted(event))
        event[key] = rng.choice([[event[key]], {"v": 1}, True, False, float(1), 2**70, None, -1, "0"])
    elif kind == 4:
        report[rng.choice(["dealer", "vira", "score"])] = rng.choice([[1], {"a": 1}, True, 1.0, 2**70, None, "3"])
    elif kind == 5 and "deal" in report:
        seat = rng.choice(sorted(report["deal"]))
        cards = report["deal"][seat]
        choice = rng.randrange(5)
        if choice == 0:
            report["deal"][str(int(seat) + 4)] = report["deal"].pop(seat)
        elif choice == 1:
            cards[rng.randrange(3)] = rng.choice([["4-ouros"], 4, None, cards[0], report["vira"]])
        elif choice == 2:
            report["deal"][seat] = cards[:2]
        elif choice == 3:
            report["deal"][seat] = "".join(cards)
        else:
            report["deal"][seat] = cards + [cards[0]]
    elif kind == 6:
        report["score"] = rng.choice([[11, 11], [0, 11], [5], [1, 2, 3], (0, 0), [True, 0], [0.0, 1]])
    elif kind == 7:
        event_list = [rng.choice([{"seat": 0, "play": "4-ouros", "covered": False},
                                  {"seat": 1, "call": "truco", "said": "Jorge"},
                                  {"team": 0, "eleven": "run"}, {"team": 1, "eleven": "play"},
                                  {"seat": 2, "answer": "fold"}, {"seat": 3, "note": "x"}, [], None])]
        events.insert(rng.randrange(len(events) + 1), event_list[0])
    elif kind == 8:
        report["events"] = events * 8  # over the limit of events
    else:
        report["rules"] = rng.choice([[], "jtb", {"preset": "nope"}, {"options": {"deck": "x"}},
                                      {"options": {"raises": ["in_turn"]}}, {"preset": "jtb", "x": 1}])


@given(seed=seeds, options=st.sampled_from(OPTIONS), with_deal=st.booleans(), claim=st.booleans())
def test_legal_hands_get_the_full_replays_verdict(seed, options, with_deal, claim):
    report = random_report(random.Random(seed), with_deal=with_deal, claim=claim)
    if options:
        report["rules"] = {"preset": "regulamento-tecnico", "options": options}
    assert check_report(report) == full_replay(report)


@given(seed=seeds, options=st.sampled_from(OPTIONS), mutation=seeds)
def test_broken_hands_get_the_full_replays_verdict(seed, options, mutation):
    report = random_report(random.Random(seed))
    if options:
        report["rules"] = {"preset": "regulamento-tecnico", "options": options}
    broken = mutate(report, random.Random(mutation))
    assert check_report(broken) == full_replay(broken)


@given(seed=seeds, spec=st.sampled_from(SPECS), mutation=seeds, broken=st.booleans())
def test_other_rule_specs_get_the_full_replays_verdict(seed, spec, mutation, broken):
    report = random_report(random.Random(seed))
    report["rules"] = spec
    if broken:
        report = mutate(report, random.Random(mutation))
    assert check_report(report) == full_replay(report)


@given(seed=seeds, options=st.sampled_from(OPTIONS), mutation=seeds)
def test_misshapen_hands_get_the_full_replays_verdict(seed, options, mutation):
    report = random_report(random.Random(seed), claim=bool(seed & 1), with_deal=bool(seed & 2))
    if options:
        report["rules"] = {"preset": "regulamento-tecnico", "options": options}
    mutate_shape(report, random.Random(mutation))
    assert check_report(report) == full_replay(report)


def test_the_verdicts_do_not_share_their_parts():
    """Each verdict is its own: changing one (its rules, tricks, scores) leaves the next one alone."""
    report = random_report(random.Random(3))
    first = check_report(report)
    second = check_report(report)
    first["rules"]["options"]["deck"] = "limpo"
    first["tricks"].append({})
    first["score_after"][0] = 99
    first["violations"].append({})
    assert check_report(report) == second == full_replay(report)


def test_the_fast_path_takes_the_plain_hands():
    rng = random.Random(8)
    reports = [random_report(rng) for _ in range(200)]
    assert all(clean_verdict(r, 64) is not None for r in reports)
