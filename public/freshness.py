"""A tournament's one change marker: what its public pages, the live pages' polls, the projector and
the room monitor ask before they build anything ("did anything change since my copy?").

:func:`state` reads, in ONE query built with the ORM, the tournament's row with its organizer's name
and, for each table its pages read (rounds, pairs, the format's stages, check-ins, table
assignments, matches with their events — every hand, signature and receipt writes one — results,
the audit trail and the room's options), the count, the largest id and the latest timestamps: one
correlated subquery a table, its aggregates read as one JSON object. The count and the largest id catch
inserts and deletes, the timestamps the updates; an append-only table (events, the audit trail:
``config.history.AppendOnly``, its rows never deleted) needs its count alone (a largest id would
miss a row committed after a later one). The events are counted from the index on
(match, moment). The query is built once a set of tables (building and resolving it was most of
the call's time, ``benchmarks/change_marker.py``); each call adds its slug. A caller above this app
adds the rows it alone shows (``also``: the room monitor adds the calls to the referee).
``State.tag`` is the marker; :func:`etag` hashes it with what else a page depends on (the path, the
user, the language); ``last_modified`` is the latest timestamp.

Used by ``public.conditional.PublicConditionalGetMiddleware`` (every public page),
``public.live`` (the live pages' and the projector's polls) and ``referee.monitor``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache

from django.db.models import Count, Max, OuterRef, Subquery
from django.db.models.functions import JSONObject

from config.history import AppendOnly
from scoring.models import Match, MatchEvent

from tournaments.models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament

#: name -> (the rows, the path from a row to its tournament, the timestamps that move when a row changes)
Source = tuple[object, str, tuple[str, ...]]

SOURCES: dict[str, Source] = {
    "round": (Round.objects, "tournament", ("generated_at",)),
    # a player's erasure (LGPD) renames the player and the pair in place: their moment moves the marker too
    "pair": (Pair.objects, "tournament", ("registered_at", "withdrawn_at", "first_player__anonymised_at",
                                          "second_player__anonymised_at", "substitute__anonymised_at")),
    "stage": (Stage.objects, "tournament", ("updated_at",)),
    "checkin": (CheckIn.objects, "round__tournament", ("checked_in_at",)),
    "table": (TableAssignment.objects, "tournament", ()),
    "match": (Match.objects, "tournament", ("updated_at",)),
    "event": (MatchEvent.objects, "match__tournament", ("at",)),
    "result": (Result.objects, "tournament", ("recorded_at",)),
    "audit": (AuditEntry.objects, "tournament", ("at",)),
}


def register_source(name: str, source: Source) -> None:
    """Add a higher app's rows the pages show to the marker (the room's options: ``room.hooks``), at
    start-up; registering the same name again replaces it."""
    SOURCES[name] = source

# What the pages show of the organizer (the name); any other field is read when first used.
ORGANIZER_FIELDS = ("id", "username", "first_name", "last_name")


@dataclass(frozen=True)
class State:
    tournament: Tournament  # with its organizer: the page's views reuse it
    values: tuple
    last_modified: datetime | None

    @property
    def tag(self) -> str:
        """The change marker: it moves whenever anything the pages show changes."""
        return hashlib.sha256(repr(self.values).encode()).hexdigest()[:20]


def _source(rows, path: str, stamps: tuple[str, ...]) -> Subquery:
    """The tournament's ``rows`` (reached by ``path``) read once: their count, largest id and latest
    ``stamps``, as one JSON object (one correlated subquery a source, not one an aggregate)."""
    marks = {"n": Count("*")}
    if not issubclass(rows.model, AppendOnly):  # rows never deleted: an insert always moves the count
        marks["max"] = Max("pk")
    marks.update((stamp, Max(stamp)) for stamp in stamps)
    return Subquery(rows.filter(**{path: OuterRef("pk")}).order_by().values(path)
                    .annotate(v=JSONObject(**marks)).values("v")[:1])


@lru_cache(maxsize=8)
def _marked(sources: tuple[tuple[str, Source], ...]):
    """The tournaments with their organizer and a marker a source, built once a set of sources:
    each call only adds its slug (building and resolving the subqueries is most of the Python)."""
    fields = [f.name for f in Tournament._meta.concrete_fields] + [f"organizer__{f}" for f in ORGANIZER_FIELDS]
    marks = {f"m_{name}": _source(*source) for name, source in sources}
    return Tournament.objects.select_related("organizer").only(*fields).annotate(**marks).order_by(), tuple(marks)


def _stamp(value: str) -> datetime:
    """A timestamp as a source's JSON object holds it (ISO text; naive means UTC: SQLite's storage)."""
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def state(slug: str, also: dict[str, Source] | None = None) -> State | None:
    """The tournament ``slug`` with its organizer and its change marker (None when there is no such
    tournament), in one query. ``also``: more sources, as :data:`SOURCES`, that the caller shows."""
    sources = {**SOURCES, **(also or {})}
    rows, marks = _marked(tuple(sources.items()))
    tournament = next(iter(rows.filter(slug=slug)[:1]), None)
    if tournament is None:
        return None
    values = {field.attname: getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields}
    stamps = [value for value in values.values() if isinstance(value, datetime)]
    for (_rows, _path, names), mark in zip(sources.values(), marks):
        read = getattr(tournament, mark) or {}
        values[mark] = (read.get("n"), read.get("max"), *(read.get(stamp) for stamp in names))
        stamps += [_stamp(read[stamp]) for stamp in names if read.get(stamp)]
    values["organizer_name"] = tournament.organizer.get_full_name() if tournament.organizer_id else ""
    return State(tournament, tuple(sorted((key, str(value)) for key, value in values.items())),
                 max(stamps, default=None))


def etag(current: State, *parts: object) -> str:
    digest = hashlib.sha256(repr((current.values, parts)).encode()).hexdigest()[:32]
    return f'W/"{digest}"'
