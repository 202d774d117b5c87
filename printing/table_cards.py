"""The table cards of a round's matches: one A5 page per table, in one PDF, printed with
the round (``printing.round_views``) — the table number, the two pairs, and the QR code of the table's link with "scan to enter
the score". The blank súmula shows the same QR code, smaller (``printing.jobs``). A match decided by W.O.
(art. 26) is printed as such: "W.O.", and no QR code but a table's card for the whole event.

Rendered with WeasyPrint and the QR codes of ``scoring.pdf``; the links come from
``tables.links`` (created for matches that have none), on the address the organizer printed
from (``scoring.site``).
"""
from __future__ import annotations

from django.conf import settings
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import mark_safe

from tables import links as table_links
from tables.models import TableLink

from scoring import pdf_sheets

CARD_TEMPLATE = "scoring/pdf/table_cards.html"
CARD_QR_MM = 80


def link_url(link: TableLink, site_url: str = "") -> str:
    """The link as printed: the address the print was asked from (``scoring.site.address``; "": the
    ``SITE_URL`` setting) and the table page's path."""
    return absolute_url(table_links.table_path(link), site_url)


def absolute_url(path: str, site_url: str = "") -> str:
    return (site_url or settings.SITE_URL).rstrip("/") + path


def cards_html(matches, site_url: str = "", paths: dict[int, str] | None = None) -> str:
    """``paths``: the page each match's card opens, by match id (a higher app's card of the physical
    table); the others get their match's own table link."""
    matches = sorted(matches, key=lambda m: (m.table is None, m.table or 0, m.pk))
    paths = paths or {}
    links = table_links.ensure_links([m for m in matches if m.pk not in paths])
    walkovers = table_links.walkover_ids([m.pk for m in matches])
    cards = []
    for match in matches:
        walkover = match.pk in walkovers   # a W.O. (art. 26) is printed as such, never a live link
        if match.pk in paths:
            url = absolute_url(paths[match.pk], site_url)   # the table's card: it opens the table's next match
        elif match.pk in links:
            url = link_url(links[match.pk], site_url)
        elif walkover:
            url = ""
        else:
            continue
        cards.append({"match": match, "url": url, "qr": mark_safe(pdf_sheets.qr_svg(url, CARD_QR_MM)) if url else "",
                      "pairs": [match.pair_a, match.pair_b], "whole_event": match.pk in paths,
                      "walkover": walkover})
    with translation.override(pdf_sheets.PDF_LANGUAGE):
        return get_template(CARD_TEMPLATE).render({"cards": cards})


def table_cards_pdf(matches, site_url: str = "", paths: dict[int, str] | None = None) -> bytes:
    """The cards of ``matches``; their QR codes point to ``site_url`` (the request's address,
    ``scoring.site.address``), else to the ``SITE_URL`` setting; ``paths`` as in :func:`cards_html`."""
    from weasyprint import HTML

    return HTML(string=cards_html(matches, site_url, paths), base_url=str(settings.BASE_DIR)).write_pdf()
