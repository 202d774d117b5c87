from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DrawConfig(AppConfig):
    """Who plays whom (docs/architecture.md): stages, groups and brackets, rounds, byes, check-ins, the
    tables' referees, the matches themselves, their official results and the organizers' audit log."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "draw"
    verbose_name = _("Draw and matches")
