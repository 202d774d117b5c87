"""A player's discipline record across events (docs/people.md): the rulings against
the pairs the person played in (merged records included) and the penalties entered at their tables,
shown on the player's page (``people.sections``) only to site operators, the organizers of the events
the player entered and the referees of matches in those events; and their part of the player's data
export (LGPD). The escalation policy counts within a tournament, or across a circuit's stages when the
circuit says so (``Circuit.escalation_across_stages``, referee.services._step; art. 26)."""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from events import access
from scoring.models import Match, PenaltyEntry
from tournaments.player_page import person_pairs

from .models import Ruling


def _teams(ids: set[int]) -> tuple[dict[int, int], list[Match]]:
    """The person's matches, and for each the team (0 or 1) the person played in."""
    pair_ids = {pair.pk: pair.tournament_id for pair in person_pairs(ids)}
    matches = list(Match.objects.filter(Q(pair_a_id__in=pair_ids) | Q(pair_b_id__in=pair_ids))
                   .select_related("tournament", "pair_a", "pair_b"))
    return {m.pk: (0 if m.pair_a_id in pair_ids else 1) for m in matches}, matches


def may_see(viewer, ids: set[int]) -> bool:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    if access.operates_site(viewer):
        return True
    tournaments = {pair.tournament_id for pair in person_pairs(ids)}
    if not tournaments:
        return False
    return (person_pairs(ids).filter(tournament__organizer_id=viewer.pk).exists()
            or Match.objects.filter(tournament_id__in=tournaments, referee_id=viewer.pk).exists())


def record(ids: set[int]) -> dict:
    team_of, matches = _teams(ids)
    by_pk = {m.pk: m for m in matches}
    rulings = [r for r in Ruling.objects.filter(match_id__in=team_of).order_by("created_at")
               if r.offender_team == team_of[r.match_id]]
    penalties = [p for p in PenaltyEntry.objects.filter(game__match_id__in=team_of, ruling_id__isnull=True)
                 .select_related("game").order_by("game__match_id", "position")
                 if p.offender == team_of[p.game.match_id]]
    return {
        "rulings": [{"tournament": by_pk[r.match_id].tournament, "match": by_pk[r.match_id], "code": r.code,
                     "article": r.article, "points": r.points, "status": r.get_status_display(),
                     "created_at": r.created_at} for r in rulings],
        "penalties": [{"tournament": by_pk[p.game.match_id].tournament, "match": by_pk[p.game.match_id],
                       "article": p.article, "points": p.points, "reason": p.reason} for p in penalties],
    }


def section(player, ids: set[int], viewer) -> dict | None:
    if not may_see(viewer, ids):
        return None
    return {"key": "discipline", "title": _("Discipline record (organizers and referees only)"),
            "template": "referee/_discipline.html", "context": record(ids), "order": 50}


def export_part(ids: set[int]) -> tuple[str, dict]:
    data = record(ids)
    return "discipline", {
        "rulings": [{"tournament": r["tournament"].name if r["tournament"] else None, "match": r["match"].pk,
                     "infraction": r["code"], "article": r["article"], "points": r["points"], "status": r["status"]}
                    for r in data["rulings"]],
        "penalties": [{"tournament": p["tournament"].name if p["tournament"] else None, "match": p["match"].pk,
                       "article": p["article"], "points": p["points"], "reason": p["reason"]}
                      for p in data["penalties"]],
    }
