"""The organizer dashboard's actions on demand: the forms the page does not carry for every pair and
every match, answered when the organizer opens them.

At 256 pairs the dashboard carried 7–8 forms per pair and 4–5 per match (2.1 MB). Now each pair has
one "actions" fold and each match card its folds (W.O., double W.O., result by hand, swap tables)
with nothing inside: opening one asks this module for the pair's or the match's panel, and the
page's script puts the fold's part in place (``data-panel`` on the row, ``data-part`` on the fold;
templates/tournaments/dashboard.html). Opening a fold is the same one tap as before. Asked without
``X-Dashboard-Panel`` (no script, or a link opened in a new tab) the same panel is a page of its own,
so every action stays reachable. The folded roster of the pairs (after the draw) comes the same way.

Read side only: the forms post to the same views as before, which answer with the dashboard.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from scoring.models import Match

from . import pages
from .models import Pair, Round, Stage, Tournament
from .room_hooks import room
from .views import organizer_only

#: the header the page's script sends: the answer is the panel alone, not a page
PANEL_HEADER = "X-Dashboard-Panel"


def _answer(request, template: str, context: dict, title: str):
    if request.headers.get(PANEL_HEADER):
        response = render(request, template, context)
    else:
        response = render(request, "tournaments/dashboard_panel.html", {**context, "panel": template, "title": title})
    patch_vary_headers(response, [PANEL_HEADER])
    return response


def _drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()


def _registration_open(tournament: Tournament, drawn: bool) -> bool:
    """As the dashboard says it: before the draw, or all along a Swiss (pages.stage_of)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    stage = pages.stage_of(tournament)
    return not drawn or (stage is not None and stage.format == Stage.Format.SWISS)


def _pair_context(tournament: Tournament) -> dict:
    drawn = _drawn(tournament)
    return {"tournament": tournament, "drawn": drawn, "registration_open": _registration_open(tournament, drawn),
            "push_on": room().notices()["push"]}


@organizer_only
@require_GET
def roster(request, tournament: Tournament):
    """The list of the pairs, each with its actions fold (the dashboard folds it after the draw)."""
    context = {**_pair_context(tournament), "pairs": pages.dashboard_pairs(tournament)}
    return _answer(request, "tournaments/dashboard/_roster.html", context, tournament.name)


@organizer_only
@require_GET
def pair_actions(request, tournament: Tournament, pk: int):
    """One pair's forms: edit, what to avoid, delete, new PINs, stop the notified phones, withdraw,
    disqualify, or reinstate a withdrawn pair."""
    pair = get_object_or_404(Pair.objects.select_related("first_player", "second_player", "substitute"),
                             pk=pk, tournament=tournament)
    context = {**_pair_context(tournament), "pair": pair}
    return _answer(request, "tournaments/dashboard/_pair_actions.html", context, pair.name)


@organizer_only
@require_GET
def match_actions(request, tournament: Tournament, pk: int):
    """One match's rarer forms: W.O., double W.O., the result by hand, swapping tables."""
    match = get_object_or_404(
        Match.objects.select_related("pair_a", "pair_b", "round", "tournament_result", "bracket_node"),
        pk=pk, tournament=tournament)
    row = pages.match_rows([match])[0]
    tables = Match.objects.filter(round=match.round_id, table__isnull=False).count() if match.round_id else 0
    context = {"tournament": tournament, "row": row, "m": match, "shown": match.round, "tables": tables,
               "result_retry": {}}
    title = f"{match.pair_a.name} × {match.pair_b.name}"
    return _answer(request, "tournaments/dashboard/_match_actions.html", context, title)
