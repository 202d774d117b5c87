"""The official results' seal and their check against the sealed súmulas (art. 25, 26).

A :class:`~tournaments.models.Result` is what the standings count (``services/standings.py`` reads
the rows at every request: no standings are stored), so it is held as the súmula is:

- **Seal**: every row written carries the server's seal (:func:`seal_result`, the súmulas' key ring,
  ``scoring.integrity.seal_record`` under the label ``result``) over what it says: match, pairs,
  kind, winner, absent pair, games, points, reason, who and when, and for a súmula's result the
  version it copies. A W.O. or an organizer's decision is sealed the same way. Changed in SQL, the
  seal stops holding; a blank seal is "not verifiable" (``scoring.integrity.blank_seal``).
- **Source**: a súmula's result must be what its sealed version says (winner, games, tentos), that
  version received by the audit trail (``MatchEvent``, append-only), and the last received one
  unless the audit log says the tournament could not apply a later one (``result_ignored``). An
  organizer's result is the last ``result_set`` entry of the audit log (append-only).
- **Absent results**: a tournament match whose súmula the trail says was received, or that the
  organizer decided by hand (and did not undo), has a result, whatever the match's status says now (a status set back
  to open hides nothing).

``manage.py verify_results`` and the periodic task ``tournaments.verify_results`` run
:func:`check_all`. Nothing here decides anything: it reports.
"""
from __future__ import annotations

from collections import defaultdict

from scoring import integrity
from scoring.models import Match, MatchEvent, SumulaVersion

from .models import AuditEntry, Result

LABEL = "result"


def payload(result: Result) -> dict:
    """What a result's seal binds (ids, numbers and text; the time in microseconds)."""
    at = result.recorded_at
    return {"match": result.match_id, "tournament": result.tournament_id, "kind": result.kind,
            "pair_a": result.pair_a_id, "pair_b": result.pair_b_id, "winner": result.winner_id,
            "absent": result.absent_id, "games": [result.games_a, result.games_b],
            "points": [result.points_a, result.points_b], "reason": result.reason, "by": result.recorded_by_id,
            "at": round(at.timestamp() * 1_000_000) if at else None, "sumula_version": result.sumula_version}


def seal_result(result: Result) -> Result:
    """Seal an unsaved or changed result in place (every write of a result calls this just before it
    saves); returns it."""
    sealed = integrity.seal_record(LABEL, payload(result))
    result.server_seal, result.server_key = sealed["server_seal"], sealed["server_key"]
    return result


def seal_problems(result: Result) -> list[str]:
    if not result.server_seal:
        if integrity.blank_seal(result, "result") is None:
            return []
        return ["no server seal: not verifiable (this install seals every result it records)"]
    if not integrity.record_seal_holds(LABEL, payload(result), result.server_seal, result.server_key):
        return ["the server's seal of the result does not hold (changed after it was recorded)"]
    return []


def sumula_values(version: SumulaVersion) -> dict:
    """Winner pair, games and tentos as a súmula version's document gives them."""
    document = version.content if isinstance(version.content, dict) else {}
    teams = document.get("teams") or [{}, {}]
    result = document.get("result") or {}
    scores = [game.get("score") or [0, 0] for game in document.get("games") or []]
    winner = result.get("winner")
    return {"pair_a": teams[0].get("pair_id"), "pair_b": teams[1].get("pair_id"),
            "winner": teams[winner].get("pair_id") if winner in (0, 1) else None,
            "games": list(result.get("games") or []),
            "points": [sum(s[0] for s in scores), sum(s[1] for s in scores)]}


def _received(match_id: int) -> list[dict]:
    return [e for e in MatchEvent.objects.filter(match_id=match_id, kind=MatchEvent.Kind.RECEIVED)
            .order_by("pk").values_list("data", flat=True) if isinstance(e, dict)]


def source_problems(result: Result) -> list[str]:
    """A súmula's result against its sealed, received version; an organizer's against the audit log."""
    problems = []
    if result.kind == Result.Kind.SUMULA:
        received = _received(result.match_id)
        numbers = [e.get("version") for e in received]
        number = result.sumula_version
        if number is None and integrity.blank_seal(result, "result") is None and numbers:
            number = numbers[-1]  # a row older than the seals (SUMULA_UNSEALED_UNTIL): the last received
        version = SumulaVersion.objects.filter(match_id=result.match_id, number=number).first()
        if version is None:
            return [f"the súmula version it copies ({number}) is not on record"]
        if number not in numbers:
            problems.append(f"the súmula version it copies ({number}) was never received "
                            "(audit trail)")
        if integrity.seal_holds(version) is False:
            problems.append(f"the súmula version it copies ({version.number}) is not sealed as issued")
        signed = sumula_values(version)
        shown = {"pair_a": result.pair_a_id, "pair_b": result.pair_b_id, "winner": result.winner_id,
                 "games": [result.games_a, result.games_b], "points": [result.points_a, result.points_b]}
        problems += [f"{key}: the result says {shown[key]}, the sealed súmula (version {version.number}) "
                     f"{signed[key]}" for key in shown if shown[key] != signed[key]]
        last = received[-1] if received else None
        if last and last.get("version") != number:
            ignored = AuditEntry.objects.filter(match_id=result.match_id, action=AuditEntry.Action.RESULT_IGNORED,
                                                after__sumula=last.get("digest")).exists()
            if not ignored:
                problems.append(f"version {last.get('version')} of the súmula was received later; the result "
                                f"still counts version {number}")
    elif result.kind == Result.Kind.MANUAL:
        entry = (AuditEntry.objects.filter(match_id=result.match_id, action=AuditEntry.Action.RESULT_SET)
                 .order_by("-at", "-pk").first())
        after = entry.after if entry is not None else None
        mine = {"kind": result.kind, "winner": result.winner_id, "absent": result.absent_id,
                "games": [result.games_a, result.games_b], "points": [result.points_a, result.points_b],
                "reason": result.reason}
        if after != mine:
            problems.append("the organizer's result is not the one the audit log recorded (result_set)")
    return problems


def check_result(result: Result) -> list[str]:
    """Problems of one official result (empty when it holds)."""
    return seal_problems(result) + source_problems(result)


def missing_results(tournament_id: int | None = None) -> dict[int, list[str]]:
    """Tournament matches the audit trail says have an official result, with no result row."""
    matches = Match.objects.filter(tournament__isnull=False, tournament_result__isnull=True)
    if tournament_id is not None:
        matches = matches.filter(tournament_id=tournament_id)
    found = {}
    received = set(MatchEvent.objects.filter(kind=MatchEvent.Kind.RECEIVED, match__in=matches)
                   .values_list("match_id", flat=True))
    ignored = set(AuditEntry.objects.filter(action=AuditEntry.Action.RESULT_IGNORED, match_id__in=received)
                  .values_list("match_id", flat=True))
    for match_id in sorted(received - ignored):
        found[match_id] = ["the súmula was received (audit trail) but the match has no official result"]
    latest = {}  # a result set by hand and then undone (``result_undone``) leaves none
    for match_id, action in (AuditEntry.objects.filter(action__in=(AuditEntry.Action.RESULT_SET,
                                                                   AuditEntry.Action.RESULT_UNDONE),
                                                       match__in=matches)
                             .order_by("id").values_list("match_id", "action")):
        latest[match_id] = action
    decided = {m for m, action in latest.items() if action == AuditEntry.Action.RESULT_SET}
    for match_id in sorted(decided):
        found.setdefault(match_id, []).append("the organizer set a result (audit log) but the match has none")
    return found


def check_all(tournament_id: int | None = None) -> dict[int, list[str]]:
    """Every official result (whatever its match's status) and every result that should exist:
    ``{match id: problems}``, only those with problems."""
    results = Result.objects.order_by("match_id")
    if tournament_id is not None:
        results = results.filter(tournament_id=tournament_id)
    found = defaultdict(list)
    for result in results.iterator():
        problems = check_result(result)
        if problems:
            found[result.match_id] += problems
    for match_id, problems in missing_results(tournament_id).items():
        found[match_id] += problems
    return dict(sorted(found.items()))
