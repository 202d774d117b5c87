"""Every write to a súmula (art. 25): creating matches, recording hands and penalties, undo,
corrections, issuing versions, signing, countersigning and receiving.

Each function runs in one ``transaction.atomic`` block holding ``select_for_update`` on the
match, checks who may do it (``scoring.access``) and refuses bad input with a
:class:`ScoringError` that names the field and the article. Hands are checked by the rules
engine (``check_summary`` for a summary, ``check_report`` for a full hand report); the
document and its digest come from ``scoring.content``. Every action is appended to the
match's audit trail (:class:`~scoring.models.MatchEvent`): that is where an undo stays visible.

Life of a súmula (docs/sumulas.md): entries while the match is played; when the match is
decided a version is issued and waits for signatures; once both pairs signed it is locked;
a correction (with a reason) reopens it as a new version; the organizer marks it received
and only then is the result official.
"""
from __future__ import annotations

import hmac
import re
import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from referee.engine.errors import ReportError
from referee.engine.game import add_points, game_winner, next_dealer
from referee.engine.rules import RuleSet, rule_set_from
from referee.engine.summary import ENDINGS, allowed_values, check_summary, hand_state
from referee.engine.verdict import check_report
from tournaments.models import Pair, Player, Round, Tournament

from . import access, pins
from .content import build_document, correction_document, corrections_of, load_games, match_queryset
from .models import (
    Game, HandEntry, Match, MatchEvent, PenaltyEntry, Signature, SigningCode, SumulaVersion,
)
from .signals import result_official

CODE_LIFETIME = timedelta(minutes=10)
MAX_FAILED_SIGNATURES = pins.PER_CLIENT_LIMIT  # kept for callers; the counting is scoring.pins'
ARTICLE_RE = re.compile(r"^\s*art(?:igo)?\.?\s*(\d{1,2})(?:\.(\d))?\s*$", re.IGNORECASE)
LAST_ARTICLE = 26
MAX_TABLE = 32767  # the column holds a small integer


ScoringError = ServiceError  # refused input (400); Forbidden (403) and Conflict (409) as in config.errors


def _locked_error() -> Conflict:
    return Conflict(_("The súmula was signed by both pairs and is locked (art. 25): only a correction "
                      "with a reason can change it."), "status")


def _engine_error(error: ReportError, prefix: str = "") -> ScoringError:
    field = f"{prefix}.{error.field}" if prefix and error.field else prefix or error.field
    return ScoringError(error.message, field)


def _lock(match: Match | int) -> Match:
    pk = match.pk if isinstance(match, Match) else match
    return match_queryset().select_for_update(of=("self",)).get(pk=pk)


def _event(match: Match, kind: str, by=None, **data) -> MatchEvent:
    return MatchEvent.objects.create(match=match, kind=kind, by=by if _is_user(by) else None, data=data)


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def rules_of(match: Match) -> RuleSet:
    return rule_set_from(match.rule_set)


# ---------------------------------------------------------------------------------- creating


def check_new_match(*, pair_a: Pair, pair_b: Pair, by, tournament: Tournament | None = None,
                    round: Round | None = None, table: int | None = None, best_of: int | None = None,
                    rule_set: dict | None = None, first_dealer: int = 0, **_ignored) -> dict:
    """Validate a new match without writing; return the normalized fields (``tournament``, ``rules``,
    ``best_of``). Raises :class:`ScoringError` naming the field."""
    if tournament is None and round is not None:
        tournament = round.tournament
    if not access.can_create(by, tournament):
        raise Forbidden(_("Only the tournament's organizer creates its matches."), "tournament")
    if pair_a.pk == pair_b.pk:
        raise ScoringError(_("A match is played between two different pairs."), "pair_b")
    if tournament is not None:
        for field, pair in (("pair_a", pair_a), ("pair_b", pair_b)):
            if pair.tournament_id != tournament.pk:
                raise ScoringError(_("The pair %(pair)s is not registered in %(tournament)s.")
                                   % {"pair": pair.name, "tournament": tournament.name}, field)
    if round is not None and round.tournament_id != tournament.pk:
        raise ScoringError(_("Round %(round)s belongs to another tournament.") % {"round": round.number}, "round")
    if table is not None and (type(table) is not int or not 1 <= table <= MAX_TABLE):
        raise ScoringError(_("Tables are numbered from 1 to %(max)s.") % {"max": MAX_TABLE}, "table")
    if rule_set is None:
        rule_set = tournament.rule_set if tournament is not None else None
    try:
        rules = rule_set_from(rule_set, "rule_set")
    except ReportError as error:
        raise _engine_error(error) from None
    if best_of is None:
        best_of = tournament.best_of if tournament is not None else 1
    if best_of not in (1, 3, 5):
        raise ScoringError(_("A match is played to the best of 1, 3 or 5 games."), "best_of")
    _check_seat(first_dealer, "first_dealer")
    return {"tournament": tournament, "rules": rules, "best_of": best_of}


def create_match(*, pair_a: Pair, pair_b: Pair, by, tournament: Tournament | None = None,
                 round: Round | None = None, table: int | None = None, referee=None,
                 best_of: int | None = None, rule_set: dict | None = None, first_dealer: int = 0) -> Match:
    """A new match. Tournament matches take the tournament's rule set and format; their pairs must be
    registered in that tournament. Friendlies (no tournament) may use any two pairs."""
    checked = check_new_match(pair_a=pair_a, pair_b=pair_b, by=by, tournament=tournament, round=round,
                              table=table, best_of=best_of, rule_set=rule_set, first_dealer=first_dealer)
    with transaction.atomic():
        match = Match.objects.create(
            tournament=checked["tournament"], round=round, table=table, referee=referee, pair_a=pair_a,
            pair_b=pair_b, rule_set=checked["rules"].as_dict(), best_of=checked["best_of"],
            created_by=by if _is_user(by) else None,
        )
        Game.objects.create(match=match, number=1, first_dealer=first_dealer)
        _event(match, MatchEvent.Kind.CREATED, by, pair_a=pair_a.pk, pair_b=pair_b.pk, best_of=match.best_of,
               rules=match.rule_set)
    return match


def _check_seat(value, field: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ScoringError(_("A seat is 0, 1, 2 or 3 (art. 1: the table draws the first dealer)."), field)
    return value


def _check_team(value, field: str) -> int:
    if type(value) is not int or value not in (0, 1):
        raise ScoringError(_("A team is 0 (pair A) or 1 (pair B)."), field)
    return value


# ------------------------------------------------------------------------------ match state


class GameState:
    """Where the current game stands: score, dealer of the next hand, its next hand and position."""

    def __init__(self, game: Game, entries: list) -> None:
        hands = [e for e in entries if e.kind == "hand"]
        self.game = game
        self.entries = entries
        self.score = (game.score_a, game.score_b)
        self.hands = len(hands)
        self.dealer = next_dealer(hands[-1].dealer) if hands else game.first_dealer
        self.position = (entries[-1].position if entries else 0) + 1


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
    if not access.can_enter(by, match):
        raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
    if match.status != Match.Status.OPEN:
        raise _locked_error()
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
        game.save(update_fields=["score_a", "score_b"])
        return
    game.winner, game.finished_at = winner, now
    game.save(update_fields=["score_a", "score_b", "winner", "finished_at"])
    if winner == 0:
        match.games_a += 1
    else:
        match.games_b += 1
    if max(match.games_a, match.games_b) >= match.games_to_win:
        match.winner, match.finished_at = winner, now
        match.save(update_fields=["games_a", "games_b", "winner", "finished_at", "updated_at"])
        _issue_version(match, by)
    else:
        match.save(update_fields=["games_a", "games_b", "updated_at"])
        Game.objects.create(match=match, number=game.number + 1, first_dealer=0, started_at=now)


def set_first_dealer(match: Match, dealer: int, by) -> Game:
    """Art. 1: the table draws who deals first; set it before the game's first hand."""
    _check_seat(dealer, "dealer")
    with transaction.atomic():
        match = _lock(match)
        state = _require_entry(match, by)
        if state.hands:
            raise Conflict(_("The first dealer is set before the game's first hand; the deal then passes "
                             "to the right (art. 4)."), "dealer")
        state.game.first_dealer = dealer
        state.game.save(update_fields=["first_dealer"])
        _event(match, MatchEvent.Kind.FIRST_DEALER, by, game=state.game.number, dealer=dealer)
        return state.game


# ------------------------------------------------------------------------------- recording


def is_report(entry: object) -> bool:
    """A full hand report (it has events or a vira) rather than a summary."""
    return isinstance(entry, dict) and ("events" in entry or "vira" in entry)


def check_hand(rules: RuleSet, rule_spec: dict, score: tuple[int, int], dealer: int, item: dict) -> dict:
    """Check one hand against the game's state; return the fields to store.

    ``item`` is ``{"report": {...}}`` or a summary ``{"winner", "ended_by", "value"}``.
    """
    report = item.get("report")
    if report is not None:
        return _check_report_entry(rules, rule_spec, score, dealer, report)
    summary = {key: item[key] for key in ("winner", "ended_by", "value") if key in item}
    try:
        out = check_summary(rules, score, dealer, summary)
    except ReportError as error:
        raise _engine_error(error) from None
    return {"dealer": dealer, "ended_by": summary.get("ended_by", "tricks"), "value": summary.get("value", 1),
            "winner": out["winner"], "points": out["points"], "score": tuple(out["score_after"]),
            "report": None, "verdict": None}


def _check_report_entry(rules: RuleSet, rule_spec: dict, score, dealer: int, report: object) -> dict:
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
        raise ScoringError(_("This hand is dealt by seat %(expected)s (art. 4: the deal passes to the right); "
                             "the report says %(given)s.") % {"expected": dealer, "given": checked.get("dealer")},
                           "report.dealer")
    if checked.get("score", [0, 0]) != list(score):
        raise ScoringError(_("The score before this hand is %(a)s-%(b)s; the report says %(given)s.")
                           % {"a": score[0], "b": score[1], "given": checked.get("score", [0, 0])}, "report.score")
    verdict = check_report(checked)
    if "error" in verdict:
        error = verdict["error"]
        field = f"report.{error['field']}" if error.get("field") else "report"
        raise ScoringError(error["message"], field)
    if verdict["ended_by"] == "incomplete":
        raise ScoringError(_("The report ends before the hand is decided (art. 11): nothing to record."), "report.events")
    return {"dealer": dealer, "ended_by": verdict["ended_by"], "value": verdict["hand_value"],
            "winner": verdict["winner"], "points": verdict["points"], "score": tuple(verdict["score_after"]),
            "report": report, "verdict": verdict}


def record_hand(match: Match, entry: dict, by, expect: str | None = None) -> HandEntry:
    """Record the next hand of the current game.

    ``entry`` is a summary ``{"winner": 0|1|null, "ended_by": ..., "value": n}`` checked by the
    engine's ``check_summary``, or a full hand report (``{"report": {...}}`` or the report itself)
    checked by ``check_report``: its dealer and score must be the game's, a report the engine
    cannot read is refused, one with violations is recorded with them. A summary may carry
    ``"dealer"``: the table's draw (art. 1) for a game's first hand, else it must be the dealer in turn.
    ``expect``: the :func:`state_token` the page showed; refused if the súmula changed since.
    """
    if not isinstance(entry, dict):
        raise ScoringError(_("A hand is an object {\"winner\", \"ended_by\", \"value\"} or a hand report."), "entry")
    item = {"report": entry["report"]} if "report" in entry else {"report": entry} if is_report(entry) else dict(entry)
    with transaction.atomic():
        match = _lock(match)
        state = _require_entry(match, by)
        _check_expect(expect, state_token(state.game.number, state.position - 1))
        game = state.game
        dealer = state.dealer
        given = item.pop("dealer", None) if item.get("report") is None else (
            item["report"].get("dealer") if isinstance(item["report"], dict) else None)
        if given is not None and state.hands == 0 and given != dealer:
            field = "dealer" if item.get("report") is None else "report.dealer"
            dealer = game.first_dealer = _check_seat(given, field)  # art. 1: the table's draw
            game.save(update_fields=["first_dealer"])
        elif given is not None and item.get("report") is None and given != dealer:
            raise ScoringError(_("This hand is dealt by seat %(expected)s (art. 4: the deal passes to the right).")
                               % {"expected": dealer}, "dealer")
        rules = rules_of(match)
        checked = check_hand(rules, match.rule_set, state.score, dealer, item)
        now = timezone.now()
        hand = HandEntry.objects.create(
            game=game, position=state.position, number=state.hands + 1, dealer=dealer,
            ended_by=checked["ended_by"], value=checked["value"], winner=checked["winner"],
            points=checked["points"], score_a=checked["score"][0], score_b=checked["score"][1],
            report=checked["report"], verdict=checked["verdict"], created_by=by if _is_user(by) else None,
            created_at=now,
        )
        _event(match, MatchEvent.Kind.HAND, by, game=game.number, hand=hand.number, position=hand.position,
               dealer=dealer, ended_by=hand.ended_by, value=hand.value, winner=hand.winner, points=hand.points,
               score=list(checked["score"]), report=hand.report is not None,
               violations=len(hand.violations))
        _finish_entry(match, game, checked["score"], by, now)
        return hand


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
    return {"kind": "penalty", "offender": offender, "points": points, "article": article,
            "reason": reason.strip(), "ruling_id": ruling_id}


def record_penalty(match: Match, offender: int, points: int, article: str, reason: str, by,
                   ruling_id: int | None = None, expect: str | None = None) -> PenaltyEntry:
    """Tentos awarded by a ruling: the offender's opponents score ``points``; ``article`` is required."""
    item = _check_penalty({"offender": offender, "points": points, "article": article, "reason": reason,
                           "ruling_id": ruling_id})
    with transaction.atomic():
        match = _lock(match)
        state = _require_entry(match, by)
        _check_expect(expect, state_token(state.game.number, state.position - 1))
        rules = rules_of(match)
        beneficiary = 1 - item["offender"]
        score = add_points(state.score, beneficiary, item["points"], rules)
        now = timezone.now()
        penalty = PenaltyEntry.objects.create(
            game=state.game, position=state.position, offender=item["offender"], beneficiary=beneficiary,
            points=item["points"], article=item["article"], reason=item["reason"], ruling_id=item["ruling_id"],
            score_a=score[0], score_b=score[1], created_by=by if _is_user(by) else None, created_at=now,
        )
        _event(match, MatchEvent.Kind.PENALTY, by, game=state.game.number, position=penalty.position,
               offender=penalty.offender, points=penalty.points, article=penalty.article, reason=penalty.reason,
               ruling_id=penalty.ruling_id, score=list(score))
        _finish_entry(match, state.game, score, by, now)
        return penalty


def undo_last(match: Match, by, expect: str | None = None) -> dict:
    """Remove the last entry while the súmula is open and nobody signed its current version.

    No version is made; the audit trail keeps the removed entry (a ``MatchEvent`` of kind ``undo``).
    If the entry had ended the match, the issued version stays on record and the next one supersedes it.
    """
    from .content import entry_document

    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
        if match.status != Match.Status.OPEN:
            raise _locked_error()
        latest = match.versions.order_by("-number").first()
        if latest is not None and latest.signatures.exists():
            raise Conflict(_("Version %(number)s already has signatures: change it with a correction and a "
                             "reason (art. 25).") % {"number": latest.number}, "status")
        games = load_games(match)
        game = games[-1]
        _check_expect(expect, state_token(game.number, len(game.entries)))
        if not game.entries and len(games) > 1:
            game.delete()  # the game that had just started: the entry to undo ended the one before
            game = games[-2]
        if not game.entries:
            raise Conflict(_("There is nothing to undo."), "match")
        last = game.entries.pop()
        removed = entry_document(last)
        last.delete()
        previous = game.entries[-1] if game.entries else None
        game.score_a, game.score_b = previous.score if previous else (0, 0)
        game.winner = game.finished_at = None
        game.save(update_fields=["score_a", "score_b", "winner", "finished_at"])
        won = [g.winner for g in games if g.pk != game.pk and g.pk is not None and g.winner is not None]
        match.games_a, match.games_b = won.count(0), won.count(1)
        match.winner = match.finished_at = None
        match.save(update_fields=["games_a", "games_b", "winner", "finished_at", "updated_at"])
        _event(match, MatchEvent.Kind.UNDO, by, game=game.number, position=last.position, entry=removed)
        return removed


# ------------------------------------------------------------------------------- versions


def _issue_version(match: Match, by, reason: str = "") -> SumulaVersion:
    versions = list(match.versions.select_related("created_by").order_by("number"))
    corrections = corrections_of(versions)
    games = load_games(match)
    if versions and not reason:
        same = build_document(match, versions[-1].number, corrections, games)
        if same["digest"] == versions[-1].digest:
            return versions[-1]
    now = timezone.now()
    number = versions[-1].number + 1 if versions else 1
    if reason:
        corrections.append(correction_document(number, reason, by if _is_user(by) else None, now))
    document = build_document(match, number, corrections, games)
    version = SumulaVersion.objects.create(
        match=match, number=number, content=document, digest=document["digest"], reason=reason,
        created_by=by if _is_user(by) else None, created_at=now,
    )
    _event(match, MatchEvent.Kind.VERSION, by, version=number, digest=version.digest, reason=reason)
    return version


def issue_version(match: Match, by, reason: str = "") -> SumulaVersion:
    """Snapshot the súmula as a new version (or return the current one when nothing changed)."""
    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
        return _issue_version(match, by, (reason or "").strip())


def current_version(match: Match) -> SumulaVersion | None:
    return match.versions.select_related("created_by").order_by("-number").first()


# ----------------------------------------------------------------------------- corrections

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
                              "reason": e.reason, "ruling_id": e.ruling_id, **common})
        plan.append({"number": game.number, "first_dealer": game.first_dealer, "items": items})
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
            plan.append({"number": number, "first_dealer": 0, "items": []})
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
            new = _summary_item(change, field) if op == "insert_hand" else _check_penalty(change, f"{field}.")
            items.insert(after, {**new, **author})
    return plan


def _summary_item(change: dict, field: str) -> dict:
    ended_by = change.get("ended_by", "tricks")
    if ended_by not in ENDINGS:
        raise ScoringError(_("Unknown ending; use one of: %(endings)s.") % {"endings": ", ".join(ENDINGS)},
                           f"{field}.ended_by")
    return {"kind": "hand", "winner": change.get("winner"), "ended_by": ended_by, "value": change.get("value", 1),
            "report": None}


def _replay(match: Match, plan: list[dict]) -> tuple[list[dict], int | None, list[int]]:
    """Check the whole plan with the engine from the first hand; return the games to store."""
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
        score, dealer, hand_number = (0, 0), game["first_dealer"], 0
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
                                       % {"game": game["number"], "hand": hand_number, "message": error.message},
                                       "changes") from None
                rows.append({**item, **checked, "position": position, "number": hand_number})
                score = checked["score"]
                dealer = next_dealer(dealer)
            else:
                score = add_points(score, 1 - item["offender"], item["points"], rules)
                rows.append({**item, "position": position, "beneficiary": 1 - item["offender"], "score": score})
            winner = game_winner(score)
        games.append({"number": len(games) + 1, "first_dealer": game["first_dealer"], "rows": rows,
                      "score": score, "winner": winner})
        if winner is None:
            if later:
                raise ScoringError(_("Game %(game)s no longer reaches 12 (%(a)s-%(b)s) but a later game has "
                                     "entries.") % {"game": game["number"], "a": score[0], "b": score[1]}, "changes")
            break
        wins[winner] += 1
        if wins[winner] >= match.games_to_win:
            decided = winner
    if decided is None and games[-1]["winner"] is not None:
        games.append({"number": len(games) + 1, "first_dealer": 0, "rows": [], "score": (0, 0), "winner": None})
    return games, decided, wins


def _rewrite(match: Match, games: list[dict], now) -> None:
    HandEntry.objects.filter(game__match=match).delete()
    PenaltyEntry.objects.filter(game__match=match).delete()
    Game.objects.filter(match=match).delete()
    hands, penalties = [], []
    for g in games:
        game = Game.objects.create(match=match, number=g["number"], first_dealer=g["first_dealer"],
                                   score_a=g["score"][0], score_b=g["score"][1], winner=g["winner"],
                                   finished_at=now if g["winner"] is not None else None)
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
                                              ruling_id=row["ruling_id"], **common))
    HandEntry.objects.bulk_create(hands)
    PenaltyEntry.objects.bulk_create(penalties)


def correct(match: Match, changes: list, reason: str, by) -> SumulaVersion:
    """Change recorded entries with a reason: the whole súmula is checked again by the engine, a new
    version is issued (the old ones stay), and every signature is void until the pairs sign again.

    ``changes`` is a list applied in order, positions counting entries of the game as they stand:
    ``{"op": "remove_entry", "game": g, "position": p}``,
    ``{"op": "replace_hand", "game": g, "hand": n, "winner", "ended_by", "value"}``,
    ``{"op": "insert_hand", "game": g, "after": p, "winner", "ended_by", "value"}``,
    ``{"op": "insert_penalty", "game": g, "after": p, "offender", "points", "article", "reason"}``,
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
        now = timezone.now()
        before = _plan(match)
        after = _apply_changes(before, changes, by, now)
        if _essence(after) == _essence(before):
            raise ScoringError(_("The correction changes nothing."), "changes")
        games, decided, wins = _replay(match, after)
        _rewrite(match, games, now)
        previous_status = match.status
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


# -------------------------------------------------------------------------------- signing


def _signable_version(match: Match) -> SumulaVersion:
    if match.status == Match.Status.RECEIVED:
        raise Conflict(_("The súmula was already received by the organizer (art. 25)."), "status")
    if match.winner is None:
        raise Conflict(_("The match is not over: the súmula is signed when the match ends (art. 25)."), "match")
    version = current_version(match)
    if version is None:  # cannot happen: a decided match always has a version
        raise Conflict(_("No version of the súmula was issued yet."), "match")
    return version


def _code_hash(code: str, salt: str) -> str:
    return f"hmac${salt}${salted_hmac('scoring.signing-code', salt + code).hexdigest()}"


def _code_matches(code: str, stored: str) -> bool:
    try:
        _, salt, _digest = stored.split("$", 2)
    except ValueError:
        return False
    return hmac.compare_digest(_code_hash(code, salt), stored)


def issue_code(match: Match, team: int, by) -> tuple[SigningCode, str]:
    """A one-time code for a player of ``team`` without a PIN: 6 digits, valid 10 minutes, single use.
    Only its keyed hash is stored; the code itself is returned once, to be shown on screen."""
    _check_team(team, "team")
    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer gives one-time codes."))
        _signable_version(match)
        if match.status != Match.Status.OPEN:
            raise _locked_error()
        code = f"{secrets.randbelow(10**6):06d}"
        now = timezone.now()
        record = SigningCode.objects.create(match=match, team=team, code_hash=_code_hash(code, secrets.token_hex(8)),
                                            created_by=by if _is_user(by) else None, created_at=now,
                                            expires_at=now + CODE_LIFETIME)
        _event(match, MatchEvent.Kind.CODE, by, team=team, expires_at=record.expires_at.isoformat())
        return record, code


def _use_code(match: Match, team: int, code: str, player: Player, now) -> str | None:
    """Consume a valid code; return None, or why it was refused."""
    if not isinstance(code, str) or not re.fullmatch(r"\d{6}", code.strip()):
        return _("A one-time code has 6 digits.")
    code = code.strip()
    recent = SigningCode.objects.select_for_update().filter(
        match=match, team=team, created_at__gte=now - 6 * CODE_LIFETIME).order_by("-created_at")[:20]
    for record in recent:
        if _code_matches(code, record.code_hash):
            if record.used_at is not None:
                return _("This one-time code was already used: ask the referee for a new one.")
            if record.expires_at <= now:
                return _("This one-time code expired (codes last 10 minutes): ask the referee for a new one.")
            record.used_at, record.used_by = now, player
            record.save(update_fields=["used_at", "used_by"])
            return None
    return _("Wrong one-time code.")


def _role_team(role: object) -> int:
    if role not in ("team0", "team1"):
        raise ScoringError(_("A pair signs as \"team0\" (pair A) or \"team1\" (pair B)."), "role")
    return 0 if role == "team0" else 1


def sign(match: Match, role: str, player: Player | int, *, pin: str | None = None, code: str | None = None,
         digest: str | None = None, client: str | None = None) -> Signature:
    """A player of the pair signs the current version for their team (art. 25) with their PIN or a
    one-time code. Nobody signs for the other pair. When both pairs signed, the súmula is locked.
    The state is checked before the PIN; the PIN or code is checked by ``scoring.pins`` (counted per
    player and ``client``)."""
    team = _role_team(role)
    if bool(pin) == bool(code):
        raise ScoringError(_("Sign with your PIN or with a one-time code (one of them)."), "pin")
    with transaction.atomic():
        signer, version = _may_sign(_lock(match), team, role, player, digest)
    pins.require(signer, client=client, pin=pin, code=code, match=match, team=team)
    with transaction.atomic():
        match = _lock(match)
        signer, version = _may_sign(match, team, role, player, digest)
        now = timezone.now()
        method = Signature.Method.PIN if pin else Signature.Method.CODE
        signature = Signature.objects.create(version=version, role=role, player=signer, method=method,
                                             digest=version.digest, signed_at=now)
        _event(match, MatchEvent.Kind.SIGNATURE, None, role=role, player=signer.pk, method=method,
               version=version.number, digest=version.digest)
        roles = set(version.signatures.values_list("role", flat=True))
        if {"team0", "team1"} <= roles:
            match.status, match.signed_at = Match.Status.SIGNED, now
            match.save(update_fields=["status", "signed_at", "updated_at"])
            _event(match, MatchEvent.Kind.LOCKED, None, version=version.number, digest=version.digest)
        return signature


def _may_sign(match: Match, team: int, role: str, player: Player | int, digest: str | None):
    """The signer of ``team`` and the version to sign, or the refusal (no PIN looked at)."""
    pair = match.pair(team)
    players = access.pair_players(pair)
    player_id = player.pk if isinstance(player, Player) else player
    signer = next((p for p in players if p.pk == player_id), None)
    other = match.pair(1 - team)
    if signer is not None and any(p.pk == player_id for p in access.pair_players(other)):
        raise Forbidden(_("%(player)s is registered in both pairs of this match and cannot confirm for "
                          "either (art. 25).") % {"player": signer.name}, "player")
    if signer is None:
        if any(p.pk == player_id for p in access.pair_players(other)):
            raise Forbidden(_("A player of %(other)s cannot sign for %(pair)s: each pair confirms and signs "
                              "only for itself (art. 25).") % {"other": other.name, "pair": pair.name}, "player")
        raise Forbidden(_("Only a player of %(pair)s signs for it (art. 25).") % {"pair": pair.name}, "player")
    if match.status == Match.Status.SIGNED:
        raise Conflict(_("Both pairs already signed: the súmula is locked (art. 25)."), "status")
    version = _signable_version(match)
    if digest is not None and digest != version.digest:
        raise Conflict(_("The súmula changed while you were reading it: read version %(number)s and sign again.")
                       % {"number": version.number}, "digest")
    if version.signatures.filter(role=role).exists():
        raise Conflict(_("%(pair)s already signed version %(number)s.")
                       % {"pair": pair.name, "number": version.number}, "role")
    return signer, version


def countersign(match: Match, by, digest: str | None = None) -> Signature:
    """The match's referee countersigns the version both pairs signed."""
    with transaction.atomic():
        match = _lock(match)
        if not access.is_referee(by, match):
            raise Forbidden(_("Only the match's referee countersigns its súmula."))
        if match.status != Match.Status.SIGNED:
            raise Conflict(_("The referee countersigns after both pairs signed (art. 25)."), "status")
        version = current_version(match)
        if digest is not None and digest != version.digest:
            raise Conflict(_("The súmula changed while you were reading it: read version %(number)s and sign again.")
                           % {"number": version.number}, "digest")
        if version.signatures.filter(role=Signature.Role.REFEREE).exists():
            raise Conflict(_("The referee already countersigned version %(number)s.") % {"number": version.number},
                           "role")
        signature = Signature.objects.create(version=version, role=Signature.Role.REFEREE, user=by,
                                             method=Signature.Method.SESSION, digest=version.digest)
        _event(match, MatchEvent.Kind.SIGNATURE, by, role="referee", version=version.number, digest=version.digest)
        return signature


def mark_received(match: Match, by) -> Match:
    """Art. 25: the winners hand the signed súmula in at the organizing table; the organizer receives it
    and the result becomes official."""
    with transaction.atomic():
        match = _lock(match)
        if not access.is_organizer(by, match):
            raise Forbidden(_("Only the organizer receives súmulas at the organizing table (art. 25)."))
        if match.status == Match.Status.RECEIVED:
            raise Conflict(_("The súmula was already received by the organizer (art. 25)."), "status")
        if match.status != Match.Status.SIGNED:
            raise Conflict(_("The súmula is received once both pairs signed it (art. 25)."), "status")
        version = current_version(match)
        if match.referee_id and not version.signatures.filter(role=Signature.Role.REFEREE).exists():
            raise Conflict(_("The referee has not countersigned the súmula yet."), "status")
        match.status, match.received_at, match.received_by = Match.Status.RECEIVED, timezone.now(), by
        match.save(update_fields=["status", "received_at", "received_by", "updated_at"])
        _event(match, MatchEvent.Kind.RECEIVED, by, version=version.number, digest=version.digest)
        # The result is official now: the tournament advances in the same transaction (scoring.signals).
        result_official.send(sender=Match, match=match)
        return match


def official_result(match: Match) -> dict | None:
    """The official result (art. 25: once the signed súmula was received), or None.

    ``{"winner": team, "winner_pair_id", "loser_pair_id", "games": [a, b], "game_scores": [[a, b], ...],
    "points": [a, b], "version": n, "digest"}`` — ``points`` sums the tentos of every game.
    """
    if not match.is_official:
        return None
    version = current_version(match)
    document = version.content
    scores = [game["score"] for game in document["games"]]
    winner = document["result"]["winner"]
    teams = document["teams"]
    return {"winner": winner, "winner_pair_id": teams[winner]["pair_id"], "loser_pair_id": teams[1 - winner]["pair_id"],
            "games": document["result"]["games"], "game_scores": scores,
            "points": [sum(s[0] for s in scores), sum(s[1] for s in scores)],
            "version": version.number, "digest": version.digest}


# ------------------------------------------------------------------------- entry page state


def entry_state(match: Match, games: list) -> dict:
    """What the entry page and the API show about the hand to enter (no queries: ``games`` loaded)."""
    rules = rules_of(match)
    game = games[-1] if games else None
    if match.winner is not None or game is None or game.winner is not None:
        return {"over": match.winner is not None, "game": None}
    hands = [e for e in game.entries if e.kind == "hand"]
    score = (game.score_a, game.score_b)
    dealer = next_dealer(hands[-1].dealer) if hands else game.first_dealer
    endings = [ending for ending in ENDINGS if ending != "fold" or rules.fold_any_time]
    allowed = {ending: list(allowed_values(rules, score, ending)) for ending in endings}
    state = hand_state(score)
    eleven_team = (0 if score[0] == 11 else 1) if state == "eleven" else None
    return {"over": False, "game": game.number, "score": list(score), "dealer": dealer, "hand": len(hands) + 1,
            "state": state, "allowed": allowed, "eleven_team": eleven_team,
            "can_set_dealer": not hands, "entries": len(game.entries)}


def page_token(games: list) -> str:
    """The :func:`state_token` of loaded games (``content.load_games``)."""
    return state_token(games[-1].number, len(games[-1].entries)) if games else ""


def signing_state(match: Match, version: SumulaVersion | None, signatures: list) -> dict:
    roles = {s.role: s for s in signatures} if version else {}
    return {"signable": version is not None and match.winner is not None and match.status == Match.Status.OPEN,
            "team0": roles.get("team0"), "team1": roles.get("team1"), "referee": roles.get("referee")}


def matches_for(user):
    """Matches a user may enter (referee or organizer), newest first."""
    qs = match_queryset()
    if not _is_user(user):
        return qs.none()
    if user.is_superuser:
        return qs
    condition = Q(referee=user) | Q(tournament__organizer=user)
    if user.is_staff:
        condition |= Q(tournament__isnull=True)
    return qs.filter(condition)
