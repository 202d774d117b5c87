"""Properties over random legal hands (Hypothesis) and over arbitrary input.

The random hands come from referee.engine.simulate, which plays by the default rules
(art. 4, 11.1, 12, 13, 17, 18, 19); the engine must find nothing wrong with them.
"""
import copy
import json
import random

from hypothesis import given
from hypothesis import strategies as st

from referee.engine import check_report
from referee.engine.cards import DECK_CARDS, parse_card
from referee.engine.simulate import random_report

seeds = st.integers(min_value=0, max_value=2**32 - 1)
decks = st.sampled_from(["sujo", "limpo", "limpo+7"])


@given(seed=seeds, deck=decks, with_deal=st.booleans())
def test_legal_hands_are_valid_and_well_formed(seed, deck, with_deal):
    report = random_report(random.Random(seed), deck=deck, with_deal=with_deal)
    verdict = check_report(report)
    assert verdict["valid"], verdict
    assert verdict["points"] in {0, 1, 3, 6, 9, 12}
    assert len(verdict["tricks"]) <= 3
    assert verdict["winner"] in (0, 1, None)
    before, after = verdict["score_before"], verdict["score_after"]
    if verdict["winner"] is None:
        assert after == before
    else:
        w = verdict["winner"]
        assert after[w] == min(12, before[w] + verdict["points"]) and after[1 - w] == before[1 - w]
    assert verdict["next_dealer"] == (report["dealer"] + 1) % 4


@given(seed=seeds, deck=decks)
def test_cards_of_a_hand_are_distinct_cards_of_the_deck(seed, deck):
    report = random_report(random.Random(seed), deck=deck)
    cards = [parse_card(report["vira"], "vira")] + [
        parse_card(c, "deal") for hand in report["deal"].values() for c in hand
    ]
    assert len(set(cards)) == 13 and set(cards) <= DECK_CARDS[deck]
    assert len(DECK_CARDS["sujo"]) == 40


@given(seed=seeds)
def test_replaying_a_report_twice_gives_the_same_verdict_and_leaves_it_untouched(seed):
    report = random_report(random.Random(seed))
    original = copy.deepcopy(report)
    first = check_report(report)
    assert check_report(report) == first
    assert report == original
    json.dumps(first)  # JSON-ready


@given(seed=seeds)
def test_a_matching_claim_never_adds_a_violation(seed):
    report = random_report(random.Random(seed))
    plain = check_report(report)
    claimed = dict(report, claimed={"winner": plain["winner"], "points": plain["points"]})
    with_claim = check_report(claimed)
    assert with_claim["claim_matches"] is True
    assert with_claim["violations"] == plain["violations"] and with_claim["valid"] == plain["valid"]


@given(seed=seeds, claim_winner=st.sampled_from([0, 1, None]), claim_points=st.sampled_from([0, 1, 3, 6, 9, 12]))
def test_a_claim_matches_exactly_when_it_is_the_verdict(seed, claim_winner, claim_points):
    report = random_report(random.Random(seed))
    truth = check_report(report)
    verdict = check_report(dict(report, claimed={"winner": claim_winner, "points": claim_points}))
    assert verdict["claim_matches"] == (claim_winner == truth["winner"] and claim_points == truth["points"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 15) | st.text(max_size=8)
    | st.sampled_from(["7-paus", "4-ouros", "truco", "accept", "run", "play", "3", "0"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["seat", "team", "play", "call", "answer", "eleven", "covered", "said", "dealer", "vira",
                         "score", "events", "deal", "rules", "claimed", "preset", "options", "0", "1", "x"]),
        children, max_size=5),
    max_leaves=20,
)


@given(value=json_values)
def test_arbitrary_input_never_raises(value):
    verdict = check_report(value)
    assert isinstance(verdict["valid"], bool)
    if "error" in verdict:
        assert verdict["valid"] is False and isinstance(verdict["error"]["message"], str)
        assert "internal" not in verdict["error"], verdict


@given(seed=seeds, data=st.data())
def test_mutated_legal_reports_never_raise(seed, data):
    report = random_report(random.Random(seed))
    events = report["events"]
    if events:
        i = data.draw(st.integers(0, len(events) - 1))
        key = data.draw(st.sampled_from(sorted(events[i])))
        events[i][key] = data.draw(json_values)
    verdict = check_report(report)
    assert isinstance(verdict["valid"], bool)
    assert "internal" not in verdict.get("error", {}), verdict
    json.dumps(verdict)
