from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "teams"
    verbose_name = _("Teams")

    def ready(self) -> None:
        from tournaments.services import after_results

        from .services.results import follow_results

        # every decision on results recomputes the team matches of the matches decided (a plain call)
        after_results.register_follower(follow_results)
