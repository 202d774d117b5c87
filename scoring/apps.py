from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Súmulas")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import checks  # noqa: F401 - the seal key's system checks

        post_migrate.connect(record_key_in_use, sender=self)


def record_key_in_use(sender, using="default", **kwargs) -> None:
    """After ``migrate`` (run by the deploy step as the tables' owner, the only role that may write which
    seal key is in use): in production, the first start records this machine's key, and a rotation by
    hand is adopted (``integrity.key_in_use_problem``; the check, as the app's role, only compares)."""
    from django.core.exceptions import ImproperlyConfigured
    from django.db import DatabaseError

    from . import checks, integrity

    if using == "default" and checks.in_production():
        try:
            integrity.key_in_use_problem(record=True)
        except (DatabaseError, ImproperlyConfigured):  # the checks that follow say what is wrong
            pass
