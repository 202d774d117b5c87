"""One place per rule: the application does no score-11 or score-12 arithmetic of its own. A team at 11
plays the mão de onze, both at 11 the mão de ferro (art. 18, 19, 20), a game ends when a team reaches 12,
a game may start at 11×11 (the room's ``eleven_all``): each is a function of ``referee/engine/game.py``
(``eleven_state``, ``value_fixed``, ``value_in_play``, ``game_winner``, ``points_to_game``, ``game_start``,
``time_up_result``) that the súmula, the table, the claims, the rulings, the appeals and the time limit call.

The check reads every application module (not the tests, not the migrations, not the engine) and flags a
comparison or an operation between a score and 11 or 12, a score field given 11 or 12, and an 11×11 literal.
The table page's offline preview (templates/scoring/_entry_core.js) computes no rule: it reads the engine's
``preview`` (referee/engine/preview.py) sent with the page's state."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "people", "events", "draw", "scoring", "tournaments", "referee")

# draw/ lies below the engine (it may not import referee.engine): a match result's bounds in tentos (a game
# is won at 12, art. 18-20) are its own check of what is typed in, not the play of a game.
EXEMPT = {"draw/pairing/scores.py"}
GAME_NUMBERS = (11, 12)


def _is_game_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value in GAME_NUMBERS


def score_arithmetic(path: str, source: str) -> list[str]:
    """``path:line: text`` for each comparison or operation between a score and 11 or 12, and each 11×11."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.BinOp):
            operands = [node.left, node.right]
        elif isinstance(node, (ast.Tuple, ast.List)):
            if len(node.elts) == 2 and all(_is_game_number(e) and e.value == 11 for e in node.elts):
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)} (the engine's game_start)")
            continue
        elif isinstance(node, ast.keyword) and node.arg and "score" in node.arg:
            if any(_is_game_number(n) for n in ast.walk(node.value)):
                found.append(f"{path}:{node.value.lineno}: {node.arg}={ast.unparse(node.value)} (the engine's game_start)")
            continue
        else:
            continue
        text = ast.unparse(node)
        if any(_is_game_number(o) for o in operands) and "score" in text.lower():
            found.append(f"{path}:{node.lineno}: {text} (the engine's referee/engine/game.py)")
    return found


def application_modules() -> list[Path]:
    paths = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith("referee/engine/") or relative in EXEMPT:
                continue
            paths.append(path)
    return paths


def test_no_score_arithmetic_outside_the_engine():
    found = []
    for path in application_modules():
        found += score_arithmetic(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
    assert found == [], "score arithmetic outside the engine:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "runner = 0 if score[0] == 11 else 1 if score[1] == 11 else None\n",
    "points = 12 - score[1]\n",
    "winner = 0 if score[0] >= 12 else None\n",
    "fixed = game.score_a == 11 or game.score_b == 11\n",
    "start = (11, 11) if eleven else (0, 0)\n",
    "Game(score=[11, 11])\n",
    "Game.objects.create(score_a=11 if eleven else 0)\n",
])
def test_the_check_finds_the_arithmetic(source):
    assert score_arithmetic("scoring/x.py", source)


@pytest.mark.parametrize("source", [
    "ok = 0 <= new_points <= 12\n",  # a hand's value, 1 to 12 (art. 11, 13): not a score
    "runner = eleven_state(score)[1]\n",
    "month = date.month == 11\n",
])
def test_the_check_passes_what_is_no_score_rule(source):
    assert score_arithmetic("scoring/x.py", source) == []


@pytest.mark.parametrize("games, score, expected", [
    ((1, 0), (3, 9), (0, None)),     # more games wins; the game in play counted for no one
    ((0, 0), (6, 3), (0, 0)),        # games level: the pair ahead in the game in play, given that game
    ((1, 1), (5, 8), (1, 1)),
    ((0, 0), (4, 4), (None, None)),  # level there too: the tie rule, play goes on
    ((0, 0), None, (None, None)),    # no game in play (it had just started): games level
])
def test_the_end_of_time_result_is_the_engines(games, score, expected):
    """The room's higher_score / one_more_hand (docs/room.md): one function for the entry and the corrections."""
    from referee.engine.game import time_up_result

    assert time_up_result(games, score) == expected


def test_the_start_and_the_fixed_value_are_the_engines():
    """art. 18, 19: a mão de onze or de ferro fixes the hand's value; eleven_all starts a game at 11×11."""
    from referee.engine.game import game_start, value_fixed

    assert game_start() == (0, 0) and game_start(True) == (11, 11)
    assert value_fixed((11, 4)) and value_fixed((11, 11)) and value_fixed((7, 11)) and not value_fixed((10, 10))
