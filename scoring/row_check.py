"""What a súmula's rows make, held to what was signed (art. 25: what both pairs signed stays what they
signed). The seals and their key ring are ``scoring.integrity``.

- **Shown fields**: a game's ``score`` and ``winner`` are not chained in the digest (the contract
  of docs/sumula-document.md); they must equal what the game's entries give (the last entry's
  score, the team at 12), so changing them is detected as surely.
- **Row check**: :func:`check_match` rebuilds the document of a signed or received súmula from its
  rows (games, hands, penalties, versions) and names every difference with the signed version,
  together with the stored copy's digest, the seal and the signatures' digests.
  ``manage.py verify_sumulas`` and the periodic task ``scoring.verify_sumulas`` run it over every
  signed or received súmula, and every one the audit trail says was (:func:`checked_matches`); the
  match's page and API show it.
- **Audit trail**: :func:`trail_problems` holds the current version's signatures and the match's status
  to the append-only ``MatchEvent`` rows: a signature deleted or added, a status moved backwards.
"""
from __future__ import annotations

from django.db.models import Q

from referee.engine.game import game_winner

from .content import build_document, canonical, corrections_of, digest, load_games, match_queryset
from .integrity import seal_holds, signature_seal_holds
from .models import Match, MatchEvent, SumulaVersion

CHECKED = (Match.Status.SIGNED, Match.Status.RECEIVED)
ROW_PARTS = ("games", "result", "corrections")  # what the match's rows make (the header names people)

# ------------------------------------------------------------------------------ shown fields


def shown_fields_problems(document: dict) -> list[str]:
    """Game scores and winners that are not what the game's entries give."""
    problems = []
    for i, game in enumerate(document.get("games") or []):
        entries = game.get("entries") or []
        score = list(entries[-1]["score"]) if entries else [0, 0]
        try:  # the engine's end of the game (a team at 12), the one rule of it
            winner = game_winner(tuple(score))
        except (TypeError, ValueError):  # not a score a game can have (12-12): the shown winner cannot match it
            winner = "?"
        if list(game.get("score") or []) != score:
            problems.append(f"games[{i}].score: shown {game.get('score')}, the entries give {score}")
        if game.get("winner") != winner:
            problems.append(f"games[{i}].winner: shown {game.get('winner')}, the entries give {winner}")
    return problems


def document_holds(document: dict) -> bool:
    """The digest is the content's and every shown field agrees with the chained entries."""
    return (isinstance(document, dict) and document.get("digest") == digest(document)
            and not shown_fields_problems(document))


# ------------------------------------------------------------------------------ the row check


def differences(stored, rebuilt, path: str = "") -> list[str]:
    """Every path where two JSON values differ, with both values (shortened)."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        out = []
        for key in sorted(set(stored) | set(rebuilt), key=str):
            out += differences(stored.get(key), rebuilt.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(stored, list) and isinstance(rebuilt, list):
        out = [f"{path}: {len(stored)} items signed, {len(rebuilt)} in the rows"] if len(stored) != len(rebuilt) else []
        for i, (a, b) in enumerate(zip(stored, rebuilt)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if stored != rebuilt:
        return [f"{path}: signed {_short(stored)}, rows say {_short(rebuilt)}"]
    return []


def _short(value) -> str:
    text = canonical(value).decode("utf-8")
    return text if len(text) <= 80 else text[:77] + "..."


def check_match(match: Match | int) -> list[str]:
    """Problems of a signed or received súmula (empty when everything holds): its current version's
    stored copy, digest, seal and signatures, and the rows rebuilt into the document it must be."""
    match = match_queryset().get(pk=getattr(match, "pk", match))
    versions = list(match.versions.select_related("created_by").order_by("number"))
    if not versions:
        return [] if match.status not in CHECKED else ["no version on record for a signed súmula"]
    version = versions[-1]
    problems = []
    stored = version.content if isinstance(version.content, dict) else {}
    if stored.get("digest") != version.digest:
        problems.append(f"version {version.number}: the stored digest differs from the document's")
    if digest(stored) != version.digest:
        problems.append(f"version {version.number}: the stored document does not give its digest")
    problems += [f"version {version.number}: {p}" for p in shown_fields_problems(stored)]
    if seal_holds(version) is False:
        problems.append(f"version {version.number}: the server's seal does not hold" if version.server_seal else
                        f"version {version.number}: no server seal: not verifiable (this install seals every "
                        "version it issues)")
    for signature in version.signatures.all():
        if signature.digest != version.digest:
            problems.append(f"version {version.number}: the {signature.role} signature binds another digest")
        if signature_seal_holds(signature, version) is False:
            problems.append(f"version {version.number}: the server's seal of the {signature.role} signature "
                            "does not hold" + ("" if signature.server_seal else " (blank: not verifiable)"))
    problems += trail_problems(match, version)
    if match.status in CHECKED:  # the rows of the súmula itself; names of teams and people may change later
        rebuilt = build_document(match, version.number, corrections_of(versions), load_games(match))
        for part in ROW_PARTS:
            problems += [f"rows: {d}" for d in differences(stored.get(part), rebuilt.get(part), part)]
    return problems


STATUS_RANK = {Match.Status.OPEN: 0, Match.Status.SIGNED: 1, Match.Status.RECEIVED: 2}


def trail_problems(match: Match, version: SumulaVersion) -> list[str]:
    """The current version's signatures and the match's status against its audit trail (``MatchEvent``,
    append-only): a signature deleted or added in the rows, a status moved backwards or ahead of what
    happened. A cross-check, not a seal: who can rewrite both tables at once is caught by
    the seal of the version only."""
    events = list(match.events.filter(kind__in=[MatchEvent.Kind.SIGNATURE, MatchEvent.Kind.LOCKED,
                                                MatchEvent.Kind.RECEIVED]).values("kind", "data"))
    mine = [e for e in events if isinstance(e["data"], dict) and e["data"].get("version") == version.number]
    signed = {e["data"].get("role") for e in mine if e["kind"] == MatchEvent.Kind.SIGNATURE}
    rows = set(version.signatures.values_list("role", flat=True))
    problems = [f"version {version.number}: the {role} signature is in the audit trail, not in the rows (deleted)"
                for role in sorted(signed - rows, key=str)]
    problems += [f"version {version.number}: the {role} signature has no audit event (added in the rows)"
                 for role in sorted(rows - signed, key=str)]
    kinds = {e["kind"] for e in mine}
    expected = (Match.Status.RECEIVED if MatchEvent.Kind.RECEIVED in kinds else
                Match.Status.SIGNED if MatchEvent.Kind.LOCKED in kinds else Match.Status.OPEN)
    if STATUS_RANK.get(match.status, 0) < STATUS_RANK[expected]:
        problems.append(f"status: {match.status}, but the audit trail says {expected} for version {version.number} "
                        "(moved backwards)")
    elif STATUS_RANK.get(match.status, 0) > STATUS_RANK[expected]:
        problems.append(f"status: {match.status}, but the audit trail says {expected} for version {version.number}")
    return problems


def checked_matches():
    """The matches the periodic check covers: signed or received now, or ever locked or received by
    their audit trail (a status set back to open does not take a súmula out of the check)."""
    ever = MatchEvent.objects.filter(kind__in=[MatchEvent.Kind.LOCKED, MatchEvent.Kind.RECEIVED]).values("match_id")
    return Match.objects.filter(Q(status__in=CHECKED) | Q(pk__in=ever))


def check_all(matches=None) -> dict[int, list[str]]:
    """:func:`check_match` over every súmula of :func:`checked_matches`: ``{match id: problems}`` (only
    those with problems)."""
    queryset = matches if matches is not None else checked_matches()
    found = {}
    for match_id in queryset.order_by("pk").values_list("pk", flat=True):
        problems = check_match(match_id)
        if problems:
            found[match_id] = problems
    return found
