"""The suspect readings decided (docs/rule-readings.md): art. 5 after the first card, art. 6's truco
in a mão de onze, art. 19 and art. 26. Each reading where clubs differ is an option; the default is unchanged text."""
from referee.engine.rules import DEFAULT

from .hands import codes, verdict

T1 = ("0 3-espadas", "1 K-ouros", "2 4-copas", "3 6-paus")
WIN0 = T1 + ("0 2-ouros", "1 A-copas", "2 6-copas", "3 7-espadas")
WRONG = {0: ["3-espadas", "Q-copas", "J-copas", "2-paus"], 1: ["3-copas", "2-ouros", "7-ouros"],
         2: ["K-ouros", "3-paus", "4-copas"], 3: ["A-paus", "7-paus", "6-paus"]}


# ------------------------------------------------ art. 5: the bottom of the deck after the first card
def test_art_5_by_default_the_bottom_of_the_deck_is_claimed_before_the_first_card():
    assert DEFAULT.bottom_of_deck == "before_first_card"
    before = verdict("4-ouros", "3 #bottom_of_deck", dealer=3)
    assert (before["winner"], before["points"], before["ended_by"]) == (None, 0, "deal_lost")
    after = verdict("4-ouros", "0 3-espadas", "3 #bottom_of_deck", dealer=3)
    assert "art. 5" in after["error"]["message"]


def test_art_5_option_any_time_voids_the_hand_in_play():
    v = verdict("4-ouros", "0 !truco", "1 =accept", *T1, "3 #bottom_of_deck", options={"bottom_of_deck": "any_time"})
    assert (v["winner"], v["points"], v["ended_by"], codes(v)) == (None, 0, "deal_lost", ["bottom_of_deck"])


# ------------------------------------------------ art. 6 and 19: the wronged team's truco in a mão de onze
def test_art_6_in_a_mao_de_onze_the_wronged_teams_truco_is_the_art_6_claim():
    accepted = verdict("4-ouros", "0 eleven:play", "0 !truco", "3 =accept", deal=WRONG, score=(11, 4))
    assert (accepted["winner"], accepted["points"], accepted["ended_by"]) == (0, 3, "penalty")
    assert "raise_in_eleven" not in codes(accepted) and accepted["notes"][0]["article"] == "art. 6"
    ran = verdict("4-ouros", "0 eleven:play", "0 !truco", "3 =run", deal=WRONG, score=(11, 4))
    assert (ran["winner"], ran["points"]) == (0, 1)  # art. 6: "se correr, perde um tento"
    asked = verdict("4-ouros", "0 eleven:play", "0 !truco", "3 ask", deal=WRONG, score=(11, 4))
    assert (asked["winner"], asked["points"], asked["ended_by"]) == (None, 0, "deal_lost")


def test_art_19_option_makes_that_truco_a_raise_in_eleven():
    v = verdict("4-ouros", "0 eleven:play", "0 !truco", deal=WRONG, score=(11, 4),
                options={"wrong_cards_in_eleven": "art19"})
    assert "raise_in_eleven" in codes(v) and (v["winner"], v["points"]) == (1, 3)  # the team at 11 loses three


def test_art_19_any_other_truco_in_a_mao_de_onze_still_costs_three():
    v = verdict("4-ouros", "0 eleven:play", "1 !truco", deal=WRONG, score=(11, 4))  # the dealer's own team
    assert "raise_in_eleven" in codes(v) and (v["winner"], v["points"]) == (0, 1)  # opponents at 11: the game
    right = verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, 4))  # a right deal: art. 19
    assert "raise_in_eleven" in codes(right)


# ------------------------------------------------ art. 26: what the catalog does not cover is not guessed
def test_art_26_an_unknown_infraction_is_not_judged_by_the_engine():
    v = verdict("4-ouros", "0 #cheating")
    assert "error" in v and v["error"]["field"] == "events[0].infraction"
