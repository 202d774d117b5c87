"""Two organizer tools beside the registration services: editing a pair from the dashboard and
creating a referee's account.

- :func:`edit_pair`: a pair's name, players (name and nickname), substitute, rating and seed.
  Players and seeds change only until the draw (after it they would not match the drawn
  bracket); the name, substitute and rating may still be corrected afterwards. Every change is
  written to the tournament's audit log (``pair_updated``, with before and after).
- :func:`create_referee`: a login for a referee (name, login, password), made by an organizer
  from the tournament's page, optionally assigned to a table at once (through
  ``services.assign_referee``, which audits it). The account has no staff rights; it is a referee member of
  the tournament's organization (it acts for nothing there), so that club's tables may be given to it.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from events import organizations
from people.services.players import create_player

from . import services
from .models import AuditEntry, Pair, Player, Round, Tournament

PLAYER_KEYS = ("first_player", "second_player", "substitute")


def _is_drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()


def _pair_json(pair: Pair) -> dict:
    return {"id": pair.pk, "name": pair.name, "first_player": pair.first_player_id,
            "second_player": pair.second_player_id, "substitute": pair.substitute_id, "rating": pair.rating,
            "seed": pair.seed, "status": pair.status}


def _same_player(player: Player | None, wanted: dict | None) -> bool:
    if player is None or wanted is None:
        return player is None and wanted is None
    return player.name == " ".join(wanted["name"].split()) and player.nickname == " ".join(
        (wanted.get("nickname") or "").split())


def edit_pair(pair: Pair, by, *, name: str, first_player: dict, second_player: dict,
              substitute: dict | None, rating: int | None, seed: int | None) -> Pair:
    """Change a pair as the organizer's form gives it (players as ``{"name", "nickname"}``).

    A player whose name and nickname did not change stays the same player (with their PIN); a
    changed one becomes another player. Raises ``ServiceError`` naming the field, ``Forbidden``
    or ``Conflict`` (withdrawn pair; players or seed after the draw)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=pair.tournament_id)
        if not services.can_manage(by, tournament):
            raise Forbidden(_("Only the tournament's organizer can do this."))
        pair = Pair.objects.select_for_update(of=("self",)).select_related(  # PostgreSQL: not the outer join
            "first_player", "second_player", "substitute").get(pk=pair.pk)
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair withdrew from the tournament."), "status")
        wanted = {"first_player": first_player, "second_player": second_player, "substitute": substitute}
        current = {key: getattr(pair, key) for key in PLAYER_KEYS}
        drawn = _is_drawn(tournament)
        if drawn:
            for key in ("first_player", "second_player"):
                if not _same_player(current[key], wanted[key]):
                    raise Conflict(_("The draw was made: the pair's players no longer change (a substitute "
                                     "may still be set)."), key)
            if seed != pair.seed:
                raise Conflict(_("The draw was made: the seeds no longer change."), "seed")
        data = {"name": name, "rating": rating, "seed": seed, "status": pair.status}
        for key in PLAYER_KEYS:
            data[key] = current[key] if _same_player(current[key], wanted[key]) else (wanted[key] or None)
        before = _pair_json(pair)
        cleaned = services.clean_registration(tournament, data, pair=pair)
        for key in PLAYER_KEYS:
            spec = cleaned[key]
            if spec is None:
                setattr(pair, key, None)
            else:
                setattr(pair, key, spec.player if spec.player is not None else create_player(**spec.data))
        pair.name, pair.rating, pair.seed = cleaned["name"], cleaned["rating"], cleaned["seed"]
        pair.save()
        after = _pair_json(pair)
        if after != before:
            AuditEntry.objects.create(tournament=tournament, actor=by, action=AuditEntry.Action.PAIR_UPDATED,
                                      before=before, after=after)
        return pair


def clean_referee_name(name: str) -> str:
    """A referee's name as typed (spaces folded); ``ServiceError`` on ``name`` when empty or too long."""
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(_("Give the referee's name."), "name")
    if len(name) > 150:
        raise ServiceError(_("At most %(limit)s characters.") % {"limit": 150}, "name")
    return name


def clean_login(username: str, field: str = "username") -> str:
    """A login Django accepts and nobody has yet (case ignored); ``ServiceError`` on ``field``."""
    username = (username or "").strip()
    User = get_user_model()
    try:
        User.username_validator(username)
    except ValidationError:
        raise ServiceError(_("A login has letters, digits and @ . + - _ only, without spaces."), field) from None
    if not username or len(username) > 150:
        raise ServiceError(_("Give a login of at most 150 characters."), field)
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(_("The login %(login)s is taken: choose another.") % {"login": username}, field)
    return username


def new_referee_user(name: str, username: str, password: str):
    """An unsaved referee account (no staff rights) whose password passed Django's validators
    (``ServiceError`` on ``password``); ``name`` and ``username`` already cleaned."""
    first, _sep, last = name.partition(" ")
    user = get_user_model()(username=username, first_name=first[:150], last_name=last[:150], is_staff=False)
    try:
        password_validation.validate_password(password or "", user)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages), "password") from None
    user.set_password(password)
    return user


def create_referee(tournament: Tournament, by, *, name: str, username: str, password: str,
                   table: int | None = None):
    """A new referee account (no staff rights), a referee of the tournament's organization (of its organizer's
    own, for an event made before organizations), so it is one of the people its tables are given to
    (``services.referees``); optionally assigned to ``table`` of the tournament. Only whoever acts for that
    organization makes one (``services.referees.club_of_new_referee``): a co-organizer from another club invites."""
    if not services.can_manage(by, tournament):
        raise Forbidden(_("Only the tournament's organizer can do this."))
    name = clean_referee_name(name)
    username = clean_login(username)
    user = new_referee_user(name, username, password)
    try:
        with transaction.atomic():
            owner = services.referees.club_of_new_referee(tournament, by)  # who acts for the club, else refused
            user.save()
            organizations.enlist_referee(owner, user)
            if table is not None:
                services.assign_referee(tournament, by, table=table, referee=user)
    except IntegrityError:
        raise ServiceError(_("The login %(login)s is taken: choose another.") % {"login": username},
                           "username") from None
    return user
