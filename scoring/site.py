"""The site's address as printed or shown: every link and QR code a person follows
from a card, a súmula, a page or an invitation.

``SITE_URL`` when it is set in the environment (``settings.SITE_URL_SET``: the operator said how the
club reaches the site, e.g. behind a proxy or from the server's own screen); otherwise the address
the organizer is using — the request's scheme, host and port, validated by ``ALLOWED_HOSTS`` — so
that a card printed from ``http://192.168.0.10:8140/`` is read by the phones of that network;
otherwise (no request: a mail, a worker without a stored address) ``SITE_URL``'s default. A print
job stores :func:`address` of the request that started it (``PrintJob.site_url``) and its worker
prints with it.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost


def address(request=None) -> str:
    """``http(s)://host[:port]`` without a trailing slash (see the module's docstring)."""
    if getattr(settings, "SITE_URL_SET", False) or request is None:
        return settings.SITE_URL.rstrip("/")
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:  # a bad Host header: the setting
        return settings.SITE_URL.rstrip("/")


def absolute(path: str, request=None) -> str:
    """``path`` (starting with "/") on :func:`address`."""
    return address(request) + path
