"""The table page's offline preview is the engine's (referee.engine.preview): for every score a hand starts at,
under every option that changes a hand's value or the score, each (winner, points) the table may tap gives the
score, the game's end and the next hand's shape that ``check_summary`` (what the server records) gives.

art. 11, 13: the raised values; art. 18: a mão de onze worth 3, refusing it gives the opponents
``eleven_run_points``, the mão de ferro worth ``iron_hand_value``; art. 11.4, 20: a tied hand scores nothing
unless an option says so; art. 4: the deal passes to the right; a game ends at 12 (the score limit,
``score_cap``); the room's ``eleven_all`` starts the next game at 11×11.
"""
from __future__ import annotations

import pytest

from referee.engine.errors import ReportError
from referee.engine.game import GAME_POINTS, game_start, time_up_result
from referee.engine.preview import endings, hand_shape, preview, preview_table
from referee.engine.rules import rule_set_from
from referee.engine.summary import check_summary

OPTION_SETS = [{}, {"eleven_run_points": 3}, {"iron_hand_value": 1}, {"score_cap": False}, {"fold_any_time": True},
               {"all_tied": "dealer_team", "iron_tie": "first_player_team"}]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_every_tap_previews_what_the_server_records(options):
    rules = rule_set_from({"options": options})
    table = preview_table(rules)
    for a in range(GAME_POINTS):
        for b in range(GAME_POINTS):
            shape_index, after = table["hands"][f"{a}-{b}"]
            assert table["shapes"][shape_index] == hand_shape((a, b), rules)
            for ending in endings(rules):
                for value in table["shapes"][shape_index]["allowed"][ending]:
                    for winner in (0, 1, None):
                        try:
                            verdict = check_summary(rules, (a, b), 0, {"winner": winner, "ended_by": ending,
                                                                       "value": value})
                        except ReportError:
                            continue  # a tap the server refuses (e.g. the team at 11 "refusing" for the others)
                        if verdict["winner"] is None:
                            assert verdict["score_after"] == [a, b]  # nobody scores: the page keeps the score
                            continue
                        key = f"{verdict['winner']}:{verdict['points']}"
                        assert after[key] == [*verdict["score_after"], verdict["game_winner"]], (a, b, key)


@pytest.mark.parametrize("score, won, expected", [
    ((11, 5), (0, 3), [12, 5, 0]),     # art. 18: the mão de onze won ends the game
    ((11, 5), (1, 3), [11, 8, None]),  # lost: the opponents score 3, the game goes on
    ((11, 5), (1, 1), [11, 6, None]),  # refused (eleven_run_points 1): the opponents score 1
    ((11, 11), (1, 3), [11, 12, 1]),   # art. 18, 20: the mão de ferro decides the game
    ((10, 2), (0, 12), [12, 2, 0]),    # a hand cannot take a team past 12 (score_cap)
])
def test_the_preview_at_eleven(score, won, expected):
    table = preview_table(rule_set_from(None))
    assert table["hands"][f"{score[0]}-{score[1]}"][1][f"{won[0]}:{won[1]}"] == expected


def test_the_next_game_starts_where_the_engine_says():
    """The room's eleven_all past the time limit: the next game starts at 11×11, a mão de ferro (art. 18, 20)."""
    rules = rule_set_from(None)
    assert preview_table(rules)["next"] == {"score": list(game_start()), "dealer": 0}
    eleven = preview_table(rules, eleven_all=True)
    assert eleven["next"]["score"] == list(game_start(True))
    start = eleven["hands"]["{}-{}".format(*game_start(True))]
    assert eleven["shapes"][start[0]]["state"] == "iron"
    assert preview_table(rules, games_to_win=2)["games_to_win"] == 2
    assert preview_table(rules)["dealers"] == [1, 2, 3, 0]  # art. 4: to the right


def test_the_iron_hand_value_option_reaches_the_preview():
    """iron_hand_value 1: a mão de ferro won is worth 1 (art. 18 read with the option), still ending the game."""
    table = preview_table(rule_set_from({"options": {"iron_hand_value": 1}}))
    index, after = table["hands"]["11-11"]
    assert table["shapes"][index]["allowed"]["tricks"] == [1] and after["0:1"] == [12, 11, 0]


@pytest.mark.parametrize("games_to_win", [1, 2, 3])
def test_the_end_of_time_procedure_is_looked_up_as_the_engine_decides(games_to_win):
    """higher_score / one_more_hand past the limit (art. 26: the room's procedure, docs/room.md): for every games count a
    match in play can stand at and every score of the game in play, the preview's look-up is ``time_up_result``'s; a
    game just started, looked up at its starting score, decides by the games alone (the entry's ``fresh`` game)."""
    rules = rule_set_from(None)
    table = preview(rules, games_to_win=games_to_win, time_up=(1_000, 1))
    up = table["time_up"]
    assert up["at"] == 1_000 and up["hands"] == 1
    start = tuple(table["next"]["score"])

    def looked_up(games, score):
        by = up["games"][f"{games[0]}-{games[1]}"]
        return tuple(up["score"][score[0]][score[1]] or (None, None)) if by == "score" else tuple(by)

    for g0 in range(games_to_win):
        for g1 in range(games_to_win):
            assert looked_up((g0, g1), start) == time_up_result((g0, g1), None)
            for a in range(GAME_POINTS):
                for b in range(GAME_POINTS):
                    assert looked_up((g0, g1), (a, b)) == time_up_result((g0, g1), (a, b)), (g0, g1, a, b)


def test_the_preview_key_changes_with_what_the_page_previews():
    """The key a page sends back: equal for the same preview, another for another rule set, another ``eleven_all``, the
    procedure's limit or the hands left before it decides."""
    rules = rule_set_from(None)
    key = preview(rules)["key"]
    assert preview(rules)["key"] == key == preview_table(rules)["key"]
    others = {preview(rule_set_from({"options": {"iron_hand_value": 1}}))["key"], preview(rules, eleven_all=True)["key"],
              preview(rules, games_to_win=2)["key"], preview(rules, time_up=(1_000, 1))["key"],
              preview(rules, time_up=(1_000, 0))["key"], preview(rules, time_up=(2_000, 1))["key"]}
    assert key not in others and len(others) == 6
    assert "time_up" not in preview(rules)
