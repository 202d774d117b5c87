"""The table page's preview: what the engine says of every hand a phone may queue while it cannot ask.

A phone offline (or waiting for an answer) shows the score after the hands it keeps queued. It computes
no rule: the server sends, with the page's state, this table built by the engine's own functions, and the
page only looks things up in it (docs/table-links.md, "The offline preview").

The table covers every score a hand of a game can start at (0..11 × 0..11), so any number of queued
hands, across games, is previewed by lookups alone:

- ``shapes``: the distinct hand shapes (:func:`hand_shape`: the state, the team at 11, the value in play
  and the values each ending allows, art. 11, 13, 18, 19, 20); ``hands["a-b"][0]`` is the index of the
  shape of a hand starting at a-b;
- ``hands["a-b"][1]``: for each (winner, points) a hand starting at a-b can score, ``"w:p"`` →
  ``[a', b', game winner or null]``: the score after it (:func:`~.game.add_points`: the score limit, the
  ``score_cap`` option) and whether it ends the game (:func:`~.game.game_winner`: a game ends when a
  team reaches 12);
- ``dealers[d]``: the dealer of the hand after one dealt by ``d`` (:func:`~.game.next_dealer`, art. 4);
- ``next``: where the next game starts: its score (:func:`~.game.game_start`, 11×11 under the room's
  ``eleven_all`` once the time is up) and its first dealer, the seat the page starts from until the
  table's draw (art. 1) is entered with the game's first hand;
- ``games_to_win``: the games that win the match (best of N, the caller's number);
- ``key``: a digest of all the above, which a page sends back so that an unchanged preview is not sent
  again with every poll;
- ``time_up`` (:func:`preview`, only under the room's ``higher_score`` or ``one_more_hand``, once the match
  carries its time limit): what that end-of-time procedure decides (:func:`time_up_table`), with ``at``, the
  limit (milliseconds since the epoch): a hand still queued on the phone then is entered after it.

A hand whose winner is None scores nothing and leaves the score as it is (art. 5, 11.4, 20): no entry.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from .game import (GAME_POINTS, add_points, eleven_state, game_start, game_winner, next_dealer, time_up_result,
                   value_in_play)
from .rules import RuleSet
from .summary import ENDINGS, allowed_values, hand_state


def endings(rules: RuleSet) -> list[str]:
    """The endings a table may enter under ``rules``: a fold only where ``fold_any_time`` allows it (art. 13)."""
    return [ending for ending in ENDINGS if ending != "fold" or rules.fold_any_time]


def hand_shape(score: tuple[int, int], rules: RuleSet) -> dict:
    """What the score makes of the next hand, from the engine (art. 18, 24): ``state`` (normal, eleven,
    iron), ``eleven_team`` (the team at 11 in a mão de onze, else None), ``value`` (the tento in play before
    any raise: 3 in a mão de onze, the mão de ferro's value, else 1) and ``allowed``: the values each ending
    allows (art. 11, 13, 18, 19, 20; :func:`~.summary.allowed_values`)."""
    return {"state": hand_state(score), "eleven_team": eleven_state(score)[1], "value": value_in_play(score, rules),
            "allowed": {ending: list(allowed_values(rules, score, ending)) for ending in endings(rules)}}


@lru_cache(maxsize=64)
def preview_table(rules: RuleSet, *, eleven_all: bool = False, games_to_win: int = 1) -> dict:
    """The preview of every hand a game can hold (see the module's docstring). ``eleven_all``: a game
    starting now starts at 11×11 (the room's procedure past the time limit). Built once per rule set
    (~3.5 ms, ~24 kB of JSON, ~3 kB gzipped) and shared: callers must not change it."""
    shapes: list[dict] = []
    hands: dict[str, list] = {}
    for a in range(GAME_POINTS):
        for b in range(GAME_POINTS):
            score = (a, b)
            shape = hand_shape(score, rules)
            if shape not in shapes:
                shapes.append(shape)
            points = sorted({v for values in shape["allowed"].values() for v in values if v})
            after = {}
            for winner in (0, 1):
                for p in points:
                    new = add_points(score, winner, p, rules)
                    after[f"{winner}:{p}"] = [new[0], new[1], game_winner(new)]
            hands[f"{a}-{b}"] = [shapes.index(shape), after]
    table = {"shapes": shapes, "hands": hands, "games_to_win": games_to_win,
             "dealers": [next_dealer(seat) for seat in range(4)],
             "next": {"score": list(game_start(eleven_all)), "dealer": 0}}
    return {**table, "key": digest(table)}


def digest(data: object) -> str:
    """A short digest of ``data``'s JSON: equal for equal previews, whatever the rule set it came from."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@lru_cache(maxsize=64)
def time_up_table(hands: int, games_to_win: int) -> dict:
    """What the room's ``higher_score`` / ``one_more_hand`` procedure decides past the time limit, as look-ups
    (:func:`~.game.time_up_result`; the regulation is silent on the time, a case art. 26 leaves to the
    organizer: the room's procedure, docs/room.md):

    - ``hands``: how many more hands must end before the procedure decides (the hand in play; one more under
      ``one_more_hand``); it decides after that hand and, while nobody is ahead (the tie rule), after each
      hand that follows;
    - ``games["g0-g1"]``, for each games count a match in play can stand at (each below ``games_to_win``):
      ``[the match's winner, the team given the game in play or null]`` when the games decide, or
      ``"score"``: the games are level and the game in play decides, ``score[a][b]`` with that game at a-b
      (``null``: level there too, play goes on). A game that has just started is looked up at its starting
      score (``next``), level: it decides nothing.
    """
    games = {}
    for g0 in range(games_to_win):
        for g1 in range(games_to_win):
            decided = time_up_result((g0, g1), None)
            games[f"{g0}-{g1}"] = list(decided) if decided[0] is not None else "score"
    score = [[_result(time_up_result((0, 0), (a, b))) for b in range(GAME_POINTS)] for a in range(GAME_POINTS)]
    table = {"hands": hands, "games": games, "score": score}
    return {"table": table, "key": digest(table)}


def _result(decided: tuple[int | None, int | None]) -> list | None:
    return None if decided[0] is None else list(decided)


def preview(rules: RuleSet, *, eleven_all: bool = False, games_to_win: int = 1,
            time_up: tuple[int, int] | None = None) -> dict:
    """The page's preview (see the module's docstring): :func:`preview_table`, with ``time_up`` when the match
    is under the room's ``higher_score`` or ``one_more_hand``: ``(the limit in ms since the epoch, the hands
    still to end before the procedure decides)`` (:func:`time_up_table`)."""
    table = preview_table(rules, eleven_all=eleven_all, games_to_win=games_to_win)
    if time_up is None:
        return table
    at, hands = time_up
    decides = time_up_table(hands, games_to_win)
    return {**table, "time_up": {"at": at, **decides["table"]}, "key": f"{table['key']}.{decides['key']}.{at}"}
