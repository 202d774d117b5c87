from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    """Circuits, ratings and categories: above ``tournaments``, which tells it what happened through
    the registrations below (docs/architecture.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        from people import sections
        from tournaments.services import after_results, season_hooks

        from . import followers, ranking_checks
        from .services import circuits, ratings

        # every decision on results marks the ratings, after the room and the live pages (a plain call)
        after_results.register_follower(followers.follow_results, last=True)
        season_hooks.register(placings_changed=circuits.refresh_stage_placings,
                              rating_order_changed=followers.rating_order_changed,
                              players_merged=followers.players_merged,
                              pair_ratings=ratings.pair_ratings, player_ratings=ratings.current_ratings,
                              derived_problems=ranking_checks.derived_problems)

        def rating_section(player, person_ids, viewer):  # imported when a player's page is drawn, not at start-up
            from .circuit_pages import rating_section

            return rating_section(player, person_ids, viewer)

        sections.register_section("rating", rating_section)
