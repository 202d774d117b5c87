"""The site's operators, a small role apart from every organization (docs/security.md, "Many clubs on one
site"): a superuser, or an account given the ``events.operate_site`` permission (declared on
``events.Organization``). They handle accounts, the site-wide rating method, any login's lockout and merges
across organizations. Being *staff* grants nothing in the product: it only opens Django's admin."""
from __future__ import annotations


def operates_site(user) -> bool:
    """An active superuser, or an active account with ``events.operate_site`` (its own or a group's): one query,
    remembered on the user object for the request."""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    if user.is_superuser:
        return True
    known = getattr(user, "truco_operates_site", None)
    if known is None:
        from django.contrib.auth.models import Permission

        known = user.truco_operates_site = Permission.objects.filter(operates_site_condition(user)).exists()
    return known


def operates_site_condition(user):
    """:func:`operates_site` as a condition any query can carry (true for every row, or none), so that a page
    asked every few seconds learns it inside its one query instead of filling the permission cache."""
    from django.contrib.auth.models import Permission
    from django.db.models import Exists, Q

    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return Q(pk__in=[])
    if user.is_superuser:
        return Q(pk__isnull=False)
    granted = Q(codename="operate_site", content_type__app_label="events")
    return (Q(Exists(Permission.objects.filter(granted, user=user.pk)))
            | Q(Exists(Permission.objects.filter(granted, group__user=user.pk))))
