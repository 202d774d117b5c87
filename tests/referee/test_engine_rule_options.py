"""Named options of the rule set, each against the regulation's default.

art. 20 (iron_tie), who leads after a tie (lead_after_tie), art. 19 "a partida" (raise_in_eleven:
art19_match) and the sanctions the regulation does not state (house_sanctions; art. 10, 14, 18).
"""
import pytest

from referee.engine.infractions import CATALOG
from referee.engine.rules import DEFAULT, rule_set_from
from referee.engine.rulings import TableState, propose_ruling
from referee.engine.tricks import leader_after_tie

from .hands import codes, verdict

# all three tricks tied (docs example 18; vira 4-ouros, dealer 3; the tying player leads)
TIED = ("0 3-espadas", "1 3-copas", "2 4-espadas", "3 Q-copas",
        "1 2-espadas", "2 6-ouros", "3 J-copas", "0 2-ouros",
        "0 K-paus", "1 K-ouros", "2 7-paus", "3 4-copas")


def test_art_20_a_tied_iron_hand_scores_nothing_by_default():
    v = verdict("4-ouros", *TIED, score=(11, 11))
    assert (v["winner"], v["points"], v["ended_by"]) == (None, 0, "iron_tie")
    assert DEFAULT.iron_tie == "nobody"


def test_iron_tie_first_player_team_option():
    v = verdict("4-ouros", *TIED, score=(11, 11), options={"iron_tie": "first_player_team"})
    assert (v["winner"], v["points"], v["ended_by"]) == (0, 3, "iron_tie")  # dealer 3: seat 0 is the mão
    assert v["valid"] and v["game_winner"] == 0


@pytest.mark.parametrize("option,leader", [
    ("tying_player", 3), ("first_player", 0), ("trick_leader", 1), ("first_tying_player", 1),
    ("nearest_tying_player", 1),
])
def test_who_leads_after_a_tie(option, leader):
    plays = [(1, 10), (2, 5), (3, 10), (0, 3)]  # seats 1 and 3 show the top card
    assert leader_after_tie(plays, option, 0, 1, 3) == leader
    assert leader_after_tie([(2, 10), (3, 1), (0, 1), (1, 10)], "nearest_tying_player", 1, 2, 1) == 1
    assert leader_after_tie([(2, 10), (3, 1), (0, 1), (1, 10)], "first_tying_player", 1, 2, 1) == 2


def test_lead_after_tie_options_are_accepted_in_a_report():
    for option in ("first_tying_player", "nearest_tying_player"):
        v = verdict("4-ouros", "0 3-espadas", "1 3-copas", "2 4-copas", "3 4-paus", "0 5-paus",
                    "1 2-copas", "2 6-copas", "3 7-paus", options={"lead_after_tie": option})
        assert v["valid"] and v["winner"] == 0, v  # seat 0 (first to show a 3, nearest the mão) leads trick 2
        late = verdict("4-ouros", "0 3-espadas", "1 3-copas", "2 4-copas", "3 4-paus", "1 2-copas",
                       options={"lead_after_tie": option})
        assert codes(late) == ["card_out_of_turn", "hand_incomplete"]


def test_art_19_partida_is_the_game_by_default_or_the_match_as_an_option():
    state = TableState((11, 9), 3)
    game = propose_ruling(DEFAULT, "raise_in_eleven", 0, state)
    assert (game.points, game.match_loss, game.article) == (3, False, "art. 19")
    match = propose_ruling(rule_set_from({"options": {"raise_in_eleven": "art19_match"}}), "raise_in_eleven", 0, state)
    assert (match.points, match.match_loss, match.article) == (3, True, "art. 19")
    v = verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, 10), options={"raise_in_eleven": "art19_match"})
    assert v["match_loser"] == 0 and v["game_winner"] == 1 and codes(v) == ["raise_in_eleven"]
    assert "match_loser" not in verdict("4-ouros", "0 eleven:play", "0 !truco", score=(11, 10))


@pytest.mark.parametrize("code,article", [("burned_card", "art. 10"), ("saw_partner_cards", "art. 14"),
                                          ("saw_partner_cards_eleven", "art. 18")])
def test_sanctions_the_regulation_does_not_state_are_house_rules_settable(code, article):
    assert CATALOG[code].article == article and CATALOG[code].house_sanction
    state = TableState((11, 4), 3, value=3, raised_team=1)
    tento = propose_ruling(DEFAULT, code, 1, state)
    assert tento.house_sanction and tento.points == 3 and "regras da casa" in tento.consequence
    warning = propose_ruling(rule_set_from({"options": {"house_sanctions": "warning"}}), code, 1, state)
    assert (warning.points, warning.beneficiary, warning.ends_hand) == (0, None, False)
    assert "regras da casa" in warning.consequence


def test_sanctions_the_regulation_states_are_not_house_rules():
    assert not CATALOG["guidance_word"].house_sanction  # art. 24: "perda do tento em jogo"
    assert not propose_ruling(DEFAULT, "guidance_word", 1, TableState((0, 0), 3)).house_sanction


def test_a_tied_iron_hand_entered_as_a_summary_follows_iron_tie():
    from referee.engine.summary import check_summary

    nobody = check_summary(DEFAULT, (11, 11), 3, {"winner": None, "ended_by": "all_tied", "value": 0})
    assert nobody["winner"] is None
    option = rule_set_from({"options": {"iron_tie": "first_player_team"}})
    first = check_summary(option, (11, 11), 3, {"winner": 0, "ended_by": "all_tied", "value": 3})
    assert first["winner"] == 0 and first["game_winner"] == 0
