from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from scoring import hook, numbering

        from .numbering import bracket_numbers

        from . import checks  # noqa: F401 - the deploy check: an organizer exists
        from .services.results import record_official_result

        # what scoring tells the tournament: a result became official (scoring/hook.py; a match started is
        # the room's: RoomConfig.ready)
        hook.register(result_official=record_official_result)
        numbering.register(bracket_numbers)

        # the player's data export and erasure (people.sections)
        from people import sections

        from . import player_page

        sections.register_export("tournaments", player_page.export_part)
        sections.register_eraser("pair-names", player_page.erase_pair_names)
