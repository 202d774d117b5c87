"""A pair's receipt of payment (docs/money.md, "The receipt"): a one-page A4 PDF through WeasyPrint,
as the site's other printed pages, with the event, the pair and its players, the receiver (the
organizer's Pix name, city and key), the charge's txid, each payment and refund (when, how, who
recorded it), what was paid in total, and a verification code with the link to the pair's payment
page (its QR too), where the same code is shown while the record is the same.

The code is an HMAC of the receipt's content under the site's secret (``salted_hmac``): a receipt
whose amounts were edited no longer carries the code the page shows.
"""
from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.safestring import mark_safe

from scoring.pdf_sheets import qr_svg
from scoring.site import absolute

from .models import Entry, FeeSettings, Movement
from .services import paid, refunded

SALT = "finance.receipt"


def code(entry: Entry) -> str:
    """The receipt's verification code: its record (each movement's id, kind, amount) under the site's key."""
    record = "|".join(f"{m.pk}:{m.kind}:{m.amount}" for m in entry.movements.order_by("pk"))
    digest = salted_hmac(SALT, f"{entry.txid}|{entry.amount}|{record}", algorithm="sha256").hexdigest()[:16].upper()
    return "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def context(entry: Entry, request=None) -> dict:
    fees = FeeSettings.objects.get(tournament=entry.tournament_id)
    pair = entry.pair
    link = absolute(reverse("finance:pay", kwargs={"slug": entry.tournament.slug, "pair": pair.pk}), request)
    got, back = paid(entry), refunded(entry)
    return {
        "tournament": entry.tournament, "pair": pair, "entry": entry, "fees": fees,
        "players": [p for p in (pair.first_player, pair.second_player, pair.substitute) if p is not None],
        "movements": list(entry.movements.select_related("by").order_by("at", "pk")),
        "paid": got, "refunded": back, "net": got - back, "owed": max(entry.amount - got, 0) if got < entry.amount else 0,
        "code": code(entry), "link": link, "qr": mark_safe(qr_svg(link, size_mm=26)),  # noqa: S308 (our SVG)
        "issued": timezone.localtime(), "kinds": dict(Movement.Kind.choices),
    }


def pdf(entry: Entry, request=None) -> bytes:
    from weasyprint import HTML

    with translation.override("pt-br"):
        html = render_to_string("finance/receipt.html", context(entry, request))
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()
