"""The bank statement import: OFX and the big banks' CSV read to the centavo; credits matched by the
txid in the description, then by the exact amount and the payer's name when one pair fits;
ambiguous and unmatched shown; confirming twice (or the same file again) records nothing twice;
only the event's organizers import."""
from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from config.errors import Forbidden
from finance import bank, services, statement_import
from finance.models import BankLine, MoneyError, Movement
from tests.finance.statement_files import bb_csv, inter_csv, itau_csv, nubank_csv, ofx
from tests.tournaments.factories import organizer, pairs, tournament, user

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def event():
    boss = organizer("ana")
    t = tournament(boss)
    four = pairs(t, 4)
    names = ["Ana Lima", "Bruno Costa", "Carla Dias", "Davi Rocha", "João da Silva", "Elis Moura", "Fábio Nunes",
             "Gil Prado"]
    for pair, first, second in zip(four, names[::2], names[1::2]):
        type(pair.first_player).objects.filter(pk=pair.first_player_id).update(name=first)
        type(pair.second_player).objects.filter(pk=pair.second_player_id).update(name=second)
    services.set_fees(t, boss, price="120", pix_key="529.982.247-25", pix_name="Clube", pix_city="Sao Carlos")
    entries = {e.pair_id: e for e in services.charge_pairs(t, boss)}
    return boss, t, four, entries


def test_ofx_of_a_brazilian_bank_is_read_with_its_ids_amounts_and_accents():
    lines = bank.read("extrato.ofx", ofx([("20261120", "120.00", "A1", "PIX RECEBIDO JOÃO"),
                                          ("20261122", "-35.90", "A2", "TARIFA SERVIÇOS")]))
    assert [(x.key, x.date, x.amount, x.description) for x in lines] == [
        ("fitid:A1", datetime.date(2026, 11, 20), D("120.00"), "PIX RECEBIDO JOÃO"),
        ("fitid:A2", datetime.date(2026, 11, 22), D("-35.90"), "TARIFA SERVIÇOS")]


@pytest.mark.parametrize("name,data", [
    ("nubank.csv", nubank_csv([("20/11/2026", "120.00", "6a1f-1", "Transferência recebida pelo Pix - JOÃO"),
                               ("21/11/2026", "1234.56", "6a1f-2", "Pix - MARIA")])),
    ("itau.csv", itau_csv([("20/11/2026", "PIX TRANSF JOÃO", "120,00"), ("21/11/2026", "PIX MARIA", "1.234,56")])),
    ("bb.csv", bb_csv([("20/11/2026", "JOÃO", "1", "120,00"), ("21/11/2026", "MARIA", "2", "1.234,56")])),
    ("inter.csv", inter_csv([("20/11/2026", "Pix recebido: JOÃO", "120,00"), ("21/11/2026", "Pix MARIA", "1.234,56")])),
])
def test_the_csv_of_each_big_bank_is_read_to_the_centavo(name, data):
    lines = bank.read(name, data)
    assert [(x.date.day, x.amount) for x in lines] == [(20, D("120.00")), (21, D("1234.56"))]
    assert "JOÃO" in lines[0].description and len({x.key for x in lines}) == 2
    assert [x.key for x in bank.read(name, data)] == [x.key for x in lines]  # the same keys on every reading


def test_two_equal_lines_without_a_bank_id_stay_two_lines():
    data = itau_csv([("20/11/2026", "PIX JOAO", "120,00"), ("20/11/2026", "PIX JOAO", "120,00")])
    assert len({x.key for x in bank.read("x.csv", data)}) == 2


def test_a_file_that_is_no_statement_is_refused_naming_the_field():
    with pytest.raises(services.MoneyRefused) as error:
        statement_import.read("foto.csv", b"\x89PNG nothing here")
    assert error.value.field == "statement"


def test_matched_by_txid_then_by_amount_and_name_ambiguous_and_unmatched(event):
    boss, t, four, entries = event
    p1, p2, p3, p4 = four
    lines = bank.read("x.ofx", ofx([
        ("20261120", "120.00", "F1", f"PIX RECEBIDO FULANO {entries[p1.pk].txid}"),  # txid, whoever paid
        ("20261120", "120.00", "F2", "PIX RECEBIDO JOAO DA SILVA"),               # amount + a player's name
        ("20261121", "120.00", "F3", "PIX RECEBIDO DESCONHECIDO"),                     # p2 or p4: decide
        ("20261121", "77.00", "F4", "PIX RECEBIDO OUTRO"),                             # nobody owes 77
        ("20261122", "-35.90", "F5", "TARIFA"),
    ]))
    got = statement_import.propose(t, boss, lines)
    assert [p.state for p in got] == ["matched", "matched", "ambiguous", "unmatched", "debit"]
    assert got[0].entry.pair == p1 and got[1].entry.pair == p3
    assert {e.pair for e in got[2].choices} == {p2, p4}
    made = statement_import.confirm(t, boss, lines, {"fitid:F1": entries[p1.pk].pk, "fitid:F2": entries[p3.pk].pk,
                                                     "fitid:F3": entries[p4.pk].pk, "fitid:F4": None})
    assert [(m.entry.pair, m.amount, m.method) for m in made] == [
        (p1, D("120.00"), "bank"), (p3, D("120.00"), "bank"), (p4, D("120.00"), "bank")]
    assert BankLine.objects.filter(tournament=t).count() == 4  # the debit is not the event's
    # the same statement again: every line already imported, nothing recorded twice
    again = statement_import.propose(t, boss, bank.read("x.ofx", ofx([
        ("20261120", "120.00", "F1", f"PIX RECEBIDO FULANO {entries[p1.pk].txid}")])))
    assert [p.state for p in again] == ["done"]
    assert statement_import.confirm(t, boss, lines, {"fitid:F1": entries[p1.pk].pk, "fitid:F3": entries[p4.pk].pk}) == []
    assert Movement.objects.filter(entry__tournament=t).count() == 3
    assert services.statement(t).paid == D("360.00")


def test_a_txid_of_a_pair_already_paid_by_hand_is_not_paid_twice(event):
    boss, t, four, entries = event
    services.mark_paid(entries[four[0].pk], boss)
    lines = bank.read("x.csv", itau_csv([("20/11/2026", f"PIX {entries[four[0].pk].txid}", "120,00")]))
    assert [p.state for p in statement_import.propose(t, boss, lines)] == ["unmatched"]
    assert statement_import.confirm(t, boss, lines, {lines[0].key: entries[four[0].pk].pk}) == []  # capped: owes 0


def test_only_the_events_organizers_import(event, client):
    boss, t, four, entries = event
    stranger = user("bia")
    lines = bank.read("x.csv", itau_csv([("20/11/2026", "PIX", "120,00")]))
    with pytest.raises(Forbidden):
        statement_import.propose(t, stranger, lines)
    with pytest.raises(Forbidden):
        statement_import.confirm(t, stranger, lines, {lines[0].key: None})
    client.force_login(stranger)
    assert client.get(reverse("finance:statement", kwargs={"slug": t.slug})).status_code == 403


def test_the_page_previews_then_records_on_confirmation_once(event, client):
    boss, t, four, entries = event
    client.force_login(boss)
    page = reverse("finance:statement", kwargs={"slug": t.slug})
    data = nubank_csv([("20/11/2026", "120.00", "n-1", f"Pix {entries[four[1].pk].txid}"),
                       ("21/11/2026", "120.00", "n-2", "Pix alguém")])
    answer = client.post(page, {"statement": SimpleUploadedFile("nubank.csv", data, "text/csv")})
    html = answer.content.decode()
    assert answer.status_code == 200 and 'data-testid="line-matched"' in html and 'data-testid="line-ambiguous"' in html
    assert Movement.objects.count() == 0  # a preview records nothing
    signed = answer.context["signed"]
    confirm = {"action": "confirm", "lines": signed, "pick-fitid:n-1": "1"}
    assert client.post(page, confirm).status_code == 302
    assert client.post(page, confirm).status_code == 302  # twice: recorded once
    assert list(Movement.objects.values_list("entry__pair", "method")) == [(four[1].pk, "bank")]
    tampered = {**confirm, "lines": signed[:-3] + "abc"}
    assert client.post(page, tampered).status_code == 400
    assert client.post(page, {"statement": SimpleUploadedFile("x.csv", b"nada", "text/csv")}).status_code == 400


def test_a_bank_line_is_written_once(event):
    boss, t, four, entries = event
    lines = bank.read("x.csv", itau_csv([("20/11/2026", "PIX", "120,00")]))
    statement_import.confirm(t, boss, lines, {lines[0].key: None})
    row = BankLine.objects.get()
    with pytest.raises(MoneyError):
        row.save()
    with pytest.raises(MoneyError):
        row.delete()


@pytest.mark.skipif(not __import__("os").environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="the append-only trigger is PostgreSQL's (SQLite keeps the Python guard)")
def test_postgresql_refuses_to_rewrite_or_delete_a_bank_line(event):
    from django.db import IntegrityError, transaction

    boss, t, four, entries = event
    lines = bank.read("x.csv", itau_csv([("20/11/2026", "PIX", "120,00")]))
    statement_import.confirm(t, boss, lines, {lines[0].key: entries[four[0].pk].pk})
    with pytest.raises(IntegrityError), transaction.atomic():
        BankLine.objects.update(amount=D("1.00"))
    with pytest.raises(IntegrityError), transaction.atomic():
        BankLine.objects.all().delete()
