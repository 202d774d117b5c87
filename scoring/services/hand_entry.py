"""Recording a hand at the table's pace (issue 10 §3-4): few queries, the expected position, and
what the page needs next.

``record_hand`` is the one implementation behind ``scoring.services.record_hand`` (``entry``; pages, API,
the table link): it locks the match (a table's link already did, in the same transaction), reads
where the current game stands in one query (the last hand and the last penalty as subqueries),
checks the hand with the engine, then writes the hand, its audit event and the game's score in one
statement on PostgreSQL (three on SQLite). The hand that ends a game or the match also starts the
next game or issues the version.

A hand may carry the position it expects (``position=(game, hand)``): a device that is behind
(two phones at one table, an entry queued offline) gets :class:`PositionConflict` (409) with
the current state instead of writing in the wrong place.

This is the only code that writes a hand, whoever enters it (a table's link, the referee's or the
organizer's session; the API, the súmula page and the table page all call it) and whatever the
database. Its statements are plain SQL written once (scoring/entry_sql.py).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden
from referee.engine.game import game_winner, next_dealer
from referee.engine.summary import ENDINGS, allowed_values, hand_state

from .. import access, conflicts, entry_sql, hook
from ..idempotency import KeyTaken
from ..models import Game, HandEntry, Match, MatchEvent, PenaltyEntry
from . import base as services_base
from . import entry as services_entry
from . import time_limit


class PositionConflict(Conflict):
    """The hand was entered for another position than the current one; ``state`` says where the game is."""

    def __init__(self, message: str, state: dict, field: str = "position") -> None:
        super().__init__(message, field)
        self.state = state


def _lock(pk: int, by=None) -> Match:
    """The match row alone (its tournament and pairs are read only when needed: an organizer's
    check, the name of a game's winner), locked; a table's link already read and locked it in this
    transaction (``scoring.table_links.resolve``), and that row is the one used."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("select_for_update cannot be used outside of a transaction.")
    link = getattr(by, "table_link", None)
    if link is not None and link.match_id == pk and getattr(link.match, "locked", False):
        link.match.locked = False  # used once: a later entry of this credential locks and reads again
        return link.match
    match = entry_sql.lock_match(pk)
    if match is None:
        raise Match.DoesNotExist("Match matching query does not exist.")
    return match


def current_game(match: Match) -> Game | None:
    """The match's last game with ``hand_count``, ``entry_count`` (hands and penalties) and ``dealer``
    (of the next hand), in one query."""
    game = entry_sql.current_game(match.pk)
    if game is not None:
        game.hand_count = game.last_hand_number or 0
        game.entry_count = max(game.last_hand_position or 0, game.last_penalty_position or 0)
        game.dealer = next_dealer(game.last_hand_dealer) if game.hand_count else game.first_dealer
    return game


def state_of(match: Match, game_number: int | None, score, dealer: int, hand: int, entries: int,
             rules=None) -> dict:
    """The entry state the table page shows (the API's ``state``), without a query."""
    base = {"status": match.status, "games": [match.games_a, match.games_b], "winner": match.winner}
    if match.winner is not None or game_number is None:
        return {**base, "over": True, "game": None}
    rules = rules or services_base.rules_of(match)
    score = tuple(score)
    endings = [ending for ending in ENDINGS if ending != "fold" or rules.fold_any_time]
    state = hand_state(score)
    return {**base, "over": False, "game": game_number, "hand": hand, "score": list(score), "dealer": dealer,
            "entries": entries, "state": state,
            "eleven_team": (0 if score[0] == 11 else 1) if state == "eleven" else None,
            "allowed": {ending: list(allowed_values(rules, score, ending)) for ending in endings}}


def current_state(match: Match) -> dict:
    """The state now, from the database (two queries)."""
    match = Match.objects.get(pk=match.pk)
    game = current_game(match)
    if game is None or game.winner is not None:
        return state_of(match, None, (0, 0), 0, 1, 0)
    return state_of(match, game.number, game.score, game.dealer, game.hand_count + 1, game.entry_count)


def record_hand(match: Match | int, entry: dict, by, expect: str | None = None,
                position: tuple[int, int] | None = None, claim=None) -> HandEntry:
    """See ``scoring.services.record_hand``; ``position`` = (game, hand) the device expects; ``claim``:
    the request's ``Idempotency-Key`` (``scoring.idempotency.PendingClaim``): with its ``answer``, a
    hand that does not end its game claims it in its own write (``KeyTaken`` when it is taken).

    The returned hand carries ``state`` (what the page shows next) and ``game_over`` (the game it ended:
    ``{"number", "winner", "score"}``) or None.
    """
    if not isinstance(entry, dict):
        raise services_base.ScoringError(_("A hand is an object {\"winner\", \"ended_by\", \"value\"} or a hand report."),
                                    "entry")
    item = ({"report": entry["report"]} if "report" in entry
            else {"report": entry} if services_entry.is_report(entry) else dict(entry))
    pk = match.pk if isinstance(match, Match) else match
    progress = {"wrote": False}
    refusal = None
    # No savepoint of its own (two statements fewer inside the API's transaction, scoring/idempotency.py):
    # every check runs before the first write, and a refusal leaves the transaction as it found it.
    with transaction.atomic(savepoint=False):
        try:
            return _record(pk, item, by, expect, position, progress, claim)
        except services_base.ScoringError as error:
            if progress["wrote"]:
                raise
            refusal = error
    if isinstance(refusal, PositionConflict) and position is not None and getattr(by, "table_link", None):
        # a table's phone behind the other (issue 20 §5): recorded on refusal only, so both phones and the
        # referee see it (scoring/conflicts.py); the 409 names it
        refusal.conflict = conflicts.record(match if isinstance(match, Match) else Match(pk=pk), by, kind="hand",
                                            game=position[0], position=position[1], sent=item, server=refusal.state)
    raise refusal


def check_entry(match: Match, game: Game | None, rules, item: dict, by, expect=None,
                position: tuple[int, int] | None = None) -> tuple[int, bool, dict]:
    """Every check of a hand before anything is written (who may enter, the súmula's state, the
    position the device expects, the state token, the dealer, the engine): ``(dealer, drawn, checked)``,
    or a :class:`~scoring.services.base.ScoringError` (``PositionConflict`` for a device behind).
    ``game`` is :func:`current_game` of the locked ``match`` (None once it is decided)."""
    if not access.can_enter_entries(by, match):
        raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
    if match.status != Match.Status.OPEN:
        raise services_base._locked_error()
    if game is None or game.winner is not None:
        raise PositionConflict(_("The match is over: no more hands or penalties (art. 25: the súmula is now "
                                 "signed). Use a correction with a reason to change it."),
                               state_of(match, None, (0, 0), 0, 1, 0), "match")
    if position is not None and tuple(position) != (game.number, game.hand_count + 1):
        raise PositionConflict(
            _("This device is behind: the súmula is at game %(game)s, hand %(hand)s (you sent game "
              "%(sent_game)s, hand %(sent_hand)s). Nothing was recorded.")
            % {"game": game.number, "hand": game.hand_count + 1, "sent_game": position[0],
               "sent_hand": position[1]},
            state_of(match, game.number, game.score, game.dealer, game.hand_count + 1, game.entry_count, rules))
    services_entry._check_expect(expect, services_entry.state_token(game.number, game.entry_count))
    dealer = game.dealer
    drawn = False
    given = item.pop("dealer", None) if item.get("report") is None else (
        item["report"].get("dealer") if isinstance(item["report"], dict) else None)
    if given is not None and game.hand_count == 0 and given != dealer:
        field = "dealer" if item.get("report") is None else "report.dealer"
        dealer = services_base._check_seat(given, field)  # art. 1: the table's draw
        drawn = True
    elif given is not None and item.get("report") is None and given != dealer:
        raise services_base.ScoringError(_("This hand is dealt by seat %(expected)s (art. 4: the deal passes to the "
                                      "right).") % {"expected": dealer}, "dealer")
    try:
        checked = services_entry.check_hand(rules, match.rule_set, game.score, dealer, item)
    except services_base.ScoringError as error:  # the engine's words, with the pairs named
        raise services_base.ScoringError(services_base.engine_error_message(error, match), error.field) from None
    return dealer, drawn, checked


def hand_values(game: Game, dealer: int, checked: dict, by, now) -> dict:
    """The columns of the hand that :func:`check_entry` passed, as the next entry of ``game``."""
    return dict(
        game=game, position=game.entry_count + 1, number=game.hand_count + 1, dealer=dealer,
        ended_by=checked["ended_by"], value=checked["value"], winner=checked["winner"],
        points=checked["points"], score_a=checked["score"][0], score_b=checked["score"][1],
        report=checked["report"], verdict=checked["verdict"], created_by=by if services_base._is_user(by) else None,
        table_link=getattr(by, "table_link", None), created_at=now,
    )


def hand_event_data(hand: HandEntry, game: Game) -> dict:
    """What the audit trail's "hand" event says of ``hand`` (its author, a user or the table link that
    entered it, is ``services.base.event_row``'s)."""
    return dict(game=game.number, hand=hand.number, position=hand.position, dealer=hand.dealer,
                ended_by=hand.ended_by, value=hand.value, winner=hand.winner, points=hand.points,
                score=[hand.score_a, hand.score_b], report=hand.report is not None,
                violations=len(hand.violations))


def _record(pk: int, item: dict, by, expect, position, progress: dict, claim) -> HandEntry:
    match = _lock(pk, by)
    game = current_game(match) if match.winner is None else None
    rules = services_base.rules_of(match)
    dealer, drawn, checked = check_entry(match, game, rules, item, by, expect, position)
    # every check passed: the writes
    progress["wrote"] = True
    if drawn:
        game.first_dealer = dealer
        game.save(update_fields=["first_dealer"])
    now = timezone.now()
    hand = HandEntry(**hand_values(game, dealer, checked, by, now))
    event = services_base.event_row(match, MatchEvent.Kind.HAND, by, **hand_event_data(hand, game))
    ends_game = game_winner(checked["score"]) is not None
    game.match = match
    answer = None
    hand.state = None
    # past the time limit, a hand may end the match by the room's procedure (issue 25 §2, services/time_limit.py)
    may_end = time_limit.time_is_up(match, now) and match.end_of_time in time_limit.HANDS_AFTER_LIMIT
    if not ends_game:
        game.score_a, game.score_b = checked["score"]
        hand.state = state_of(match, game.number, game.score, next_dealer(dealer), hand.number + 1,
                              hand.position, rules)
        if claim is not None and claim.answer is not None and not may_end:  # the answer is known: the write claims the key
            answer = claim.answer(hand)
    # the hand, its event, the game's score when it goes on and the key with its answer: one statement
    # on PostgreSQL
    stored, claimed = entry_sql.write_hand(
        hand, event, score_of=None if ends_game else game,
        claim=claim.params(201, "application/json", answer.decode()) if answer is not None else None)
    if not claimed:
        raise KeyTaken(claim)  # a repeat got there first: the transaction is rolled back
    if answer is not None:
        claim.stored = answer
    stored.game, stored.state, stored.game_over = game, hand.state, None
    hand = stored
    if ends_game:  # the game's end, and the next game or the match's result and version
        services_entry._finish_entry(match, game, checked["score"], by, now)
    if game.number == 1 and game.hand_count == 0 and match.tournament_id is not None and match.time_up_at is None:
        hook.match_started(match, now)  # the room's clock (docs/room.md)
    if may_end and match.winner is None and time_limit.ends_now(match, now):
        in_play = Game.objects.get(match=match, number=game.number + 1) if ends_game else game
        time_limit.end_match(match, in_play, by, now, fresh=ends_game)
    if game.winner is not None:
        hand.game_over = {"number": game.number, "winner": game.winner, "score": list(game.score),
                          "winner_name": match.pair(game.winner).name, "entries": hand.position}
        hand.state = state_of(match, None if match.winner is not None else game.number + 1,
                              (11, 11) if time_limit.starts_at_eleven(match, now) else (0, 0), 0, 1, 0, rules)
    elif match.winner is not None:  # ended by the time limit with the game in play counted for no one
        hand.state = state_of(match, None, (0, 0), 0, 1, 0, rules)
    return hand


def hand_data(hand: HandEntry) -> dict:
    """The created hand as the API and the table page show it."""
    return {"game": hand.game.number, "hand": hand.number, "winner": hand.winner, "points": hand.points,
            "value": hand.value, "ended_by": hand.ended_by, "dealer": hand.dealer,
            "score": [hand.score_a, hand.score_b], "violations": hand.violations,
            "entered_by": "table" if hand.table_link_id else "user"}
