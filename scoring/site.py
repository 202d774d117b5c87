"""The site's address as printed or shown: every link and QR code a person follows
from a card, a súmula, a page or an invitation.

``SITE_URL`` when it is set in the environment (``settings.SITE_URL_SET``: the operator said how the
club reaches the site, e.g. behind a proxy or from the server's own screen); otherwise the address
the organizer is using — the request's scheme, host and port, validated by ``ALLOWED_HOSTS`` — so
that a card printed from ``http://192.168.0.10:8140/`` is read by the phones of that network;
without a request (a mail, a worker) the address remembered from the last request that printed
(``remembered``: a print job's ``PrintJob.site_url``, the tournament's ``tournaments.links``);
otherwise ``SITE_URL``'s default. This is the one rule for the base of every printed or mailed link.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost


def address(request=None, remembered: str = "") -> str:
    """``http(s)://host[:port]`` without a trailing slash (see the module's docstring): the setting when
    the operator set it, else the request's address, else ``remembered`` (an address an earlier request
    gave), else the setting's default."""
    if getattr(settings, "SITE_URL_SET", False):
        return settings.SITE_URL.rstrip("/")
    if request is not None:
        try:
            return f"{request.scheme}://{request.get_host()}"
        except DisallowedHost:  # a bad Host header: the setting
            return settings.SITE_URL.rstrip("/")
    return (remembered or settings.SITE_URL).rstrip("/")


def absolute(path: str, request=None) -> str:
    """``path`` (starting with "/") on :func:`address`."""
    return address(request) + path
