"""The bracket's match numbers for scoring's pages (``scoring.numbering``): the number a match has
on the bracket (``svg.match_numbers``) is the one the súmula, its PDF and the referee pages show."""
from __future__ import annotations

from .models import BracketNode, Tournament
from .svg import match_numbers


def bracket_numbers(matches: list) -> dict[int, int]:
    """``{match pk: bracket number}`` for the matches of ``matches`` that are bracket matches."""
    from . import services

    nodes = list(BracketNode.objects.filter(match_id__in=[m.pk for m in matches])
                 .values_list("match_id", "code", "stage__tournament_id"))
    out: dict[int, int] = {}
    for tournament_id in {t for _m, _c, t in nodes}:
        view = services.bracket_view(Tournament.objects.get(pk=tournament_id))
        if view is None:
            continue
        numbers = match_numbers(view.bracket)
        for match_id, code, t in nodes:
            if t == tournament_id and code in numbers:
                out[match_id] = numbers[code]
    return out
