from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Súmulas")

    def ready(self) -> None:
        from . import checks, print_upkeep  # noqa: F401 - the seal key's system checks; the print job file cleanup
