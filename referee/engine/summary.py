"""A hand entered as a summary — who scored, how the hand ended, its value — checked against the rules.

This is what a table taps on the phone: "team 1 won a truco", "team 0 ran from the seis",
"the team at 11 refused". ``check_summary`` refuses what cannot happen and gives the
points, the new score and the next dealer:

- values climb 1 → 3 → 6 → 9 → 12 (art. 11, 13); a team that runs loses the value before the
  refused raise, so a run is worth 1, 3, 6 or 9 to the raisers (art. 13);
- a mão de onze is worth 3 and has no raises (art. 18, 19); refusing it gives the opponents
  ``eleven_run_points``; the mão de ferro is worth ``iron_hand_value``, no raises, and a tied
  one scores nothing (art. 20) unless ``iron_tie`` gives it to a team (``tricks.tied_hand_winner``);
- three tied tricks score nothing (art. 11.4) unless the rule set says otherwise;
- a game ends at 12: no hand is entered after it (and by default none takes a team past 12).

Penalties (tentos from a ruling) are entered apart, with their article; see infractions.py.
"""
from __future__ import annotations

from .errors import ReportError, shown
from .game import GAME_POINTS, add_points, eleven_refused, eleven_state, game_winner, hand_start, next_dealer
from .rules import RuleSet
from .tricks import tied_hand_winner

ENDINGS = ("tricks", "run", "eleven_refused", "all_tied", "deal_lost", "fold")
RAISED_VALUES = (1, 3, 6, 9, 12)


def hand_state(score: tuple[int, int]) -> str:
    """``normal``, ``eleven`` (one team at 11: mão de onze) or ``iron`` (11-11: mão de ferro): read from
    :func:`~referee.engine.game.eleven_state`, the one rule of it (art. 18)."""
    iron, eleven_team = eleven_state(score)
    return "iron" if iron else "normal" if eleven_team is None else "eleven"


def allowed_values(rules: RuleSet, score: tuple[int, int], ended_by: str) -> tuple[int, ...]:
    """The values a hand that ended this way can have in this state of the game."""
    state = hand_state(score)
    start = hand_start(score, rules)[2]  # art. 18: a mão de onze is worth 3, a mão de ferro iron_hand_value
    # Whether three tied tricks score: tricks.tied_hand_winner, the one rule (art. 11.4, art. 20 or the options
    # all_tied / iron_tie); who scores depends on the dealer, whether anybody does does not.
    tie_scores = ended_by == "all_tied" and tied_hand_winner(rules, 0, state == "iron") is not None
    if state == "iron" and ended_by == "all_tied":
        return (start,) if tie_scores else (0,)
    if ended_by == "deal_lost" or (ended_by == "all_tied" and not tie_scores):
        return (0,)
    fold = ended_by == "fold" and rules.fold_any_time  # the value in play goes to the opponents, as in a report
    if state == "eleven":
        if fold:
            return (start,)
        return {"tricks": (start,), "eleven_refused": (eleven_refused(0, rules)[1],), "all_tied": (start,)}.get(ended_by, ())
    if state == "iron":
        if fold:
            return (start,)
        return {"tricks": (start,)}.get(ended_by, ())
    if ended_by == "run":
        return (1, 3, 6, 9)
    if ended_by in ("tricks", "all_tied") or (ended_by == "fold" and rules.fold_any_time):
        return RAISED_VALUES
    return ()


def check_summary(rules: RuleSet, score: tuple[int, int], dealer: int, entry: object) -> dict:
    """Check ``{"winner": 0|1|null, "ended_by": ..., "value": n}`` for a hand dealt by ``dealer``.

    Returns ``{"winner", "points", "score_after", "next_dealer", "game_winner", "state"}``;
    raises :class:`ReportError` naming the field and the article when the entry cannot be.
    """
    if max(score) >= GAME_POINTS:
        raise ReportError("score", "summary.game_over", {"a": score[0], "b": score[1]})
    if type(entry) is not dict:
        raise ReportError("", "summary.not_object")
    ended_by = entry.get("ended_by", "tricks")
    if ended_by not in ENDINGS:
        raise ReportError("ended_by", "summary.ended_by", {"value": shown(ended_by), "endings": ", ".join(ENDINGS)})
    winner = entry.get("winner")
    if winner not in (0, 1, None) or type(winner) is bool:
        raise ReportError("winner", "summary.winner")
    value = entry.get("value", 1)
    if type(value) is not int:
        raise ReportError("value", "summary.value_int")
    state = hand_state(score)
    allowed = allowed_values(rules, score, ended_by)
    if not allowed:
        raise ReportError("ended_by", *_why_not(state, ended_by))
    scorer = _scorer(rules, score, dealer, ended_by, winner)
    if value not in allowed:
        raise ReportError("value", *_why_value(state, ended_by, value, allowed))
    points = value if scorer is not None else 0
    after = add_points(score, scorer, points, rules)
    return {"winner": scorer, "points": points, "score_after": list(after), "next_dealer": next_dealer(dealer),
            "game_winner": game_winner(after), "state": state}


def _scorer(rules: RuleSet, score: tuple[int, int], dealer: int, ended_by: str, winner: int | None) -> int | None:
    if ended_by == "deal_lost":
        if winner is not None:
            raise ReportError("winner", "summary.deal_lost")
        return None
    if ended_by == "all_tied":
        expected = tied_hand_winner(rules, dealer, hand_state(score) == "iron")  # art. 11.4, 20 or the options
        if winner != expected:
            article = "art. 20" if hand_state(score) == "iron" else "art. 11.4"
            who = ({"key": "actual.nobody", "params": {}} if expected is None
                   else {"key": "summary.tied_winner", "params": {"team": expected}})
            raise ReportError("winner", "summary.all_tied", {"who": who, "article": article, "preset": rules.preset})
        return expected
    if ended_by == "eleven_refused":
        at_eleven = eleven_state(score)[1]  # never None here: allowed_values refused the ending outside one
        scorer = eleven_refused(at_eleven, rules)[0]  # art. 18, the same function as the replays
        if winner != scorer:
            raise ReportError("winner", "summary.eleven_runner", {"eleven_team": at_eleven, "team": scorer})
        return winner
    if winner is None:
        raise ReportError("winner", "summary.winner_missing")
    return winner


def _why_not(state: str, ended_by: str) -> tuple[str, dict]:
    """The refusal of an ending (its code and parameters)."""
    if ended_by == "run":
        return "summary.no_run", {}
    if ended_by == "eleven_refused":
        return "summary.no_eleven", {}
    if ended_by == "fold":
        return "summary.no_fold", {}
    return "summary.no_ending", {"ended_by": ended_by, "state": state}


def _why_value(state: str, ended_by: str, value: int, allowed: tuple[int, ...]) -> tuple[str, dict]:
    """The refusal of a value (its code and parameters)."""
    choices = ", ".join(map(str, allowed))
    if state == "eleven" and ended_by == "tricks":
        return "summary.eleven_value", {"value": value}
    if state == "iron":
        return "summary.iron_value", {"choices": choices, "value": value}
    if ended_by == "run":
        return "summary.run_value", {"choices": choices, "value": value}
    if allowed == (0,):
        return "summary.no_points", {}
    return "summary.value", {"choices": choices, "value": value}
