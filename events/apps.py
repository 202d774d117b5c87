from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    """A tournament and who is in it (docs/architecture.md): the event, its pairs, its organizers and
    co-organizers, and players signing themselves up."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "events"
    verbose_name = _("Events")
