"""How fresh a tournament's public pages are: one cheap query gives a fingerprint of
everything they show, so conditional requests are answered before any page is built.

``state(slug)`` reads, in one query of scalar subqueries, the tournament's row and the
count and latest change of each table its public pages read (rounds, pairs, the format,
check-ins, tables, matches with their events — every hand, signature and receipt writes
one — results and the audit trail). ``etag(...)`` hashes it with what else the page
depends on (the path, the user, the language); ``last_modified`` is the latest timestamp.
The query is compiled from the ORM once per process and database (compiling it cost as much as
running it); each request only runs it and turns its row into the ``Tournament``.
Used by ``tournaments.conditional.PublicConditionalGetMiddleware``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import DateTimeField, IntegerField
from django.db.models.expressions import RawSQL
from django.db.models.query import get_related_populators

from scoring.models import Match, MatchEvent

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


_ANNOTATIONS: dict | None = None


def _annotations() -> dict:
    """Scalar subqueries in plain SQL (built once): the ORM's Subquery costs more to compile
    than the query costs to run."""
    global _ANNOTATIONS
    if _ANNOTATIONS is None:
        out = {}
        for name, (source, ident, stamp) in _tables().items():
            out[f"{name}_n"] = RawSQL(f"SELECT COUNT(*) FROM {source}", (), output_field=IntegerField())
            out[f"{name}_max"] = RawSQL(f"SELECT MAX({ident}) FROM {source}", (), output_field=IntegerField())
            if stamp:
                out[f"{name}_at"] = RawSQL(f"SELECT MAX({stamp}) FROM {source}", (), output_field=DateTimeField())
        _ANNOTATIONS = out
    return _ANNOTATIONS


_SLUG_MARK = "\x00slug\x00"


@dataclass
class _Compiled:
    """The fingerprint query compiled once per database (compiling the ORM
    expression cost as much as running it), with what turns its row into a ``Tournament``
    with its organizer, as Django's ``ModelIterable`` does."""

    sql: str
    converters: dict
    init_list: list[str]
    model_slice: slice
    annotation_col_map: dict[str, int]
    klass_info: dict
    select: list


_COMPILED: dict[object, _Compiled] = {}


def _compiled() -> _Compiled:
    key = (connection.alias, connection.vendor)
    found = _COMPILED.get(key)
    if found is None:
        queryset = Tournament.objects.select_related("organizer").filter(slug=_SLUG_MARK).annotate(**_annotations())
        compiler = queryset.query.get_compiler(using=connection.alias)
        sql, params = compiler.as_sql()
        if list(params) != [_SLUG_MARK]:  # never expected: the slug is the only parameter
            raise RuntimeError(f"unexpected fingerprint parameters: {params!r}")
        fields = compiler.klass_info["select_fields"]
        model_slice = slice(fields[0], fields[-1] + 1)
        found = _Compiled(
            sql=sql, converters=compiler.get_converters([column for column, _, _ in compiler.select]),
            init_list=[column.target.attname for column, _, _ in compiler.select[model_slice]],
            model_slice=model_slice, annotation_col_map=dict(compiler.annotation_col_map),
            klass_info=compiler.klass_info, select=compiler.select,
        )
        _COMPILED[key] = found
    return found


def state(slug: str) -> State | None:
    """The tournament ``slug`` with its organizer and the fingerprint of its public pages (None
    when there is no such tournament). One query, compiled once."""
    compiled = _compiled()
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    row = list(row)
    for position, (converters, expression) in compiled.converters.items():
        for converter in converters:  # as the ORM does (SQLite's timestamps are text, for instance)
            row[position] = converter(row[position], expression, connection)
    tournament = Tournament.from_db(connection.alias, compiled.init_list, row[compiled.model_slice])
    for populator in get_related_populators(compiled.klass_info, compiled.select, connection.alias):
        populator.populate(row, tournament)
    values = {field.attname: getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields}
    values.update({key: row[index] for key, index in compiled.annotation_col_map.items()})
    values["organizer_name"] = tournament.organizer.get_full_name() if tournament.organizer_id else ""
    stamps = [value for key, value in values.items() if key.endswith("_at") and isinstance(value, datetime)]
    return State(tournament, tuple(sorted((key, str(value)) for key, value in values.items())),
                 max(stamps, default=None))


def etag(current: State, *parts: object) -> str:
    digest = hashlib.sha256(repr((current.values, parts)).encode()).hexdigest()[:32]
    return f'W/"{digest}"'
