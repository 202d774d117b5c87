"""The hand: tricks and ties (art. 11.1–11.6), who leads, covered cards, the score to 12.

Vira 4-ouros throughout unless said: the manilhas are the 5s. Dealer 3, so seat 0 leads.
"""
from referee.engine import check_report

from .hands import codes, report, verdict

PLAIN = ("0 3-espadas", "1 K-ouros", "2 4-copas", "3 6-paus", "0 4-paus", "1 A-copas", "2 6-copas", "3 7-espadas")


def test_plain_hand_two_tricks_one_point():
    v = verdict("4-ouros", *PLAIN[:4], "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    assert v["valid"] and v["winner"] == 0 and v["points"] == 1 and v["ended_by"] == "tricks"
    assert [t["seat"] for t in v["tricks"]] == [0, 0]
    assert v["score_after"] == [1, 0] and v["next_dealer"] == 0


def test_art_11_2_first_trick_winner_wins_by_tying_the_third():
    v = verdict("4-ouros", *PLAIN, "1 2-espadas", "2 2-copas", "3 Q-ouros", "0 J-copas")
    assert [t["winner"] for t in v["tricks"]] == [0, 1, None]
    assert v["winner"] == 0 and v["valid"]


def test_art_11_2_first_trick_winner_wins_by_tying_the_second():
    v = verdict("4-ouros", "0 3-espadas", "1 K-ouros", "2 4-copas", "3 6-paus",
                "0 2-copas", "1 2-espadas", "2 6-copas", "3 7-espadas")
    assert [t["winner"] for t in v["tricks"]] == [0, None]
    assert v["winner"] == 0 and v["ended_by"] == "tricks"


TIED_FIRST = ("0 3-espadas", "1 3-copas", "2 K-ouros", "3 A-paus")


def test_art_11_3_tied_first_trick_is_decided_by_the_second():
    # the player who tied (seat 1) leads the second trick (regras 4 jogadores, "jogo empatado")
    v = verdict("4-ouros", *TIED_FIRST, "1 2-ouros", "2 3-paus", "3 7-paus", "0 Q-copas")
    assert v["valid"], v["violations"]
    assert [t["winner"] for t in v["tricks"]] == [None, 0] and v["winner"] == 0


TWO_TIES = TIED_FIRST + ("1 2-ouros", "2 2-paus", "3 7-paus", "0 Q-copas")


def test_art_11_3_tied_first_and_second_the_third_decides():
    v = verdict("4-ouros", *TWO_TIES, "2 J-ouros", "3 K-copas", "0 6-espadas", "1 7-ouros")
    assert [t["winner"] for t in v["tricks"]] == [None, None, 1] and v["winner"] == 1


def test_art_11_4_three_tied_tricks_nobody_scores():
    v = verdict("4-ouros", *TWO_TIES, "2 J-ouros", "3 J-copas", "0 6-espadas", "1 7-ouros")
    assert v["valid"] and v["winner"] is None and v["points"] == 0 and v["ended_by"] == "all_tied"
    assert v["score_after"] == [0, 0]


def test_variant_all_tied_dealer_team_and_first_player_team():
    events = TWO_TIES + ("2 J-ouros", "3 J-copas", "0 6-espadas", "1 7-ouros")
    dealer = verdict("4-ouros", *events, options={"all_tied": "dealer_team"})
    first = verdict("4-ouros", *events, options={"all_tied": "first_player_team"})
    assert (dealer["winner"], dealer["points"]) == (1, 1)  # dealer is seat 3
    assert (first["winner"], first["points"]) == (0, 1)  # seat 0 leads the hand


def test_art_20_a_tied_mao_de_ferro_scores_nothing_whatever_the_all_tied_variant():
    events = TWO_TIES + ("2 J-ouros", "3 J-copas", "0 6-espadas", "1 7-ouros")
    v = verdict("4-ouros", *events, score=(11, 11), options={"dealer_wins_all_tied": True})
    assert (v["winner"], v["points"], v["ended_by"]) == (None, 0, "iron_tie")
    assert v["rules"]["options"]["all_tied"] == "dealer_team"  # the README's name is an alias


def test_art_11_6_raiser_who_made_the_first_wins_with_a_tie_in_the_third():
    v = verdict("4-ouros", "0 !truco", "1 =accept", *PLAIN, "1 2-espadas", "2 2-copas", "3 Q-ouros", "0 J-copas")
    assert v["winner"] == 0 and v["points"] == 3 and v["valid"]


def test_variant_lead_after_tie_first_player():
    rules = {"lead_after_tie": "first_player"}
    ok = verdict("4-ouros", *TIED_FIRST, "0 Q-copas", "1 2-ouros", "2 3-paus", "3 7-paus", options=rules)
    assert ok["valid"], ok["violations"]
    wrong = verdict("4-ouros", *TIED_FIRST, "1 2-ouros", "2 3-paus", "3 7-paus", "0 Q-copas", options=rules)
    assert codes(wrong) == ["card_out_of_turn"]  # art. 23: one card out of turn, the rest follow it


def test_winner_of_a_trick_leads_the_next():
    v = verdict("4-ouros", "0 K-ouros", "1 3-espadas", "2 4-copas", "3 6-paus", "0 4-paus", "1 A-copas")
    assert codes(v) == ["card_out_of_turn", "hand_incomplete"]  # seat 1 (who won) should have led


def test_art_11_1_no_covered_card_in_the_first_trick():
    v = verdict("4-ouros", "0 3-espadas*", "1 K-ouros", "2 4-copas", "3 6-paus", "0 2-ouros", "1 A-copas",
                "2 6-copas", "3 7-espadas")
    assert codes(v) == ["covered_first_trick"]
    assert v["violations"][0]["article"] == "art. 11.1" and not v["valid"]
    assert v["tricks"][0]["winner"] == 0  # "não vale encobrir": the card counts as shown


def test_covered_card_later_is_worth_nothing():
    # seat 0 covers the zap in trick 2: the 4 de copas beats it
    v = verdict("4-ouros", *PLAIN[:4], "0 5-paus*", "1 4-copas", "2 6-copas", "3 7-espadas")
    assert v["valid"] is False  # 4-copas was played twice: a malformed report
    v = verdict("4-ouros", *PLAIN[:4], "0 5-paus*", "1 Q-copas", "2 6-copas", "3 7-espadas",
                "1 A-copas", "2 J-ouros", "3 Q-ouros", "0 4-paus")
    assert v["valid"] and v["tricks"][1]["winner"] == 1 and v["winner"] == 1


def test_variant_no_cover_after_tied_first_trick():
    events = TIED_FIRST + ("1 2-ouros*", "2 3-paus", "3 7-paus", "0 Q-copas")
    assert verdict("4-ouros", *events)["valid"]
    assert codes(verdict("4-ouros", *events, options={"cover_after_tied_first": False})) == ["cover_after_tied_first"]


def test_variant_show_highest_after_tied_first():
    deal = {0: ["3-espadas", "Q-copas", "J-copas"], 1: ["3-copas", "2-ouros", "7-ouros"],
            2: ["K-ouros", "3-paus", "4-copas"], 3: ["A-paus", "7-paus", "6-paus"]}
    events = TIED_FIRST + ("1 2-ouros", "2 3-paus", "3 7-paus", "0 Q-copas")
    assert verdict("4-ouros", *events, deal=deal)["valid"]  # art. 11.5: no obligation
    v = verdict("4-ouros", *events, deal=deal, options={"show_highest_after_tied_first": True})
    assert codes(v) == ["highest_not_shown"]  # seat 0 kept the J de copas over the Q
    assert "assento 0" in v["violations"][0]["message"]


def test_score_is_capped_at_twelve_unless_the_option_is_off():
    events = ("0 !truco", "1 =accept", *PLAIN[:4], "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    v = verdict("4-ouros", *events, score=(10, 4))
    assert v["points"] == 3 and v["score_after"] == [12, 4] and v["game_winner"] == 0
    raw = verdict("4-ouros", *events, score=(10, 4), options={"score_cap": False})
    assert raw["score_after"] == [13, 4] and raw["game_winner"] == 0


def test_clean_deck_rejects_cards_it_does_not_have():
    v = verdict("K-ouros", "0 4-copas", options={"deck": "limpo"})
    assert v["valid"] is False and v["error"]["field"] == "events[0].play"
    assert "limpo" in v["error"]["message"]


def test_a_seat_cannot_play_twice_in_a_trick_nor_a_card_twice():
    assert verdict("4-ouros", "0 3-espadas", "0 K-ouros")["error"]["field"] == "events[1].seat"
    assert "já foi jogada" in verdict("4-ouros", "0 3-espadas", "1 3-espadas")["error"]["message"]
    assert "vira" in verdict("4-ouros", "0 4-ouros")["error"]["message"]


def test_deal_is_checked_against_the_plays():
    deal = {0: ["3-espadas", "Q-copas", "J-copas"], 1: ["3-copas", "2-ouros", "7-ouros"],
            2: ["K-ouros", "3-paus", "4-copas"], 3: ["A-paus", "7-paus", "6-paus"]}
    v = verdict("4-ouros", "0 2-paus", deal=deal)
    assert v["error"]["field"] == "events[0].play" and "não está entre as cartas dadas" in v["error"]["message"]
    dup = {**deal, 3: ["A-paus", "7-paus", "3-espadas"]}
    assert verdict("4-ouros", "0 3-espadas", deal=dup)["error"]["field"] == "deal.3[2]"


def test_incomplete_hand_still_gets_a_verdict_that_says_so():
    v = verdict("4-ouros", *PLAIN[:4])
    assert codes(v) == ["hand_incomplete"] and v["winner"] is None and v["tricks"][0]["winner"] == 0


def test_claim_that_matches_and_one_that_does_not():
    events = PLAIN[:4] + ("0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    ok = verdict("4-ouros", *events, claimed={"winner": 0, "points": 1})
    assert ok["valid"] and ok["claim_matches"] is True
    bad = verdict("4-ouros", *events, claimed={"winner": 1, "points": 3})
    assert bad["claim_matches"] is False and codes(bad) == ["claim_mismatch"] and not bad["valid"]
    assert bad["winner"] == 0  # the verdict is the engine's, not the claim's


def test_report_id_is_echoed_for_batches():
    data = report("4-ouros", *PLAIN[:4], "0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
    data["id"] = "mesa-7/mão-3"
    assert check_report(data)["id"] == "mesa-7/mão-3"
    assert check_report({"id": 9, "vira": "8-paus"})["id"] == 9
