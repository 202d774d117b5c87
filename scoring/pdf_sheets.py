"""What a súmula sheet says (the rendering to PDF is ``scoring.pdf``): the words of the rule
presets, options, endings and roles; the print options a document carries (:func:`for_print`);
the verification page's address and the QR codes (:func:`qr_svg`); and the context of one blank
or filled sheet for its template (:func:`blank_context`, :func:`filled_context`), in Brazilian
Portuguese whoever asks. Plain dicts in, plain dicts out: no models.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import qrcode
import qrcode.constants
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import formats, timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from referee.engine.rules import DEFAULT, PRESETS

from .words import engine_messages

PDF_LANGUAGE = "pt-br"
#: numbered rows printed for each game of a blank súmula
BLANK_ROWS = 24
#: characters of rule variants on one line of the header (for the rows' budget)
RULES_CHARS_PER_LINE = 105
#: rows of the penalties box of a blank súmula
BLANK_PENALTY_ROWS = 6
#: writing lines of the notes box (occurrences, rulings) of a blank súmula
BLANK_NOTE_LINES = 5
HAND_VALUES = (1, 3, 6, 9, 12)
#: printed side of the verification QR code (a phone reads it from ~25 cm)
QR_SIZE_MM = 26
QR_MASK = 2
ROLES = ("team0", "team1", "referee")

PRESET_NAMES = {
    "regulamento-tecnico": pgettext_lazy("súmula PDF", "Technical Regulation of Truco (Regulamento Técnico)"),
    "regras-4-jogadores": pgettext_lazy("súmula PDF", "House rules for 4 players"),
    "jtb": pgettext_lazy("súmula PDF", "Truco Brasileiro (JTB)"),
}

# Every value of every rule-set option, in words (referee/engine/rules.py lists them).
OPTION_WORDS = {
    ("deck", "sujo"): pgettext_lazy("súmula PDF", "40-card deck (baralho sujo)"),
    ("deck", "limpo"): pgettext_lazy("súmula PDF", "clean deck Q J K A 2 3 (24 cards)"),
    ("deck", "limpo+7"): pgettext_lazy("súmula PDF", "clean deck with the 7s (28 cards)"),
    ("all_tied", "nobody"): pgettext_lazy("súmula PDF", "three tied tricks: nobody scores (art. 11.4)"),
    ("all_tied", "dealer_team"): pgettext_lazy("súmula PDF", "three tied tricks: the dealer's team scores"),
    ("all_tied", "first_player_team"): pgettext_lazy("súmula PDF", "three tied tricks: the team of the first hand player scores"),
    ("lead_after_tie", "tying_player"): pgettext_lazy("súmula PDF", "after a tied trick the player who tied leads"),
    ("lead_after_tie", "first_player"): pgettext_lazy("súmula PDF", "after a tied trick the first hand player leads"),
    ("lead_after_tie", "trick_leader"): pgettext_lazy("súmula PDF", "after a tied trick whoever led it leads again"),
    ("lead_after_tie", "first_tying_player"): pgettext_lazy(
        "súmula PDF", "after a tied trick the first player who showed the tying card leads"),
    ("lead_after_tie", "nearest_tying_player"): pgettext_lazy(
        "súmula PDF", "after a tied trick the tied player nearest the first hand player leads"),
    ("iron_tie", "nobody"): pgettext_lazy("súmula PDF", "tied mão de ferro: nobody scores (art. 20)"),
    ("iron_tie", "dealer_team"): pgettext_lazy("súmula PDF", "tied mão de ferro: the dealer's team scores"),
    ("iron_tie", "first_player_team"): pgettext_lazy(
        "súmula PDF", "tied mão de ferro: the team of the first hand player scores"),
    ("cover_after_tied_first", True): pgettext_lazy("súmula PDF", "covered cards allowed after a tied first trick"),
    ("cover_after_tied_first", False): pgettext_lazy("súmula PDF", "no covered card after a tied first trick"),
    ("show_highest_after_tied_first", True): pgettext_lazy("súmula PDF", "after a tied first trick the highest card must be shown"),
    ("show_highest_after_tied_first", False): pgettext_lazy("súmula PDF", 
        "no need to show the highest card after a tied first trick (art. 11.5)"),
    ("raises", "in_turn"): pgettext_lazy("súmula PDF", "raises in turn, teams alternating (art. 12)"),
    ("raises", "any_time"): pgettext_lazy("súmula PDF", "anyone may raise at any time"),
    ("fold_any_time", True): pgettext_lazy("súmula PDF", "a team may fold a hand without a raise"),
    ("fold_any_time", False): pgettext_lazy("súmula PDF", "a hand is given up only by running from a raise (art. 13)"),
    ("false_call", "truco"): pgettext_lazy("súmula PDF", "a false call counts as truco when accepted (art. 16)"),
    ("false_call", "tento"): pgettext_lazy("súmula PDF", "a false call is a tento"),
    ("raise_in_eleven", "art19"): pgettext_lazy("súmula PDF", 
        "raise in a mão de onze: loses 3, or the game if the opponents have 9 to 11 (art. 19)"),
    ("raise_in_eleven", "game"): pgettext_lazy("súmula PDF", "raise in a mão de onze loses the game"),
    ("raise_in_eleven", "art19_match"): pgettext_lazy(
        "súmula PDF", "raise in a mão de onze: loses 3, or the whole match if the opponents have 9 to 11 (art. 19)"),
    ("house_sanctions", "tento"): pgettext_lazy(
        "súmula PDF", "art. 10, 14, 18: the tento in play (house rules)"),
    ("house_sanctions", "warning"): pgettext_lazy(
        "súmula PDF", "art. 10, 14, 18: a warning, no points (house rules)"),
    ("eleven_run_points", 1): pgettext_lazy("súmula PDF", "mão de onze refused: the opponents score 1"),
    ("eleven_run_points", 3): pgettext_lazy("súmula PDF", "mão de onze refused: the opponents score 3"),
    ("blind_iron_hand", True): pgettext_lazy("súmula PDF", "mão de ferro played blind"),
    ("blind_iron_hand", False): pgettext_lazy("súmula PDF", "mão de ferro played looking at one's own cards"),
    ("iron_hand_value", 3): pgettext_lazy("súmula PDF", "mão de ferro worth 3"),
    ("iron_hand_value", 1): pgettext_lazy("súmula PDF", "mão de ferro worth 1"),
    ("bottom_of_deck", "before_first_card"): pgettext_lazy("súmula PDF", "bottom of the deck: before the first card"),
    ("bottom_of_deck", "any_time"): pgettext_lazy("súmula PDF", "bottom of the deck: any time"),
    ("wrong_cards_in_eleven", "art6"): pgettext_lazy("súmula PDF", "wrong deal in the 11: art. 6"),
    ("wrong_cards_in_eleven", "art19"): pgettext_lazy("súmula PDF", "wrong deal in the 11: art. 19"),
    ("score_cap", True): pgettext_lazy("súmula PDF", "a hand cannot take a team past 12"),
    ("score_cap", False): pgettext_lazy("súmula PDF", "scores are not capped at 12"),
}

ENDED_BY_WORDS = {
    "tricks": pgettext_lazy("súmula PDF: hand ended by", "tricks"),
    "run": pgettext_lazy("súmula PDF: hand ended by", "ran"),
    "eleven_refused": pgettext_lazy("súmula PDF: hand ended by", "refused 11"),
    "all_tied": pgettext_lazy("súmula PDF: hand ended by", "all tied"),
    "deal_lost": pgettext_lazy("súmula PDF: hand ended by", "deal lost"),
    "fold": pgettext_lazy("súmula PDF: hand ended by", "folded"),
    "penalty": pgettext_lazy("súmula PDF: hand ended by", "penalty"),
    "proof": pgettext_lazy("súmula PDF: hand ended by", "proof"),
    "iron_tie": pgettext_lazy("súmula PDF: hand ended by", "iron tie"),
}

ROLE_LABELS = {
    "team0": pgettext_lazy("súmula PDF", "Player of pair A"),
    "team1": pgettext_lazy("súmula PDF", "Player of pair B"),
    "referee": pgettext_lazy("súmula PDF", "Referee"),
}


PRINT_KEY = "print"  # a sheet's document may carry {"number", "site_url"} under this key: how to print it,
#                      never part of the signed content (the digest is the document's own "digest")


def for_print(document: dict, *, number: int | None = None, site_url: str = "") -> dict:
    """A copy of ``document`` carrying the match's number (the tournament's, ``scoring.numbering``)
    and the site's address for the QR code ("": ``settings.SITE_URL``)."""
    return {**document, PRINT_KEY: {"number": number, "site_url": site_url}}


def _print_options(document: dict) -> tuple[int | None, str]:
    options = document.get(PRINT_KEY) or {}
    return options.get("number"), options.get("site_url") or ""


# -- helpers shared with the printing pages ---------------------------------------------------

def verification_path(digest: str) -> str:
    """Path of the public verification page of a digest (/sumulas/verificar/<digest>/)."""
    try:
        return reverse("scoring:verify", kwargs={"digest": digest})
    except NoReverseMatch:  # before the scoring core mounts its page
        return f"/sumulas/verificar/{digest}/"


def verification_url(digest: str, site_url: str = "") -> str:
    """The verification page's absolute address, on ``site_url`` (the address the print was asked
    from) or else ``settings.SITE_URL``."""
    return (site_url or settings.SITE_URL).rstrip("/") + verification_path(digest)


def qr_svg(data: str, size_mm: float = 30) -> str:
    """``data`` as a QR code: an inline SVG, one path, black modules on white (level M)."""
    # A fixed mask: every mask pattern is valid for readers, and skipping the search for the
    # "best" one (8 trial encodings) makes a code ~8x cheaper (~10 ms → ~1.5 ms a súmula).
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=QR_MASK)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    n = len(matrix)
    quiet = 2  # quiet zone, in modules; the box around it adds white space too
    parts = []
    for y, row in enumerate(matrix):
        x = 0
        while x < n:
            if row[x]:
                start = x
                while x < n and row[x]:
                    x += 1
                parts.append(f"M{start + quiet} {y + quiet}h{x - start}v1h{start - x}z")
            else:
                x += 1
    side = n + 2 * quiet
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" width="{size_mm}mm" height="{size_mm}mm" '
        f'viewBox="0 0 {side} {side}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{"".join(parts)}"/></svg>'
    )


def rules_in_words(rules: dict | None) -> tuple[str, list[str]]:
    """The preset's name and, in words, each option that differs from the preset."""
    rules = rules or {}
    preset = rules.get("preset") or "regulamento-tecnico"
    base = PRESETS.get(preset, DEFAULT)
    changed = []
    for name, value in (rules.get("options") or {}).items():
        if getattr(base, name, object()) == value and type(getattr(base, name)) is type(value):
            continue
        words = OPTION_WORDS.get((name, value))
        changed.append(str(words) if words is not None else f"{name}: {value}")
    return str(PRESET_NAMES.get(preset, preset)), changed


def effective_option(rules: dict | None, name: str):
    rules = rules or {}
    options = rules.get("options") or {}
    if name in options:
        return options[name]
    return getattr(PRESETS.get(rules.get("preset") or "", DEFAULT), name)


def local_time(value: str | None) -> str:
    """An ISO time of the document as the club reads it: 21/11/2026 15:02."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    with translation.override(PDF_LANGUAGE):  # the sheet's language, whoever asks
        return formats.date_format(moment, "SHORT_DATETIME_FORMAT")


def digest_groups(digest: str) -> str:
    """The digest in groups of 8 characters, easier to read aloud and compare."""
    return " ".join(digest[i:i + 8] for i in range(0, len(digest), 8))


# -- the context of one sheet -----------------------------------------------------------------

def _short_name(name: str) -> str:
    parts = name.split()
    return name if len(parts) < 2 else f"{parts[0]} {parts[-1][0]}."


def _header(document: dict, number: int | None = None) -> dict:
    match = document["match"]
    teams = document["teams"]
    preset, options = rules_in_words(match.get("rules"))
    best_of = match.get("best_of") or 1
    if best_of == 1:
        format_words = pgettext("súmula PDF", "Single game to 12 points")
    else:
        format_words = pgettext("súmula PDF", "Best of %(n)s games to 12 points") % {"n": best_of}
    return {
        "match": match,
        "number": number,  # the tournament's number for the match, never its database id (None: not shown)
        "tournament_name": match.get("tournament") or pgettext("súmula PDF", "Friendly match"),
        "best_of": best_of,
        "format": format_words,
        "preset": preset,
        "options": options,
        "teams": [
            {"letter": letter, "name": team["name"], "players": team["players"], "club": team.get("club") or ""}
            for letter, team in zip("AB", teams)
        ],
    }


def _seat_names(teams: Sequence[dict]) -> list[str]:
    """Players by engine seat: team = seat % 2, partners opposite (seat 0 and 2 are team 0)."""
    names = []
    for seat in range(4):
        players = teams[seat % 2]["players"]
        index = seat // 2
        names.append(_short_name(players[index]) if index < len(players) else str(seat))
    return names


def _legend(rules: dict | None) -> dict:
    return {
        "eleven_run_points": effective_option(rules, "eleven_run_points"),
        "iron_value": effective_option(rules, "iron_hand_value"),
        "iron_blind": effective_option(rules, "blind_iron_hand"),
        "raise_in_eleven_game": effective_option(rules, "raise_in_eleven") == "game",
    }


def _blank_rows(header: dict) -> int:
    """Rows per game: BLANK_ROWS, fewer when many rule variants lengthen the header, so that
    the first two grids still fit on the first page (a line of variants is ~4 mm, a row 7)."""
    text = len(header["preset"]) + sum(len(words) + 2 for words in header["options"])
    extra_lines = max(0, (text - 1) // RULES_CHARS_PER_LINE + 1 - 2)
    return BLANK_ROWS - 2 * ((extra_lines + 1) // 2) if extra_lines else BLANK_ROWS


def blank_context(document: dict) -> dict:
    header = _header(document, _print_options(document)[0])
    # games and then the panel (penalties, result, signatures), two cells side by side
    cells = [{"game": {"number": n}} for n in range(1, header["best_of"] + 1)] + [{"panel": True}]
    # the table's link, set by printing.jobs for who may enter; a public print gets the
    # verification page instead (nothing an anonymous visitor fetches carries a live link)
    table_path = document.get("table_path") or document.get("verify_path")
    table_url = (_print_options(document)[1] or settings.SITE_URL).rstrip("/") + table_path if table_path else ""
    return {
        **header,
        "table_qr": mark_safe(qr_svg(table_url, 13)) if table_url else "",
        "table_qr_verifies": bool(table_url) and not document.get("table_path"),
        "walkover": bool(document.get("walkover")),   # a W.O. (art. 26) is not played
        "pairs": [cells[i:i + 2] for i in range(0, len(cells), 2)],
        "rows": range(1, _blank_rows(header) + 1),
        "penalty_rows": range(BLANK_PENALTY_ROWS),
        "note_lines": range(BLANK_NOTE_LINES),
        "values": HAND_VALUES,
        "legend": _legend(header["match"].get("rules")),
        "roles": [{"label": ROLE_LABELS[r], "team": header["teams"][i]["name"] if i < 2 else ""}
                  for i, r in enumerate(ROLES)],
    }


def _ruling(ruling) -> str:
    """A penalty's ruling: the referee's ruling number (an id) or its text."""
    if ruling is None or ruling == "":
        return ""
    if isinstance(ruling, int):
        return pgettext("súmula PDF", "Ruling no. %(id)s") % {"id": ruling}
    return pgettext("súmula PDF", "Ruling: %(text)s") % {"text": ruling}


def filled_context(document: dict, signatures: Iterable[dict] = (), draft: bool = False) -> dict:
    number, site_url = _print_options(document)
    header = _header(document, number)
    teams = header["teams"]
    letters = ("A", "B")
    seats = _seat_names(document["teams"])
    ended_words = {key: str(words) for key, words in ENDED_BY_WORDS.items()}
    games = []
    any_report = False
    for game in document.get("games", []):
        rows = []
        for entry in game.get("entries", []):
            score = entry.get("score") or [0, 0]
            if entry.get("kind") == "penalty":
                offender = entry.get("offender")
                beneficiary = entry.get("beneficiary")
                rows.append({
                    "penalty": True,
                    "article": entry.get("article") or "",
                    "reason": engine_messages.render_stored(entry.get("reason_data"), entry.get("reason") or "",
                                                            document["teams"]),
                    "ruling": _ruling(entry.get("ruling")),
                    "offender": teams[offender]["name"] if offender in (0, 1) else "",
                    "winner": letters[beneficiary] if beneficiary in (0, 1) else "—",
                    "points": entry.get("points", 0),
                    "score": score,
                })
            else:
                winner = entry.get("winner")
                dealer = entry.get("dealer")
                report = entry.get("report") is not None
                any_report = any_report or report
                rows.append({
                    "penalty": False,
                    "number": entry.get("number", ""),
                    "dealer": seats[dealer] if isinstance(dealer, int) and 0 <= dealer < 4 else "",
                    "value": entry.get("value", ""),
                    "ended": ended_words.get(entry.get("ended_by"), entry.get("ended_by") or ""),
                    "report": report,
                    "winner": letters[winner] if winner in (0, 1) else "—",
                    "points": entry.get("points", 0),
                    "score": score,
                })
        winner = game.get("winner")
        games.append({
            "number": game.get("number", len(games) + 1),
            "rows": rows,
            "score": game.get("score") or [0, 0],
            "winner": teams[winner]["name"] if winner in (0, 1) else None,
            "penalties": sum(1 for r in rows if r["penalty"]),
        })
    result = document.get("result") or {"games": [0, 0], "winner": None}
    winner = result.get("winner")
    digest = document.get("digest") or ""
    # Signatures: valid when they signed this content; the others are kept, marked voided.
    by_role: dict[str, dict] = {r: {"valid": [], "voided": []} for r in ROLES}
    for signature in signatures or ():
        role = by_role.setdefault(signature.get("role", ""), {"valid": [], "voided": []})
        voided = bool(signature.get("voided")) or signature.get("digest") != digest
        role["voided" if voided else "valid"].append({
            "name": signature.get("name", ""),
            "at": local_time(signature.get("at")),
            "digest": (signature.get("digest") or "")[:12],
        })
    roles = []
    for i, name in enumerate(ROLES):
        roles.append({
            "label": ROLE_LABELS[name],
            "team": teams[i]["name"] if i < 2 else "",
            **by_role.pop(name),
        })
    url = verification_url(digest, site_url) if digest else ""
    return {
        **header,
        "games": games,
        "any_report": any_report,
        "result": {"games": result.get("games") or [0, 0],
                   "winner": teams[winner]["name"] if winner in (0, 1) else None},
        "corrections": [
            {**c, "at": local_time(c.get("at"))} for c in document.get("corrections") or []
        ],
        "roles": roles,
        "digest": digest,
        "draft": draft,
        "digest_groups": digest_groups(digest),
        "verify_url": url,
        "qr": mark_safe(qr_svg(url, QR_SIZE_MM)) if url else "",
    }
