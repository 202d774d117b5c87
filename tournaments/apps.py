from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from scoring import numbering
        from scoring.signals import result_official

        from .numbering import bracket_numbers

        from . import checks  # noqa: F401 - the deploy check: an organizer exists
        from .receivers import on_result_official

        result_official.connect(on_result_official, dispatch_uid="tournaments.on_result_official")
        numbering.register(bracket_numbers)

        from django.db.models.signals import post_save

        from .models import Result
        from .services.ready import on_result_saved

        post_save.connect(on_result_saved, sender=Result, dispatch_uid="tournaments.ready.on_result_saved")

        from scoring.signals import match_started

        from .services.time_limit import on_match_started

        match_started.connect(on_match_started, dispatch_uid="tournaments.time_limit.on_match_started")

        # the player's data export and erasure (issue 27 §1, people.sections)
        from people import sections

        from . import player_page

        sections.register_export("tournaments", player_page.export_part)
        sections.register_eraser("pair-names", player_page.erase_pair_names)

        def rating_section(player, person_ids, viewer):  # imported when a player's page is drawn, not at start-up
            from .circuit_pages import rating_section

            return rating_section(player, person_ids, viewer)

        sections.register_section("rating", rating_section)
