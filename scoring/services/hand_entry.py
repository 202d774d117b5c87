"""Recording a hand at the table's pace: few queries, the expected position, and what the page
needs next.

:func:`record_hand` is the one write of a hand, whoever enters it (a table's link, the referee's or
the organizer's session; the API, the súmula page and the table page all call it): it locks the
match (a table's link already did, in the same transaction), reads where the current game stands
in one query (``game_state.current_game``: the last hand and the last penalty as subqueries),
checks the hand with the engine, then writes the hand, its audit event and the game's score with
the ORM. The hand that ends a game or the match also starts the next game or issues the version.

A hand may carry the position it expects (``position=(game, hand)``): a device that is behind
(two phones at one table, an entry queued offline) gets :class:`PositionConflict` (409) with
the current state instead of writing in the wrong place. A repeat of the same request with its
``Idempotency-Key`` is answered by the API view (``tables.idempotency``: the key is claimed after
this work, in the same transaction).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden
from referee.engine.game import dealer_in_turn, game_start, game_winner

from .. import access, conflicts, hook
from ..models import Game, HandEntry, Match, MatchEvent
from . import base as services_base
from . import entry as services_entry
from . import time_limit
from .closing import refuse_closed
from .game_state import PositionConflict, current_game, state_of

__all__ = ["PositionConflict", "check_entry", "hand_data", "hand_event_data", "hand_values", "record_hand"]


def _lock(pk: int, by=None) -> Match:
    """The match row alone (its tournament and pairs are read only when needed: an organizer's
    check, the name of a game's winner), locked; a table's link already read and locked it in this
    transaction (``tables.links.resolve``), and that row is the one used."""
    link = getattr(by, "table_link", None)
    if link is not None and link.match_id == pk and getattr(link.match, "locked", False):
        link.match.locked = False  # used once: a later entry of this credential locks and reads again
        return link.match
    return Match.objects.select_for_update().get(pk=pk)


def record_hand(match: Match | int, entry: dict, by, expect: str | None = None,
                position: tuple[int, int] | None = None) -> HandEntry:
    """Record the next hand of the current game.

    ``entry`` is a summary ``{"winner": 0|1|null, "ended_by": ..., "value": n}`` checked by the
    engine's ``check_summary``, or a full hand report (``{"report": {...}}`` or the report itself)
    checked by ``check_report``: its dealer and score must be the game's, a report the engine
    cannot read is refused, one with violations is recorded with them. A summary may carry
    ``"dealer"``: the table's draw (art. 1) for a game's first hand, else it must be the dealer in turn.
    ``expect``: the ``state_token`` the page showed; refused if the súmula changed since.
    ``position``: the (game, hand) the device expects; refused with the current state if behind.

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
    # No savepoint of its own (two statements fewer inside the API's transaction, ``tables.idempotency``):
    # every check runs before the first write, and a refusal leaves the transaction as it found it.
    with transaction.atomic(savepoint=False):
        try:
            return _record(pk, item, by, expect, position, progress)
        except services_base.ScoringError as error:
            if progress["wrote"]:
                raise
            refusal = error
    if isinstance(refusal, PositionConflict) and position is not None and getattr(by, "table_link", None):
        # a table's phone behind the other: recorded on refusal only, so both phones and the
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
    refuse_closed(match, by)  # a W.O., a disqualification or a withdrawal closed it (art. 26)
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
    elif (given is not None and given != dealer and game.last_ending_dealer == given
          and game.last_ending_position == game.entry_count):
        # the hand was ended by a ruling's tento, already on the súmula: entering it again would count it twice
        raise services_base.ScoringError(
            _("The hand dealt by %(given)s was already ended by the referee's ruling (the tento in play, "
              "art. 24), on the súmula as its last entry: it is not entered again. The next hand is dealt by "
              "%(expected)s (art. 4: the deal passes to the right).")
            % {"given": services_entry.seat_name(match, given), "expected": services_entry.seat_name(match, dealer)},
            "report.dealer" if item.get("report") is not None else "dealer")
    elif given is not None and item.get("report") is None and given != dealer:
        raise services_base.ScoringError(_("This hand is dealt by %(expected)s (art. 4: the deal passes to the "
                                           "right).") % {"expected": services_entry.seat_name(match, dealer)}, "dealer")
    try:
        checked = services_entry.check_hand(rules, match.rule_set, game.score, dealer, item, match)
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


def _record(pk: int, item: dict, by, expect, position, progress: dict) -> HandEntry:
    match = _lock(pk, by)
    game = current_game(match) if match.winner is None else None
    rules = services_base.rules_of(match)
    dealer, drawn, checked = check_entry(match, game, rules, item, by, expect, position)
    # every check passed: the writes
    progress["wrote"] = True
    if drawn:
        game.first_dealer = dealer
        Game.objects.filter(pk=game.pk).update(first_dealer=dealer)
    now = timezone.now()
    hand = HandEntry.objects.create(**hand_values(game, dealer, checked, by, now))
    services_base.event_row(match, MatchEvent.Kind.HAND, by, **hand_event_data(hand, game)).save(force_insert=True)
    ends_game = game_winner(checked["score"]) is not None
    game.match = match
    hand.game, hand.state, hand.game_over = game, None, None
    # past the time limit, a hand may end the match by the room's procedure (services/time_limit.py)
    may_end = time_limit.time_is_up(match, now) and match.end_of_time in time_limit.HANDS_AFTER_LIMIT
    # the game's score; at its end, the next game or the match's result and version
    services_entry._finish_entry(match, game, checked["score"], by, now)
    if not ends_game:
        hand.state = state_of(match, game.number, game.score, dealer_in_turn(game.first_dealer, [dealer]), hand.number + 1,
                              hand.position, rules)
    if game.number == 1 and game.hand_count == 0 and match.tournament_id is not None and match.time_up_at is None:
        hook.match_started(match, now)  # the room's clock (docs/room.md)
    if may_end:
        time_limit.after_entry(match, game, ends_game, by, now)
    if game.winner is not None:
        hand.game_over = {"number": game.number, "winner": game.winner, "score": list(game.score),
                          "winner_name": match.pair(game.winner).name, "entries": hand.position}
        hand.state = state_of(match, None if match.winner is not None else game.number + 1,
                              game_start(time_limit.starts_at_eleven(match, now)), 0, 1, 0, rules)
    elif match.winner is not None:  # ended by the time limit with the game in play counted for no one
        hand.state = state_of(match, None, game_start(), 0, 1, 0, rules)
    return hand


def hand_data(hand: HandEntry) -> dict:
    """The created hand as the API and the table page show it."""
    return {"game": hand.game.number, "hand": hand.number, "winner": hand.winner, "points": hand.points,
            "value": hand.value, "ended_by": hand.ended_by, "dealer": hand.dealer,
            "score": [hand.score_a, hand.score_b], "violations": hand.violations,
            "entered_by": "table" if hand.table_link_id else "user"}
