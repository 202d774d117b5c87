"""Duplicates of one person joined, and split again (docs/people.md).

:func:`merge_players` repoints every row that refers to the duplicate (pairs, signing codes, claims,
appeals, club memberships, and whatever later apps add: every foreign key to ``Player`` is found
through the model's meta API) to the kept player, fills the kept player's empty fields from the
duplicate, and records all of it in a :class:`PlayerMerge`; :func:`unmerge` puts back exactly what
was recorded. Append-only history (signatures, súmula versions, event logs) is never rewritten: it
keeps the duplicate's id, which :func:`person_ids` resolves (the duplicate's ``merged_into``).
"""
from __future__ import annotations

from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.history import AppendOnly

from ..models import ClubMembership, DataAccessLink, Player, PlayerMerge

# Empty fields of the kept player that take the duplicate's value (recorded, restored by an unmerge);
# a contact comes with who entered it (only they read it: tournaments.players.contact_visible).
FILLED = ("nickname", "federation_number", "pin_hash")
NOT_MOVED = (Player, PlayerMerge, DataAccessLink)  # the identity itself, the merge's audit, the duplicate's links


def references() -> list[tuple[type, str]]:
    """``(model, field name)`` of every foreign key to :class:`Player` whose rows a merge repoints."""
    found = []
    for rel in Player._meta.get_fields(include_hidden=True):
        if not (rel.is_relation and rel.auto_created and not rel.concrete and (rel.many_to_one or rel.one_to_many)):
            continue
        model = rel.related_model
        if issubclass(model, AppendOnly) or model in NOT_MOVED:
            continue
        found.append((model, rel.field.name))
    return sorted(found, key=lambda item: (item[0]._meta.label_lower, item[1]))


def canonical(player: Player) -> Player:
    """The player a (possibly merged) record is now: follows ``merged_into``."""
    seen = set()
    while player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        player = Player.objects.get(pk=player.merged_into_id)
    return player


def person_ids(player: Player) -> set[int]:
    """The ids of every record of this person: the player and the duplicates merged into it (and theirs)."""
    ids, frontier = {player.pk}, [player.pk]
    while frontier:
        frontier = [pk for pk in Player.objects.filter(merged_into__in=frontier).values_list("pk", flat=True)
                    if pk not in ids]
        ids.update(frontier)
    return ids


@transaction.atomic
def merge_players(kept: Player, duplicate: Player, *, by, reason: str) -> PlayerMerge:
    """``duplicate`` is the same person as ``kept``: repoint and record (see the module). The caller checks
    that ``by`` may (``tournaments.players.may_merge``: the consent rule of cross-organizer registration)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(_("Say why these are the same person."), "reason")
    kept, duplicate = (Player.objects.select_for_update().get(pk=p.pk) for p in (kept, duplicate))
    if kept.pk == duplicate.pk:
        raise ServiceError(_("Choose two different players."), "duplicate")
    for player, field in ((kept, "kept"), (duplicate, "duplicate")):
        if player.merged_into_id is not None:
            raise Conflict(_("Player %(id)s was already merged into player %(into)s.")
                           % {"id": player.pk, "into": player.merged_into_id}, field)
        if player.anonymised_at is not None:
            raise Conflict(_("Player %(id)s asked to erase their data: they cannot be merged.") % {"id": player.pk},
                           field)
    moved: dict[str, list[int]] = {}
    for model, name in references():
        rows = model.objects.filter(**{name: duplicate})
        if model is ClubMembership and ClubMembership.objects.filter(player=kept, until__isnull=True).exists():
            rows = rows.exclude(until__isnull=True)  # one open membership: the kept player's club stays
        ids = sorted(rows.values_list("pk", flat=True))
        if not ids:
            continue
        try:
            with transaction.atomic():
                model.objects.filter(pk__in=ids).update(**{name: kept})
        except IntegrityError:
            raise Conflict(_("Players %(a)s and %(b)s appear together in one %(what)s: they are two people.")
                           % {"a": kept.pk, "b": duplicate.pk, "what": model._meta.verbose_name}, "duplicate") from None
        moved[f"{model._meta.label_lower}.{name}"] = ids
    filled = {}
    for field in FILLED:
        if not getattr(kept, field) and getattr(duplicate, field):
            filled[field] = getattr(duplicate, field)
            setattr(kept, field, getattr(duplicate, field))
    if not kept.contact and duplicate.contact:
        filled.update(contact=duplicate.contact, entered_by_id=duplicate.entered_by_id,
                      kept_entered_by_id=kept.entered_by_id)
        kept.contact, kept.entered_by_id = duplicate.contact, duplicate.entered_by_id
    if kept.club_id is None and duplicate.club_id is not None:
        filled["club_id"] = duplicate.club_id
        kept.club_id = duplicate.club_id
    if "federation_number" in filled:  # unique: the duplicate gives it up while merged
        Player.objects.filter(pk=duplicate.pk).update(federation_number="")
    duplicate.merged_into = kept
    duplicate.save(update_fields=["merged_into"])
    kept.save()
    return PlayerMerge.objects.create(kept=kept, duplicate=duplicate, reason=reason[:300], moved=moved,
                                      filled=filled, merged_by=by)


@transaction.atomic
def unmerge(merge: PlayerMerge, *, by) -> PlayerMerge:
    """Undo ``merge``: the recorded rows point to the duplicate again and the filled fields empty again
    (those the kept player has not changed since); the duplicate is a person of its own again."""
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undone_at is not None:
        raise Conflict(_("This merge was already undone."), "merge")
    kept = Player.objects.select_for_update().get(pk=merge.kept_id)
    duplicate = Player.objects.select_for_update().get(pk=merge.duplicate_id)
    if kept.anonymised_at is not None:
        raise Conflict(_("The player asked to erase their data: the merge stays."), "merge")
    for key, ids in merge.moved.items():
        app_label, model_name, name = key.split(".")
        model = apps.get_model(app_label, model_name)
        model.objects.filter(pk__in=ids, **{name: kept}).update(**{name: duplicate})
    for field, value in merge.filled.items():
        if field in ("entered_by_id", "kept_entered_by_id"):
            continue
        if getattr(kept, field) == value:
            setattr(kept, field, "" if field != "club_id" else None)
            if field == "contact":
                kept.entered_by_id = merge.filled.get("kept_entered_by_id")
    kept.save()  # first: a federation number the duplicate gave up is free again
    if "federation_number" in merge.filled:
        duplicate.federation_number = merge.filled["federation_number"]
    duplicate.merged_into = None
    duplicate.save(update_fields=["merged_into", "federation_number"])
    merge.undone_at, merge.undone_by = timezone.now(), by
    merge.save(update_fields=["undone_at", "undone_by"])
    return merge
