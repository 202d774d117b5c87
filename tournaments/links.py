"""The base of a tournament's printed and mailed links: the pair cards' and table cards' QR codes,
the "your match was called" e-mail and push.

One rule, ``scoring.site.address``: the ``SITE_URL`` setting when the operator set it; else the address
the organizer is printing from (the request's scheme, host and port, checked by ``ALLOWED_HOSTS``),
which is what the venue's phones reach (a laptop at ``http://192.168.0.10:8140/`` on the club's
Wi-Fi); else — a worker sending a mail has no request — the address the organizer last printed this
tournament's cards from (:class:`~tables.models.LinkAddress`, written by :func:`printed_from`);
else the setting's default. A card and the call's mail for the same pair thus open the same page.
"""
from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from scoring import site
from tables.models import LinkAddress

from .models import Tournament


def base_url(tournament: Tournament, request=None) -> str:
    """``http(s)://host[:port]`` (no trailing slash) for the tournament's printed or mailed links."""
    remembered = ""
    if request is None and not getattr(settings, "SITE_URL_SET", False):
        remembered = (LinkAddress.objects.filter(tournament=tournament).values_list("site_url", flat=True)
                      .first() or "")
    return site.address(request, remembered)


def printed_from(tournament: Tournament, request) -> str:
    """The organizer prints the tournament's cards from ``request``: :func:`base_url`, remembered for the
    links made later without a request."""
    url = base_url(tournament, request)
    LinkAddress.objects.update_or_create(tournament=tournament,
                                         defaults={"site_url": url[:200], "printed_at": timezone.now()})
    return url


def absolute(tournament: Tournament, path: str, request=None) -> str:
    """``path`` (starting with "/") on :func:`base_url`."""
    return base_url(tournament, request) + path
