"""Raises (art. 12, 13, 16, 17), mão de onze and de ferro (art. 18–21) and penalties (art. 5, 6, 10, 22–24)."""
import pytest

from .hands import codes, verdict

T1 = ("0 3-espadas", "1 K-ouros", "2 4-copas", "3 6-paus")
WIN0 = T1 + ("0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")  # team 0 wins both tricks


def test_art_13_truco_accepted_is_worth_three():
    v = verdict("4-ouros", "0 !truco", "1 =accept", *WIN0)
    assert (v["winner"], v["points"], v["hand_value"], v["valid"]) == (0, 3, 3, True)


@pytest.mark.parametrize("chain,points,winner", [
    (("0 !truco", "1 =run"), 1, 0),
    (("0 !truco", "1 !seis", "0 =run"), 3, 1),
    (("0 !truco", "1 !seis", "2 !nove", "3 =run"), 6, 0),
    (("0 !truco", "1 !seis", "2 !nove", "1 !doze", "0 =run"), 9, 1),
])
def test_art_13_who_runs_loses_the_value_in_play_before_the_raise(chain, points, winner):
    v = verdict("4-ouros", *chain)
    assert (v["winner"], v["points"], v["ended_by"], v["valid"]) == (winner, points, "run", True)


def test_raise_back_accepts_the_call_it_answers_and_doze_is_the_top():
    v = verdict("4-ouros", "0 !truco", "1 !seis", "0 !nove", "1 !doze", "2 =accept", *WIN0)
    assert (v["points"], v["hand_value"], v["valid"]) == (12, 12, True)


def test_art_12_raise_by_a_player_out_of_turn():
    v = verdict("4-ouros", "1 !truco", "0 =accept", *WIN0)
    assert codes(v) == ["raise_out_of_turn"] and v["violations"][0]["article"] == "art. 12"
    assert v["points"] == 3  # the table accepted it
    assert verdict("4-ouros", "1 !truco", "0 =accept", *WIN0, options={"raises": "any_time"})["valid"]


def test_art_12_raises_follow_the_ladder_and_the_teams_alternate():
    v = verdict("4-ouros", "0 !seis", "1 =accept", *WIN0)
    assert codes(v) == ["raise_out_of_order"] and v["points"] == 3  # counts as truco
    v = verdict("4-ouros", "0 !truco", "1 =accept", *T1, "0 !seis", "1 =accept",
                "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert codes(v) == ["raise_not_alternating"]


def test_a_raise_in_turn_between_tricks_is_by_the_next_leader():
    v = verdict("4-ouros", *T1, "0 !truco", "1 =accept", "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert v["valid"] and v["points"] == 3


def test_no_raise_beyond_twelve():
    v = verdict("4-ouros", "0 !truco", "1 !seis", "0 !nove", "1 !doze", "2 =accept", *T1, "0 !truco")
    assert "raise_beyond_twelve" in codes(v)


def test_art_16_false_call_counts_as_truco_when_accepted():
    v = verdict("4-ouros", "0 !truco:Turco", "1 =accept", *WIN0)
    assert codes(v) == ["false_call"] and v["violations"][0]["article"] == "art. 16" and v["points"] == 3
    assert verdict("4-ouros", "0 !seis:meio-pau", "1 =accept", *WIN0, options={"raises": "any_time"})["points"] == 3


def test_art_15_proper_names_of_a_call_are_clear_and_others_are_not():
    assert verdict("4-ouros", "0 !truco:TRUCO", "1 =accept", *WIN0)["valid"]
    assert verdict("4-ouros", "0 !truco", "1 !seis:Meio Pau", "0 =accept", *WIN0)["valid"]
    assert codes(verdict("4-ouros", "0 !truco:Truca", "1 =accept", *WIN0)) == ["false_call"]


def test_variant_false_call_is_a_tento():
    v = verdict("4-ouros", "0 !truco:Jorge", options={"false_call": "tento"})
    assert (v["winner"], v["points"], v["ended_by"]) == (1, 1, "penalty")


def test_art_17_first_decision_of_the_pair_stands():
    v = verdict("4-ouros", "0 !truco", "1 =run", "3 =accept")
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 1, "run")
    assert v["notes"][0]["article"] == "art. 17" and v["valid"]


def test_answers_must_answer_a_call_by_the_other_team():
    assert verdict("4-ouros", "1 =accept")["error"]["field"] == "events[0]"
    assert verdict("4-ouros", "0 !truco", "2 =accept")["error"]["field"] == "events[1].seat"
    assert "pendente" in verdict("4-ouros", "0 !truco", "0 3-espadas")["error"]["message"]


# --------------------------------------------------------------- mão de onze
def test_art_18_the_team_at_eleven_decides_first():
    v = verdict("4-ouros", *WIN0, score=(11, 5))
    assert v["valid"] is False and "art. 18" in v["error"]["message"]
    assert verdict("4-ouros", "1 eleven:play", *WIN0, score=(11, 5))["error"]["field"] == "events[0].team"


def test_mao_de_onze_played_is_worth_three():
    v = verdict("4-ouros", "0 eleven:play", *WIN0, score=(11, 5))
    assert (v["points"], v["score_after"], v["game_winner"], v["valid"]) == (3, [12, 5], 0, True)


def test_mao_de_onze_refused_gives_the_opponents_one_or_the_variant():
    v = verdict("4-ouros", "0 eleven:run", score=(11, 5))
    assert (v["winner"], v["points"], v["ended_by"], v["score_after"]) == (1, 1, "eleven_refused", [11, 6])
    assert verdict("4-ouros", "0 eleven:run", score=(11, 5), options={"eleven_run_points": 3})["points"] == 3


def test_art_19_raise_in_mao_de_onze_costs_three_when_the_opponents_have_less_than_nine():
    v = verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, 5))
    assert codes(v) == ["raise_in_eleven"] and v["violations"][0]["article"] == "art. 19"
    assert (v["winner"], v["points"], v["score_after"], v["ended_by"]) == (1, 3, [11, 8], "penalty")


@pytest.mark.parametrize("theirs", [9, 10])
def test_art_19_raise_in_mao_de_onze_loses_the_game_when_the_opponents_have_nine_or_more(theirs):
    v = verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, theirs))
    assert v["score_after"] == [11, 12] and v["game_winner"] == 1


def test_art_19_the_other_team_raising_loses_the_game_to_the_team_at_eleven():
    v = verdict("4-ouros", "0 eleven:play", *T1, "0 2-ouros", "1 !truco", score=(11, 5))
    assert v["score_after"] == [12, 5] and v["game_winner"] == 0


def test_variant_raise_in_eleven_always_loses_the_game():
    v = verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, 5), options={"raise_in_eleven": "game"})
    assert v["score_after"] == [11, 12]


def test_mao_de_ferro_has_no_decision_and_is_worth_three_or_the_variant():
    v = verdict("4-ouros", *WIN0, score=(11, 11))
    assert (v["valid"], v["points"], v["game_winner"]) == (True, 3, 0)
    assert verdict("4-ouros", *WIN0, score=(11, 11), options={"iron_hand_value": 1})["points"] == 1
    assert verdict("4-ouros", "0 eleven:play", *WIN0, score=(11, 11))["valid"] is False
    v = verdict("4-ouros", "0 !truco", score=(11, 11))
    assert codes(v) == ["raise_in_eleven"] and v["game_winner"] == 1  # art. 18/19: no raise at 11-11


def test_art_20_tied_mao_de_ferro_scores_nothing_and_the_deal_passes_on():
    ties = ("0 3-espadas", "1 3-copas", "2 K-ouros", "3 A-paus", "1 2-ouros", "2 2-paus", "3 7-paus",
            "0 Q-copas", "2 J-ouros", "3 J-copas", "0 6-espadas", "1 7-ouros")
    v = verdict("4-ouros", *ties, score=(11, 11), dealer=3)
    assert (v["winner"], v["points"], v["ended_by"], v["next_dealer"]) == (None, 0, "iron_tie", 0)


SURE = {0: ["5-paus", "4-espadas", "6-ouros"], 1: ["3-copas", "2-ouros", "7-ouros"],
        2: ["5-copas", "Q-paus", "4-copas"], 3: ["A-paus", "7-paus", "6-paus"]}


def test_art_21_a_sure_win_is_proved_instead_of_played():
    v = verdict("4-ouros", "0 prove", score=(11, 4), deal=SURE)
    assert (v["winner"], v["points"], v["ended_by"], v["valid"]) == (0, 3, "proof", True)


def test_art_21_a_proof_that_does_not_hold_is_a_violation():
    weak = {**SURE, 0: ["3-paus", "4-espadas", "6-ouros"]}
    v = verdict("4-ouros", "0 prove", score=(11, 4), deal=weak)
    assert codes(v) == ["proof_failed", "hand_incomplete"] and v["violations"][0]["article"] == "art. 21"
    assert verdict("4-ouros", "0 prove", score=(11, 4))["error"]["field"] == "deal"


# --------------------------------------------------------------- penalties
def test_art_5_looking_at_the_bottom_of_the_deck_loses_the_deal():
    v = verdict("4-ouros", "3 #bottom_of_deck")
    assert (v["winner"], v["points"], v["ended_by"]) == (None, 0, "deal_lost")
    assert v["violations"][0]["article"] == "art. 5"


WRONG = {0: ["3-espadas", "Q-copas", "J-copas", "2-paus"], 1: ["3-copas", "2-ouros", "7-ouros"],
         2: ["K-ouros", "3-paus", "4-copas"], 3: ["A-paus", "7-paus", "6-paus"]}


def test_art_6_dealer_trucado_for_a_wrong_deal_pays_three_runs_one_or_asks_and_loses_the_deal():
    accepted = verdict("4-ouros", "0 !truco", "3 =accept", deal=WRONG)
    assert (accepted["winner"], accepted["points"], accepted["ended_by"]) == (0, 3, "penalty")
    assert all(x["article"] == "art. 6" for x in accepted["violations"])
    ran = verdict("4-ouros", "0 !truco", "1 =run", deal=WRONG)
    assert (ran["winner"], ran["points"]) == (0, 1)
    asked = verdict("4-ouros", "0 !truco", "3 ask", deal=WRONG)
    assert (asked["winner"], asked["ended_by"]) == (None, "deal_lost")


def test_art_6_a_raise_back_accepts_so_the_wrong_dealer_pays_three():
    v = verdict("4-ouros", "0 !truco", "3 !seis", deal=WRONG)
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 3, "penalty")


def test_art_6_wrong_deal_attested_by_the_referee_without_the_deal():
    v = verdict("4-ouros", "0 #wrong_card_count", "0 !truco", "3 =accept")
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 3, "penalty")
    assert (verdict("4-ouros", "0 #wrong_card_count", "3 #dealer_asked")["ended_by"]) == "deal_lost"
    late = verdict("4-ouros", "0 3-espadas", "1 #wrong_card_count")
    assert "início da mão" in late["error"]["message"]


def test_art_10_burning_a_card_costs_the_tento_in_play():
    v = verdict("4-ouros", "0 !truco", "1 =accept", "3 #burned_card")
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 3, "penalty")
    assert v["violations"][0]["article"] == "art. 10"


def test_art_22_two_cards_at_once_the_bottom_one_plays_the_top_one_is_the_torna():
    v = verdict("4-ouros", "0 3-espadas", "1 K-ouros+A-copas", "2 4-copas", "3 6-paus",
                "0 2-ouros", "2 6-copas", "3 7-espadas")
    assert codes(v) == ["two_cards_at_once"] and v["violations"][0]["article"] == "art. 22"
    assert [t["winner"] for t in v["tricks"]] == [0, 0] and v["winner"] == 0


def test_art_23_card_out_of_turn_stays_and_counts():
    v = verdict("4-ouros", "1 K-ouros", "0 3-espadas", "2 4-copas", "3 6-paus",
                "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert codes(v) == ["card_out_of_turn"] and v["violations"][0]["article"] == "art. 23"
    assert v["winner"] == 0


def test_art_24_a_word_of_guidance_loses_the_tento_in_play():
    v = verdict("4-ouros", "0 !truco", "1 =accept", "0 3-espadas", "1 #guidance_word")
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 3, "penalty")
    assert v["violations"][0]["article"] == "art. 24"


def test_art_14_seeing_the_partner_cards_when_raised_costs_the_tento_in_play():
    v = verdict("4-ouros", "0 !truco", "3 #saw_partner_cards")  # team 1 faces the truco; the hand is still worth 1
    assert (v["winner"], v["points"], v["violations"][0]["article"]) == (0, 1, "art. 14")
    v = verdict("4-ouros", "0 !truco", "1 =accept", "2 !seis", "1 #saw_partner_cards")
    assert (v["winner"], v["points"]) == (0, 3)
    refused = verdict("4-ouros", "0 !truco", "1 =accept", "2 #saw_partner_cards")  # nobody is raising team 0
    assert "art. 14" in refused["error"]["message"]


def test_art_18_seeing_the_partner_cards_in_the_mao_de_ferro_costs_the_tento_in_play():
    v = verdict("4-ouros", "1 #saw_partner_cards_eleven", score=(11, 11))
    assert (v["winner"], v["points"], v["violations"][0]["article"]) == (0, 3, "art. 18")


def test_art_18_only_the_team_at_eleven_may_see_the_partner_cards():
    allowed = verdict("4-ouros", "0 eleven:play", "2 #saw_partner_cards_eleven", score=(11, 5))
    assert "art. 18" in allowed["error"]["message"]
    v = verdict("4-ouros", "0 eleven:play", "1 #saw_partner_cards_eleven", score=(11, 5))
    assert (v["winner"], v["points"]) == (0, 3)
    assert "error" in verdict("4-ouros", "1 #saw_partner_cards_eleven", score=(3, 5))


def test_blind_mao_de_ferro_looking_at_own_cards():
    assert "error" in verdict("4-ouros", "1 #saw_cards_blind_iron", score=(11, 11))
    v = verdict("4-ouros", "1 #saw_cards_blind_iron", score=(11, 11), options={"blind_iron_hand": True})
    assert (v["winner"], v["points"]) == (0, 3)


def test_infraction_claims_have_their_conditions():
    assert "pé" in verdict("4-ouros", "1 #bottom_of_deck", dealer=3)["error"]["message"]  # art. 5: the dealer
    assert "error" in verdict("4-ouros", "0 3-espadas", "3 #bottom_of_deck", dealer=3)
    assert "art. 6" in verdict("4-ouros", "3 #dealer_asked")["error"]["message"]


def test_fold_is_a_variant():
    v = verdict("4-ouros", "0 fold")
    assert codes(v) == ["fold_not_allowed"] and v["winner"] == 1
    ok = verdict("4-ouros", "0 !truco", "1 =accept", "0 fold", options={"fold_any_time": True})
    assert (ok["valid"], ok["winner"], ok["points"], ok["ended_by"]) == (True, 1, 3, "fold")


def test_unknown_infraction_lists_the_catalog():
    v = verdict("4-ouros", "0 #cheating")
    assert v["error"]["field"] == "events[0].infraction" and "guidance_word" in v["error"]["message"]


def test_unknown_fields_of_an_event_are_an_error_but_a_note_is_welcome():
    data = verdict("4-ouros", "0 !truco")
    assert data["valid"] is False
    from referee.engine import check_report

    from .hands import report
    r = report("4-ouros", "0 !truco", "1 =run")
    r["events"][1]["note"] = "correu rindo"
    assert check_report(r)["valid"]
    r["events"][1]["sead"] = 1
    assert check_report(r)["error"]["field"] == "events[1].sead"


def test_events_after_the_end_are_an_error():
    assert verdict("4-ouros", "0 !truco", "1 =run", "0 3-espadas")["error"]["field"] == "events[2]"
