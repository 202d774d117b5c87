from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "referee"
    verbose_name = _("Refereeing")

    def ready(self):
        # an open dispute holds the súmula: scoring asks, without importing referee
        from scoring import holds

        from .calls import holds_of

        holds.register(holds_of)
        # a penalty citing a ruling cites one of its own match
        from scoring import rulings

        from .models import Ruling

        rulings.register(lambda pk: Ruling.objects.filter(pk=pk).values_list("match_id", flat=True).first())
        # the player's page and data export show the discipline record (people.sections)
        from people import sections

        from . import discipline

        sections.register_section("discipline", discipline.section)
        sections.register_export("discipline", discipline.export_part)
        # what waits for the organizer on this side: calls, disputes, conflicts, late tables, appeals
        from tournaments import waiting as tournament_waiting

        from .waiting import waiting

        tournament_waiting.register("referee", waiting)
        # who may referee a tournament's tables: also the accounts its invitation links made (used, not revoked)
        from tournaments.services import referees

        from .invitations import invited_referees

        referees.register_source(invited_referees)
