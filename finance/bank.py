"""A bank statement read into lines (pure Python, no Django): OFX (1.x SGML, as Brazilian banks
export it in cp1252, and 2.x XML) through ``ofxtools``, and the CSV exports of the common Brazilian
banks (a date, a description, an amount; ``;`` or ``,``; ``1.234,56`` or ``1234.56``).

Each line carries the bank's own transaction id when the bank gives one (OFX ``FITID``, a CSV's
"Identificador") and otherwise a hash of its date, description, amount and its rank among equal
lines, so that reading the same statement twice gives the same keys (docs/money.md, "The statement
import").
"""
from __future__ import annotations

import csv
import datetime
import hashlib
import io
import logging
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation


logging.getLogger("ofxtools").setLevel(logging.WARNING)  # it logs every element it reads at INFO


class StatementError(ValueError):
    """The file is not a statement this module reads; the message says why."""


@dataclass(frozen=True)
class BankLine:
    key: str  # the bank's transaction id ("fitid:…") or a hash of the line ("hash:…")
    date: datetime.date
    description: str
    amount: Decimal  # positive: money in

    def as_json(self) -> dict:
        return {"key": self.key, "date": self.date.isoformat(), "description": self.description,
                "amount": str(self.amount)}

    @classmethod
    def from_json(cls, data: dict) -> BankLine:
        return cls(str(data["key"]), datetime.date.fromisoformat(data["date"]), str(data["description"]),
                   Decimal(data["amount"]))


def plain(text: str) -> str:
    """Upper case, no accents, single spaces: how a bank's description and a player's name are compared."""
    text = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode("ascii")
    return " ".join(re.sub(r"[^A-Za-z0-9]+", " ", text).upper().split())


def amount_of(text: str) -> Decimal:
    """``1.234,56``, ``-120,00``, ``120.5``, ``R$ 50`` as a Decimal to the centavo."""
    value = re.sub(r"[^0-9,.\-+]", "", (text or "").strip())
    if "," in value:
        value = value.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(value).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise StatementError(f"not an amount: {text!r}") from None
    return amount


def date_of(text: str) -> datetime.date:
    text = (text or "").strip()[:10]
    for shape in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d/%m/%y", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(text, shape).date()
        except ValueError:
            continue
    raise StatementError(f"not a date: {text!r}")


def _hashed(lines: list[tuple[datetime.date, str, Decimal, str]]) -> list[BankLine]:
    """Lines with the bank's id keep it; the others are keyed by their content and their rank among
    identical lines (two equal Pix of the same day are two lines, in every reading)."""
    seen: dict[str, int] = {}
    result = []
    for date, description, amount, fitid in lines:
        if fitid:
            key = "fitid:" + fitid[:80]
        else:
            base = f"{date.isoformat()}|{plain(description)}|{amount}"
            seen[base] = seen.get(base, 0) + 1
            key = "hash:" + hashlib.sha256(f"{base}|{seen[base]}".encode()).hexdigest()[:40]
        result.append(BankLine(key, date, " ".join(description.split())[:200], amount))
    return result


def read_ofx(data: bytes) -> list[BankLine]:
    from ofxtools.Parser import OFXTree

    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(data))
        ofx = tree.convert()
    except Exception as error:  # ofxtools raises many kinds; all mean "not an OFX it reads"
        raise StatementError(f"OFX: {error}") from error
    rows = []
    for statement in ofx.statements:
        for t in statement.transactions:
            text = " ".join(x for x in (getattr(t, "name", None), getattr(t, "memo", None)) if x)
            when = t.dtposted.date() if t.dtposted else None
            if when is None or t.trnamt is None:
                continue
            rows.append((when, text, Decimal(t.trnamt).quantize(Decimal("0.01")), str(t.fitid or "")))
    return _hashed(rows)


DATE_HEADERS = ("data", "data lancamento", "data do lancamento", "data movimento", "dt lancamento")
TEXT_HEADERS = ("descricao", "historico", "lancamento", "detalhes", "memo", "titulo")
AMOUNT_HEADERS = ("valor", "valor r", "valor rs", "quantia", "montante")
ID_HEADERS = ("identificador", "id transacao", "id da transacao")


def _column(header: list[str], names: tuple[str, ...], taken: set[int]) -> int | None:
    for name in names:
        for i, cell in enumerate(header):
            if i not in taken and plain(cell).lower() == name:
                return i
    return None


def read_csv(data: bytes) -> list[BankLine]:
    """A CSV export: the first row naming a date, a description and an amount column is the header
    (banks put the account's lines above it); several description columns are joined."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252")
    sample = text[:4096]
    delimiter = ";" if sample.count(";") >= sample.count(",") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    for at, header in enumerate(rows):
        taken: set[int] = set()
        when = _column(header, DATE_HEADERS, taken)
        taken.add(when if when is not None else -1)
        amount = _column(header, AMOUNT_HEADERS, taken)
        taken.add(amount if amount is not None else -1)
        if when is None or amount is None:
            continue
        texts = [i for i, cell in enumerate(header) if i not in taken and plain(cell).lower() in TEXT_HEADERS]
        bank_id = _column(header, ID_HEADERS, taken | set(texts))
        found = []
        for row in rows[at + 1:]:
            if len(row) <= max(when, amount) or not row[when].strip() or not row[amount].strip():
                continue
            try:
                day = date_of(row[when])
            except StatementError:
                continue  # a balance line ("SALDO ANTERIOR") or a footer
            description = " ".join(row[i] for i in texts if i < len(row))
            fitid = row[bank_id].strip() if bank_id is not None and bank_id < len(row) else ""
            found.append((day, description, amount_of(row[amount]), fitid))
        return _hashed(found)
    raise StatementError("CSV: no header with a date, a description and an amount (Data; Descrição; Valor)")


def read(name: str, data: bytes) -> list[BankLine]:
    """Any statement: OFX by its header or name, CSV otherwise."""
    head = data[:400].lstrip().upper()
    if name.lower().endswith((".ofx", ".qfx")) or head.startswith((b"OFXHEADER", b"<?XML")) or b"<OFX>" in head:
        return read_ofx(data)
    return read_csv(data)
