"""Shared by the súmula services: the error type, locking the match, the audit trail event (with its
author: a user or a table link), refusing a table link what is not its job, the rule set of a match,
and seat/team checks.
"""
from __future__ import annotations

from datetime import timedelta
import re

from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from referee.engine.errors import ReportError
from referee.engine.rules import RuleSet, rule_set_from

from .. import access
from ..words import engine_messages
from ..content import match_queryset
from ..models import Match, MatchEvent, Signature


CODE_LIFETIME = timedelta(minutes=10)
MAX_FAILED_SIGNATURES = 5  # per player and client: scoring.pins.PER_CLIENT_LIMIT counts them
ARTICLE_RE = re.compile(r"^\s*art(?:igo)?\.?\s*(\d{1,2})(?:\.(\d))?\s*$", re.IGNORECASE)
LAST_ARTICLE = 26
ScoringError = ServiceError  # refused input (400); Forbidden (403) and Conflict (409) as in config.errors


def _locked_error() -> Conflict:
    return Conflict(_("The súmula was signed by both pairs and is locked (art. 25): only a correction "
                      "with a reason can change it."), "status")


def _engine_error(error: ReportError | dict, prefix: str = "", teams=None) -> ScoringError:
    """The engine's refusal (a :class:`ReportError` or a verdict's ``error``) as a ScoringError worded in the
    page's language, with the pairs named after ``teams`` when given. The refusal as data stays on it
    (``engine``): a caller that knows the match words it again with :func:`engine_error_message`."""
    data = error.as_dict() if isinstance(error, ReportError) else error
    field = f"{prefix}.{data['field']}" if prefix and data.get("field") else prefix or data.get("field", "")
    refused = ScoringError(engine_messages.render_error(data, teams), field)
    refused.engine = data
    return refused


def engine_error_message(error: ServiceError, teams) -> str:
    """``error``'s message with the pairs named after ``teams`` when it is the engine's refusal."""
    data = getattr(error, "engine", None)
    return engine_messages.render_error(data, teams) if data is not None else error.message


def _lock(match: Match | int) -> Match:
    """The match locked, then read with what its document needs. The lock takes the row alone: a lock
    query joined to the pairs, players and clubs gave PostgreSQL's planner room for a nested-loop plan
    that ran for minutes on tables whose statistics said empty."""
    pk = match.pk if isinstance(match, Match) else match
    Match.objects.select_for_update().filter(pk=pk).values_list("pk", flat=True).get()
    return match_queryset().get(pk=pk)


def event_row(match: Match, kind: str, by=None, **data) -> MatchEvent:
    """The audit trail's next event, not yet written (a hand writes it with its own row). Its author is
    ``by`` when a user, else the table link that acted (``data["via"] = "table:<id>"``, docs/table-links.md)."""
    link = getattr(by, "table_link", None)
    if link is not None:
        data.setdefault("via", f"table:{link.pk}")
    return MatchEvent(match=match, kind=kind, by=by if _is_user(by) else None, data=data)


def refuse_table(by, match: Match, message: str) -> None:
    """403 with ``message`` when ``by`` is a table link (``scoring.access``: what a table may not do)."""
    if getattr(by, "table_link", None) is not None and not access.can_enter(by, match):
        raise Forbidden(message)


def _event(match: Match, kind: str, by=None, **data) -> MatchEvent:
    """Write the audit trail's next event."""
    event = event_row(match, kind, by, **data)
    event.save(force_insert=True)
    return event


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _player_model():
    """The model of a player (who signs), reached through the signature's foreign key: scoring does
    not import the app that owns players (docs/architecture.md)."""
    return Signature._meta.get_field("player").related_model


def rules_of(match: Match) -> RuleSet:
    return rule_set_from(match.rule_set)


def _check_seat(value, field: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ScoringError(_("A seat is 0, 1, 2 or 3 (art. 1: the table draws the first dealer)."), field)
    return value


def _check_team(value, field: str) -> int:
    if type(value) is not int or value not in (0, 1):
        raise ScoringError(_("A team is 0 (pair A) or 1 (pair B)."), field)
    return value
