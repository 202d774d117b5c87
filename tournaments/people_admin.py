"""The organizer's pages for people across tournaments (docs/people.md): no admin,
no API needed.

- ``/jogadores/<id>/duplicados/``: merge a duplicate record into this player (the same names among
  the organizer's players are offered; a record the organizer never had needs the player's PIN, the
  consent rule of ``players.may_merge``), and the merges of this person with "undo" for their author
  or a site operator;
- ``/jogadores/mesclas/<id>/desfazer/`` (POST): undo a merge.

(The site's rating method, ``/ratings/metodo/``, is the seasons app's: ``seasons.method_views``.)
Thin: every rule and write is ``people.services.merges`` and ``tournaments.players``; a refusal is shown on the page naming the field, nothing typed is lost (the form
comes back filled).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import Forbidden, ServiceError
from events import access
from people.models import Player, PlayerMerge
from people.names import plain_name
from people.services import merges
from scoring.pins import client_of

from . import players
from .models import Pair



def _operator(user) -> bool:
    return access.operates_site(user)


def _may_manage(user, person: Player) -> bool:
    return _operator(user) or players.organized_events_entered(person, user)


def candidates(person: Player, user) -> list[Player]:
    """Other records with the same name (no accents, no case) among the players of ``user``'s
    tournaments (a site operator: every organizer's); never merged, never erased."""
    pairs = Pair.objects.all() if _operator(user) else Pair.objects.filter(tournament__organizer_id=user.pk)
    ids = set()
    for a, b in pairs.values_list("first_player_id", "second_player_id").iterator():
        ids.update((a, b))
    ids -= merges.person_ids(person)
    wanted = plain_name(person.name)
    rows = Player.objects.filter(pk__in=ids, merged_into__isnull=True, anonymised_at__isnull=True)
    same = [pk for pk, name in rows.values_list("pk", "name").iterator() if plain_name(name) == wanted]
    return list(Player.objects.filter(pk__in=same[:20]).select_related("club").order_by("pk"))


def _merge_url(person: Player) -> str:
    return reverse("tournaments:player-merges", kwargs={"pk": person.pk})


@never_cache
@require_http_methods(["GET", "POST"])
def merge_page(request, pk: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    person = merges.canonical(player)
    if person.pk != player.pk:
        return redirect(_merge_url(person))
    if not _may_manage(request.user, person):
        raise PermissionDenied(_("Only an organizer of an event this player entered, or a site operator, "
                                 "merges their records."))
    typed = {"duplicate": "", "reason": "", "field": "", "error": ""}
    status = 200
    if request.method == "POST":
        typed.update(duplicate=request.POST.get("duplicate", "").strip(), reason=request.POST.get("reason", "").strip())
        try:
            try:
                duplicate_id = int(typed["duplicate"])
            except ValueError:
                raise ServiceError(_("Duplicate: give the number of the other record (the player's id)."),
                                   "duplicate") from None
            duplicate = Player.objects.filter(pk=duplicate_id).first()
            if duplicate is None:
                raise ServiceError(_("Duplicate: no player %(id)s.") % {"id": duplicate_id}, "duplicate")
            if duplicate.merged_into_id == person.pk:  # the same form sent twice (a double tap): done already
                messages.info(request, _("Player %(id)s is already this person.") % {"id": duplicate.pk})
                return redirect(_merge_url(person))
            players.may_merge(request.user, person, duplicate, pin=request.POST.get("pin") or None,
                              client=client_of(request))
            merge = players.merge_players(person, duplicate, by=request.user, reason=typed["reason"])
        except ServiceError as error:
            if isinstance(error, Forbidden) and error.field != "pin" and error.field != "duplicate":
                raise PermissionDenied(error.message) from None
            typed.update(field=error.field or "", error=error.message)
            status = error.status
        else:
            messages.success(request, _("Player %(duplicate)s is now %(kept)s (merge %(id)s): both histories "
                                        "show here; the merge can be undone.")
                             % {"duplicate": duplicate.pk, "kept": person.name, "id": merge.pk})
            return redirect(_merge_url(person))
    ids = merges.person_ids(person)
    done = list(PlayerMerge.objects.filter(Q(kept_id__in=ids) | Q(duplicate_id__in=ids))
                .select_related("kept", "duplicate", "merged_by", "undone_by")[:50])
    for row in done:
        row.may_undo = row.undone_at is None and (_operator(request.user) or row.merged_by_id == request.user.pk)
    return render(request, "people/merges.html", {
        "player": person, "candidates": candidates(person, request.user), "merges": done, "typed": typed,
    }, status=status)


@require_POST
def undo_merge(request, merge_id: int):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:home"))
    merge = get_object_or_404(PlayerMerge.objects.select_related("kept"), pk=merge_id)
    if not (_operator(request.user) or merge.merged_by_id == request.user.pk):
        raise PermissionDenied(_("Only who made the merge, or a site operator, undoes it."))
    try:
        players.unmerge(merge, by=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Merge undone: player %(id)s is a person of their own again.")
                         % {"id": merge.duplicate_id})
    return redirect(_merge_url(merges.canonical(merge.kept)))
