"""System checks of the site's own settings (Django's checks framework: ``manage.py check``, ``migrate``,
``check --deploy``, hence ``scripts/serve`` stops before serving). Registered by the app ``config``
(:class:`SiteConfig`, listed in ``INSTALLED_APPS``), the lowest layer, so that every app's checks come
after these.

- ``config.E001``: in production (debug off, a host that is not this machine) or on several hosts
  (``TRUCO_HOSTS``), ``DJANGO_SECRET_KEY`` must be set, or ``DJANGO_SECRET_KEY_FILE`` name the key's file on
  purpose (a secret, a shared volume; ``scripts/setup-and-run``'s one-machine LAN site: its ``var/secret_key``). Without it each machine makes its own
  ``var/secret_key``: sessions and password links signed on one host are refused by the others, and a
  recreated container logs everyone out. Required like the súmulas' seal key (``scoring.E001``).
- ``config.E002``: ``TRUCO_HOSTS`` names more than one host, and the media (the print jobs' PDFs) are
  on this machine's disk: a PDF printed by one host's worker is missing on the other host (a 500). A
  shared store is wanted: ``TRUCO_S3_BUCKET`` (S3-compatible) or ``TRUCO_SHARED_MEDIA_ROOT`` (a folder
  every host mounts).
- ``config.E003``: ``TRUCO_HOSTS`` names more than one host and ``DJANGO_CACHE_URL`` names no Redis: the
  public pages' cache and the error-mail limit (``config.logs.MailThrottleFilter``) would be counted per
  host.
"""
from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Error, register

#: host names that reach only this machine (as ``config.settings.LOCAL_HOSTS``)
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1", "testserver"}
_SHARED_CACHES = ("django.core.cache.backends.redis.RedisCache",)
_LOCAL_STORAGES = ("django.core.files.storage.FileSystemStorage", "django.core.files.storage.filesystem.FileSystemStorage")


class SiteConfig(AppConfig):
    """The checks below, registered at the import of this module (``INSTALLED_APPS``: ``config.checks.SiteConfig``)."""

    name = "config"
    label = "site_config"
    verbose_name = "Site"


def in_production() -> bool:
    """Debug off and a host that is not this machine (``scoring.checks.in_production``'s rule)."""
    hosts = set(getattr(settings, "ALLOWED_HOSTS", []) or [])
    return not settings.DEBUG and bool(hosts - LOCAL_HOSTS)


def several_hosts() -> list[str]:
    """The hosts ``TRUCO_HOSTS`` declares when it declares more than one; else ``[]``."""
    hosts = list(getattr(settings, "SITE_HOSTS", []) or [])
    return hosts if len(hosts) > 1 else []


def media_shared() -> bool:
    """The media go to a store every host reaches: not the local disk, or a folder declared shared."""
    backend = settings.STORAGES.get("default", {}).get("BACKEND", "")
    return backend not in _LOCAL_STORAGES or bool(getattr(settings, "SHARED_MEDIA_ROOT", ""))


@register()
def secret_key(app_configs=None, **kwargs):
    chosen = getattr(settings, "SECRET_KEY_FROM_ENVIRONMENT", True) or getattr(settings, "SECRET_KEY_FILE_CHOSEN", False)
    if chosen or not (in_production() or several_hosts()):
        return []
    return [Error(
        "DJANGO_SECRET_KEY is not set: this machine signs sessions and password links with a key of its own "
        "(var/secret_key), which another host or a recreated container does not have.",
        hint="Set DJANGO_SECRET_KEY, the same on every machine: "
             "python3 -c 'import secrets; print(secrets.token_urlsafe(50))' (README: Production); or "
             "DJANGO_SECRET_KEY_FILE, a file named on purpose (a secret, a shared volume).",
        id="config.E001")]


@register()
def shared_stores(app_configs=None, **kwargs):
    hosts = several_hosts()
    if not hosts:
        return []
    named = f"TRUCO_HOSTS names {len(hosts)} hosts ({', '.join(hosts)})"
    errors = []
    if not media_shared():
        errors.append(Error(
            f"{named} but the media (print jobs' PDFs) are on this machine's disk ({settings.MEDIA_ROOT}): "
            "a PDF made on one host is missing on the others.",
            hint="Set TRUCO_S3_BUCKET (an S3-compatible store) or TRUCO_SHARED_MEDIA_ROOT (a folder every host "
                 "mounts) (README: Several machines).", id="config.E002"))
    if settings.CACHES.get("default", {}).get("BACKEND") not in _SHARED_CACHES:
        errors.append(Error(
            f"{named} but DJANGO_CACHE_URL names no Redis: each host keeps its own cache and counts its own "
            "error mails.",
            hint="Set DJANGO_CACHE_URL=redis://<the shared Redis>:6379/2 on every host (README: Several machines).",
            id="config.E003"))
    return errors
