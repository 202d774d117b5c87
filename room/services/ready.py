"""Ready matches (docs/room.md): no table waits for the slowest.

With the room option ``ready_matches`` (``RoomSettings``), a round robin or a group stage makes its
whole schedule at the draw (:func:`after_draw`): every Berger round is generated at once; round 1's
matches get tables 1..N as before, the later rounds' matches get no table yet. A match without a table
and without a result is *pending*; it is **ready** when both its pairs are free (no match of theirs at
a table without a result and still open) and a table is free (no match at it without a result and not
received — the match a table's card shows, ``tables.cards.current_match``). Pending matches
are taken in Berger order (round, then the order of the round), each pair's earliest first, no pair in
two ready matches (:func:`room_queue`).

The organizer calls a ready match to a free table in one tap (:func:`call_match`), or the room does it
by itself when a decision frees a table and the option ``auto_call`` is on (:func:`auto_call`, called
by ``tournaments.services.after_results.results_changed``, through ``room.hooks``, after every result, W.O.,
withdrawal, disqualification or undo). Each call records a :class:`~room.models.MatchCall` (the clock starts
there) and an audit entry.

Brackets: a match exists (with its table) once both feeders are decided; it shows in the queue as
"at its table" while nothing was entered. Swiss rounds still wait for every result (the pairing needs
them): :func:`swiss_waiting` names the tables the next round waits for.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import HandEntry, Match

from tournaments.models import AuditEntry, Result, Round, Stage, Tournament
from tournaments.services.base import (TournamentError, _actor, _audit, _int, _lock_tournament, _require_manager,
                                      _stage_of)
from tournaments.services.check_in import _upcoming
from tournaments.services.draw import _generate_group_round, _group_members, _group_round_count
from tournaments.services.writing import _referees

from ..models import MatchCall, RoomSettings
from . import notify, time_limit


def room_of(tournament: Tournament | int) -> RoomSettings:
    """The tournament's room options (an unsaved row with every option off when none was saved)."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return RoomSettings.objects.filter(tournament_id=pk).first() or RoomSettings(tournament_id=pk)


def after_draw(stage: Stage, first: Round, by) -> list[Round]:
    """With ``ready_matches`` on, a round robin's (or a group stage's) later rounds are generated at the
    draw, their matches without a table until they are called. Returns the rounds added."""
    if not room_of(stage.tournament_id).ready_matches or not stage.has_groups or stage.is_bracket:
        return []
    total = _group_round_count(_group_members(stage), stage.legs)
    tournament = stage.tournament
    added = []
    for number in range(2, total + 1):
        rnd = _upcoming(tournament)
        rnd.tournament = tournament
        _generate_group_round(stage, rnd, number, by)
        added.append(rnd)
    if added:
        Match.objects.filter(round__in=added, tournament_result__isnull=True).update(
            table=None, referee=None, updated_at=timezone.now())
    return added


@dataclass
class Pending:
    """A match of the schedule not called yet; ``ready`` when it can be called now."""

    match: Match
    ready: bool = False
    busy: list[int] = field(default_factory=list)  # pair ids keeping it waiting (playing now)


@dataclass
class RoomQueue:
    enabled: bool
    tables: int
    free_tables: list[int]
    ready: list[Pending]
    waiting: list[Pending]
    at_tables: list[Match]  # bracket matches made at their table, nothing entered yet
    swiss_waits_for: list[int] | None  # tables a Swiss round waits for (None: not a Swiss)

    @property
    def next_free_table(self) -> int | None:
        return self.free_tables[0] if self.free_tables else None


def _open_matches(tournament_id: int):
    """The tournament's round matches without an official result."""
    return (Match.objects.filter(tournament_id=tournament_id, round__isnull=False)
            .exclude(Exists(Result.objects.filter(match=OuterRef("pk")))))


def _room_tables(room: RoomSettings, tournament_id: int) -> int:
    if room.tables:
        return room.tables
    first = (Match.objects.filter(tournament_id=tournament_id, table__isnull=False)
             .order_by("-table").values_list("table", flat=True).first())
    return first or 0


def room_queue(tournament: Tournament, *, room: RoomSettings | None = None, stage: Stage | None = None
               ) -> RoomQueue:
    """Free tables, ready and waiting matches, bracket matches at their tables, and what a Swiss round
    waits for. A fixed number of queries (three or four; fewer when the caller gives the room's options
    and the stage in play)."""
    room = room if room is not None else room_of(tournament)
    rows = list(_open_matches(tournament.pk).select_related("round", "pair_a", "pair_b")
                .order_by("round__number", "pk"))
    busy_tables = {m.table for m in rows if m.table is not None and m.status != Match.Status.RECEIVED}
    playing = set()
    for m in rows:
        if m.table is not None and m.status == Match.Status.OPEN:
            playing.update((m.pair_a_id, m.pair_b_id))
    tables = _room_tables(room, tournament.pk)
    free = [t for t in range(1, tables + 1) if t not in busy_tables]
    ready: list[Pending] = []
    waiting: list[Pending] = []
    claimed: set[int] = set()
    for m in rows:
        if m.table is not None:
            continue
        pairs = (m.pair_a_id, m.pair_b_id)
        busy = [p for p in pairs if p in playing]
        if not busy and not claimed.intersection(pairs):
            claimed.update(pairs)
            ready.append(Pending(m, ready=len(ready) < len(free)))
        else:
            waiting.append(Pending(m, busy=busy or [p for p in pairs if p in claimed]))
    at_tables = []
    bracket_ids = [m.pk for m in rows if m.table is not None and m.round.phase == Round.Phase.BRACKET]
    if bracket_ids:
        entered = set(HandEntry.objects.filter(game__match_id__in=bracket_ids)
                      .values_list("game__match_id", flat=True).distinct())
        at_tables = [m for m in rows if m.pk in bracket_ids and m.pk not in entered
                     and m.status == Match.Status.OPEN]
    return RoomQueue(enabled=room.ready_matches, tables=tables, free_tables=free,
                     ready=[p for p in ready if p.ready], waiting=[p for p in ready if not p.ready] + waiting,
                     at_tables=at_tables, swiss_waits_for=swiss_waiting(tournament, rows, stage=stage))


def swiss_waiting(tournament: Tournament, open_rows: list[Match] | None = None, *, stage: Stage | None = None
                  ) -> list[int] | None:
    """The tables (or "no table": 0) whose results a Swiss's next round waits for; None when the stage
    in play is not a Swiss."""
    if stage is None:
        try:
            stage = _stage_of(tournament)
        except Conflict:  # no format yet
            return None
    if stage.format != Stage.Format.SWISS or stage.bracket_first_round is not None:
        return None
    rows = open_rows if open_rows is not None else list(_open_matches(tournament.pk).select_related("round"))
    return sorted({m.table or 0 for m in rows if m.round.stage_id == stage.pk})


def _pair_playing(tournament_id: int, pair_ids) -> bool:
    return (_open_matches(tournament_id).filter(table__isnull=False, status=Match.Status.OPEN)
            .filter(Q(pair_a_id__in=pair_ids) | Q(pair_b_id__in=pair_ids)).exists())


def _table_busy(tournament_id: int, table: int) -> bool:
    return _open_matches(tournament_id).filter(table=table).exclude(status=Match.Status.RECEIVED).exists()


def _call(tournament: Tournament, match: Match, table: int, by, *, automatic: bool) -> MatchCall:
    now = timezone.now()
    match.table = table
    match.referee_id = _referees(tournament, match.round).get(table)
    match.save(update_fields=["table", "referee", "updated_at"])
    call, _created = MatchCall.objects.update_or_create(
        match=match, defaults={"tournament": tournament, "table": table, "called_at": now,
                               "called_by": _actor(by), "automatic": automatic,
                               "started_at": None, "present_a_at": None, "present_b_at": None})
    _audit(tournament, by, AuditEntry.Action.MATCH_CALLED, match=match, round=match.round,
           after={"match": match.pk, "table": table, "automatic": automatic})
    notify.match_called(match.pk, table)  # optional push and e-mail to the pairs, after the commit (§5)
    return call


def call_match(match: Match | int, by, *, table: int | None = None) -> MatchCall:
    """The organizer calls a pending match to ``table`` (default: the first free table). Refused (409)
    when the match was already called or decided, one of its pairs is playing, or the table is busy;
    so a repeated tap does the call once."""
    match_id = match.pk if isinstance(match, Match) else _int(match, "match", minimum=1, maximum=2**62)
    if table is not None:
        table = _int(table, "table", minimum=1, maximum=10_000)
    with transaction.atomic():
        # the match first, then the tournament: the order of scoring's receipt (services/__init__.py)
        match = Match.objects.select_for_update(of=("self",)).select_related("round").filter(pk=match_id).first()
        if match is None or match.tournament_id is None:
            raise TournamentError(_("No match with this id in a tournament."), "match")
        tournament = _lock_tournament(match.tournament_id)
        _require_manager(by, tournament)
        if match.round_id is None:
            raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")
        if Result.objects.filter(match=match).exists():
            raise Conflict(_("This match already has an official result."), "match")
        if match.table is not None:
            raise Conflict(_("This match was already called to table %(table)s.") % {"table": match.table}, "match")
        if _pair_playing(tournament.pk, [match.pair_a_id, match.pair_b_id]):
            raise Conflict(_("One of the two pairs is still playing: the match is not ready."), "match")
        if table is None:
            queue = room_queue(tournament)
            table = queue.next_free_table
            if table is None:
                raise Conflict(_("No table is free now."), "table")
        elif _table_busy(tournament.pk, table):
            raise Conflict(_("Table %(table)s is busy: its match has no official result yet.") % {"table": table},
                           "table")
        return _call(tournament, match, table, by, automatic=False)


def call_ready(tournament: Tournament | int, by=None, *, automatic: bool = True) -> list[MatchCall]:
    """Call every ready match to a free table (the room's ``auto_call``, or the organizer's "call all
    ready"). Runs inside the caller's transaction when there is one."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        if not automatic:
            _require_manager(by, tournament)
        calls = []
        queue = room_queue(tournament)
        for pending, table in zip(queue.ready, queue.free_tables):
            calls.append(_call(tournament, pending.match, table, by, automatic=automatic))
        return calls


def auto_call(tournament: Tournament) -> list[MatchCall]:
    """A decision may have freed a table: with ``ready_matches`` and ``auto_call`` on, the ready matches
    are called to the free tables by the room itself (no one's tap: ``by`` None). One query when the
    options are off."""
    room = room_of(tournament)
    if room.pk is None or not (room.ready_matches and room.auto_call):
        return []
    return call_ready(tournament, None, automatic=True)


ROOM_FIELDS = ("ready_matches", "auto_call", "tables", "tolerance_first", "tolerance_later", "time_limit",
               "end_of_time")


def configure_room(tournament: Tournament, by, **values) -> RoomSettings:
    """Save the room options given (the others are kept); audited with before and after. The ready
    matches option changes only before the draw (the schedule is made at the draw)."""
    unknown = set(values) - set(ROOM_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown room option."), sorted(unknown)[0])
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        room = room_of(tournament)
        before = {f: getattr(room, f) for f in ROOM_FIELDS}
        for name in ("ready_matches", "auto_call"):
            if name in values and type(values[name]) is not bool:
                raise TournamentError(_("Give true or false."), name)
        for name in ("tables", "tolerance_first", "tolerance_later", "time_limit"):
            if name in values:
                values[name] = _int(values[name], name, minimum=1 if name == "tables" else 0,
                                    maximum=1000 if name == "tables" else 600, allow_none=True)
        if "end_of_time" in values and values["end_of_time"] not in RoomSettings.EndOfTime.values:
            raise TournamentError(_("Choose one of the end-of-time procedures."), "end_of_time")
        if ("ready_matches" in values and values["ready_matches"] != room.ready_matches
                and Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()):
            raise Conflict(_("Ready matches are chosen before the draw: the schedule is made at the draw."),
                           "ready_matches")
        for name, value in values.items():
            setattr(room, name, value)
        room.tournament = tournament
        room.save()
        time_limit.sync(tournament.pk, room)  # the matches in play get the new limit and procedure
        _audit(tournament, by, AuditEntry.Action.ROOM_CONFIGURED, before=before,
               after={f: getattr(room, f) for f in ROOM_FIELDS})
        return room
