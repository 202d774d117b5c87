"""The bank statement import (docs/money.md, "The statement import"): the organizer uploads the
bank's statement, sees each credit matched to a charge (by the txid in the description first, then
by the exact amount owed and the payer's name when only one pair fits), ambiguous (several fit: the
organizer picks) or unmatched, and confirms. Confirming records each chosen line once per event
(``BankLine``, by the bank's id or the line's hash) and its payment (``Movement``, method "bank"):
the same statement imported twice records nothing twice. Only the event's organizers import.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from events.models import Pair, Tournament

from . import bank
from .models import ZERO, BankLine, Entry, Movement
from .services import MoneyRefused, _require, paid

MATCHED, AMBIGUOUS, UNMATCHED, DONE, DEBIT = "matched", "ambiguous", "unmatched", "done", "debit"


@dataclass
class Proposal:
    """One line of the statement and what the import would do with it."""

    line: bank.BankLine
    state: str
    entry: Entry | None = None
    choices: list[Entry] = field(default_factory=list)
    why: str = ""


def read(upload_name: str, data: bytes) -> list[bank.BankLine]:
    try:
        return bank.read(upload_name, data)
    except bank.StatementError as error:
        raise MoneyRefused(_("This file is not a statement the site reads (OFX or the bank's CSV): %(why)s")
                           % {"why": str(error)[:200]}, "statement") from error


def _names(pair: Pair) -> list[list[str]]:
    people = [pair.first_player, pair.second_player] + ([pair.substitute] if pair.substitute_id else [])
    return [[w for w in bank.plain(p.name).split() if len(w) > 2] for p in people if p is not None]


def _named(pair: Pair, words: set[str]) -> bool:
    """The description names one of the pair's players: every word of the name longer than two letters."""
    return any(name and set(name) <= words for name in _names(pair))


def _txid_in(description: str, by_txid: dict[str, Entry]) -> Entry | None:
    squeezed = re.sub(r"[^A-Z0-9]", "", bank.plain(description))
    for txid, entry in by_txid.items():
        if txid.upper() in squeezed:
            return entry
    return None


def propose(tournament: Tournament, user, lines: list[bank.BankLine]) -> list[Proposal]:
    """What the import would record, line by line (nothing is written)."""
    _require(user, tournament)
    entries = list(Entry.objects.filter(tournament=tournament).select_related(
        "pair__first_player", "pair__second_player", "pair__substitute"))
    owed = {e.pk: e.amount - paid(e) for e in entries}
    by_txid = {e.txid: e for e in sorted(entries, key=lambda e: -len(e.txid))}  # TRUCO1P12 before TRUCO1P1
    done = set(BankLine.objects.filter(tournament=tournament, key__in=[x.key for x in lines])
               .values_list("key", flat=True))
    taken: set[int] = set()
    result = []
    for line in lines:
        if line.key in done:
            result.append(Proposal(line, DONE, why=_("already imported")))
            continue
        if line.amount <= 0:
            result.append(Proposal(line, DEBIT, why=_("not a credit")))
            continue
        entry = _txid_in(line.description, by_txid)
        if entry is not None:
            if entry.pk in taken or owed[entry.pk] <= 0 or entry.pair.status == Pair.Status.WITHDRAWN:
                result.append(Proposal(line, UNMATCHED, why=_("%(txid)s is already paid") % {"txid": entry.txid}))
            else:
                taken.add(entry.pk)
                result.append(Proposal(line, MATCHED, entry, why=_("by the txid")))
            continue
        fits = [e for e in entries if e.pk not in taken and owed[e.pk] == line.amount
                and e.pair.status != Pair.Status.WITHDRAWN]
        words = set(bank.plain(line.description).split())
        named = [e for e in fits if _named(e.pair, words)]
        if len(named) == 1:
            taken.add(named[0].pk)
            result.append(Proposal(line, MATCHED, named[0], why=_("by the amount and the payer's name")))
        elif named or fits:
            result.append(Proposal(line, AMBIGUOUS, choices=named or fits,
                                   why=_("%(n)s pairs owe this amount") % {"n": len(named or fits)}))
        else:
            result.append(Proposal(line, UNMATCHED, why=_("no pair owes this amount")))
    return result


@transaction.atomic
def confirm(tournament: Tournament, user, lines: list[bank.BankLine], picks: dict[str, int | None]) -> list[Movement]:
    """Record the lines the organizer confirmed: ``picks`` maps a line's key to the entry it pays
    (``None``: record the line as seen, paying nothing). Lines already imported are skipped; a line
    paying an entry records a payment of the line's amount, capped at what the entry still owes
    (the rest stays in the bank line). Returns the payments recorded."""
    _require(user, tournament)
    known = {x.key: x for x in lines}
    done = set(BankLine.objects.select_for_update().filter(tournament=tournament, key__in=list(picks))
               .values_list("key", flat=True))
    made = []
    for key, entry_id in picks.items():
        line = known.get(key)
        if line is None or key in done or line.amount <= 0:
            continue
        payment = None
        if entry_id:
            entry = Entry.objects.select_for_update().filter(pk=entry_id, tournament=tournament).first()
            if entry is None:
                raise MoneyRefused(_("That charge is not this event's."), "entry")
            amount = min(line.amount, entry.amount - paid(entry))
            if amount > ZERO:
                payment = Movement.objects.create(
                    entry=entry, kind=Movement.Kind.PAYMENT, amount=amount, by=user, method=Movement.Method.STATEMENT,
                    note=(_("bank statement %(date)s: %(text)s") % {"date": line.date.strftime("%d/%m/%Y"),
                                                                   "text": line.description})[:200])
                made.append(payment)
        BankLine.objects.create(tournament=tournament, key=key, date=line.date, description=line.description,
                                amount=line.amount, payment=payment, by=user)
        done.add(key)
    return made


def total(proposals: list[Proposal], state: str) -> Decimal:
    return sum((p.line.amount for p in proposals if p.state == state), ZERO)
