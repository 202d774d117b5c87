"""Findings 1-8: verdicts the engine got wrong on calls, answers, folds, tentos and ties.

The base deal of the findings: vira 4-ouros, dealer seat 3 (seat 0 is the mão), team 0 wins tricks 1 and 2.
"""
from referee.engine.rules import rule_set_from
from referee.engine.summary import check_summary

from .hands import codes, verdict

T1 = ("0 3-espadas", "1 K-ouros", "2 4-copas", "3 6-paus")
WIN0 = T1 + ("0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")  # team 0 wins both tricks
TIED = ("0 3-espadas", "1 3-ouros", "2 4-copas", "3 6-paus",  # trick 1 tied (3 against 3)
        "0 2-ouros", "1 2-copas", "2 6-copas", "3 7-espadas",  # trick 2 tied (2 against 2)
        "0 A-copas", "1 A-espadas", "2 K-copas", "3 K-espadas")  # trick 3 tied (A against A)


# ------------------------------------------------ 1. art. 13: a partner repeating a call does not raise
def test_art_13_a_partner_repeating_the_pending_truco_leaves_it_a_truco():
    v = verdict("4-ouros", "0 !truco", "2 !truco", "1 =accept", *WIN0)
    assert (v["winner"], v["points"], v["hand_value"], v["valid"]) == (0, 3, 3, True)
    assert [n["article"] for n in v["notes"]] == ["art. 12"]
    assert "seis" not in v["notes"][0]["message"] and "a chamada pendente não muda" in v["notes"][0]["message"]  # finding 9


def test_art_13_a_partner_repeating_a_raise_back_leaves_it_a_seis():
    v = verdict("4-ouros", "0 !truco", "1 !seis", "3 !seis", "0 =accept", *WIN0)
    assert (v["winner"], v["points"], v["hand_value"], v["valid"]) == (0, 6, 6, True)


def test_art_12_a_team_raising_its_own_pending_call_changes_nothing():
    v = verdict("4-ouros", "0 !truco", "2 !seis", "1 =accept", *WIN0)
    assert codes(v) == ["raise_not_alternating"] and v["violations"][0]["article"] == "art. 12"
    assert (v["points"], v["hand_value"]) == (3, 3)
    assert "doze" not in v["violations"][0]["message"]


def test_art_13_a_pending_doze_is_not_a_hand_worth_doze():  # finding 9: "a mão já vale doze" with a doze only pending
    v = verdict("4-ouros", "0 !truco", "1 !seis", "0 !nove", "1 !doze", "3 !truco", "0 =run")
    assert (v["winner"], v["points"]) == (1, 9)
    assert all("já vale doze" not in x["message"] for x in v["violations"])


# ------------------------------------------------ 2. art. 17 for raises and runs, not only answers
def test_art_17_a_raise_back_is_the_pairs_decision_and_the_partners_accept_is_void():
    v = verdict("4-ouros", "0 !truco", "3 !seis", "1 =accept", "0 =run")
    assert "error" not in v, v.get("error")
    assert (v["winner"], v["points"], v["ended_by"], v["valid"]) == (1, 3, "run", True)
    assert [n["article"] for n in v["notes"]] == ["art. 17"]


def test_art_17_a_run_stands_and_the_partners_raise_is_void():
    v = verdict("4-ouros", "0 !truco", "1 =run", "3 !seis")
    assert "error" not in v, v.get("error")
    assert (v["winner"], v["points"], v["ended_by"], v["valid"]) == (0, 1, "run", True)
    assert [n["article"] for n in v["notes"]] == ["art. 17"]


def test_art_17_a_raise_back_stands_against_the_partners_higher_raise():
    v = verdict("4-ouros", "0 !truco", "3 !seis", "1 !nove", "2 =accept", *WIN0)
    assert (v["points"], v["valid"]) == (6, True) and [n["article"] for n in v["notes"]] == ["art. 17"]


def test_a_call_after_a_hand_won_on_tricks_is_still_unreadable():
    assert "error" in verdict("4-ouros", *WIN0, "1 !truco")


# ------------------------------------------------ 3. art. 15: a clear call may carry punctuation
def test_art_15_a_call_with_punctuation_is_a_clear_call():
    for said in ("Truco!", "Truco, ladrão!", "TRUCO...", "truco  "):
        v = verdict("4-ouros", f"0 !truco:{said}", "1 =accept", *WIN0)
        assert (codes(v), v["points"]) == ([], 3), said
    assert verdict("4-ouros", "0 !truco", "1 !seis:Meio-pau!", "0 =accept", *WIN0)["valid"]


def test_art_15_under_the_house_rules_a_punctuated_call_is_no_tento():
    v = verdict("4-ouros", "0 !truco:Truco!", "1 =accept", *WIN0, preset="regras-4-jogadores")
    assert "error" not in v and (v["valid"], v["points"]) == (True, 3)


def test_art_16_sound_alikes_stay_false_calls():
    for said in ("Truca!", "Jorge", "Turco!"):
        assert codes(verdict("4-ouros", f"0 !truco:{said}", "1 =accept", *WIN0)) == ["false_call"], said


# ------------------------------------------------ 4. art. 13: giving up while facing a raise is running
def test_art_13_folding_while_facing_a_raise_is_running_from_it():
    v = verdict("4-ouros", "0 !truco", "1 fold")
    assert (v["winner"], v["points"], v["ended_by"], v["valid"], codes(v)) == (0, 1, "run", True, [])
    own = verdict("4-ouros", "0 !truco", "0 fold")  # a team folding with its own raise pending faces none
    assert codes(own) == ["fold_not_allowed"]


# ------------------------------------------------ 5. art. 12, 23: a player passed over keeps the turn to raise
def test_art_23_the_player_passed_over_by_a_card_out_of_turn_may_raise():
    v = verdict("4-ouros", "0 3-espadas", "2 4-copas", "1 !truco", "0 =accept", "1 K-ouros", "3 6-paus",
                "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert codes(v) == ["card_out_of_turn"] and v["points"] == 3


def test_art_12_the_seat_after_the_card_out_of_turn_raises_out_of_turn():
    v = verdict("4-ouros", "0 3-espadas", "2 4-copas", "3 !truco", "0 =accept", "1 K-ouros", "3 6-paus",
                "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert codes(v) == ["card_out_of_turn", "raise_out_of_turn"]
    assert "assento 1" in v["violations"][1]["message"]


# ------------------------------------------------ 6. house rules ex. 2-3: tentos after the hand
def test_house_rules_ex_2_looking_at_covered_cards_after_a_refused_truco_costs_three():
    v = verdict("4-ouros", "0 !truco", "1 =run", "1 #looked_at_covered")
    assert "error" not in v, v.get("error")
    assert (v["winner"], v["points"]) == (0, 1)  # the hand's result stands
    assert v["tentos"] == [{"code": "looked_at_covered", "article": "regras 4 jogadores, tento, ex. 2", "event": 2,
                            "offender": 1, "team": 0, "points": 3}]
    assert v["score_after"] == [4, 0] and codes(v) == ["looked_at_covered"]


def test_house_rules_ex_3_stolen_points_after_the_hand_cost_the_hands_value():
    v = verdict("4-ouros", *WIN0, "0 #stolen_points")
    assert (v["winner"], v["points"], v["score_after"]) == (0, 1, [1, 1])
    assert v["tentos"][0]["team"] == 1 and v["tentos"][0]["points"] == 1
    warned = verdict("4-ouros", *WIN0, "0 #stolen_points", options={"house_sanctions": "warning"})
    assert warned["score_after"] == [1, 0] and "tentos" not in warned


def test_a_tento_of_the_hand_itself_is_still_refused_after_it():
    assert "error" in verdict("4-ouros", *WIN0, "0 #guidance_word")


# ------------------------------------------------ 7. fold_any_time: the summary agrees with the report
def test_art_18_fold_any_time_in_a_mao_de_onze_summary_and_report_agree():
    options = {"fold_any_time": True}
    report = verdict("4-ouros", "0 eleven:play", "0 fold", score=(11, 5), options=options)
    assert (report["valid"], report["score_after"]) == (True, [11, 8])
    summary = check_summary(rule_set_from({"options": options}), (11, 5), 3, {"winner": 1, "ended_by": "fold", "value": 3})
    assert summary["score_after"] == [11, 8]
    iron = check_summary(rule_set_from({"options": options}), (11, 11), 3, {"winner": 0, "ended_by": "fold", "value": 3})
    assert iron["score_after"] == [12, 11]


# ------------------------------------------------ 8. three tied tricks in a mão de ferro under jtb and the house rules
def test_art_20_jtb_and_house_rules_give_a_tied_mao_de_ferro_to_the_dealers_team():
    for preset in ("jtb", "regras-4-jogadores"):
        v = verdict("4-ouros", *TIED, score=(11, 11), preset=preset)
        assert "error" not in v, v.get("error")
        assert (v["winner"], v["points"], v["ended_by"]) == (1, 3, "iron_tie"), preset  # dealer 3: team 1
        summary = check_summary(rule_set_from({"preset": preset}), (11, 11), 3,
                                {"winner": 1, "ended_by": "all_tied", "value": 3})
        assert summary["winner"] == 1 and summary["game_winner"] == 1
    default = verdict("4-ouros", *TIED, score=(11, 11))
    assert (default["winner"], default["points"]) == (None, 0)  # art. 20


def test_raise_beyond_twelve_cites_one_article():
    over = verdict("4-ouros", "0 !truco", "1 !seis", "0 !nove", "1 !doze", "2 =accept", *T1, "0 !truco")
    pending = verdict("4-ouros", "0 !truco", "1 !seis", "0 !nove", "1 !doze", "0 !doze", "2 =run")
    assert {x["article"] for x in over["violations"] + pending["violations"] if x["code"] == "raise_beyond_twelve"} == {"art. 13"}


# ------------------------------------------------ messages echo a bounded prefix of what was sent
def test_a_giant_said_is_echoed_as_a_short_prefix():
    v = verdict("4-ouros", "0 !truco:" + "Jorge" * 200_000, "1 =accept", *WIN0)
    assert codes(v) == ["false_call"] and len(v["violations"][0]["message"]) < 200


def test_a_giant_unknown_key_or_card_is_echoed_as_a_short_prefix():
    from referee.engine import check_report

    v = check_report({"dealer": 3, "vira": "4-ouros", "events": [{"seat": 0, "play": "x" * 10**6}]})
    assert len(v["error"]["message"]) <= 401 and len(v["error"]["field"]) <= 121
    v = check_report({"dealer": 3, "vira": "4-ouros", "events": [], "k" * 10**6: 1})
    assert len(v["error"]["field"]) <= 121


def test_a_rule_set_spelled_out_is_the_canonical_object_and_still_validated():
    from referee.engine.rules import PRESETS

    spelled = PRESETS["jtb"].as_dict()
    assert rule_set_from(spelled) is PRESETS["jtb"] and rule_set_from(dict(spelled)) is PRESETS["jtb"]
    reordered = {"options": dict(reversed(list(spelled["options"].items()))), "preset": "jtb"}
    assert rule_set_from(reordered) is PRESETS["jtb"]
    import pytest

    from referee.engine.errors import ReportError

    with pytest.raises(ReportError):  # True == 1, but not an allowed value of eleven_run_points
        rule_set_from({"options": {"eleven_run_points": True}})
    with pytest.raises(ReportError):
        rule_set_from({"preset": "jtb", "options": spelled["options"], "extra": 1})


# ------------------------------------------------ one source for each rule: the hand's start (art. 18)
def test_art_18_the_hands_start_is_one_rule_for_both_replays_and_the_summary():
    """mão de onze worth 3, mão de ferro worth iron_hand_value, a refused mão de onze worth eleven_run_points:
    game.hand_start / eleven_state / eleven_refused, the only place the engine reads a score of 11."""
    import re
    from pathlib import Path

    from referee.engine import check_report
    from referee.engine.game import hand_start
    from referee.engine.verdict import _verdict

    engine = Path(__file__).resolve().parents[2] / "referee" / "engine"
    for name in ("fast.py", "hand.py", "summary.py", "rulings.py", "verdict.py", "simulate.py"):
        assert not re.search(r"==\s*11\b|\b11 in (?:score|self)", (engine / name).read_text(encoding="utf-8")), name
    for options in ({}, {"iron_hand_value": 1, "eleven_run_points": 3}):
        rules = rule_set_from({"options": options})
        for score in ((0, 0), (11, 4), (4, 11), (11, 11)):
            iron, team, value = hand_start(score, rules)
            assert value == (rules.iron_hand_value if score == (11, 11) else 3 if 11 in score else 1)
            state = "iron" if iron else "eleven" if team is not None else "normal"
            assert check_summary(rules, score, 3, {"winner": 0, "ended_by": "tricks", "value": value})["state"] == state
            if team is not None:
                report = {"dealer": 3, "vira": "4-ouros", "score": list(score), "rules": {"options": options},
                          "events": [{"team": team, "eleven": "run"}]}
                fast, full = check_report(report), _verdict(report)
                assert fast == full and (fast["winner"], fast["points"]) == (1 - team, rules.eleven_run_points)
                summary = check_summary(rules, score, 3, {"winner": 1 - team, "ended_by": "eleven_refused",
                                                          "value": rules.eleven_run_points})
                assert summary["winner"] == 1 - team
