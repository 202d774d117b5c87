"""How fresh a tournament's public pages are: one cheap query gives a fingerprint of
everything they show, so conditional requests are answered before any page is built.

``state(slug)`` reads, in one query of scalar subqueries, the tournament's row and the
count and latest change of each table its public pages read (rounds, pairs, the format,
check-ins, tables, matches with their events — every hand, signature and receipt writes
one — results and the audit trail). ``etag(...)`` hashes it with what else the page
depends on (the path, the user, the language); ``last_modified`` is the latest timestamp.
The query is plain SQL written once per database (scoring/plain_sql.py: compiled by the ORM it
cost ten times what it takes to run); each request only runs it and reads its row into the
``Tournament`` and its organizer.
Used by ``tournaments.conditional.PublicConditionalGetMiddleware``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from datetime import timezone as dt_timezone

from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware

from scoring.models import Match, MatchEvent
from scoring.plain_sql import column, quote, read, table

from .models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament


@dataclass(frozen=True)
class State:
    tournament: Tournament  # with its organizer: the page's views reuse it
    values: tuple
    last_modified: datetime | None


def _tables() -> dict[str, tuple[str, str, str | None]]:
    """name -> (FROM ... WHERE clause reaching the outer tournament, id column, timestamp column)."""
    def t(model) -> str:
        return model._meta.db_table

    outer = f"{t(Tournament)}.id"
    return {
        "round": (f"{t(Round)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "pair": (f"{t(Pair)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "checkin": (f"{t(CheckIn)} x JOIN {t(Round)} r ON x.round_id = r.id WHERE r.tournament_id = {outer}",
                    "x.id", "x.checked_in_at"),
        "table": (f"{t(TableAssignment)} x WHERE x.tournament_id = {outer}", "x.id", None),
        "match": (f"{t(Match)} x WHERE x.tournament_id = {outer}", "x.id", "x.updated_at"),
        "event": (f"{t(MatchEvent)} x JOIN {t(Match)} m ON x.match_id = m.id WHERE m.tournament_id = {outer}",
                  "x.id", "x.at"),
        "result": (f"{t(Result)} x WHERE x.tournament_id = {outer}", "x.id", "x.recorded_at"),
        "audit": (f"{t(AuditEntry)} x WHERE x.tournament_id = {outer}", "x.id", "x.at"),
        "stage": (f"{t(Stage)} x WHERE x.tournament_id = {outer}", "x.id", "x.updated_at"),
    }


def _fingerprint_sql() -> str:
    """The tournament's row, its organizer's (aliased ``organizer__<column>``) and, per table its pages
    read, scalar subqueries: the count, the largest id and the latest timestamp."""
    user = Tournament._meta.get_field("organizer").related_model
    u, outer = table(user), table(Tournament)
    organizer = ", ".join(f"{u}.{quote(f.column)} AS {quote('organizer__' + f.column)}"
                          for f in user._meta.concrete_fields if f.attname in ORGANIZER_FIELDS)
    parts = []
    for name, (source, ident, stamp) in _tables().items():
        parts.append(f"(SELECT COUNT(*) FROM {source}) AS {name}_n")
        parts.append(f"(SELECT MAX({ident}) FROM {source}) AS {name}_max")
        if stamp:
            parts.append(f"(SELECT MAX({stamp}) FROM {source}) AS {name}_at")
    return (f"SELECT {outer}.*, {organizer}, {', '.join(parts)} FROM {outer} "
            f"LEFT JOIN {u} ON {u}.{quote(user._meta.pk.column)} = {outer}.{column(Tournament, 'organizer')} "
            f"WHERE {outer}.{column(Tournament, 'slug')} = %s")


# What the pages show of the organizer (the name); any other field is read when first used.
ORGANIZER_FIELDS = ("id", "username", "first_name", "last_name")


def _timestamp(value):
    """A ``MAX(...)`` of timestamps as a datetime (SQLite gives text)."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = parse_datetime(str(value))
    if parsed is not None and is_naive(parsed):
        parsed = make_aware(parsed, dt_timezone.utc)
    return parsed


def state(slug: str) -> State | None:
    """The tournament ``slug`` with its organizer and the fingerprint of its public pages (None
    when there is no such tournament). One query, written once (scoring/plain_sql.py)."""
    user = Tournament._meta.get_field("organizer").related_model
    tournament = read("freshness", Tournament, _fingerprint_sql, [slug], related={"organizer": user})
    if tournament is None:
        return None
    values = {field.attname: getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields}
    for name in _tables():
        values[f"{name}_n"] = getattr(tournament, f"{name}_n")
        values[f"{name}_max"] = getattr(tournament, f"{name}_max")
        if hasattr(tournament, f"{name}_at"):
            values[f"{name}_at"] = _timestamp(getattr(tournament, f"{name}_at"))
    values["organizer_name"] = tournament.organizer.get_full_name() if tournament.organizer_id else ""
    stamps = [value for key, value in values.items() if key.endswith("_at") and isinstance(value, datetime)]
    return State(tournament, tuple(sorted((key, str(value)) for key, value in values.items())),
                 max(stamps, default=None))


def etag(current: State, *parts: object) -> str:
    digest = hashlib.sha256(repr((current.values, parts)).encode()).hexdigest()[:32]
    return f'W/"{digest}"'
