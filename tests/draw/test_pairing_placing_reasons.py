"""Why each pair of a bracket finished where it did (draw.pairing.placings.placing_reason): the pages
say it in words ("5º–8º: perderam nas quartas")."""
from __future__ import annotations

from draw.pairing.double_elimination import double_elimination
from draw.pairing.elimination import record_results, single_elimination
from draw.pairing.placings import PlacingReason, bracket_placings, placing_reason


def play_better_seed(bracket):
    while playable := bracket.playable():
        bracket = record_results(bracket, {m.match_id: min(m.top.pair, m.bottom.pair) for m in playable})
    return bracket


def reasons(bracket) -> dict:
    return {row.pair_id: (row.place, placing_reason(bracket, row)) for row in bracket_placings(bracket).rows}


def test_single_elimination_of_16_with_every_option():
    b = play_better_seed(single_elimination(range(1, 17), third_place=True, classification=True))
    got = reasons(b)
    assert got[1] == (1, PlacingReason("champion")) and got[2] == (2, PlacingReason("final"))
    assert got[3] == (3, PlacingReason("third_place_won")) and got[4] == (4, PlacingReason("third_place_lost"))
    assert got[5] == (5, PlacingReason("fifth_place_won")) and got[6] == (6, PlacingReason("fifth_place_lost"))
    assert got[7] == (7, PlacingReason("seventh_place_won")) and got[8] == (8, PlacingReason("seventh_place_lost"))
    assert {got[p] for p in range(9, 17)} == {(9, PlacingReason("winners_round", pairs=16, round=1))}


def test_while_places_5_to_8_are_played():
    b = single_elimination(range(1, 9), classification=True)
    b = record_results(b, {m.match_id: min(m.top.pair, m.bottom.pair) for m in b.winners[0]})
    assert {reasons(b)[p] for p in (5, 6, 7, 8)} == {(5, PlacingReason("winners_round", pairs=8))}
    b = record_results(b, {"5S-1": 5, "5S-2": 6})
    got = reasons(b)
    assert got[5] == got[6] == (5, PlacingReason("classification_won"))
    assert got[7] == got[8] == (7, PlacingReason("classification_lost"))


def test_double_elimination_by_the_losers_round():
    b = play_better_seed(double_elimination(range(1, 9)))
    got = reasons(b)
    assert got[1][1] == PlacingReason("champion") and got[2][1] == PlacingReason("final")
    last = len(b.losers)
    assert got[3] == (3, PlacingReason("losers_round", round=last, last=True))
    assert all(reason.kind == "losers_round" and not reason.last for place, reason in
               (got[p] for p in range(4, 9)))
