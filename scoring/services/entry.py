"""Entry while the match is played: the game state and its token, the first dealer, checking a
hand (a summary or a full hand report checked by the engine: ``hand_entry`` records it), a
penalty, and undoing the last entry.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden
from referee.engine.errors import ReportError
from referee.engine.game import add_points, dealer_in_turn, game_start, game_winner
from referee.engine.rules import RuleSet, rule_set_from
from referee.engine.summary import check_summary
from referee.engine.verdict import check_report

from .. import access, rulings
from ..content import load_games
from ..words import engine_messages
from ..models import Game, Match, MatchEvent, PenaltyEntry
from .base import (
    ARTICLE_RE,
    LAST_ARTICLE,
    ScoringError,
    _check_seat,
    _check_team,
    _engine_error,
    _event,
    _is_user,
    _lock,
    _locked_error,
    refuse_table,
    rules_of,
)
from . import time_limit
from .closing import refuse_closed
from .game_state import PositionConflict, current_state
from .versions import _issue_version


class GameState:
    """Where the current game stands: score, dealer of the next hand, its next hand and position."""

    def __init__(self, game: Game, entries: list) -> None:
        self.game = game
        self.entries = entries
        self.score = (game.score_a, game.score_b)
        self.hands = sum(1 for e in entries if e.kind == "hand")
        self.dealer = dealer_in_turn(game.first_dealer, ended_dealers(entries))  # art. 1, 4
        self.position = (entries[-1].position if entries else 0) + 1


def ended_dealers(entries) -> list[int | None]:
    """For each entry of a game in order, the dealer of the hand it ended (a hand's own; a penalty's when its
    ruling ended the hand in play), None when it ended none: what ``dealer_in_turn`` reads (art. 4)."""
    return [e.dealer for e in entries]


def state_token(game_number: int, entries: int) -> str:
    """What the page showed: the last game and how many entries it had (``"2:5"``). A form sends it
    back as ``expect`` so that a double tap or a stale page cannot record or undo twice."""
    return f"{game_number}:{entries}"


def _check_expect(expect: str | None, token: str) -> None:
    if expect is not None and expect != token:
        raise Conflict(_("The súmula changed since this page was loaded (a double tap?): nothing was done. "
                         "Check the last entries and try again."), "expect")


def _current_state(match: Match) -> GameState | None:
    """The game being played (None once the match is decided), from the database."""
    game = match.games.order_by("-number").first()
    if game is None or game.winner is not None:
        return None
    hands = list(game.hands.order_by("position"))
    penalties = list(game.penalties.order_by("position"))
    return GameState(game, sorted(hands + penalties, key=lambda e: e.position))


def _require_entry(match: Match, by) -> GameState:
    if not access.can_enter_entries(by, match):
        raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
    if match.status != Match.Status.OPEN:
        raise _locked_error()
    refuse_closed(match, by)  # a W.O., a disqualification or a withdrawal closed it (art. 26)
    state = _current_state(match) if match.winner is None else None
    if state is None:
        raise Conflict(_("The match is over: no more hands or penalties (art. 25: the súmula is now signed). "
                         "Use a correction with a reason to change it."), "match")
    return state


def _finish_entry(match: Match, game: Game, score: tuple[int, int], by, now) -> None:
    """Update the game after an entry; end it at 12 and start the next game or end the match."""
    game.score_a, game.score_b = score
    winner = game_winner(score)
    if winner is None:
        Game.objects.filter(pk=game.pk).update(score_a=game.score_a, score_b=game.score_b)
        return
    game.winner, game.finished_at = winner, now
    game.save(update_fields=["score_a", "score_b", "winner", "finished_at"])
    won = "games_a" if winner == 0 else "games_b"
    setattr(match, won, getattr(match, won) + 1)  # the row is locked: the same count as the F() below
    decided = max(match.games_a, match.games_b) >= match.games_to_win
    if decided:
        match.winner, match.finished_at = winner, now
    Match.objects.filter(pk=match.pk).update(
        **{won: F(won) + 1}, updated_at=now,
        **({"winner": winner, "finished_at": now} if decided else {}))
    match.updated_at = now
    if decided:
        _issue_version(match, by)
    else:
        eleven = time_limit.starts_at_eleven(match, now)  # the room's end-of-time procedure (docs/room.md)
        start = game_start(eleven)
        Game.objects.create(match=match, number=game.number + 1, first_dealer=0, started_at=now,
                            eleven_all=eleven, score_a=start[0], score_b=start[1])
        if eleven:
            time_limit.eleven_all_event(match, game.number + 1, by)


def set_first_dealer(match: Match, dealer: int, by) -> Game:
    """Art. 1: the table draws who deals first; set it before the game's first hand."""
    _check_seat(dealer, "dealer")
    with transaction.atomic():
        match = _lock(match)
        refuse_table(by, match, _("A table link enters hands; the first dealer is set with the first hand's "
                                  "\"dealer\" (art. 1) or by the referee."))
        state = _require_entry(match, by)
        if state.hands:
            raise Conflict(_("The first dealer is set before the game's first hand; the deal then passes "
                             "to the right (art. 4)."), "dealer")
        state.game.first_dealer = dealer
        state.game.save(update_fields=["first_dealer"])
        _event(match, MatchEvent.Kind.FIRST_DEALER, by, game=state.game.number, dealer=dealer)
        return state.game


def is_report(entry: object) -> bool:
    """A full hand report (it has events or a vira) rather than a summary."""
    return isinstance(entry, dict) and ("events" in entry or "vira" in entry)


def seat_name(match: Match | None, seat: int) -> str:
    """A seat as a refusal says it: its player and the seat ("Caio Reis, seat 1"), or the seat alone when the
    match is not known (a refusal names people, art. 25's súmula is a record of them)."""
    players = engine_messages.seat_players(match) if match is not None else None
    if players and type(seat) is int and 0 <= seat <= 3:
        return _("%(player)s, seat %(seat)s") % {"player": players[seat][0], "seat": seat}
    return _("seat %(seat)s") % {"seat": seat}


def check_hand(rules: RuleSet, rule_spec: dict, score: tuple[int, int], dealer: int, item: dict,
               match: Match | None = None) -> dict:
    """Check one hand against the game's state; return the fields to store.

    ``item`` is ``{"report": {...}}`` or a summary ``{"winner", "ended_by", "value"}``; ``match``, when given,
    names the players in a refusal (read only then).
    """
    report = item.get("report")
    if report is not None:
        return _check_report_entry(rules, rule_spec, score, dealer, report, match)
    summary = {key: item[key] for key in ("winner", "ended_by", "value") if key in item}
    try:
        out = check_summary(rules, score, dealer, summary)
    except ReportError as error:
        raise _engine_error(error) from None
    return {"dealer": dealer, "ended_by": summary.get("ended_by", "tricks"), "value": summary.get("value", 1),
            "winner": out["winner"], "points": out["points"], "score": tuple(out["score_after"]),
            "report": None, "verdict": None}


def _check_report_entry(rules: RuleSet, rule_spec: dict, score, dealer: int, report: object,
                        match: Match | None = None) -> dict:
    if type(report) is not dict:
        raise ScoringError(_("The hand report must be a JSON object."), "report")
    checked = dict(report)
    if "rules" in checked:
        try:
            theirs = rule_set_from(checked["rules"])
        except ReportError as error:
            raise _engine_error(error, "report") from None
        if theirs != rules:
            raise ScoringError(_("The report's rules are not the match's rules (%(preset)s): leave \"rules\" out "
                                 "or copy the match's.") % {"preset": rules.preset}, "report.rules")
    else:
        checked["rules"] = rule_spec
    if checked.get("dealer") != dealer:
        raise ScoringError(_("This hand is dealt by %(expected)s (art. 4: the deal passes to the right); "
                             "the report says %(given)s.") % {"expected": seat_name(match, dealer),
                                                             "given": checked.get("dealer")},
                           "report.dealer")
    if checked.get("score", [0, 0]) != list(score):
        raise ScoringError(_("The score before this hand is %(a)s-%(b)s; the report says %(given)s.")
                           % {"a": score[0], "b": score[1], "given": checked.get("score", [0, 0])}, "report.score")
    verdict = check_report(checked)
    if "error" in verdict:
        raise _engine_error(verdict["error"], "report")
    if verdict["ended_by"] == "incomplete":
        raise ScoringError(_("The report ends before the hand is decided (art. 11): nothing to record."), "report.events")
    return {"dealer": dealer, "ended_by": verdict["ended_by"], "value": verdict["hand_value"],
            "winner": verdict["winner"], "points": verdict["points"], "score": tuple(verdict["score_after"]),
            "report": report, "verdict": verdict}


def normalize_article(value: object, field: str = "article") -> str:
    """``"art. 24"`` from ``"Art 24"``, ``"art.24"``, ``"artigo 11.4"``; refuses anything that is not an
    article of the regulation (1 to 26)."""
    match = ARTICLE_RE.match(value) if isinstance(value, str) else None
    if match is None or not 1 <= int(match.group(1)) <= LAST_ARTICLE:
        raise ScoringError(_("Cite the article of the regulation that grants the tento, e.g. \"art. 24\" "
                             "(articles 1 to 26)."), field)
    return f"art. {int(match.group(1))}" + (f".{match.group(2)}" if match.group(2) else "")


def _check_penalty(item: dict, prefix: str = "") -> dict:
    offender = _check_team(item.get("offender"), prefix + "offender")
    ruling_id = item.get("ruling_id")
    if ruling_id is not None and (type(ruling_id) is not int or ruling_id < 1):
        raise ScoringError(_("A ruling is given by its number."), prefix + "ruling_id")
    points = item.get("points")
    # A referee's ruling (referee.services.confirm) may record 0 points: a warning stays on the súmula.
    if type(points) is not int or not (0 if ruling_id else 1) <= points <= 12:
        raise ScoringError(_("A tento is worth 1 to 12 points: the value of the hand in play."), prefix + "points")
    article = item.get("article")
    if not (ruling_id and isinstance(article, str) and article.strip() and len(article) <= 60
            and not ARTICLE_RE.match(article)):
        # a ruling of a house-rule infraction cites its catalog source (referee.engine.infractions)
        article = normalize_article(article, prefix + "article")
    reason = item.get("reason") or ""
    if not isinstance(reason, str) or len(reason) > 300:
        raise ScoringError(_("The reason is a text of at most 300 characters."), prefix + "reason")
    reason_data = item.get("reason_data") or {}
    if reason_data and not (ruling_id and engine_messages.is_message(reason_data)):
        raise ScoringError(_("A reason as data is a ruling's message: {\"key\", \"params\"} of the rules engine."),
                           prefix + "reason_data")
    return {"kind": "penalty", "offender": offender, "points": points, "article": article,
            "reason": reason.strip(), "reason_data": reason_data, "ruling_id": ruling_id}


def record_penalty(match: Match, offender: int, points: int, article: str, reason: str, by,
                   ruling_id: int | None = None, expect: str | None = None,
                   reason_data: dict | None = None, ends_hand: bool = False) -> PenaltyEntry:
    """Tentos awarded by a ruling: the offender's opponents score ``points``; ``article`` is required.
    ``ends_hand``: the ruling ended the hand in play (the tento in play lost, art. 24; a lost deal, art. 5):
    the penalty keeps that hand's dealer and the deal passes to the right (art. 4), so the hand is not
    entered again as a hand.
    ``reason_data``: a ruling's message as data (``{"key", "params"}``), rendered in the reader's language
    with the pairs' names; ``reason`` is then its Portuguese text, kept for what reads text only."""
    item = _check_penalty({"offender": offender, "points": points, "article": article, "reason": reason,
                           "ruling_id": ruling_id, "reason_data": reason_data})
    with transaction.atomic():
        match = _lock(match)
        refuse_table(by, match, _("A table link enters hands only: penalties are awarded by the referee or the "
                                  "organizer (art. 25). Call the referee."))
        state = _require_entry(match, by)
        _check_expect(expect, state_token(state.game.number, state.position - 1))
        if item["ruling_id"] is not None and rulings.match_of(item["ruling_id"]) != match.pk:
            raise ScoringError(_("Ruling %(ruling)s is not a ruling of this match.") % {"ruling": item["ruling_id"]},
                               "ruling_id")
        rules = rules_of(match)
        beneficiary = 1 - item["offender"]
        score = add_points(state.score, beneficiary, item["points"], rules)
        now = timezone.now()
        penalty = PenaltyEntry.objects.create(
            game=state.game, position=state.position, offender=item["offender"], beneficiary=beneficiary,
            points=item["points"], article=item["article"], reason=item["reason"], reason_data=item["reason_data"],
            ruling_id=item["ruling_id"], dealer=state.dealer if ends_hand else None, score_a=score[0], score_b=score[1], created_by=by if _is_user(by) else None, created_at=now,
        )
        _event(match, MatchEvent.Kind.PENALTY, by, game=state.game.number, position=penalty.position,
               offender=penalty.offender, points=penalty.points, article=penalty.article, reason=penalty.reason,
               ruling_id=penalty.ruling_id, score=list(score), **({"dealer": penalty.dealer} if ends_hand else {}))
        _finish_entry(match, state.game, score, by, now)
        if ends_hand:  # the hand in play ended: past the time limit it counts as the hand in play finished
            time_limit.after_entry(match, state.game, state.game.winner is not None, by, now)
        return penalty


def undo_last(match: Match, by, expect: str | None = None, last: tuple[int, int] | None = None) -> dict:
    """Remove the last entry while the súmula is open and nobody signed its current version.

    ``last``: the entry the device means to remove, ``(game, position)`` — the game's number and the
    entry's position in it (the table page's ``entries[].game``/``position``); refused with
    ``PositionConflict`` (409, with the current ``state``) when it is not the last entry, so that a phone
    that has not seen another phone's hand cannot remove it. ``expect``: the page's
    :func:`state_token` (the plain form). The API requires ``last``.

    No version is made; the audit trail keeps the removed entry (a ``MatchEvent`` of kind ``undo``).
    If the entry had ended the match, the issued version stays on record and the next one supersedes it.
    """
    try:
        return _undo_last(match, by, expect, last)
    except PositionConflict as refusal:  # a table's phone behind the other: recorded, 409 names it
        if last is not None and getattr(by, "table_link", None) is not None:
            from .. import conflicts

            refusal.conflict = conflicts.record(match, by, kind="undo", game=last[0], position=last[1],
                                                server=refusal.state)
        raise


def _undo_last(match: Match, by, expect: str | None, last: tuple[int, int] | None) -> dict:
    from ..content import entry_document

    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter_entries(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
        if match.status != Match.Status.OPEN:
            raise _locked_error()
        refuse_closed(match, by)
        latest = match.versions.order_by("-number").first()
        if latest is not None and latest.signatures.exists():
            raise Conflict(_("Version %(number)s already has signatures: change it with a correction and a "
                             "reason (art. 25).") % {"number": latest.number}, "status")
        games = load_games(match)
        game = games[-1]
        _check_expect(expect, state_token(game.number, len(game.entries)))
        holder = game if game.entries or len(games) == 1 else games[-2]
        if last is not None:
            _check_last(match, holder, tuple(last))
        if holder is not game:
            game.delete()  # the game that had just started: the entry to undo ended the one before
            game = holder
        if not game.entries:
            raise Conflict(_("There is nothing to undo."), "match")
        if not access.can_undo_entry(by, match, game.entries[-1]):
            raise Forbidden(_("A table link undoes only the hands a table link entered: the last entry was "
                              "recorded by the referee or the organizer, who alone may remove it (art. 25). "
                              "Call the referee."))
        last_entry = game.entries.pop()
        removed = entry_document(last_entry)
        last_entry.delete()
        previous = game.entries[-1] if game.entries else None
        game.score_a, game.score_b = previous.score if previous else game.start
        game.winner = game.finished_at = None
        game.save(update_fields=["score_a", "score_b", "winner", "finished_at"])
        won = [g.winner for g in games if g.pk != game.pk and g.pk is not None and g.winner is not None]
        match.games_a, match.games_b = won.count(0), won.count(1)
        match.winner = match.finished_at = None
        match.save(update_fields=["games_a", "games_b", "winner", "finished_at", "updated_at"])
        _event(match, MatchEvent.Kind.UNDO, by, game=game.number, position=last_entry.position, entry=removed)
        return {**removed, "game": game.number, "position": last_entry.position}


def _check_last(match: Match, game: Game, sent: tuple[int, int]) -> None:
    """``sent`` (game, position) must be the súmula's last entry: else 409 with where the súmula is."""
    actual = (game.number, game.entries[-1].position) if game.entries else None
    if actual == sent:
        return
    if actual is None:
        message = _("There is nothing to undo: the entry at game %(sent_game)s, position %(sent_position)s "
                    "is not on the súmula. Nothing was undone.")
    else:
        message = _("That is not the last entry: the súmula's last entry is game %(game)s, position "
                    "%(position)s (you asked to undo game %(sent_game)s, position %(sent_position)s), "
                    "entered from another device? Nothing was undone.")
    raise PositionConflict(message % {"game": actual and actual[0], "position": actual and actual[1],
                                      "sent_game": sent[0], "sent_position": sent[1]},
                           current_state(match), "position")
