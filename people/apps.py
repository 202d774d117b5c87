from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PeopleConfig(AppConfig):
    """Who plays, across tournaments and organizers (docs/people.md): players, clubs, merges, personal data."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
    verbose_name = _("People")
