from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    """Fair-play flags for an event's referees and organizers (docs/fair-play.md): patterns in what the súmulas
    recorded that a referee should look at, each with its evidence and how unusual it is; flags, never sanctions;
    never on public pages; every look at the report audited. Above tournaments and scoring (it reads the
    súmulas' hands and the room's calls from the audit log); nothing below reads it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = _("Fair play")
