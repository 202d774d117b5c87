"""A pair's receipt of payment: a PDF (WeasyPrint) with the event, the pair, the receiver, the txid,
each payment and the total, and a verification code the payment page shows too; linked from the
payment page once something is paid; none before; the code changes when the record does."""
from __future__ import annotations

import io
import os
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from finance import receipt, services
from tests.tournaments.factories import organizer, pairs, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_entry():
    boss = organizer("ana")
    t = tournament(boss, slug="gaucho")
    pairs(t, 2)
    services.set_fees(t, boss, price="120,50", pix_key="529.982.247-25", pix_name="Clube de Truco São Carlos",
                      pix_city="São Carlos")
    entry = services.charge_pairs(t, boss)[0]
    services.mark_paid(entry, boss, note="Pix das 14h")
    return boss, t, entry


def test_the_receipt_carries_the_event_the_txid_the_amount_and_who_received(client, paid_entry, tmp_path):
    boss, t, entry = paid_entry
    page = client.get(reverse("finance:pay", kwargs={"slug": t.slug, "pair": entry.pair_id})).content.decode()
    assert 'data-testid="receipt-link"' in page and receipt.code(entry) in page
    answer = client.get(reverse("finance:receipt", kwargs={"slug": t.slug, "pair": entry.pair_id}))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(answer.content)).pages)
    assert len(PdfReader(io.BytesIO(answer.content)).pages) == 1
    text = text.upper()
    for expected in ("GAUCHO", entry.txid, "120,50", "CLUBE DE TRUCO SAO CARLOS", "52998224725", entry.pair.name,
                     receipt.code(entry)):
        assert expected.upper() in text, expected
    tmp_path = tmp_path if not os.environ.get("RECEIPT_PNG_DIR") else __import__("pathlib").Path(os.environ["RECEIPT_PNG_DIR"])
    (tmp_path / "r.pdf").write_bytes(answer.content)
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", str(tmp_path / "r.pdf"), str(tmp_path / "r")],
                   check=True)
    assert (tmp_path / "r.png").stat().st_size > 10_000


def test_no_receipt_before_a_payment_and_the_code_follows_the_record(client, paid_entry):
    boss, t, entry = paid_entry
    other = t.entries.exclude(pk=entry.pk).get()
    assert client.get(reverse("finance:receipt", kwargs={"slug": t.slug, "pair": other.pair_id})).status_code == 404
    page = client.get(reverse("finance:pay", kwargs={"slug": t.slug, "pair": other.pair_id})).content.decode()
    assert 'data-testid="receipt-link"' not in page
    before = receipt.code(entry)
    assert receipt.code(entry) == before  # the same record, the same code
    services.mark_paid(other, boss)
    assert receipt.code(other) != before
