"""Whose players an organizer may use, and whose contacts they may read.

An organizer brings an existing player into a tournament by id only when the player already
played in one of that organizer's tournaments, or when the player consents by giving their PIN
(``{"id": 12, "pin": "..."}``, checked and counted by ``scoring.pins`` like any PIN). A new
player given by name and contact is matched only against that organizer's own players;
otherwise a new player is made. A player's contact is shown only to the organizer who entered
it (and to site operators); a contact nobody is recorded to have entered, to the organizers of the
events the player entered. The same consent rule decides who may merge two records of one person
(:func:`may_merge`, docs/people.md) and who may hand a player the link to their personal data.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError

from events import access
from people.names import plain_name
from people.services import merges

from people.models import PlayerMerge
from scoring.models import Match

from .models import Pair, Player, Tournament
from .services import season_hooks



def _same_owner(tournament: Tournament) -> Q:
    """Pairs of the events run by whoever runs ``tournament``: its organization's, or (an event made before
    organizations) its organizer's own."""
    if tournament.organization_id is not None:
        return Q(tournament__organization_id=tournament.organization_id)
    if tournament.organizer_id is None:
        return Q(tournament__organizer__isnull=True)
    return Q(tournament__organizer_id=tournament.organizer_id)


def known_player_ids(tournament: Tournament) -> set[int]:
    """Players of any pair in an event of ``tournament``'s organization (or organizer, before organizations)."""
    ids: set[int] = set()
    for row in Pair.objects.filter(_same_owner(tournament)).values_list(
            "first_player_id", "second_player_id", "substitute_id"):
        ids.update(i for i in row if i)
    return ids


def require_use(tournament: Tournament, player: Player, pin: object, field: str) -> None:
    """Refuse a player given by id that this organizer does not know, unless their PIN consents."""
    if pin is None and player.pk in known_player_ids(tournament):
        return
    if pin:
        from scoring import pins

        outcome = pins.verify(player, client=f"organizer:{tournament.organizer_id}", pin=str(pin))
        if outcome.ok:
            return
        raise Forbidden(outcome.why, f"{field}.pin")
    raise Forbidden(_("Player %(id)s never played in your tournaments: register them by name and contact, or "
                      "give their id with their PIN (the player consents).") % {"id": player.pk}, field)


def consents(tournament: Tournament, by, data: dict) -> set[int]:
    """Check the PINs of players given as ``{"id", "pin"}`` (in their own transaction, so failures stay
    counted); return the ids that consented. Only the tournament's managers get to try."""
    asked = {key: value for key, value in data.items()
             if key in ("first_player", "second_player", "substitute") and isinstance(value, dict) and "id" in value}
    if not asked:
        return set()
    if not access.manages(by, tournament):
        raise Forbidden(_("Only the tournament's organizer registers its pairs."))
    consented = set()
    for key, value in asked.items():
        player = Player.objects.filter(pk=value["id"]).first() if type(value["id"]) is int else None
        if player is None:
            continue  # clean_registration names the field
        require_use(tournament, player, value.get("pin") or "", key)
        consented.add(player.pk)
    return consented


def same_person(tournament: Tournament, name: str, contact: str) -> Player | None:
    """This organizer's player with ``name`` and ``contact`` (the same person registered again)."""
    return (Player.objects.filter(name__iexact=name, contact=contact, pk__in=known_player_ids(tournament))
            .order_by("pk").first())


def organized_events_entered(player: Player, user) -> bool:
    """``user`` runs (as its own or its organization's) an event this person (any of their merged records)
    entered: ``events.access.knows_player``. A co-organizer of another club's event is not one."""
    return access.knows_player(user, merges.person_ids(player))


def contact_visible(player: Player, user) -> bool:
    """Only who entered a contact (or a site operator) reads it; a contact of unknown origin: the organizers
    of the events the player entered."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if access.operates_site(user):
        return True
    if player.entered_by_id is not None:
        return player.entered_by_id == user.pk
    return organized_events_entered(player, user)


def may_issue_data_link(user, player: Player) -> bool:
    """Who hands a player the link to their personal data (LGPD, docs/people.md): site operators, and the
    organizers of the events the player entered when no other organization's event of theirs is still running
    (the link can erase the player); when the player has a contact, only those who may read
    it (the link shows it: whoever issues one could open it themselves)."""
    if user is None or not getattr(user, "is_authenticated", False) or player.anonymised_at is not None:
        return False
    if access.operates_site(user):
        return True
    # the link erases the player everywhere: an organizer hands it only when every event still running is theirs
    ids = merges.person_ids(player)
    return (access.knows_player(user, ids) and access.acts_alone_on(user, ids)
            and (not player.contact or contact_visible(player, user)))


def may_merge(user, kept: Player, duplicate: Player, pin: object = None, client: str = "") -> None:
    """Refuse a merge ``user`` may not make (docs/people.md): a site operator may; an organizer who knows both
    records (each played in one of their tournaments) may; one who knows a record may bring the other with
    that record's PIN (the player consents), as registration does (``require_use``)."""
    from scoring import pins

    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden(_("Sign in to merge players."), "kept")
    if access.operates_site(user):
        return
    unknown = [(field, player) for field, player in (("kept", kept), ("duplicate", duplicate))
               if not organized_events_entered(player, user)]
    if not unknown:
        return
    if len(unknown) == 1 and pin:
        field, player = unknown[0]
        outcome = pins.verify(player, client=client or f"organizer:{user.pk}", pin=str(pin))
        if outcome.ok:
            return
        raise Forbidden(outcome.why, "pin")
    field, player = unknown[0]
    raise Forbidden(_("Player %(id)s never played in your tournaments: a merge needs their PIN (the player "
                      "consents) or a site operator.") % {"id": player.pk}, field)


class SameName(ServiceError):
    """A new player has the name of a player already registered: the same person, or another?
    ``candidates`` are ``(player, pair or None)``: in a pair of this tournament, or this organizer's player."""

    def __init__(self, message: str, field: str, candidates: list) -> None:
        super().__init__(message, field)
        self.candidates = candidates


class NameIndex:
    """The players a new name is compared with, read once (two queries) and looked up by
    :func:`plain_name`: those in a pair of ``tournament`` still in it (with that pair), then this organizer's
    other players. A CSV import builds one for all its rows instead of reading them again per row."""

    def __init__(self, tournament: Tournament) -> None:
        self.in_tournament: dict[str, list[tuple[Player, Pair]]] = {}
        pairs = Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN).select_related(
            "first_player__club", "second_player__club", "substitute__club")
        for pair in pairs:
            for player in (pair.first_player, pair.second_player, pair.substitute):
                if player is not None:
                    self.in_tournament.setdefault(plain_name(player.name), []).append((player, pair))
        self.elsewhere: dict[str, set[int]] = {}
        for row in Pair.objects.filter(_same_owner(tournament)).values_list(
                "first_player_id", "first_player__name", "second_player_id", "second_player__name",
                "substitute_id", "substitute__name"):
            for pk, named in zip(row[::2], row[1::2]):
                if pk:
                    self.elsewhere.setdefault(plain_name(named), set()).add(pk)

    def lookup(self, name: str, exclude_pair: Pair | None = None) -> list[tuple[Player, Pair | None]]:
        wanted = plain_name(name)
        found: list[tuple[Player, Pair | None]] = []
        seen: set[int] = set()
        for player, pair in self.in_tournament.get(wanted, []):
            if player.pk not in seen and (exclude_pair is None or pair.pk != exclude_pair.pk):
                seen.add(player.pk)
                found.append((player, pair))
        more = sorted(self.elsewhere.get(wanted, set()) - seen)
        if more:
            found += [(player, None) for player in Player.objects.filter(pk__in=more).order_by("pk")]
        return found


def namesakes(tournament: Tournament, name: str, exclude_pair: Pair | None = None) -> list[tuple[Player, Pair | None]]:
    """Players named like ``name`` (:func:`plain_name`): first those in a pair of ``tournament`` still in it
    (with that pair), then this organizer's other players (pair None)."""
    return NameIndex(tournament).lookup(name, exclude_pair)


def same_name_error(tournament: Tournament, name: str, field: str, exclude_pair: Pair | None = None,
                    index: NameIndex | None = None) -> SameName | None:
    """The question to ask before registering a new player called ``name``, or None when nobody has that name."""
    candidates = (index or NameIndex(tournament)).lookup(name, exclude_pair)
    if not candidates:
        return None
    player, pair = candidates[0]
    where = (_("in the pair %(pair)s of this tournament") % {"pair": pair.name} if pair is not None
             else _("in an earlier tournament of yours"))
    club = f" ({player.club.name})" if player.club_id else ""
    return SameName(_("%(name)s%(club)s is already registered %(where)s (player id %(id)s). Is it the same person? "
                      "Choose the registered player, or confirm that they are different people.")
                    % {"name": player.name, "club": club, "where": where, "id": player.pk}, field, candidates)


def _facing_in_a_live_match(kept: Player, duplicate: Player) -> Match | None:
    """A match not decided yet in which ``kept`` and ``duplicate`` play on opposite sides (partners and
    substitutes): merged, one person would sit on both sides and neither could sign."""
    def pairs_of(player: Player):
        return Pair.objects.filter(Q(first_player=player) | Q(second_player=player) | Q(substitute=player)).values("pk")

    mine, theirs = pairs_of(kept), pairs_of(duplicate)
    return (Match.objects.filter(winner__isnull=True, tournament_result__isnull=True)  # neither signed nor official
            .filter(Q(pair_a__in=mine, pair_b__in=theirs) | Q(pair_a__in=theirs, pair_b__in=mine)).first())


def merge_players(kept: Player, duplicate: Player, *, by, reason: str) -> PlayerMerge:
    """People's merge (``people.services.merges``, the caller checked :func:`may_merge`), then the
    season told (``season_hooks.players_merged``): the pairs it repointed played matches that now rate as
    the kept person's (docs/ratings.md). Two players facing each
    other in a match still being played are two people: refused (people cannot see matches, so here)."""
    with transaction.atomic():
        facing = _facing_in_a_live_match(kept, duplicate)
        if facing is not None:
            raise Conflict(_("Players %(a)s and %(b)s face each other in a match still being played (match "
                             "%(match)s): one person cannot play against themselves, so they are two people.")
                           % {"a": kept.pk, "b": duplicate.pk, "match": facing.pk}, "duplicate")
        merge = merges.merge_players(kept, duplicate, by=by, reason=reason)
        season_hooks.players_merged(merge)
    return merge


def unmerge(merge: PlayerMerge, *, by) -> PlayerMerge:
    """People's undoing of a merge, then the season told, as :func:`merge_players`."""
    with transaction.atomic():
        merge = merges.unmerge(merge, by=by)
        season_hooks.players_merged(merge)
    return merge

