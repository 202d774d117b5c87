"""Registration: cleaning a pair's players, registering, editing and deleting pairs (before the
draw). A pair that leaves after the draw withdraws (``withdrawals``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _

from config.errors import Conflict
from people.services.players import create_player
from scoring.models import Match

from .. import players
from ..models import AuditEntry, Pair, Player, Stage, Tournament
from .base import (TournamentError, _audit, _drawn, _int, _lock_tournament, _reason,
                   _require_manager)


PLAYER_TEXT = {"name": 120, "nickname": 60, "club": 120, "contact": 200, "federation_number": 30}
PAIR_PLAYER_FIELDS = ("first_player", "second_player", "substitute")


@dataclass
class _PlayerSpec:
    """A player to reuse (``player``) or to create from ``data``."""

    player: Player | None = None
    data: dict = field(default_factory=dict)
    by_id: bool = False  # given by id: the organizer must know the player, or the player consents

    @property
    def key(self) -> tuple:
        if self.player is not None:
            return ("pk", self.player.pk)
        contact = self.data.get("contact", "")
        if contact:
            return ("person", self.data["name"].casefold(), contact.casefold())
        return ("new", id(self))


def clean_player(value: object, field: str, tournament: Tournament | None = None) -> _PlayerSpec:
    """A player given as a :class:`Player`, a player id, ``{"id", "pin"}`` (the player consents,
    tournaments.players) or ``{"name", "nickname", "club", "contact", "federation_number"}``."""
    if isinstance(value, Player):
        return _PlayerSpec(player=value)
    if isinstance(value, dict) and "id" in value:
        value = value["id"]
    if type(value) is int:
        player = Player.objects.filter(pk=value).first() if 0 < value < 2**63 else None
        if player is None:
            raise TournamentError(_("No player with id %(id)s.") % {"id": value}, field)
        return _PlayerSpec(player=player, by_id=True)
    if not isinstance(value, dict):
        raise TournamentError(_("A player is an id or an object with a name (and nickname, club, contact)."), field)
    unknown = set(value) - set(PLAYER_TEXT)
    if unknown:
        raise TournamentError(_("Unknown field: %(name)s.") % {"name": sorted(unknown)[0]}, f"{field}.{sorted(unknown)[0]}")
    data = {}
    for key, limit in PLAYER_TEXT.items():
        text = value.get(key) or ""
        if not isinstance(text, str):
            raise TournamentError(_("This is a text."), f"{field}.{key}")
        text = " ".join(text.split())
        if len(text) > limit:
            raise TournamentError(_("At most %(limit)s characters.") % {"limit": limit}, f"{field}.{key}")
        data[key] = text
    if not data["name"]:
        raise TournamentError(_("The player's name is required."), f"{field}.name")
    if data["federation_number"]:  # one person per number (docs/people.md): the registered player, or a refusal
        holder = Player.objects.filter(federation_number=data["federation_number"]).first()
        if holder is not None:
            if tournament is not None and holder.pk in players.known_player_ids(tournament):
                return _PlayerSpec(player=holder, data=data)
            raise TournamentError(_("Player %(id)s has the federation number %(number)s: give them by id, with "
                                    "their PIN if they never played in your tournaments (the player consents).")
                                  % {"id": holder.pk, "number": data["federation_number"]},
                                  f"{field}.federation_number")
    if data["contact"] and tournament is not None:  # the organizer registered this person before: reuse
        found = players.same_person(tournament, data["name"], data["contact"])
        if found is not None:
            return _PlayerSpec(player=found, data=data)
    return _PlayerSpec(data=data)


def _resolve_player(spec: _PlayerSpec, tournament: Tournament) -> Player:
    """Reuse a player with the same name and contact (when a contact is given), else create one."""
    if spec.player is not None:
        return spec.player
    return create_player(**spec.data, entered_by_id=tournament.organizer_id)


def _check_registration_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."), "tournament")
    stage = Stage.objects.filter(tournament=tournament).first()
    if _drawn(tournament) and (stage is None or stage.format != Stage.Format.SWISS):
        raise Conflict(_("The draw was made: a pair registered now would not be paired."), "tournament")


def clean_registration(tournament: Tournament, data: dict, *, pair: Pair | None = None,
                       taken_names: set[str] | None = None, taken_seeds: set[int] | None = None,
                       consented: set[int] = frozenset(), namesakes: str = "ask",
                       name_index: players.NameIndex | None = None) -> dict:
    """Check a pair's registration (``name``, ``first_player``, ``second_player``, optional
    ``substitute``, ``rating``, ``seed``, ``status``) without writing; return the cleaned values.
    A new player named like one already registered (in this tournament or by this organizer) is refused
    with :class:`tournaments.players.SameName` unless ``different_people`` is ``True``: give the player
    by id when it is the same person.

    Raises :class:`TournamentError` naming the first bad field. ``taken_names`` / ``taken_seeds``
    add names and seeds used by rows not saved yet (the CSV import).
    """
    out: dict = {}
    name = data.get("name")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise TournamentError(_("The pair's name is required."), "name")
    name = " ".join(name.split())
    if len(name) > 120:
        raise TournamentError(_("At most %(limit)s characters.") % {"limit": 120}, "name")
    same = Pair.objects.filter(tournament=tournament, name__iexact=name)
    if pair is not None:
        same = same.exclude(pk=pair.pk)
    if same.exists() or (taken_names is not None and name.casefold() in taken_names):
        raise TournamentError(_("This tournament already has a pair named %(name)s.") % {"name": name}, "name")
    out["name"] = name
    specs: dict[str, _PlayerSpec | None] = {}
    for key in PAIR_PLAYER_FIELDS:
        value = data.get(key)
        if value is None or value == {} or value == "":
            if key != "substitute":
                raise TournamentError(_("A pair has two players."), key)
            specs[key] = None
            continue
        specs[key] = clean_player(value, key, tournament)
    seen: dict[tuple, str] = {}
    for key, spec in specs.items():
        if spec is None:
            continue
        if spec.key in seen:
            if key == "substitute":
                raise TournamentError(_("The substitute cannot be one of the two partners."), key)
            raise TournamentError(_("A pair needs two different players."), key)
        seen[spec.key] = key
        if spec.player is not None:
            other = Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.WITHDRAWN).filter(
                Q(first_player=spec.player) | Q(second_player=spec.player) | Q(substitute=spec.player))
            if pair is not None:
                other = other.exclude(pk=pair.pk)
            clash = other.first()
            if clash is not None:
                raise TournamentError(_("%(player)s already plays in the pair %(pair)s of this tournament.")
                                      % {"player": spec.player.name, "pair": clash.name}, key)
    for key, spec in specs.items():
        if spec is not None and spec.by_id and spec.player.pk not in consented:
            players.require_use(tournament, spec.player, None, key)
    out.update(specs)
    out["rating"] = _int(data.get("rating"), "rating", maximum=1_000_000, allow_none=True)
    seed = _int(data.get("seed"), "seed", minimum=1, maximum=100_000, allow_none=True)
    if seed is not None:
        same_seed = Pair.objects.filter(tournament=tournament, seed=seed)
        if pair is not None:
            same_seed = same_seed.exclude(pk=pair.pk)
        if same_seed.exists() or (taken_seeds is not None and seed in taken_seeds):
            raise TournamentError(_("Another pair of this tournament has seed %(seed)s.") % {"seed": seed}, "seed")
    out["seed"] = seed
    tags = data.get("avoid_tags") or ""
    if not isinstance(tags, str) or len(tags) > 200:
        raise TournamentError(_("Avoid tags: club, family... separated by commas, at most 200 characters."),
                              "avoid_tags")
    out["avoid_tags"] = ", ".join(t.strip() for t in tags.split(",") if t.strip())
    status = data.get("status", Pair.Status.CONFIRMED)
    if status not in (Pair.Status.PENDING, Pair.Status.CONFIRMED):
        raise TournamentError(_("A registration is pending or confirmed (withdraw a pair with its reason)."),
                              "status")
    out["status"] = status
    if data.get("different_people") is not True and namesakes != "different":
        # the same name twice is asked about, never silently doubled; "reuse" (the CSV import's choice) takes
        # this organizer's one registered player of that name from an earlier tournament
        for key, spec in specs.items():
            if spec is not None and spec.player is None:
                question = players.same_name_error(tournament, spec.data["name"], f"{key}.name", exclude_pair=pair,
                                                   index=name_index)
                if question is None:
                    continue
                if namesakes == "reuse" and len(question.candidates) == 1 and question.candidates[0][1] is None:
                    if any(other is not None and other.player == question.candidates[0][0] for other in specs.values()):
                        raise TournamentError(_("A pair needs two different players."), key)
                    spec.player = question.candidates[0][0]
                    continue
                raise question
    return out


def _create_pair(tournament: Tournament, cleaned: dict) -> Pair:
    players = {key: (_resolve_player(spec, tournament) if spec is not None else None)
               for key, spec in ((k, cleaned[k]) for k in PAIR_PLAYER_FIELDS)}
    return Pair.objects.create(
        tournament=tournament, name=cleaned["name"], rating=cleaned["rating"], seed=cleaned["seed"],
        status=cleaned["status"], avoid_tags=cleaned["avoid_tags"], **players,
    )


def register_pair(tournament: Tournament, by, **data) -> Pair:
    """Register a pair: ``name``, ``first_player``, ``second_player``, optional ``substitute``,
    ``rating``, ``seed`` (organizer's order) and ``status`` (``confirmed`` by default, or ``pending``).

    Players are :class:`Player` objects, player ids, or ``{"name", "nickname", "club", "contact"}``;
    a new player with the name and contact of an existing one is that player. Refused once the
    tournament is finished, or once the draw was made (except in a Swiss, where a late pair
    joins the next round).
    """
    consented = players.consents(tournament, by, data)  # before the transaction: failures stay counted
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        _check_registration_open(tournament)
        cleaned = clean_registration(tournament, data, consented=consented)
        pair = _create_pair(tournament, cleaned)
        _audit(tournament, by, AuditEntry.Action.PAIR_REGISTERED, after=_pair_json(pair))
        return pair


def _pair_json(pair: Pair) -> dict:
    return {"id": pair.pk, "name": pair.name, "first_player": pair.first_player_id,
            "second_player": pair.second_player_id, "substitute": pair.substitute_id, "rating": pair.rating,
            "seed": pair.seed, "status": pair.status} | ({"disqualified": True} if pair.disqualified else {}) \
        | ({"avoid_tags": pair.avoid_tags} if pair.avoid_tags else {})


def update_pair(pair: Pair, by, **changes) -> Pair:
    """Change a pair's ``name``, ``rating``, ``seed``, ``substitute`` (a player, or ``None``) or
    ``status`` (``pending`` / ``confirmed``), ``avoid_tags`` (club, family: kept apart from pairs
    sharing one: prohibited pairings). Withdraw with ``withdrawals.withdraw_pair``."""
    allowed = {"name", "rating", "seed", "substitute", "status", "avoid_tags"}
    unknown = set(changes) - allowed
    if unknown:
        raise TournamentError(_("Unknown field: %(name)s.") % {"name": sorted(unknown)[0]}, sorted(unknown)[0])
    consented = players.consents(pair.tournament, by, changes)
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        pair = Pair.objects.select_for_update().get(pk=pair.pk)
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair withdrew from the tournament."), "status")
        if "status" in changes and changes["status"] != pair.status and _drawn(tournament):
            stage = Stage.objects.filter(tournament=tournament).first()
            if stage is None or stage.format != Stage.Format.SWISS:
                raise Conflict(_("The draw was made: a pair's registration no longer changes."), "status")
        before = _pair_json(pair)
        data = {"name": pair.name, "first_player": pair.first_player, "second_player": pair.second_player,
                "substitute": pair.substitute, "rating": pair.rating, "seed": pair.seed, "status": pair.status,
                "avoid_tags": pair.avoid_tags}
        data.update(changes)
        cleaned = clean_registration(tournament, data, pair=pair, consented=consented)
        pair.name, pair.rating, pair.seed, pair.status = (cleaned["name"], cleaned["rating"], cleaned["seed"],
                                                          cleaned["status"])
        pair.avoid_tags = cleaned["avoid_tags"]
        sub = cleaned["substitute"]
        pair.substitute = _resolve_player(sub, tournament) if sub is not None else None
        pair.save()
        _audit(tournament, by, AuditEntry.Action.PAIR_UPDATED, before=before, after=_pair_json(pair))
        return pair


def delete_pair(pair: Pair, by, *, reason: str = "") -> None:
    """Delete a pair registered by mistake (audited, with what it was), only before the draw: once
    drawn it has a place in the draw and its history, so it withdraws instead (409). Its players stay
    (they may play in other pairs or tournaments)."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        pair = Pair.objects.select_for_update().get(pk=pair.pk)
        if _drawn(tournament) or Match.objects.filter(Q(pair_a=pair) | Q(pair_b=pair)).exists():
            # drawn, or with a match of its own (a match created by hand): it has a history now
            raise Conflict(_("The draw was made: a pair is no longer deleted; withdraw it instead."), "pair")
        before = _pair_json(pair)
        try:
            with transaction.atomic():
                pair.delete()
        except ProtectedError:  # anything else that points to it (a bye, a group...) keeps it
            raise Conflict(_("The draw was made: a pair is no longer deleted; withdraw it instead."), "pair") from None
        _audit(tournament, by, AuditEntry.Action.PAIR_DELETED, reason=reason, before=before)
