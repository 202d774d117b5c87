"""Login throttling (django-axes) and the client's address behind the proxies in front.

``LoginThrottleBackend`` is axes' backend, except that a login without a request (a
management command, the test client's ``login``) is simply not its business: there is no
address to count failures against.
"""
from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.conf import settings


class LoginThrottleBackend(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or with ``DJANGO_PROXY_COUNT`` proxies in
    front, the address the outermost one saw (``X-Forwarded-For`` read from the right, so a
    client cannot choose it by sending the header itself)."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = getattr(settings, "PROXY_COUNT", 0)
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) >= count:
        return forwarded[-count]
    return remote
