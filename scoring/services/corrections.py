"""Corrections: changing entries of a decided súmula with a reason (art. 25); the games are
replayed and a new version is issued for signatures.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden
from referee.engine.game import add_points, dealer_in_turn, game_start, game_winner, time_up_result
from referee.engine.summary import ENDINGS

from tables import links as table_links
from tables.models import TableLink

from .. import access
from ..content import load_games
from ..models import Game, HandEntry, Match, MatchEvent, PenaltyEntry, SumulaVersion
from .base import ScoringError, _check_seat, _event, _is_user, _lock, engine_error_message, rules_of
from .closing import refuse_closed
from . import time_limit
from .entry import _check_penalty, check_hand
from .versions import _issue_version


CHANGE_OPS = ("remove_entry", "replace_hand", "insert_hand", "insert_penalty", "set_first_dealer")


def _plan(match: Match) -> list[dict]:
    """The match's entries as an editable plan: games with their first dealer and items."""
    plan = []
    for game in load_games(match):
        items = []
        for e in game.entries:
            common = {"created_by_id": e.created_by_id, "created_at": e.created_at}
            if e.kind == "hand":
                items.append({"kind": "hand", "winner": e.winner, "ended_by": e.ended_by, "value": e.value,
                              "report": e.report, **common})
            else:
                items.append({"kind": "penalty", "offender": e.offender, "points": e.points, "article": e.article,
                              "reason": e.reason, "reason_data": e.reason_data, "ruling_id": e.ruling_id,
                              "ends_hand": e.dealer is not None, **common})
        plan.append({"number": game.number, "first_dealer": game.first_dealer, "items": items,
                     "eleven_all": game.eleven_all, "started_at": game.started_at})
    return plan


def _essence(plan: list[dict]) -> list:
    skip = {"created_by_id", "created_at"}
    return [(g["first_dealer"], [{k: v for k, v in i.items() if k not in skip} for i in g["items"]])
            for g in plan if g["items"] or g["first_dealer"]]


def _apply_changes(plan: list[dict], changes: object, by, now) -> list[dict]:
    if not isinstance(changes, list) or not changes:
        raise ScoringError(_("List the changes of the correction."), "changes")
    plan = [{**g, "items": list(g["items"])} for g in plan]
    author = {"created_by_id": by.pk if _is_user(by) else None, "created_at": now}
    for index, change in enumerate(changes):
        field = f"changes[{index}]"
        if not isinstance(change, dict) or change.get("op") not in CHANGE_OPS:
            raise ScoringError(_("Each change is an object whose \"op\" is one of: %(ops)s.")
                               % {"ops": ", ".join(CHANGE_OPS)}, f"{field}.op")
        op = change["op"]
        number = change.get("game")
        if type(number) is not int or not 1 <= number <= len(plan) + (1 if op.startswith("insert") else 0):
            raise ScoringError(_("There is no game %(game)s in this match.") % {"game": number}, f"{field}.game")
        if number == len(plan) + 1:
            plan.append({"number": number, "first_dealer": 0, "items": [],
                         "eleven_all": bool(plan) and plan[-1].get("eleven_all", False)})
        items = plan[number - 1]["items"]
        if op == "set_first_dealer":
            plan[number - 1]["first_dealer"] = _check_seat(change.get("dealer"), f"{field}.dealer")
        elif op == "remove_entry":
            position = change.get("position")
            if type(position) is not int or not 1 <= position <= len(items):
                raise ScoringError(_("Game %(game)s has no entry %(position)s.")
                                   % {"game": number, "position": position}, f"{field}.position")
            del items[position - 1]
        elif op == "replace_hand":
            hand_numbers = [i for i, item in enumerate(items) if item["kind"] == "hand"]
            hand = change.get("hand")
            if type(hand) is not int or not 1 <= hand <= len(hand_numbers):
                raise ScoringError(_("Game %(game)s has no hand %(hand)s.") % {"game": number, "hand": hand},
                                   f"{field}.hand")
            items[hand_numbers[hand - 1]] = {**_summary_item(change, field), **author}
        else:
            after = change.get("after", len(items))
            if type(after) is not int or not 0 <= after <= len(items):
                raise ScoringError(_("Insert after an entry of the game: 0 to %(last)s.") % {"last": len(items)},
                                   f"{field}.after")
            new = _summary_item(change, field) if op == "insert_hand" else {
                **_check_penalty(change, f"{field}."), "ends_hand": change.get("ends_hand") is True}
            items.insert(after, {**new, **author})
    return plan


def _summary_item(change: dict, field: str) -> dict:
    ended_by = change.get("ended_by", "tricks")
    if ended_by not in ENDINGS:
        raise ScoringError(_("Unknown ending; use one of: %(endings)s.") % {"endings": ", ".join(ENDINGS)},
                           f"{field}.ended_by")
    return {"kind": "hand", "winner": change.get("winner"), "ended_by": ended_by, "value": change.get("value", 1),
            "report": None}


def _replay(match: Match, plan: list[dict], now) -> tuple[list[dict], int | None, list[int]]:
    """Check the whole plan with the engine from the first hand; return the games to store.

    Each game starts where it started: 11×11 for a game the room's ``eleven_all`` procedure started so,
    else 0×0. A match the ``higher_score`` / ``one_more_hand`` procedure may end is decided again by it
    (``time_up_result``) when the replayed entries end enough hands after the limit; otherwise it is open
    again, its game in play where the entries leave it."""
    rules = rules_of(match)
    wins = [0, 0]
    decided: int | None = None
    games: list[dict] = []
    for index, game in enumerate(plan):
        later = any(g["items"] for g in plan[index + 1:])
        if decided is not None:
            if game["items"]:
                raise ScoringError(_("The match is decided in game %(decided)s: game %(game)s cannot have entries.")
                                   % {"decided": games[-1]["number"], "game": game["number"]}, "changes")
            continue
        eleven = bool(game.get("eleven_all"))
        score, dealer, hand_number = game_start(eleven), game["first_dealer"], 0
        winner = None
        rows = []
        for position, item in enumerate(game["items"], 1):
            if winner is not None:
                raise ScoringError(_("Game %(game)s reaches 12 before its entry %(position)s: remove the entries "
                                     "after the end of the game.") % {"game": game["number"], "position": position},
                                   "changes")
            if item["kind"] == "hand":
                hand_number += 1
                try:
                    checked = check_hand(rules, match.rule_set, score, dealer,
                                         item if item.get("report") is not None else
                                         {k: item[k] for k in ("winner", "ended_by", "value")})
                except ScoringError as error:
                    raise ScoringError(_("Game %(game)s, hand %(hand)s: %(message)s")
                                       % {"game": game["number"], "hand": hand_number,
                                          "message": engine_error_message(error, match)},
                                       "changes") from None
                rows.append({**item, **checked, "position": position, "number": hand_number})
                score = checked["score"]
                dealer = dealer_in_turn(game["first_dealer"], [dealer])  # art. 4
            else:
                ended = dealer if item.get("ends_hand") else None  # a ruling's tento ended the hand in play
                score = add_points(score, 1 - item["offender"], item["points"], rules)
                rows.append({**item, "position": position, "beneficiary": 1 - item["offender"], "score": score,
                             "dealer": ended})
                dealer = dealer_in_turn(dealer, [ended])
            winner = game_winner(score)
        games.append({"number": len(games) + 1, "first_dealer": game["first_dealer"], "rows": rows,
                      "score": score, "winner": winner, "eleven_all": eleven, "started_at": game.get("started_at"),
                      "closed": winner is not None})
        if winner is None:
            if later:
                raise ScoringError(_("Game %(game)s no longer reaches 12 (%(a)s-%(b)s) but a later game has "
                                     "entries.") % {"game": game["number"], "a": score[0], "b": score[1]}, "changes")
            break
        wins[winner] += 1
        if wins[winner] >= match.games_to_win:
            decided = winner
    if decided is None and time_limit.ended_by_rows(match, [row for g in games for row in g["rows"]]):
        in_play = games[-1] if games[-1]["winner"] is None else None
        decided, given = time_up_result(tuple(wins), in_play["score"] if in_play else None)
        if decided is not None and in_play is not None:
            in_play["winner"], in_play["closed"] = given, True
            if given is not None:
                wins[given] += 1
        if decided is not None:
            return games, decided, wins
    if decided is None and games[-1]["winner"] is not None:
        eleven = time_limit.starts_at_eleven(match, now)
        kept = plan[len(games)] if len(plan) > len(games) else {}
        games.append({"number": len(games) + 1, "first_dealer": kept.get("first_dealer", 0), "rows": [],
                      "score": game_start(kept.get("eleven_all", eleven)), "winner": None,
                      "eleven_all": kept.get("eleven_all", eleven), "started_at": kept.get("started_at"),
                      "closed": False})
    return games, decided, wins


def _rewrite(match: Match, games: list[dict], now) -> None:
    HandEntry.objects.filter(game__match=match).delete()
    PenaltyEntry.objects.filter(game__match=match).delete()
    Game.objects.filter(match=match).delete()
    hands, penalties = [], []
    for g in games:
        game = Game.objects.create(match=match, number=g["number"], first_dealer=g["first_dealer"],
                                   score_a=g["score"][0], score_b=g["score"][1], winner=g["winner"],
                                   finished_at=now if g["closed"] else None, eleven_all=g["eleven_all"],
                                   started_at=g["started_at"] or now)
        for row in g["rows"]:
            common = {"game": game, "position": row["position"], "score_a": row["score"][0],
                      "score_b": row["score"][1], "created_by_id": row["created_by_id"],
                      "created_at": row["created_at"]}
            if row["kind"] == "hand":
                hands.append(HandEntry(number=row["number"], dealer=row["dealer"], ended_by=row["ended_by"],
                                       value=row["value"], winner=row["winner"], points=row["points"],
                                       report=row["report"], verdict=row["verdict"], **common))
            else:
                penalties.append(PenaltyEntry(offender=row["offender"], beneficiary=row["beneficiary"],
                                              points=row["points"], article=row["article"], reason=row["reason"],
                                              reason_data=row["reason_data"], ruling_id=row["ruling_id"], dealer=row["dealer"], **common))
    HandEntry.objects.bulk_create(hands)
    PenaltyEntry.objects.bulk_create(penalties)


def correct(match: Match, changes: list, reason: str, by) -> SumulaVersion:
    """Change recorded entries with a reason: the whole súmula is checked again by the engine, a new
    version is issued (the old ones stay), and every signature is void until the pairs sign again.

    ``changes`` is a list applied in order, positions counting entries of the game as they stand:
    ``{"op": "remove_entry", "game": g, "position": p}``,
    ``{"op": "replace_hand", "game": g, "hand": n, "winner", "ended_by", "value"}``,
    ``{"op": "insert_hand", "game": g, "after": p, "winner", "ended_by", "value"}``,
    ``{"op": "insert_penalty", "game": g, "after": p, "offender", "points", "article", "reason", "ends_hand"}``
    (``ends_hand``: the tento ended the hand in play, which passes the deal, art. 4),
    ``{"op": "set_first_dealer", "game": g, "dealer": d}``.
    """
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise ScoringError(_("A correction needs a reason: it is printed on the súmula the pairs sign again "
                             "(art. 25)."), "reason")
    if len(reason) > 300:
        raise ScoringError(_("The reason is a text of at most 300 characters."), "reason")
    with transaction.atomic():
        match = _lock(match)
        if not access.can_correct(by, match):
            if match.status == Match.Status.RECEIVED:
                raise Forbidden(_("The súmula was received by the organizer: only the organizer corrects it now."))
            raise Forbidden(_("Only the match's referee or the tournament's organizer corrects the súmula."))
        refuse_closed(match, by)  # a W.O., a disqualification or a withdrawal closed it (art. 26)
        # a match under the room's end-of-time procedure is replayed by it: its games started at 11×11 start
        # there again, and the procedure decides the match again (docs/room.md)
        now = timezone.now()
        before = _plan(match)
        after = _apply_changes(before, changes, by, now)
        if _essence(after) == _essence(before):
            raise ScoringError(_("The correction changes nothing."), "changes")
        games, decided, wins = _replay(match, after, now)
        _rewrite(match, games, now)
        previous_status = match.status
        if previous_status == Match.Status.RECEIVED:  # links left open by an older receipt stay dead
            table_links.close(match, by, TableLink.ClosedAs.RECEIVED)
        match.games_a, match.games_b = wins
        match.winner = decided
        match.finished_at = now if decided is not None else None
        match.status = Match.Status.OPEN
        match.signed_at = match.received_at = match.received_by = None
        match.save()
        version = _issue_version(match, by, reason)
        _event(match, MatchEvent.Kind.CORRECTION, by, version=version.number, reason=reason, changes=changes,
               previous_status=previous_status)
        return version
