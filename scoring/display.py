"""What the súmula pages and the API show: labels, the entry page's context, the verification of a
digest. Read-only; a fixed number of queries whatever the number of hands (the entry page is
used on phones at the table, hand after hand).
"""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from . import access, holds, integrity, pins, row_check
from .content import load_games, match_queryset, signature_is_valid, sumula_document
from .models import Match, Signature, SumulaVersion
from .services import entry_state, page_token, rules_of

ENDING_LABELS = {
    "tricks": _("Won the tricks"),
    "run": _("Ran from a raise"),
    "eleven_refused": _("Mão de onze refused"),
    "all_tied": _("All three tricks tied"),
    "deal_lost": _("Deal lost"),
    "fold": _("Folded"),
    "penalty": _("Penalty (tento)"),
    "proof": _("Proved a sure win (art. 21)"),
    "iron_tie": _("Mão de ferro tied (art. 20)"),
    "incomplete": _("Incomplete"),
}
ENDING_HINTS = {
    "tricks": _("art. 11"),
    "run": _("art. 13"),
    "eleven_refused": _("art. 18"),
    "all_tied": _("art. 11.4"),
    "deal_lost": _("art. 5, 6"),
    "fold": _("art. 13"),
}
VALUE_LABELS = {0: _("Nobody scores"), 1: "1", 3: _("3 · truco"), 6: _("6 · seis"), 9: _("9 · nove"),
                12: _("12 · doze")}
STATE_LABELS = {
    "normal": "",
    "eleven": _("Mão de onze: worth 3, no raises (art. 18, 19)"),
    "iron": _("Mão de ferro (11 × 11): no raises (art. 18, 20)"),
}
ROLE_LABELS = {"team0": _("Pair A"), "team1": _("Pair B"), "referee": _("Referee")}


def value_label(value: int, state: str) -> str:
    """A value button's words: in the mão de onze (art. 18) and de ferro (art. 20) nobody raises, so
    3 is not a "truco" there."""
    if value and state == "eleven":
        return _("%(value)s · mão de onze") % {"value": value}
    if value and state == "iron":
        return _("%(value)s · mão de ferro") % {"value": value}
    return VALUE_LABELS.get(value, str(value))


def seat_names(match: Match) -> list[str]:
    """Players by seat, as on the printed súmula: team = seat % 2, partners opposite."""
    names = []
    for seat in range(4):
        pair = match.pair_a if seat % 2 == 0 else match.pair_b
        names.append((pair.first_player if seat // 2 == 0 else pair.second_player).name)
    return names


def team_of_seat(seat: int) -> int:
    return seat & 1


def load_match(pk: int) -> Match:
    return match_queryset().select_related("pair_a__substitute", "pair_b__substitute").get(pk=pk)


def signature_rows(versions: list[SumulaVersion], signatures: list[Signature], current) -> list[dict]:
    by_version = {}
    for signature in signatures:
        by_version.setdefault(signature.version_id, []).append(signature)
    rows = []
    for version in versions:
        for signature in by_version.get(version.pk, []):
            rows.append({"signature": signature, "version": version, "role_label": ROLE_LABELS[signature.role],
                         "name": signature.player.name if signature.player_id else
                         (signature.user.get_full_name() or signature.user.get_username()),
                         "valid": signature_is_valid(signature, version, current)})
    return rows


def match_context(match: Match, user) -> dict:
    """Everything the entry and signing pages show about ``match``."""
    games = load_games(match)
    versions = list(match.versions.select_related("created_by").order_by("number"))
    current = versions[-1] if versions else None
    signatures = list(Signature.objects.filter(version__match=match).select_related("player", "user")
                      .order_by("version__number", "signed_at"))
    current_signatures = [s for s in signatures if current and s.version_id == current.pk]
    roles = {s.role: s for s in current_signatures}
    state = entry_state(match, games)
    teams = [match.pair_a, match.pair_b]
    if state.get("game"):
        state["dealer_team"] = teams[team_of_seat(state["dealer"])]
        state["dealer_name"] = seat_names(match)[state["dealer"]]
        state["label"] = STATE_LABELS[state["state"]]
        state["at_eleven"] = teams[state["eleven_team"]] if state["eleven_team"] is not None else None
        union = sorted({v for values in state["allowed"].values() for v in values})
        state["values"] = [{"value": v, "label": value_label(v, state["state"]),
                            "enabled_tricks": v in state["allowed"].get("tricks", [])} for v in union]
        state["endings"] = [{"code": code, "label": ENDING_LABELS[code], "hint": ENDING_HINTS.get(code, ""),
                             "values": " ".join(map(str, values)), "possible": bool(values)}
                            for code, values in state["allowed"].items()]
    entries = [(game, entry) for game in games for entry in game.entries]
    last_entries = [{"game": g, "entry": e, "ending": ENDING_LABELS.get(getattr(e, "ended_by", ""), ""),
                     "team": teams[e.winner] if e.kind == "hand" and e.winner is not None else
                     teams[e.beneficiary] if e.kind == "penalty" else None}
                    for g, e in reversed(entries[-8:])]
    document_is_current = bool(current) and match.winner is not None
    open_holds = holds.open_holds(match) if match.status != Match.Status.RECEIVED else []
    signable = document_is_current and match.status == Match.Status.OPEN and not open_holds
    is_referee = access.is_referee(user, match)
    is_organizer = access.is_organizer(user, match)
    return {
        "match": match,
        "teams": teams,
        "games": games,
        "state": state,
        "last_entries": last_entries,
        "has_entries": bool(entries),
        "holds": open_holds,  # open disputes: shown first, they stop signatures and the receipt
        "can_resolve_holds": is_referee or is_organizer,
        "last_entry": ({"game": entries[-1][0].number, "position": entries[-1][1].position} if entries else None),
        "token": page_token(games),
        "versions": list(reversed(versions)),
        "current": current,
        "document": current.content if document_is_current else None,
        "signatures": signature_rows(versions, signatures, current),
        "signed": {"team0": roles.get("team0"), "team1": roles.get("team1"), "referee": roles.get("referee")},
        "signable": signable,
        "sign_forms": [
            {"role": "team0", "team": 0, "pair": match.pair_a, "players": access.pair_players(match.pair_a),
             "signature": roles.get("team0")},
            {"role": "team1", "team": 1, "pair": match.pair_b, "players": access.pair_players(match.pair_b),
             "signature": roles.get("team1")},
        ],
        "can_enter": access.can_enter(user, match),
        "integrity_problems": (row_check.check_match(match) if match.status in row_check.CHECKED else []),
        "pin_alerts": pins.alerts(access.pair_players(match.pair_a) + access.pair_players(match.pair_b)),
        "can_correct": access.can_correct(user, match),
        "can_undo": bool(entries) and match.status == Match.Status.OPEN and not current_signatures,
        "is_referee": is_referee,
        "is_organizer": is_organizer,
        "can_countersign": is_referee and match.status == Match.Status.SIGNED and "referee" not in roles,
        "can_countersign_in_place": (not is_referee and is_organizer and match.status == Match.Status.SIGNED
                                     and "referee" not in roles),
        "can_receive": is_organizer and match.status == Match.Status.SIGNED and not open_holds
        and (not match.referee_id or "referee" in roles),
        "rules": rules_of(match),
        "ending_labels": ENDING_LABELS,
        "seats": [{"seat": s, "team": teams[team_of_seat(s)], "name": name}
                  for s, name in enumerate(seat_names(match))],
    }


def verification(digest: str) -> dict | None:
    """What the verification page shows for a digest, or None when no version has it."""
    version = (SumulaVersion.objects.select_related("match", "created_by").filter(digest=digest).first()
               if isinstance(digest, str) else None)
    if version is None:
        return None
    match = version.match
    versions = list(match.versions.select_related("created_by").order_by("number"))
    current = versions[-1]
    signatures = list(version.signatures.select_related("player", "user").order_by("signed_at"))
    document = sumula_document(version)
    seal = integrity.seal_holds(version)
    problems = (row_check.check_match(match) if version.pk == current.pk
                else row_check.shown_fields_problems(document))
    if seal is False and not any("server's seal" in p or "no server seal" in p for p in problems):
        problems = [*problems, "the server's seal does not hold" if version.server_seal else
                    "no server seal: not verifiable (this install seals every version it issues)"]
    intact = (row_check.document_holds(document) and document.get("digest") == version.digest
              and seal is not False and not problems)
    return {
        "version": version,
        "match": match,
        "document": without_erased_names(document, match),
        "intact": intact,
        "seal": seal,
        "problems": problems,
        "public_key": integrity.public_key_b64(integrity.key_ring().get(version.server_key)),
        "key_id": version.server_key if version.server_key in integrity.key_ring() else integrity.key_id(),
        "is_current": version.pk == current.pk,
        "current": current,
        "versions": versions,
        "signatures": signature_rows([version], signatures, current),
        "status_label": match.get_status_display(),
        "is_official": match.is_official and version.pk == current.pk,
        "ending_labels": ENDING_LABELS,
    }


def without_erased_names(document: dict, match: Match) -> dict:
    """The sealed document as the public page shows it: a player whose data was erased (LGPD, people's
    ``personal_data.erase``) is named as they are now ("Jogador anonimizado 7"), in their team (its
    players and its name, as the pair is named now) and wherever the sealed text has their full name
    (a penalty's or a correction's reason). The seal and the digest are checked on the document as
    issued, before this: the page still says whether it holds."""
    swaps, renamed = {}, {}
    teams = document.get("teams") if isinstance(document.get("teams"), list) else []
    for index, pair in enumerate((match.pair_a, match.pair_b)):
        team = teams[index] if index < len(teams) and isinstance(teams[index], dict) else None
        if pair is None or team is None:
            continue
        sealed = team.get("players") if isinstance(team.get("players"), list) else []
        for position, player in enumerate((pair.first_player, pair.second_player)):
            if player is None or player.anonymised_at is None or position >= len(sealed):
                continue
            old = sealed[position]
            if isinstance(old, str) and old.strip() and old != player.name:
                swaps[old] = player.name
                renamed[index] = pair.name  # the pair's name lost the erased name with the erasure
    if not swaps:
        return document
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(old)}(?!\w)" for old in sorted(swaps, key=len, reverse=True)))

    def scrub(value):
        if isinstance(value, str):
            return pattern.sub(lambda found: swaps[found.group(0)], value)
        if isinstance(value, list):
            return [scrub(item) for item in value]
        if isinstance(value, dict):
            return {key: value[key] if key == "digest" else scrub(item) for key, item in value.items()}
        return value

    shown = scrub(document)
    for index, name in renamed.items():
        shown["teams"][index]["name"] = name
    return shown
