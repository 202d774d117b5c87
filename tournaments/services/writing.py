"""Writing a generated round to the database: the matches with their tables and referees, their
first games and the byes, in bulk (``write_pairings``); matches of a fixed schedule; the automatic
walkovers of withdrawn pairs.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.engine.errors import ReportError
from referee.engine.rules import rule_set_from
from scoring import table_links
from scoring.models import Game, Match, TableLink

from ..models import BracketNode, Bye, Pair, Result, Round, Stage, TableAssignment, Tournament
from .base import TournamentError, _actor, _double_walkover_result, _walkover_result


def _referees(tournament: Tournament, rnd: Round) -> dict[int, int]:
    """Referee id per table for ``rnd``: its own assignment, else the tournament-wide one."""
    rows = list(TableAssignment.objects.filter(tournament=tournament)
                .filter(Q(round__isnull=True) | Q(round=rnd)).values_list("table", "round_id", "referee_id"))
    out = {table: referee for table, round_id, referee in rows if round_id is None}
    out.update({table: referee for table, round_id, referee in rows if round_id is not None})
    return out


def _normalized_rule_set(tournament: Tournament) -> dict:
    try:
        return rule_set_from(tournament.rule_set, "rule_set").as_dict()
    except ReportError as error:
        raise TournamentError(error.message, "rule_set") from None


_PASS_THROUGH = (models.IntegerField, models.BooleanField, models.CharField, models.ForeignKey)


def _fast_insert(model, rows: Sequence[dict], *, returning: bool = False, instances: bool = False) -> list:
    """Insert ``rows`` (dicts of field attnames, all with the same keys) with multi-row INSERT
    statements, without building model instances first: what ``bulk_create`` does, minus its
    per-object cost, for the thousands of rows of a big round or bracket. Every other concrete
    field gets its default (``auto_now`` fields: now), as ``bulk_create`` would. Returns the new
    primary keys, in order, when ``returning``; the saved model instances with ``instances``."""
    from django.db import connection

    if not rows:
        return []
    returning = returning or instances
    now = timezone.now()
    given = list(rows[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    by_name = {f.attname: f for f in fields}
    unknown = set(given) - set(by_name)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {sorted(unknown)[0]}")
    columns = [by_name[name] for name in given] + [f for f in fields if f.attname not in given]
    constants = []
    defaults = {}
    for f in columns[len(given):]:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            value = now
        else:
            value = f.get_default()
        defaults[f.attname] = value
        constants.append(f.get_db_prep_save(value, connection))
    plain = [isinstance(by_name[name], _PASS_THROUGH) for name in given]
    prepared: dict[tuple[int, int], object] = {}  # (column, id(value)): a value shared by many rows is prepared once

    def prepare(i: int, name: str, value):
        key = (i, id(value))
        if key not in prepared:
            prepared[key] = (value, by_name[name].get_db_prep_save(value, connection))
        return prepared[key][1]

    values = []
    for row in rows:
        item = [row[name] if plain[i] else prepare(i, name, row[name]) for i, name in enumerate(given)]
        values.append(item + constants)
    quote = connection.ops.quote_name
    per_row = len(columns)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
    pks: list[int] = []
    if connection.vendor == "postgresql":
        # One statement: one array per column (a column equal in every row is sent once), so
        # the query stays tiny however many rows.
        selects, params = [], []
        for i, (f, column) in enumerate(zip(columns, zip(*values))):
            cast = f.db_type(connection)
            if i >= len(given) or all(v is column[0] for v in column):
                selects.append(f"%s::{cast}")
                params.append(column[0])
            else:
                selects.append(f"unnest(%s::{cast}[])")
                params.append(list(column))
        if len(selects) == sum(sel.startswith("%s") for sel in selects):  # nothing varies: one row per input row
            selects[0] = f"unnest(array_fill(%s::{columns[0].db_type(connection)}, ARRAY[{len(values)}]))"
        sql = head + f"SELECT {', '.join(selects)}"
        with connection.cursor() as cursor:
            if returning:
                cursor.execute(sql + f" RETURNING {quote(model._meta.pk.column)}", params)
                pks = [r[0] for r in cursor.fetchall()]
            else:
                cursor.execute(sql, params)
        values = []
    batch = max(1, min(connection.ops.bulk_batch_size(columns, values) or len(values) or 1, 65535 // per_row))
    head += "VALUES "
    one = "(" + ", ".join(["%s"] * per_row) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(values), batch):
            chunk = values[start:start + batch]
            sql = head + ", ".join([one] * len(chunk))
            params = [v for item in chunk for v in item]
            if returning:
                cursor.execute(sql + f" RETURNING {quote(model._meta.pk.column)}", params)
                pks.extend(r[0] for r in cursor.fetchall())
            else:
                cursor.execute(sql, params)
    if not instances:
        return pks
    # Positional construction (every concrete field given) skips the per-field default lookups.
    pk_name = model._meta.pk.attname
    order = [f.attname for f in model._meta.concrete_fields]
    out = []
    for pk, row in zip(pks, rows):
        obj = model(*[pk if name == pk_name else row[name] if name in row else defaults[name] for name in order])
        obj._state.adding = False
        obj._state.db = connection.alias
        out.append(obj)
    return out


def stage_best_of(stage: Stage | None, number: int, last: int | None = None) -> int | None:
    """The match format (games per match) of round ``number`` of ``stage`` (1 for its first round):
    the stage's override for that round (``round_best_of``: ``"2"``, or counted from the end,
    ``"-1"`` the last round when ``last`` is known), else the stage's format, else ``None`` (the
    tournament's)."""
    if stage is None:
        return None
    per_round = stage.round_best_of or {}
    if str(number) in per_round:
        return int(per_round[str(number)])
    if last is not None and str(number - last - 1) in per_round:
        return int(per_round[str(number - last - 1)])
    return stage.best_of


def write_pairings(rnd: Round, boards: Sequence[tuple[int, int, int | None]], *, byes: Iterable[int] = (),
                   by=None, best_of: int | None = None) -> list[Match]:
    """Low level: create the scoring matches of ``boards`` (``(pair_a_id, pair_b_id, table)``) in
    ``rnd`` with bulk inserts (each match with its first game, the referee of its table, the
    tournament's rule set and the match format: ``best_of`` games, default the tournament's; a
    match keeps it), and the byes. No checks: the caller holds the tournament's lock and
    validated the pairing. Used by round generation and the benchmark."""
    tournament = rnd.tournament
    referees = _referees(tournament, rnd)
    rule_set = _normalized_rule_set(tournament)
    creator = _actor(by)
    common = {"tournament_id": tournament.pk, "round_id": rnd.pk, "rule_set": rule_set,
              "best_of": best_of or tournament.best_of, "created_by_id": creator.pk if creator else None,
              "created_at": timezone.now()}
    rows = [{**common, "table": table, "referee_id": referees.get(table) if table else None, "pair_a_id": a,
             "pair_b_id": b} for a, b, table in boards]
    matches = _fast_insert(Match, rows, instances=True)
    _fast_insert(Game, [{"match_id": m.pk, "number": 1, "first_dealer": 0, "started_at": common["created_at"]}
                        for m in matches])
    _fast_insert(Bye, [{"round_id": rnd.pk, "pair_id": p} for p in byes])
    return matches


def _mark_generated(rnd: Round, phase: str) -> None:
    rnd.phase, rnd.generated_at = phase, timezone.now()
    rnd.save(update_fields=["phase", "generated_at", "lot_seed", "name", "stage", "unavoided"])


def _write_fixed_boards(rnd: Round, games: Sequence[tuple[int, int]], byes: Sequence[int],
                        withdrawn: set[int], by, best_of: int | None = None) -> list[Match]:
    """Matches of a fixed schedule (round robin): tables 1..N for the playable ones; a match with a
    withdrawn pair gets no table and is a walkover at once."""
    boards = []
    table = 0
    for a, b in games:
        if a in withdrawn or b in withdrawn:
            boards.append((a, b, None))
        else:
            table += 1
            boards.append((a, b, table))
    matches = write_pairings(rnd, boards, byes=[p for p in byes if p not in withdrawn], by=by, best_of=best_of)
    _auto_walkovers(rnd.tournament, matches, withdrawn, by)
    return matches


def _auto_walkovers(tournament: Tournament, matches: Sequence[Match], withdrawn: set[int], by) -> list[Result]:
    results = []
    pairs = {}
    for m in matches:
        a_out, b_out = m.pair_a_id in withdrawn, m.pair_b_id in withdrawn
        if a_out and b_out and not _in_bracket(m):
            # both withdrew: a double walkover, nobody wins (a bracket's match waits for the organizer)
            results.append(_double_walkover_result(m, tournament, by=None, reason=_("Both pairs withdrew.")))
            continue
        if a_out == b_out:
            continue  # both present, or both withdrew from a bracket (the organizer decides)
        absent_id = m.pair_a_id if a_out else m.pair_b_id
        absent = pairs.get(absent_id) or Pair.objects.get(pk=absent_id)
        pairs[absent_id] = absent
        results.append(_walkover_result(m, tournament, absent=absent, by=None,
                                        reason=_("Withdrawn: %(reason)s") % {"reason": absent.withdrawal_reason}))
    table_links.close_all([r.match_id for r in results], by, TableLink.ClosedAs.WALKOVER)
    return Result.objects.bulk_create(results)


def _in_bracket(match: Match) -> bool:
    return BracketNode.objects.filter(match_id=match.pk).exists()


def _withdrawn_ids(tournament: Tournament) -> set[int]:
    return set(Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN).values_list("pk", flat=True))
