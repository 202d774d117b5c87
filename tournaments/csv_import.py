"""Registering pairs from a CSV file (a spreadsheet export).

This module owns reading the file and reporting its bad rows; each row is checked with
``tournaments.services.clean_registration`` and saved with the same code as a pair
registered by hand.

The file:

* UTF-8, with or without a byte-order mark (Excel's "CSV UTF-8"), or Windows-1252 (cp1252: what
  Excel in pt-BR writes as "CSV (separado por vírgulas)"): a byte-order mark means UTF-8; without one
  the file is read as UTF-8 when it is valid UTF-8, else as cp1252; a file that is
  neither is refused naming its first bad line. Comma, semicolon (Excel pt-BR) or tab separated
  (the header line decides: the one it holds most of);
* a header line naming the columns, in any order, in English or Portuguese, case and
  accents ignored: ``pair`` (dupla), ``player 1`` (jogador 1), ``nickname 1`` (apelido 1),
  ``club 1`` (clube 1), ``contact 1`` (contato 1), the same with 2, ``substitute``
  (reserva), ``substitute nickname`` / ``club`` / ``contact`` (apelido / clube / contato
  reserva), ``rating``, ``seed`` (cabeça de chave). ``pair``, ``player 1`` and ``player 2``
  are required; an unknown column is an error (a typo would otherwise lose data);
* blank lines are skipped.

Two modes (:class:`Mode`): ``all_or_nothing`` (the default) saves the pairs only if every
row is good; ``valid_rows`` saves the good rows and reports the others. Either way the
pairs are saved in one transaction, under the tournament's lock, and the report lists
every bad row with its row number (the line number in the file; the header is row 1),
the column and the reason.
"""
from __future__ import annotations

import codecs
import csv
import io
import unicodedata
from dataclasses import dataclass, field
from enum import Enum

from django.db import transaction
from django.utils import formats
from django.utils.translation import gettext as _

from config.api import bad_text

from . import players, services
from .services.base import _audit, _lock_tournament, _require_manager
from .services.registration import _check_registration_open, _create_pair
from .models import AuditEntry, Pair, Tournament

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 5000


class Mode(str, Enum):
    ALL_OR_NOTHING = "all_or_nothing"
    VALID_ROWS = "valid_rows"


# canonical column -> (service field path) ; aliases below map header texts to these.
COLUMNS = {
    "pair": "name",
    "player1": "first_player.name", "nickname1": "first_player.nickname", "club1": "first_player.club",
    "contact1": "first_player.contact",
    "player2": "second_player.name", "nickname2": "second_player.nickname", "club2": "second_player.club",
    "contact2": "second_player.contact",
    "substitute": "substitute.name", "substitute_nickname": "substitute.nickname",
    "substitute_club": "substitute.club", "substitute_contact": "substitute.contact",
    "rating": "rating", "seed": "seed",
}
REQUIRED = ("pair", "player1", "player2")
ALIASES = {
    "pair": ["pair", "pair name", "team", "dupla", "nome da dupla", "equipe"],
    "player1": ["player 1", "player1", "name 1", "jogador 1", "jogadora 1", "nome 1", "parceiro 1"],
    "nickname1": ["nickname 1", "apelido 1"],
    "club1": ["club 1", "clube 1"],
    "contact1": ["contact 1", "contato 1", "phone 1", "telefone 1", "email 1", "e-mail 1"],
    "player2": ["player 2", "player2", "name 2", "jogador 2", "jogadora 2", "nome 2", "parceiro 2"],
    "nickname2": ["nickname 2", "apelido 2"],
    "club2": ["club 2", "clube 2"],
    "contact2": ["contact 2", "contato 2", "phone 2", "telefone 2", "email 2", "e-mail 2"],
    "substitute": ["substitute", "substitute name", "reserva", "suplente", "nome reserva"],
    "substitute_nickname": ["substitute nickname", "nickname substitute", "apelido reserva", "apelido suplente"],
    "substitute_club": ["substitute club", "club substitute", "clube reserva", "clube suplente"],
    "substitute_contact": ["substitute contact", "contact substitute", "contato reserva", "contato suplente"],
    "rating": ["rating", "ranking", "pontuacao"],
    "seed": ["seed", "cabeca de chave", "ordem"],
}


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.strip().casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.replace("_", " ").replace("-", " ").split())


_LOOKUP = {_normalize(alias): key for key, aliases in ALIASES.items() for alias in aliases}
_LOOKUP.update({_normalize(key): key for key in COLUMNS})


@dataclass(frozen=True)
class RowError:
    """A bad row: ``row`` is the line number in the file (the header is 1), ``column`` the header
    text as written in the file (empty for the whole row or file)."""

    row: int
    column: str
    message: str

    def as_dict(self) -> dict:
        return {"row": self.row, "column": self.column, "message": self.message}


@dataclass
class ImportReport:
    mode: Mode
    rows: int = 0
    created: list[Pair] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    too_long: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict:
        return {"mode": self.mode.value, "rows": self.rows, "created": [p.pk for p in self.created],
                "created_count": len(self.created), "errors": [e.as_dict() for e in self.errors]}


def _decode(data: bytes | str) -> str:
    """The file's text: UTF-8 with a byte-order mark; else UTF-8 if it is valid UTF-8; else cp1252."""
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    marked = data.startswith(codecs.BOM_UTF8)
    if marked:
        data = data[len(codecs.BOM_UTF8):]
    # the mark says UTF-8: a bad byte after it is an error, not a reason to read cp1252
    encodings = ("utf-8",) if marked else ("utf-8", "cp1252")
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
    if len(encodings) == 1:
        raise _FileError(line, _("The file is marked as UTF-8 but line %(line)s is not UTF-8 text: save it "
                                 "again as \"CSV UTF-8\".") % {"line": line})
    raise _FileError(line, _("The file is neither UTF-8 nor Windows-1252 (Excel's \"CSV\") text: line %(line)s "
                             "has a byte that is not a letter in either. Save it as \"CSV UTF-8\".")
                     % {"line": line})


class _FileError(Exception):
    def __init__(self, row: int, message: str) -> None:
        super().__init__(message)
        self.row, self.message = row, message


def _read(data) -> bytes | str:
    if hasattr(data, "read"):
        data = data.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _FileError(0, _("The file is larger than 2 MB."))
    return data


def _delimiter(text: str) -> str:
    """The separator the header line holds most of: comma, semicolon (Excel pt-BR) or tab."""
    header = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=header.count)


def _spec(values: dict[str, str]) -> dict:
    """The registration data of one row, shaped as ``services.clean_registration`` expects."""
    data: dict = {"name": values.get("pair", "")}
    for key, prefix in (("first_player", "1"), ("second_player", "2")):
        data[key] = {"name": values.get(f"player{prefix}", ""), "nickname": values.get(f"nickname{prefix}", ""),
                     "club": values.get(f"club{prefix}", ""), "contact": values.get(f"contact{prefix}", "")}
    sub = {"name": values.get("substitute", ""), "nickname": values.get("substitute_nickname", ""),
           "club": values.get("substitute_club", ""), "contact": values.get("substitute_contact", "")}
    data["substitute"] = sub if any(sub.values()) else None
    return data


def _whole_number(text: str) -> int | str:
    text = text.strip()
    return int(text) if text.isdigit() else text


NAMESAKES = ("ask", "reuse", "different")


def import_pairs(tournament: Tournament, data, by, *, mode: Mode | str = Mode.ALL_OR_NOTHING,
                 namesakes: str = "ask") -> ImportReport:
    """Register the pairs of a CSV file (bytes, text or a file object); see the module docstring.

    ``namesakes``: what to do with a new player named like a player already registered:
    ``ask`` (the row is reported, naming the registered player), ``reuse`` (this organizer's one player of
    that name from an earlier tournament is taken), ``different`` (a new player is registered).

    Raises ``services.Forbidden`` / ``services.Conflict`` when the user may not register pairs
    or registration is closed; everything wrong with the file itself is in the report."""
    try:
        mode = Mode(mode)
    except ValueError:
        raise services.TournamentError(_("Unknown mode; use all_or_nothing or valid_rows."), "mode") from None
    if namesakes not in NAMESAKES:
        raise services.TournamentError(_("Unknown choice; use ask, reuse or different."), "namesakes")
    report = ImportReport(mode)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        _check_registration_open(tournament)
        try:
            text = _decode(_read(data))
        except _FileError as error:
            report.errors.append(RowError(error.row, "", error.message))
            return report
        rows = _parse(text, report)
        if report.errors and not rows:
            return report
        if report.too_long:
            return report
        cleaned_rows = _clean_rows(tournament, rows, report, namesakes)
        if report.errors and mode == Mode.ALL_OR_NOTHING:
            return report
        for _row, cleaned in cleaned_rows:
            report.created.append(_create_pair(tournament, cleaned))
        if report.created:
            _audit(tournament, by, AuditEntry.Action.PAIRS_IMPORTED,
                   after={"mode": mode.value, "rows": report.rows, "created": [p.pk for p in report.created],
                          "bad_rows": sorted({e.row for e in report.errors})})
    return report


def _parse(text: str, report: ImportReport) -> list[tuple[int, dict[str, str], dict[str, str]]]:
    """Rows as ``(row number, {canonical column: value}, {canonical column: header text})``."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = next(reader)
    except StopIteration:
        report.errors.append(RowError(1, "", _("The file is empty: the first line names the columns.")))
        return []
    except csv.Error as error:
        report.errors.append(RowError(1, "", _("Unreadable CSV: %(error)s") % {"error": error}))
        return []
    columns: list[str | None] = []
    written: dict[str, str] = {}
    for text_ in header:
        key = _LOOKUP.get(_normalize(text_))
        if key is None:
            if text_.strip():
                report.errors.append(RowError(1, text_, _("Unknown column.")))
            columns.append(None)
            continue
        if key in written:
            report.errors.append(RowError(1, text_, _("This column appears twice.")))
        written[key] = text_
        columns.append(key)
    for key in REQUIRED:
        if key not in written:
            report.errors.append(RowError(1, ALIASES[key][0], _("Missing column.")))
    if report.errors:
        return []
    rows = []
    previous = reader.line_num
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            report.errors.append(RowError(previous + 1, "", _("Unreadable CSV: %(error)s") % {"error": error}))
            break
        row = previous + 1
        previous = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        report.rows += 1
        if report.rows > MAX_ROWS:  # the whole file is refused, in either mode: no row is silently dropped
            report.errors.append(RowError(row, "", _("At most %(count)s pairs per file: the file was not imported; "
                                                     "split it.") % {"count": formats.localize(MAX_ROWS)}))
            report.too_long = True
            break
        bad = next(((i, why) for i, cell in enumerate(cells) if (why := bad_text(cell))), None)
        if bad is not None:
            column = header[bad[0]] if bad[0] < len(header) else ""
            report.errors.append(RowError(row, column, _("This text %(why)s.") % {"why": bad[1]}))
            continue
        if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns):]):
            report.errors.append(RowError(row, "", _("This row has more cells than the header has columns.")))
            continue
        values = {key: cells[i].strip() for i, key in enumerate(columns) if key and i < len(cells)}
        rows.append((row, values, written))
    return rows


def _clean_rows(tournament: Tournament, rows, report: ImportReport, namesakes: str = "ask") -> list[tuple[int, dict]]:
    names: set[str] = set()
    seeds: set[int] = set()
    people: dict[tuple, int] = {}
    out = []
    service_to_column = {path: key for key, path in COLUMNS.items()}
    # the registered players read once for every row's "same name?" question, not once per row
    index = players.NameIndex(tournament) if namesakes != "different" else None
    for row, values, written in rows:
        data = _spec(values)
        for key in ("rating", "seed"):
            if values.get(key):
                data[key] = _whole_number(values[key])
        try:
            cleaned = services.clean_registration(tournament, data, taken_names=names, taken_seeds=seeds,
                                                  namesakes=namesakes, name_index=index)
            for key in services.PAIR_PLAYER_FIELDS:
                spec = cleaned[key]
                if spec is not None and spec.key[0] != "new":
                    if spec.key in people:
                        raise services.TournamentError(
                            _("This player is already in the pair of row %(row)s.") % {"row": people[spec.key]},
                            f"{key}.name")
        except services.TournamentError as error:
            column_key = service_to_column.get(error.field) or service_to_column.get(f"{error.field}.name")
            column = written.get(column_key, column_key or error.field) if column_key else error.field
            report.errors.append(RowError(row, column, error.message))
            continue
        names.add(cleaned["name"].casefold())
        if cleaned["seed"] is not None:
            seeds.add(cleaned["seed"])
        for key in services.PAIR_PLAYER_FIELDS:
            spec = cleaned[key]
            if spec is not None and spec.key[0] != "new":
                people[spec.key] = row
        out.append((row, cleaned))
    return out
