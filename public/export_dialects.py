"""The two CSV dialects of the downloads: ``plain`` for programs and ``excel-br`` for
spreadsheets in Brazilian Portuguese.

- ``plain``: comma separated, UTF-8 without a byte-order mark, the English column names and values of
  the JSON (``received``, ``walkover``, booleans 1/0, decimals with a point, games "12-9 7-12").
- ``excel-br``: what Excel (and LibreOffice) in pt-BR opens in columns with its accents right:
  semicolon separated, UTF-8 with a byte-order mark, the columns and values in Portuguese
  ("recebida", "W.O.", "sim"/"não", decimals with a comma) and games written "12×9 7×12" (Excel
  would read "12-9" as a date).

The Portuguese here is the dialect itself, not the interface's language: it is fixed, whatever
language the page was in, so that a club's spreadsheet keeps its columns from one tournament to
the next. This module owns only the writing; the rows are ``public.exports``'.
"""
from __future__ import annotations

import csv
import io
from fractions import Fraction

PLAIN = "plain"
EXCEL_BR = "excel-br"
DIALECTS = (PLAIN, EXCEL_BR)

HEADERS_PT = {
    # standings
    "rank": "posição", "group": "grupo", "pair_id": "id da dupla", "pair": "dupla", "players": "jogadores",
    "withdrawn": "desistente", "played": "jogos disputados", "won": "vitórias", "lost": "derrotas",
    "byes": "folgas", "games_for": "partidas a favor", "games_against": "partidas contra",
    "points_for": "tentos a favor", "points_against": "tentos contra", "point_difference": "saldo de tentos",
    "stage": "fase", "stage_name": "nome da fase", "decided_by": "decidido por", "lot": "sorteio",
    "matches_won": "vitórias", "match_points": "pontos", "games_won": "partidas ganhas",
    "points_scored": "tentos marcados", "head_to_head": "confronto direto", "buchholz": "Buchholz",
    "median_buchholz": "Buchholz mediano", "sonneborn_berger": "Sonneborn-Berger",
    # results
    "match_id": "id do jogo", "round": "rodada", "round_name": "nome da rodada", "table": "mesa",
    "pair_a_id": "id da dupla A", "pair_a": "dupla A", "pair_b_id": "id da dupla B", "pair_b": "dupla B",
    "status": "situação da súmula", "official": "oficial", "kind": "tipo de resultado", "winner_id": "id da vencedora",
    "winner": "vencedora", "absent": "ausente", "games_a": "partidas A (como na classificação)",
    "games_b": "partidas B (como na classificação)", "points_a": "tentos A (como na classificação)",
    "points_b": "tentos B (como na classificação)", "games": "placar das partidas", "reason": "motivo",
    "counted_in_standings": "placar conta na classificação",
    # pairings
    "match": "jogo", "pair_a_players": "jogadores A", "pair_b_players": "jogadores B", "bye": "folga",
    "referee": "árbitro",
    # the API's errors
    "field": "campo", "message": "mensagem",
}

VALUES_PT = {
    "status": {"open": "aberta", "signed": "assinada", "received": "recebida"},
    "kind": {"sumula": "súmula recebida", "walkover": "W.O.", "manual": "decidido pelo organizador",
             "double_walkover": "W.O. duplo"},
    "decided_by": {"bracket": "chave", "standings": "classificação", "organizer": "organizador"},
}


def _plain_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return " ".join(f"{g['a']}-{g['b']}" if isinstance(g, dict) else str(g) for g in value)
    if isinstance(value, Fraction):
        value = float(value)
    return str(value)


def _number_br(value) -> str:
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, float):
        text = f"{value:.4f}".rstrip("0").rstrip(".")
        return text.replace(".", ",")
    return str(value)


def _excel_br_cell(column: str, value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, list):
        return " ".join(f"{g['a']}×{g['b']}" if isinstance(g, dict) else str(g) for g in value)
    if isinstance(value, str):
        value = VALUES_PT.get(column, {}).get(value, value)
        # a text a spreadsheet would run as a formula ("=HYPERLINK(…)" as a pair's name) stays text
        return "'" + value if value[:1] in ("=", "+", "-", "@") else value
    return _number_br(value)


def write(columns: list[str], rows: list[dict], dialect: str = PLAIN) -> bytes:
    """The table as the bytes of a CSV file in ``dialect`` (header first, CRLF line ends)."""
    out = io.StringIO()
    if dialect == EXCEL_BR:
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        writer.writerow([HEADERS_PT.get(c, c) for c in columns])
        for row in rows:
            writer.writerow([_excel_br_cell(c, row.get(c)) for c in columns])
        return ("\ufeff" + out.getvalue()).encode("utf-8")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_plain_cell(row.get(c)) for c in columns])
    return out.getvalue().encode("utf-8")
