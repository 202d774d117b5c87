"""The static Pix BR Code ("Pix copia e cola" and its QR), pure Python (no Django).

The payload is EMV QRCPS-MPM as the Banco Central profiles it (Manual de Padrões para Iniciação do
Pix, BR Code static): ID-length-value fields, lengths in two digits, in this order:

    00 payload format "01" · 26 merchant account (00 GUI ``br.gov.bcb.pix``, 01 the key, 02 a
    message) · 52 category "0000" · 53 currency "986" (BRL) · 54 amount (optional) · 58 country
    "BR" · 59 name (≤ 25) · 60 city (≤ 15) · 62 additional data (05 txid, ≤ 25 of [A-Za-z0-9], or
    "***" for none) · 63 CRC16-CCITT (poly 0x1021, init 0xFFFF) over everything before it,
    "6304" included, in four upper-case hex digits.

:func:`charge` checks and normalizes what an organizer typed (the key of any kind, the name and
city without accents and cut to size, the amount to the centavo); :func:`build` writes the
payload; :func:`parse` reads one back (any static BR Code, checked field by field and by its CRC)
so ``parse(build(c)) == c``. Bad input raises :class:`PixError` naming the field.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

GUI = "br.gov.bcb.pix"
NO_TXID = "***"
NAME_MAX, CITY_MAX, TXID_MAX, MESSAGE_MAX = 25, 15, 25, 72
KEY_MAX = 77  # 26 holds ≤ 99: "0014" + GUI + "01" + two digits + the key (and no message)
TXID = re.compile(r"[A-Za-z0-9]{1,25}")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
EVP = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PHONE = re.compile(r"\+55[1-9][0-9]{9,10}")


class PixError(ValueError):
    """A Pix field that cannot be written or read: ``field`` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class Charge:
    """One static BR Code's content, already normalized (see :func:`charge`)."""

    key: str
    name: str
    city: str
    amount: Decimal | None = None
    txid: str = NO_TXID
    message: str = ""


def crc16(data: str) -> str:
    """CRC16-CCITT-FALSE of ``data`` (UTF-8), as four upper-case hex digits."""
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def _digits_valid(digits: str, weights_from: int) -> bool:
    """The CPF / CNPJ check digits (mod 11) of ``digits``."""
    def check(body: str, weights) -> str:
        rest = sum(int(d) * w for d, w in zip(body, weights)) % 11
        return "0" if rest < 2 else str(11 - rest)

    body = digits[:-2]
    if len(set(digits)) == 1:
        return False
    if weights_from == 10:  # CPF
        first = check(body, range(10, 1, -1))
        second = check(body + first, range(11, 1, -1))
    else:  # CNPJ
        first = check(body, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
        second = check(body + first, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return digits[-2:] == first + second


def key_kind(raw: str) -> tuple[str, str]:
    """``(kind, key)``: the Pix key as the DICT stores it, and its kind (``cpf``, ``cnpj``, ``phone``,
    ``email``, ``evp``). Punctuation of a CPF, CNPJ or phone is dropped; a phone starts with +55."""
    text = (raw or "").strip()
    if not text:
        raise PixError("pix_key", "the Pix key is empty")
    if "@" in text:
        key = text.lower()
        if not EMAIL.fullmatch(key) or len(key) > KEY_MAX:
            raise PixError("pix_key", f"not an e-mail key (at most {KEY_MAX} characters): {raw!r}")
        return "email", key
    if EVP.fullmatch(text.lower()):
        return "evp", text.lower()
    if text.startswith("+"):
        key = "+" + re.sub(r"[\s().-]", "", text[1:])
        if not PHONE.fullmatch(key):
            raise PixError("pix_key", f"a phone key is +55, the area code and the number: {raw!r}")
        return "phone", key
    digits = re.sub(r"[\s./-]", "", text)
    if digits.isdigit() and len(digits) == 11:
        if not _digits_valid(digits, 10):
            raise PixError("pix_key", f"the CPF's check digits are wrong: {raw!r}")
        return "cpf", digits
    if digits.isdigit() and len(digits) == 14:
        if not _digits_valid(digits, 5):
            raise PixError("pix_key", f"the CNPJ's check digits are wrong: {raw!r}")
        return "cnpj", digits
    raise PixError("pix_key", f"not a Pix key (CPF, CNPJ, +55 phone, e-mail or random key): {raw!r}")


def plain(text: str, limit: int, field: str) -> str:
    """``text`` without accents, in printable ASCII, spaces collapsed, cut to ``limit`` characters."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    ascii_text = "".join(c for c in decomposed if 32 <= ord(c) < 127)
    cleaned = " ".join(ascii_text.split())[:limit].rstrip()
    if not cleaned:
        raise PixError(field, "empty once accents and symbols are dropped")
    return cleaned


def money(amount) -> Decimal | None:
    """A BRL amount to the centavo (``None``: the payer types it); never a float."""
    if amount is None:
        return None
    if isinstance(amount, float):
        raise PixError("amount", "amounts are Decimal or text, never float")
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        raise PixError("amount", f"not an amount: {amount!r}") from None
    if not value.is_finite() or value <= 0:
        raise PixError("amount", f"the amount must be above zero: {amount!r}")
    if value != value.quantize(Decimal("0.01")):
        raise PixError("amount", f"the amount has fractions of a centavo: {amount!r}")
    value = value.quantize(Decimal("0.01"))
    if len(f"{value:.2f}") > 13:
        raise PixError("amount", f"the amount has more than 13 characters: {amount!r}")
    return value


def charge(*, key: str, name: str, city: str, amount=None, txid: str = NO_TXID, message: str = "") -> Charge:
    """A :class:`Charge` from what a person typed, checked and normalized."""
    _kind, key = key_kind(key)
    txid = txid or NO_TXID
    if txid != NO_TXID and not TXID.fullmatch(txid):
        raise PixError("txid", f"a txid is 1 to {TXID_MAX} letters and digits (A-Z, a-z, 0-9): {txid!r}")
    message = plain(message, MESSAGE_MAX, "message") if (message or "").strip() else ""
    if message and 4 + len(GUI) + 4 + len(key) + 4 + len(message) > 99:
        message = message[:99 - (4 + len(GUI) + 4 + len(key) + 4)].rstrip()
    return Charge(key=key, name=plain(name, NAME_MAX, "name"), city=plain(city, CITY_MAX, "city"),
                  amount=money(amount), txid=txid, message=message)


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise PixError(tag, f"field {tag} is longer than 99 characters")
    return f"{tag}{len(value):02d}{value}"


def build(c: Charge) -> str:
    """The "copia e cola" text of ``c`` (also what its QR code holds)."""
    account = _field("00", GUI) + _field("01", c.key) + (_field("02", c.message) if c.message else "")
    body = (_field("00", "01") + _field("26", account) + _field("52", "0000") + _field("53", "986")
            + (_field("54", f"{c.amount:.2f}") if c.amount is not None else "")
            + _field("58", "BR") + _field("59", c.name) + _field("60", c.city)
            + _field("62", _field("05", c.txid)) + "6304")
    return body + crc16(body)


def fields(text: str, where: str = "payload") -> dict[str, str]:
    """The ID-length-value fields of ``text``, in order; a field that overruns the text is an error."""
    found: dict[str, str] = {}
    i = 0
    while i < len(text):
        tag, size = text[i:i + 2], text[i + 2:i + 4]
        if len(tag) < 2 or not size.isdigit():
            raise PixError(where, f"broken field at position {i}")
        value = text[i + 4:i + 4 + int(size)]
        if len(value) != int(size):
            raise PixError(where, f"field {tag} runs past the end")
        found[tag] = value
        i += 4 + int(size)
    return found


def parse(payload: str) -> Charge:
    """Read a static Pix BR Code back, checking its CRC and its fixed fields."""
    payload = (payload or "").strip()
    if len(payload) < 8 or payload[-8:-4] != "6304":
        raise PixError("crc", "the code does not end with its CRC (6304....)")
    if crc16(payload[:-4]) != payload[-4:].upper():
        raise PixError("crc", f"the CRC is {payload[-4:]}, the content's is {crc16(payload[:-4])}")
    top = fields(payload)
    if top.get("00") != "01":
        raise PixError("00", "the payload format is not 01")
    if top.get("53", "986") != "986" or top.get("58") != "BR":
        raise PixError("53", "not a BRL code from Brazil")
    account = fields(top.get("26", ""), "26")
    if account.get("00", "").lower() != GUI or "01" not in account:
        raise PixError("26", "no Pix key in the merchant account (26)")
    extra = fields(top.get("62", ""), "62")
    amount = top.get("54")
    if amount is not None and not re.fullmatch(r"\d+(\.\d{1,2})?", amount):
        raise PixError("54", f"not an amount: {amount!r}")
    return Charge(key=account["01"], name=top.get("59", ""), city=top.get("60", ""),
                  amount=Decimal(amount).quantize(Decimal("0.01")) if amount is not None else None,
                  txid=extra.get("05", NO_TXID), message=account.get("02", ""))
