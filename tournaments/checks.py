"""The deploy check of a production site's first account: ``manage.py check --deploy`` fails
(``tournaments.E001``) when debug is off, a host is not this machine, and no active account can organize
a tournament (a superuser, or the ``events.add_tournament`` permission): a fresh production
site that nobody can log in to. ``manage.py create_organizer`` makes the first one. A database that
cannot be read yet (not migrated, unreachable) is left to ``migrate`` and the site to report."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.checks import Error, register
from django.db import DatabaseError
from django.db.models import Q

from scoring.checks import in_production



def organizers():
    """Active accounts that may create and run tournaments (``services.can_create_tournament``)."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(
        Q(is_superuser=True)
        | Q(user_permissions__codename="add_tournament", user_permissions__content_type__app_label="events")
        | Q(groups__permissions__codename="add_tournament", groups__permissions__content_type__app_label="events")
    ).distinct()


@register(deploy=True)
def an_organizer_exists(app_configs=None, **kwargs):
    if not in_production():
        return []
    try:
        exists = organizers().exists()
    except DatabaseError:
        return []
    if exists:
        return []
    return [Error("No account can log in to organize tournaments: the site has no organizer.",
                  hint="Create one: python manage.py create_organizer (README: Production).", id="tournaments.E001")]
