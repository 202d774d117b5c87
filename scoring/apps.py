from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from . import checks, print_upkeep  # noqa: F401 - the seal key's system checks; the print job file cleanup
