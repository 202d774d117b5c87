"""The player's page (docs/people.md), ``/jogadores/<id>/``, public and phone first:
who they are (name, nickname, club and its history), every tournament the person played (their
merged records included) with pair, partner, record and, once the tournament is finished, the
pair's placing, and every match with its result; then the
sections other apps register in ``people.sections`` (the discipline record of ``referee``; the rating
chart of ``seasons``), each deciding what the viewer sees.
The contact shows only to the organizers of the events the player entered (``players.contact_visible``).

Also what ``tournaments`` gives the player's data export and erasure (``people.sections``):
their pairs and matches, and the pair names that spell their name.
"""
from __future__ import annotations

import re

from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from events import access
from people import sections
from people.models import Player
from people.services import clubs, merges
from scoring.models import Match

from . import players
from .models import Pair, Result, Tournament
from .services.standings import standings


def person_pairs(ids: set[int]):
    return (Pair.objects.filter(Q(first_player_id__in=ids) | Q(second_player_id__in=ids) | Q(substitute_id__in=ids))
            .select_related("tournament", "first_player", "second_player", "substitute"))


def _outcome(pair_id: int, match: Match, result: Result | None) -> str:
    if result is None or result.winner_id is None:
        return "pending" if result is None else "draw"
    return "won" if result.winner_id == pair_id else "lost"


def _placings(pairs) -> dict[int, int]:
    """``{pair id: final place}`` for the pairs whose tournament is finished (its standings, which
    follow the bracket and any place set by hand; a constant number of queries per tournament)."""
    places: dict[int, int] = {}
    finished = {p.tournament_id: p.tournament for p in pairs if p.tournament.status == Tournament.Status.FINISHED}
    for tournament in finished.values():
        places.update((line.pair.pk, line.rank) for line in standings(tournament).rows)
    return places


def history(ids: set[int]) -> list[dict]:
    """One entry per tournament the person played, newest first: the pair, the partner, the matches
    (opponent, score, outcome), the record (won, lost) and the placing (a finished tournament's)."""
    pairs = sorted(person_pairs(ids), key=lambda p: (p.tournament.date, p.tournament_id), reverse=True)
    by_pair = {pair.pk: pair for pair in pairs}
    matches = (Match.objects.filter(Q(pair_a_id__in=by_pair) | Q(pair_b_id__in=by_pair))
               .select_related("pair_a", "pair_b", "round").order_by("round__number", "pk"))
    results = {r.match_id: r for r in Result.objects.filter(match__in=[m.pk for m in matches])}
    rows: dict[int, list[dict]] = {pk: [] for pk in by_pair}
    for match in matches:
        mine = match.pair_a if match.pair_a_id in by_pair else match.pair_b
        opponent = match.pair_b if mine.pk == match.pair_a_id else match.pair_a
        result = results.get(match.pk)
        score = ""
        if result is not None:
            games = (result.games_a, result.games_b) if mine.pk == result.pair_a_id else (result.games_b, result.games_a)
            points = (result.points_a, result.points_b) if mine.pk == result.pair_a_id else (result.points_b, result.points_a)
            score = f"{games[0]}–{games[1]}" if match.best_of > 1 else f"{points[0]}–{points[1]}"
        rows[mine.pk].append({"match": match, "opponent": opponent, "result": result, "score": score,
                              "outcome": _outcome(mine.pk, match, result), "round": match.round})
    places = _placings(pairs)
    out = []
    for pair in pairs:
        partner = [p for p in (pair.first_player, pair.second_player) if p.pk not in ids]
        played = rows[pair.pk]
        out.append({"pair": pair, "tournament": pair.tournament, "partner": partner[0] if partner else None,
                    "substitute": pair.substitute_id in ids, "matches": played, "placing": places.get(pair.pk),
                    "won": sum(r["outcome"] == "won" for r in played),
                    "lost": sum(r["outcome"] == "lost" for r in played)})
    return out


@require_GET
def player_page(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    person = merges.canonical(player)
    if person.pk != player.pk:
        return redirect("tournaments:player", pk=person.pk)
    ids = merges.person_ids(person)
    viewer = request.user
    context = {
        "player": person, "clubs": clubs.history(person), "history": history(ids),
        "contact": person.contact if players.contact_visible(person, viewer) else None,
        "sections": sections.sections(person, ids, viewer),
        "issues_link": players.may_issue_data_link(viewer, person),
        "manages": viewer.is_authenticated and (access.operates_site(viewer)
                                                or players.organized_events_entered(person, viewer)),
    }
    return render(request, "people/player.html", context)


# ---- the player's data export and erasure (people.sections)

def export_part(ids: set[int]) -> tuple[str, list]:
    return "tournaments", [
        {"tournament": entry["tournament"].name, "date": entry["tournament"].date.isoformat(),
         "pair": entry["pair"].name, "partner": entry["partner"].name if entry["partner"] else None,
         "matches": [{"against": r["opponent"].name, "score": r["score"], "outcome": r["outcome"]}
                     for r in entry["matches"]]}
        for entry in history(ids)]


def erase_pair_names(ids: set[int], old_names: set[str], new_name: str) -> None:
    """A pair named after the erased player ("Ana Souza/Bia", or "Ana/Bia" by the first name) has that name
    replaced ("Jogador anonimizado 7/Bia"), as whole words."""
    words = set(old_names) | {n.split()[0] for n in old_names if n.split()}
    for pair in person_pairs(ids):
        name = pair.name
        for old in sorted((n for n in words if n), key=len, reverse=True):
            name = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", lambda _match: new_name, name)
        if name != pair.name:
            taken = Pair.objects.filter(tournament_id=pair.tournament_id, name__iexact=name[:120]).exclude(pk=pair.pk)
            Pair.objects.filter(pk=pair.pk).update(name=(name if not taken.exists() else f"{name} ({pair.pk})")[:120])
