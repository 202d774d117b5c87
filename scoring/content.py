"""The súmula document and its digest, exactly as docs/sumula-document.md specifies.

``sumula_document(match_or_version)`` is the one document the PDF, the verification page
and the API render; ``canonical(value)`` and ``digest(document)`` give the chained SHA-256
that signatures bind (art. 25: the súmula is signed by both pairs). Nothing here writes to
the database: issuing a version is ``scoring.services.issue_version``.
"""
from __future__ import annotations

import copy
import hashlib
import json
from datetime import datetime
from typing import Any, Iterable

from django.utils import timezone

from .models import HandEntry, Match, PenaltyEntry, Signature, SumulaVersion

SCHEMA = 1
HEADER_EXCLUDED = ("games", "result", "corrections", "digest")


def canonical(value: Any) -> bytes:
    """``json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))`` as UTF-8."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def digest(document: dict) -> str:
    """The chained SHA-256 of a document: header, then every entry in order, then result and corrections."""
    header = {key: value for key, value in document.items() if key not in HEADER_EXCLUDED}
    h = hashlib.sha256(canonical(header)).hexdigest()
    for game in document.get("games", []):
        for entry in game.get("entries", []):
            h = hashlib.sha256(h.encode("ascii") + canonical(entry)).hexdigest()
    tail = {"result": document.get("result"), "corrections": document.get("corrections", [])}
    return hashlib.sha256(h.encode("ascii") + canonical(tail)).hexdigest()


def person_name(user) -> str | None:
    if user is None:
        return None
    return user.get_full_name() or user.get_username()


def iso_time(moment: datetime) -> str:
    """Local time with its offset, to the second: ``2026-11-21T15:02:11-03:00``."""
    return timezone.localtime(moment).isoformat(timespec="seconds")


def match_queryset():
    """Matches with everything the document needs, in a fixed number of queries."""
    return Match.objects.select_related(
        "tournament", "round", "referee",
        "pair_a__first_player__club", "pair_a__second_player__club", "pair_b__first_player__club",
        "pair_b__second_player__club",
    )


def load_games(match: Match) -> list:
    """The match's games with their entries merged in recorded order (``game.entries``), in 3 queries."""
    games = list(match.games.order_by("number"))
    by_id = {game.id: game for game in games}
    for game in games:
        game.entries = []
    for hand in HandEntry.objects.filter(game__match=match).order_by("position"):
        by_id[hand.game_id].entries.append(hand)
    for penalty in PenaltyEntry.objects.filter(game__match=match).order_by("position"):
        by_id[penalty.game_id].entries.append(penalty)
    for game in games:
        game.entries.sort(key=lambda entry: entry.position)
    return games


def entry_document(entry) -> dict:
    if entry.kind == "hand":
        return {"kind": "hand", "number": entry.number, "dealer": entry.dealer, "ended_by": entry.ended_by,
                "value": entry.value, "winner": entry.winner, "points": entry.points,
                "score": [entry.score_a, entry.score_b], "report": entry.report}
    document = {"kind": "penalty", "offender": entry.offender, "beneficiary": entry.beneficiary,
                "points": entry.points, "article": entry.article, "reason": entry.reason, "ruling": entry.ruling_id,
                "score": [entry.score_a, entry.score_b]}
    if entry.reason_data:  # a ruling's message as data; absent on entries recorded before
        document["reason_data"] = entry.reason_data
    return document


def team_document(pair) -> dict:
    return {"pair_id": pair.id, "name": pair.name,
            "players": [pair.first_player.name, pair.second_player.name], "club": pair.clubs}


def round_name(round_) -> str:
    """The round's name; unnamed rounds are "Rodada N". Not translated: the digest must not depend on
    the reader's language, and the súmula is a Portuguese document."""
    return round_.name or f"Rodada {round_.number}"


def correction_document(version_number: int, reason: str, by, at: datetime) -> dict:
    return {"version": version_number, "reason": reason, "by": person_name(by), "at": iso_time(at)}


def corrections_of(versions: Iterable[SumulaVersion]) -> list[dict]:
    """The corrections recorded so far: every version issued with a reason."""
    return [correction_document(v.number, v.reason, v.created_by, v.created_at) for v in versions if v.reason]


def build_document(match: Match, version_number: int, corrections: list[dict], games: list | None = None) -> dict:
    """The document of ``match`` as it stands, numbered ``version_number``, with its digest."""
    if games is None:
        games = load_games(match)
    tournament, round_ = match.tournament, match.round
    document = {
        "schema": SCHEMA,
        "match": {
            "id": match.id,
            "tournament": tournament.name if tournament else None,
            "tournament_slug": tournament.slug if tournament else None,
            "round": round_.number if round_ else None,
            "round_name": round_name(round_) if round_ else None,
            "table": match.table,
            "best_of": match.best_of,
            "referee": person_name(match.referee),
            "rules": match.rule_set,
            "version": version_number,
        },
        "teams": [team_document(match.pair_a), team_document(match.pair_b)],
        "games": [
            {"number": game.number, "entries": [entry_document(e) for e in game.entries],
             "score": [game.score_a, game.score_b], "winner": game.winner}
            for game in games
        ],
        "result": {"games": [match.games_a, match.games_b], "winner": match.winner},
        "corrections": corrections,
    }
    document["digest"] = digest(document)
    return document


def as_shown_at_the_table(document: dict) -> dict:
    """The document as the public may read it while the match is played: each full hand report keeps
    only what was shown at the table (its events), not the deal (the cards nobody played). The
    referee and the organizer read the whole document; the digest is the whole document's."""
    shown = copy.deepcopy(document)
    for game in shown.get("games", []):
        for entry in game.get("entries", []):
            report = entry.get("report")
            if isinstance(report, dict) and "deal" in report:
                report.pop("deal")
                report["deal_hidden"] = True
    return shown


def sumula_document(match_or_version: Match | SumulaVersion) -> dict:
    """The súmula document (docs/sumula-document.md).

    For a :class:`SumulaVersion`: its stored content, as issued. For a :class:`Match`: the
    document as the match stands now — the current version's content when nothing changed
    since it was issued, otherwise a draft numbered as the next version (not on record, so
    its digest verifies nowhere until it is issued).
    """
    if isinstance(match_or_version, SumulaVersion):
        return copy.deepcopy(match_or_version.content)
    match = match_queryset().get(pk=match_or_version.pk)  # never a stale copy of the match
    versions = list(match.versions.select_related("created_by").order_by("number"))
    return document_as_it_stands(match, versions, load_games(match))


def document_as_it_stands(match: Match, versions: list[SumulaVersion], games: list) -> dict:
    """The match's document now, from its versions (in order) and games: numbered as the current
    version when nothing changed since it was issued, else as a draft of the next one."""
    corrections = corrections_of(versions)
    if versions:
        document = build_document(match, versions[-1].number, corrections, games)
        if document["digest"] == versions[-1].digest:
            return document
        return build_document(match, versions[-1].number + 1, corrections, games)
    return build_document(match, 1, corrections, games)


def signature_document(signature: Signature) -> dict:
    """A signature as listed beside the content: ``{"role", "name", "at", "digest"}``."""
    name = signature.player.name if signature.player_id else person_name(signature.user)
    return {"role": signature.role, "name": name, "at": iso_time(signature.signed_at), "digest": signature.digest}


def signature_is_valid(signature: Signature, version: SumulaVersion, current: SumulaVersion | None) -> bool:
    """A signature counts when it binds its version's digest and that version is still the current one."""
    return signature.digest == version.digest and current is not None and version.pk == current.pk
