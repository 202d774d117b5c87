"""Writing a generated round to the database: the matches with their tables and referees, their
first games and the byes, in bulk (``write_pairings``); matches of a fixed schedule; the automatic
walkovers of withdrawn pairs.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.engine.errors import ReportError
from referee.engine.rules import rule_set_from
from scoring.models import Game, Match

from ..models import BracketNode, Bye, Pair, Result, Round, Stage, TableAssignment, Tournament
from .base import TournamentError, _actor, _close_sumulas, _double_walkover_result, _walkover_result


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
    matches = Match.objects.bulk_create([Match(**row) for row in rows])
    Game.objects.bulk_create([Game(match=m, number=1, first_dealer=0, started_at=common["created_at"])
                              for m in matches])
    Bye.objects.bulk_create([Bye(round_id=rnd.pk, pair_id=p) for p in byes])
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
    _close_sumulas(results, by, "withdrawal")  # the súmulas closed with the withdrawal (art. 26)
    return Result.objects.bulk_create(results)


def _in_bracket(match: Match) -> bool:
    return BracketNode.objects.filter(match_id=match.pk).exists()


def _withdrawn_ids(tournament: Tournament) -> set[int]:
    return set(Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN).values_list("pk", flat=True))
