from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "room"
    verbose_name = _("The room")

    def ready(self) -> None:
        from .hooks import register

        # scoring's match_started, tournaments' follower of results, its room and its live pages' marker
        register()
