"""Everything that writes to a tournament, and the standings and bracket it shows.

This module owns registration (pairs, withdrawal, check-in), the format (the
:class:`~tournaments.models.Stage`), generating and regenerating rounds (the
``scoring.Match`` rows with their tables and referees, and the byes), advancing brackets
when results become official, walkovers (W.O.), the organizer's manual overrides (each
with a reason, in the :class:`~tournaments.models.AuditEntry` log), and reading the
standings and the bracket. The pairing and ranking algorithms are the pure
``tournaments.pairing`` package; this module feeds it pair primary keys and persists what
it returns.

Conventions:

* every write runs in one ``transaction.atomic`` block holding ``select_for_update`` on
  the tournament row (per-match writes lock the match first, then the tournament, the
  order ``scoring.services.mark_received`` uses when it sends ``result_official``);
* refused input raises :class:`TournamentError` (400) naming the field, :class:`Forbidden`
  (403) or :class:`Conflict` (409, the tournament's state does not allow it now);
* ``by`` is the acting user: only the tournament's organizer, staff or a superuser may
  write (:func:`can_manage`); ``by=None`` is the system (the ``result_official`` receiver);
* a result counts (standings, brackets, next rounds) only when it is *official*: a
  received súmula (art. 25), a walkover, or a result set by the organizer (a
  :class:`~tournaments.models.Result` row). It counts until a new official result replaces
  it: a súmula reopened by a correction after its receipt keeps its last official result
  until it is received again (then the bracket follows, unless a later match was already
  played: see :func:`record_official_result`).

Public functions (the pages and the API use only these):

* permissions: :func:`can_manage`, :func:`can_create_tournament`;
* tournaments: :func:`create_tournament`, :func:`update_tournament`;
* registration: :func:`register_pair`, :func:`update_pair`, :func:`withdraw_pair`;
* check-in: :func:`upcoming_round`, :func:`check_in`, :func:`undo_check_in`;
* format: :func:`configure_stage`;
* rounds: :func:`generate_first_round`, :func:`generate_next_round`,
  :func:`regenerate_round`, :func:`round_matches`;
* tables: :func:`assign_referee`;
* results: :func:`record_official_result` (called by the ``result_official`` receiver),
  :func:`record_walkover`, :func:`set_result`;
* overrides: :func:`change_pairing`, :func:`swap_tables` (and :func:`set_result`);
* reading: :func:`standings`, :func:`bracket_view`, :func:`bracket_json`;
* low level (the benchmark): :func:`write_pairings`, :func:`persist_bracket`.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import models, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from referee.engine.errors import ReportError
from referee.engine.rules import rule_set_from
from scoring.access import manages
from scoring.models import Game, Match, MatchEvent, SumulaVersion

from . import players
from .models import (
    AuditEntry,
    BracketNode,
    Bye,
    CheckIn,
    GroupMember,
    Pair,
    Player,
    Result,
    Round,
    Stage,
    TableAssignment,
    Tournament,
    default_tiebreaks,
)
from .pairing.double_elimination import double_elimination
from .pairing.elimination import (
    BracketMatch,
    EliminationBracket,
    Section,
    Slot,
    Source,
    record_results,
    single_elimination,
)
from .pairing.group_knockout import knockout_seeding
from .pairing.round_robin import group_name, round_robin, snake_groups
from .pairing.seeding import Seeding, seed_by_lot, seed_by_order, seed_by_rating
from .pairing.standings import MatchResult, Standings, Tiebreak, compute_standings
from .pairing.swiss import (
    entrants_from_history,
    entrants_from_standings,
    pair_swiss_round,
    recommended_swiss_rounds,
)

MAX_SEED = 2**63 - 1
REASON_MAX = 300
SWISS_ONLY_TIEBREAKS = (Tiebreak.BUCHHOLZ.value, Tiebreak.MEDIAN_BUCHHOLZ.value)


# ------------------------------------------------------------------------------------ errors


TournamentError = ServiceError  # refused input (400); Forbidden (403) and Conflict (409) as in config.errors


# ------------------------------------------------------------------------------- permissions


def _is_user(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def can_manage(user, tournament: Tournament) -> bool:
    """The tournament's organizer, staff and superusers manage a tournament (scoring.access.manages,
    the project's one definition); everyone may read it."""
    return manages(user, tournament)


def _require_manager(user, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise Forbidden(_("Only the tournament's organizer can do this."))


def _actor(user):
    return user if _is_user(user) else None


# ----------------------------------------------------------------------------------- helpers


def _lock_tournament(tournament: Tournament | int) -> Tournament:
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def _lock_match(match: Match | int) -> Match:
    pk = match.pk if isinstance(match, Match) else match
    return Match.objects.select_for_update().get(pk=pk)


def _stage_of(tournament: Tournament) -> Stage:
    stage = Stage.objects.filter(tournament=tournament).first()
    if stage is None:
        raise Conflict(_("Choose the tournament's format first."), "stage")
    stage.tournament = tournament
    return stage


def _drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()


def _reason(reason: object, *, required: bool) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if reason is not None and not isinstance(reason, str):
        raise TournamentError(_("The reason is a text."), "reason")
    if required and not text:
        raise TournamentError(_("A manual change needs a reason: it is kept in the tournament's audit log."),
                              "reason")
    if len(text) > REASON_MAX:
        raise TournamentError(_("The reason is a text of at most 300 characters."), "reason")
    return text


def _audit(tournament: Tournament, by, action: str, *, reason: str = "", round: Round | None = None,
           match: Match | None = None, before=None, after=None) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament, actor=_actor(by), action=action, reason=reason, round=round,
        match=match, before=before, after=after,
    )


def _int(value: object, field: str, *, minimum: int = 0, maximum: int = MAX_SEED, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if type(value) is not int or not minimum <= value <= maximum:
        raise TournamentError(
            _("Give a whole number from %(minimum)s to %(maximum)s.") % {"minimum": minimum, "maximum": maximum},
            field,
        )
    return value


def _bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise TournamentError(_("Give true or false."), field)
    return value


def _pair_of(tournament: Tournament, value: Pair | int | None, field: str) -> Pair:
    pk = value.pk if isinstance(value, Pair) else value
    if type(pk) is not int:
        raise TournamentError(_("Name a pair of this tournament by its id."), field)
    pair = Pair.objects.filter(pk=pk, tournament=tournament).first()
    if pair is None:
        raise TournamentError(_("No pair with id %(id)s in this tournament.") % {"id": pk}, field)
    return pair


def _has_entries(match_ids: Iterable[int]) -> bool:
    """Whether any of these matches has something on its súmula (an event, a version, a signature)."""
    ids = list(match_ids)
    return (
        MatchEvent.objects.filter(match_id__in=ids).exists()
        or SumulaVersion.objects.filter(match_id__in=ids).exists()
        or Match.objects.filter(pk__in=ids).exclude(status=Match.Status.OPEN).exists()
    )


# ------------------------------------------------------------------------------- tournaments

TOURNAMENT_FIELDS = ("name", "slug", "venue", "date", "status", "best_of", "rule_set", "check_in_required")


def can_create_tournament(user) -> bool:
    """Staff, superusers and users with the ``tournaments.add_tournament`` permission create tournaments."""
    return _is_user(user) and bool(user.is_staff or user.is_superuser or user.has_perm("tournaments.add_tournament"))


def _clean_tournament(values: dict, tournament: Tournament | None) -> dict:
    import datetime

    from django.utils.text import slugify

    out = dict(values)
    for key, limit in (("name", 120), ("venue", 200)):
        if key in out:
            text = out[key]
            if not isinstance(text, str) or (key == "name" and not text.strip()):
                raise TournamentError(_("The tournament's name is required.") if key == "name"
                                      else _("This is a text."), key)
            if len(text.strip()) > limit:
                raise TournamentError(_("At most %(limit)s characters.") % {"limit": limit}, key)
            out[key] = text.strip()
    if "slug" in out:
        slug = out["slug"]
        if not isinstance(slug, str) or not slug or slugify(slug) != slug or len(slug) > 140:
            raise TournamentError(_("A slug has lowercase letters, digits and hyphens (at most 140)."), "slug")
        same = Tournament.objects.filter(slug=slug)
        if tournament is not None:
            same = same.exclude(pk=tournament.pk)
        if same.exists():
            raise TournamentError(_("Another tournament has this slug."), "slug")
    if "date" in out and not isinstance(out["date"], datetime.date):
        raise TournamentError(_("Give a date (YYYY-MM-DD)."), "date")
    if "best_of" in out and out["best_of"] not in (1, 3, 5):
        raise TournamentError(_("A match is played to the best of 1, 3 or 5 games."), "best_of")
    if "rule_set" in out:
        try:
            out["rule_set"] = rule_set_from(out["rule_set"], "rule_set").as_dict()
        except ReportError as error:
            raise TournamentError(error.message, "rule_set") from None
    if "check_in_required" in out:
        _bool(out["check_in_required"], "check_in_required")
    if "status" in out and out["status"] not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise TournamentError(_("A tournament is a draft or open for registration until its draw; then it is "
                                "in progress and finishes by itself."), "status")
    return out


def create_tournament(by, **values) -> Tournament:
    """A new tournament organized by ``by``: ``name``, ``slug`` (made from the name if absent),
    ``date``, optional ``venue``, ``status`` (draft or registration), ``best_of``, ``rule_set``,
    ``check_in_required``."""
    from django.utils.text import slugify

    if not can_create_tournament(by):
        raise Forbidden(_("Only organizers create tournaments."))
    unknown = set(values) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown field: %(name)s.") % {"name": sorted(unknown)[0]}, sorted(unknown)[0])
    for key in ("name", "date"):
        if values.get(key) in (None, ""):
            raise TournamentError(_("This field is required."), key)
    if not values.get("slug"):
        values["slug"] = slugify(str(values["name"]))[:140]
    cleaned = _clean_tournament(values, None)
    with transaction.atomic():
        return Tournament.objects.create(organizer=by, **cleaned)


def update_tournament(tournament: Tournament, by, **changes) -> Tournament:
    """Change a tournament's details. The match format, rule set and check-in no longer change
    once the draw was made (matches already created keep theirs)."""
    unknown = set(changes) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown field: %(name)s.") % {"name": sorted(unknown)[0]}, sorted(unknown)[0])
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        cleaned = _clean_tournament(changes, tournament)
        drawn = _drawn(tournament)
        for key in ("best_of", "rule_set", "check_in_required", "status"):
            if drawn and key in cleaned and cleaned[key] != getattr(tournament, key):
                raise Conflict(_("The draw was made: this no longer changes."), key)
        for key, value in cleaned.items():
            setattr(tournament, key, value)
        tournament.save()
        return tournament


# ------------------------------------------------------------------------------ registration

PLAYER_TEXT = {"name": 120, "nickname": 60, "club": 120, "contact": 200}
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
    tournaments.players) or ``{"name", "nickname", "club", "contact"}``."""
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
    if data["contact"] and tournament is not None:  # the organizer registered this person before: reuse
        found = players.same_person(tournament, data["name"], data["contact"])
        if found is not None:
            return _PlayerSpec(player=found, data=data)
    return _PlayerSpec(data=data)


def _resolve_player(spec: _PlayerSpec, tournament: Tournament) -> Player:
    """Reuse a player with the same name and contact (when a contact is given), else create one."""
    if spec.player is not None:
        return spec.player
    return Player.objects.create(**spec.data, entered_by_id=tournament.organizer_id)


def _check_registration_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."), "tournament")
    stage = Stage.objects.filter(tournament=tournament).first()
    if _drawn(tournament) and (stage is None or stage.format != Stage.Format.SWISS):
        raise Conflict(_("The draw was made: a pair registered now would not be paired."), "tournament")


def clean_registration(tournament: Tournament, data: dict, *, pair: Pair | None = None,
                       taken_names: set[str] | None = None, taken_seeds: set[int] | None = None,
                       consented: set[int] = frozenset()) -> dict:
    """Check a pair's registration (``name``, ``first_player``, ``second_player``, optional
    ``substitute``, ``rating``, ``seed``, ``status``) without writing; return the cleaned values.

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
    status = data.get("status", Pair.Status.CONFIRMED)
    if status not in (Pair.Status.PENDING, Pair.Status.CONFIRMED):
        raise TournamentError(_("A registration is pending or confirmed (withdraw a pair with its reason)."),
                              "status")
    out["status"] = status
    return out


def _create_pair(tournament: Tournament, cleaned: dict) -> Pair:
    players = {key: (_resolve_player(spec, tournament) if spec is not None else None)
               for key, spec in ((k, cleaned[k]) for k in PAIR_PLAYER_FIELDS)}
    return Pair.objects.create(
        tournament=tournament, name=cleaned["name"], rating=cleaned["rating"], seed=cleaned["seed"],
        status=cleaned["status"], **players,
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
            "seed": pair.seed, "status": pair.status}


def update_pair(pair: Pair, by, **changes) -> Pair:
    """Change a pair's ``name``, ``rating``, ``seed``, ``substitute`` (a player, or ``None``) or
    ``status`` (``pending`` / ``confirmed``). Withdraw with :func:`withdraw_pair`."""
    allowed = {"name", "rating", "seed", "substitute", "status"}
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
                "substitute": pair.substitute, "rating": pair.rating, "seed": pair.seed, "status": pair.status}
        data.update(changes)
        cleaned = clean_registration(tournament, data, pair=pair, consented=consented)
        pair.name, pair.rating, pair.seed, pair.status = (cleaned["name"], cleaned["rating"], cleaned["seed"],
                                                          cleaned["status"])
        sub = cleaned["substitute"]
        pair.substitute = _resolve_player(sub, tournament) if sub is not None else None
        pair.save()
        _audit(tournament, by, AuditEntry.Action.PAIR_UPDATED, before=before, after=_pair_json(pair))
        return pair


def withdraw_pair(pair: Pair, by, reason: str) -> list[Result]:
    """The pair leaves the tournament (``reason`` required): it is no longer drawn or paired,
    and each of its matches without an official result becomes a walkover for the opponent
    (which advances a bracket). Returns the walkovers recorded. Results already official stay."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        tournament = _lock_tournament(pair.tournament_id)
        _require_manager(by, tournament)
        pair = Pair.objects.select_for_update().get(pk=pair.pk)
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair already withdrew."), "status")
        before = _pair_json(pair)
        pair.status, pair.withdrawn_at, pair.withdrawal_reason = Pair.Status.WITHDRAWN, timezone.now(), reason
        pair.save(update_fields=["status", "withdrawn_at", "withdrawal_reason"])
        pending = list(
            Match.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, status=Match.Status.OPEN, tournament_result__isnull=True)
            .filter(Q(pair_a=pair) | Q(pair_b=pair))
            .select_related("pair_a", "pair_b")
        )
        walkovers = []
        for match in pending:
            other = match.pair_b if match.pair_a_id == pair.pk else match.pair_a
            if other.status == Pair.Status.WITHDRAWN:
                continue  # both withdrew: the organizer decides (set_result)
            walkovers.append(_walkover_result(match, tournament, absent=pair, by=by,
                                              reason=_("Withdrawn: %(reason)s") % {"reason": reason}))
        Result.objects.bulk_create(walkovers)
        _audit(tournament, by, AuditEntry.Action.PAIR_WITHDRAWN, reason=reason, before=before,
               after={**_pair_json(pair), "walkovers": [w.match_id for w in walkovers]})
        if walkovers:
            _after_results(tournament, by)
        return walkovers


# ---------------------------------------------------------------------------------- check-in


def _last_generated(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).order_by("-number").first()


def _round_numbered(tournament: Tournament, number: int) -> Round:
    rnd, _created = Round.objects.get_or_create(tournament=tournament, number=number)
    return rnd


def upcoming_round(tournament: Tournament, by) -> Round:
    """The round pairs check in for: the one after the last generated round (created, not paired, if missing)."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        return _upcoming(tournament)


def _upcoming(tournament: Tournament) -> Round:
    last = _last_generated(tournament)
    number = 1 if last is None else last.number + 1
    rnd = _round_numbered(tournament, number)
    if rnd.is_generated:  # a bracket round made ahead of time
        number = (Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
        rnd = _round_numbered(tournament, number)
    return rnd


def check_in(round: Round, pair: Pair | int, by) -> CheckIn:
    """The pair is present for ``round`` (a round not paired yet); checking in twice is refused."""
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_generated:
            raise Conflict(_("Round %(number)s is already paired: check in for the next one.")
                           % {"number": rnd.number}, "round")
        pair = _pair_of(tournament, pair, "pair")
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair withdrew from the tournament."), "pair")
        if CheckIn.objects.filter(round=rnd, pair=pair).exists():
            raise Conflict(_("This pair is already checked in for this round."), "pair")
        return CheckIn.objects.create(round=rnd, pair=pair, checked_in_by=_actor(by))


def undo_check_in(round: Round, pair: Pair | int, by) -> None:
    """Remove a check-in of a round not paired yet."""
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_generated:
            raise Conflict(_("Round %(number)s is already paired.") % {"number": rnd.number}, "round")
        pair = _pair_of(tournament, pair, "pair")
        deleted, _rows = CheckIn.objects.filter(round=rnd, pair=pair).delete()
        if not deleted:
            raise TournamentError(_("This pair is not checked in for this round."), "pair")


# ------------------------------------------------------------------------------------ format

STAGE_FIELDS = ("format", "seeding", "third_place", "grand_final_reset", "group_count", "qualifiers_per_group",
                "swiss_rounds", "tiebreaks", "walkover_scores")


def _stage_json(stage: Stage) -> dict:
    return {name: getattr(stage, name) for name in STAGE_FIELDS} | {"standings_lot_seed": stage.standings_lot_seed}


def clean_tiebreaks(value: object, format: str) -> list[str]:
    """A list of distinct tiebreak names (``tournaments.pairing.standings.Tiebreak``); Buchholz only in a Swiss."""
    names = [t.value for t in Tiebreak]
    if not isinstance(value, (list, tuple)) or not value:
        raise TournamentError(_("List the tiebreaks in order, from: %(names)s.") % {"names": ", ".join(names)},
                              "tiebreaks")
    out = []
    for item in value:
        if item not in names:
            raise TournamentError(_("Unknown tiebreak %(name)s; use: %(names)s.")
                                  % {"name": item, "names": ", ".join(names)}, "tiebreaks")
        if item in out:
            raise TournamentError(_("Each tiebreak may appear once (%(name)s is repeated).") % {"name": item},
                                  "tiebreaks")
        if item in SWISS_ONLY_TIEBREAKS and format != Stage.Format.SWISS:
            raise TournamentError(_("Buchholz and median-Buchholz are Swiss tiebreaks."), "tiebreaks")
        out.append(item)
    return out


def configure_stage(tournament: Tournament, by, **settings) -> Stage:
    """Set the tournament's format before the draw. Settings: ``format`` (required the first
    time: single_elimination, double_elimination, round_robin, swiss, groups_knockout),
    ``seeding`` (order, rating, lot), ``third_place``, ``grand_final_reset``, ``group_count``,
    ``qualifiers_per_group``, ``swiss_rounds`` (``None``: enough rounds for one unbeaten pair,
    fixed at the draw), ``tiebreaks`` (ordered names), ``walkover_scores``."""
    unknown = set(settings) - set(STAGE_FIELDS)
    if unknown:
        raise TournamentError(_("Unknown setting: %(name)s.") % {"name": sorted(unknown)[0]}, sorted(unknown)[0])
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        if _drawn(tournament):
            raise Conflict(_("The draw was made: the format no longer changes."), "stage")
        stage = Stage.objects.filter(tournament=tournament).first()
        before = _stage_json(stage) if stage else None
        if stage is None:
            if "format" not in settings:
                raise TournamentError(_("Choose a format."), "format")
            stage = Stage(tournament=tournament)
        values = {name: settings.get(name, getattr(stage, name)) for name in STAGE_FIELDS}
        if values["format"] not in Stage.Format.values:
            raise TournamentError(_("Unknown format; use: %(names)s.")
                                  % {"names": ", ".join(Stage.Format.values)}, "format")
        if values["seeding"] not in Stage.Seeding.values:
            raise TournamentError(_("Unknown seeding; use: %(names)s.")
                                  % {"names": ", ".join(Stage.Seeding.values)}, "seeding")
        for name in ("third_place", "grand_final_reset", "walkover_scores"):
            _bool(values[name], name)
        _int(values["group_count"], "group_count", minimum=1, maximum=64)
        _int(values["qualifiers_per_group"], "qualifiers_per_group", minimum=1, maximum=64)
        _int(values["swiss_rounds"], "swiss_rounds", minimum=1, maximum=64, allow_none=True)
        values["tiebreaks"] = clean_tiebreaks(values["tiebreaks"], values["format"])
        if (values["format"] == Stage.Format.GROUPS_KNOCKOUT
                and values["group_count"] * values["qualifiers_per_group"] < 2):
            raise TournamentError(_("The knockout needs at least 2 qualifiers: more groups or more qualifiers "
                                    "per group."), "qualifiers_per_group")
        for name, value in values.items():
            setattr(stage, name, value)
        stage.save()
        _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED, before=before, after=_stage_json(stage))
        return stage


# ----------------------------------------------------------------------------------- seeding


def _entrants(tournament: Tournament, rnd: Round) -> list[Pair]:
    """Pairs drawn or paired in ``rnd``: confirmed and, when the tournament requires it, checked in."""
    qs = Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED)
    if tournament.check_in_required:
        qs = qs.filter(check_ins__round=rnd)
    return list(qs.order_by("pk"))


def _organizer_order(pairs: Sequence[Pair]) -> list[Pair]:
    return sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.registered_at, p.pk))


def _seed(stage: Stage, pairs: Sequence[Pair], seed: int | None) -> Seeding:
    if stage.seeding == Stage.Seeding.LOT:
        return seed_by_lot([p.pk for p in sorted(pairs, key=lambda p: p.pk)], seed)
    ordered = _organizer_order(pairs)
    if stage.seeding == Stage.Seeding.RATING:
        return seed_by_rating([p.pk for p in ordered], {p.pk: p.rating for p in ordered})
    return seed_by_order([p.pk for p in ordered])


def _check_lot_seed(stage: Stage, seed: object) -> int | None:
    if seed is None:
        return None
    if stage.seeding != Stage.Seeding.LOT:
        raise TournamentError(_("A seed is given only for a draw by lot."), "seed")
    return _int(seed, "seed", maximum=2**31 - 1)


# ------------------------------------------------------------------------------ writing rounds


def _referees(tournament: Tournament, rnd: Round) -> dict[int, int]:
    """Referee id per table for ``rnd``: its own assignment, else the tournament-wide one."""
    rows = list(TableAssignment.objects.filter(tournament=tournament)
                .filter(Q(round__isnull=True) | Q(round=rnd)).values_list("table", "round_id", "referee_id"))
    out = {table: referee for table, round_id, referee in rows if round_id is None}
    out.update({table: referee for table, round_id, referee in rows if round_id is not None})
    return out


def _normalized_rule_set(tournament: Tournament) -> dict:
    try:
        return rule_set_from(tournament.rule_set, "rule_set").as_dict()
    except ReportError as error:
        raise TournamentError(error.message, "rule_set") from None


_PASS_THROUGH = (models.IntegerField, models.BooleanField, models.CharField, models.ForeignKey)


def _fast_insert(model, rows: Sequence[dict], *, returning: bool = False, instances: bool = False) -> list:
    """Insert ``rows`` (dicts of field attnames, all with the same keys) with multi-row INSERT
    statements, without building model instances first: what ``bulk_create`` does, minus its
    per-object cost, for the thousands of rows of a big round or bracket. Every other concrete
    field gets its default (``auto_now`` fields: now), as ``bulk_create`` would. Returns the new
    primary keys, in order, when ``returning``; the saved model instances with ``instances``."""
    from django.db import connection

    if not rows:
        return []
    returning = returning or instances
    now = timezone.now()
    given = list(rows[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    by_name = {f.attname: f for f in fields}
    unknown = set(given) - set(by_name)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {sorted(unknown)[0]}")
    columns = [by_name[name] for name in given] + [f for f in fields if f.attname not in given]
    constants = []
    defaults = {}
    for f in columns[len(given):]:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            value = now
        else:
            value = f.get_default()
        defaults[f.attname] = value
        constants.append(f.get_db_prep_save(value, connection))
    plain = [isinstance(by_name[name], _PASS_THROUGH) for name in given]
    prepared: dict[tuple[int, int], object] = {}  # (column, id(value)): a value shared by many rows is prepared once

    def prepare(i: int, name: str, value):
        key = (i, id(value))
        if key not in prepared:
            prepared[key] = (value, by_name[name].get_db_prep_save(value, connection))
        return prepared[key][1]

    values = []
    for row in rows:
        item = [row[name] if plain[i] else prepare(i, name, row[name]) for i, name in enumerate(given)]
        values.append(item + constants)
    quote = connection.ops.quote_name
    per_row = len(columns)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
    pks: list[int] = []
    if connection.vendor == "postgresql":
        # One statement: one array per column (a column equal in every row is sent once), so
        # the query stays tiny however many rows.
        selects, params = [], []
        for i, (f, column) in enumerate(zip(columns, zip(*values))):
            cast = f.db_type(connection)
            if i >= len(given) or all(v is column[0] for v in column):
                selects.append(f"%s::{cast}")
                params.append(column[0])
            else:
                selects.append(f"unnest(%s::{cast}[])")
                params.append(list(column))
        if len(selects) == sum(sel.startswith("%s") for sel in selects):  # nothing varies: one row per input row
            selects[0] = f"unnest(array_fill(%s::{columns[0].db_type(connection)}, ARRAY[{len(values)}]))"
        sql = head + f"SELECT {', '.join(selects)}"
        with connection.cursor() as cursor:
            if returning:
                cursor.execute(sql + f" RETURNING {quote(model._meta.pk.column)}", params)
                pks = [r[0] for r in cursor.fetchall()]
            else:
                cursor.execute(sql, params)
        values = []
    batch = max(1, min(connection.ops.bulk_batch_size(columns, values) or len(values) or 1, 65535 // per_row))
    head += "VALUES "
    one = "(" + ", ".join(["%s"] * per_row) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(values), batch):
            chunk = values[start:start + batch]
            sql = head + ", ".join([one] * len(chunk))
            params = [v for item in chunk for v in item]
            if returning:
                cursor.execute(sql + f" RETURNING {quote(model._meta.pk.column)}", params)
                pks.extend(r[0] for r in cursor.fetchall())
            else:
                cursor.execute(sql, params)
    if not instances:
        return pks
    # Positional construction (every concrete field given) skips the per-field default lookups.
    pk_name = model._meta.pk.attname
    order = [f.attname for f in model._meta.concrete_fields]
    out = []
    for pk, row in zip(pks, rows):
        obj = model(*[pk if name == pk_name else row[name] if name in row else defaults[name] for name in order])
        obj._state.adding = False
        obj._state.db = connection.alias
        out.append(obj)
    return out


def write_pairings(rnd: Round, boards: Sequence[tuple[int, int, int | None]], *, byes: Iterable[int] = (),
                   by=None) -> list[Match]:
    """Low level: create the scoring matches of ``boards`` (``(pair_a_id, pair_b_id, table)``) in
    ``rnd`` with bulk inserts (each match with its first game, the referee of its table and the
    tournament's rule set and match format), and the byes. No checks: the caller holds the
    tournament's lock and validated the pairing. Used by round generation and the benchmark."""
    tournament = rnd.tournament
    referees = _referees(tournament, rnd)
    rule_set = _normalized_rule_set(tournament)
    creator = _actor(by)
    common = {"tournament_id": tournament.pk, "round_id": rnd.pk, "rule_set": rule_set,
              "best_of": tournament.best_of, "created_by_id": creator.pk if creator else None,
              "created_at": timezone.now()}
    rows = [{**common, "table": table, "referee_id": referees.get(table) if table else None, "pair_a_id": a,
             "pair_b_id": b} for a, b, table in boards]
    matches = _fast_insert(Match, rows, instances=True)
    _fast_insert(Game, [{"match_id": m.pk, "number": 1, "first_dealer": 0, "started_at": common["created_at"]}
                        for m in matches])
    _fast_insert(Bye, [{"round_id": rnd.pk, "pair_id": p} for p in byes])
    return matches


def _mark_generated(rnd: Round, phase: str) -> None:
    rnd.phase, rnd.generated_at = phase, timezone.now()
    rnd.save(update_fields=["phase", "generated_at", "lot_seed", "name"])


def _walkover_result(match: Match, tournament: Tournament, *, absent: Pair, by, reason: str = "") -> Result:
    """An unsaved walkover: the present pair wins as many games 12-0 as the match format needs."""
    games = match.best_of // 2 + 1
    a_absent = match.pair_a_id == absent.pk
    return Result(
        match=match, tournament=tournament, kind=Result.Kind.WALKOVER, pair_a_id=match.pair_a_id,
        pair_b_id=match.pair_b_id, winner_id=match.pair_b_id if a_absent else match.pair_a_id, absent=absent,
        games_a=0 if a_absent else games, games_b=games if a_absent else 0,
        points_a=0 if a_absent else 12 * games, points_b=12 * games if a_absent else 0,
        reason=reason, recorded_by=_actor(by),
    )


def _write_fixed_boards(rnd: Round, games: Sequence[tuple[int, int]], byes: Sequence[int],
                        withdrawn: set[int], by) -> list[Match]:
    """Matches of a fixed schedule (round robin): tables 1..N for the playable ones; a match with a
    withdrawn pair gets no table and is a walkover at once."""
    boards = []
    table = 0
    for a, b in games:
        if a in withdrawn or b in withdrawn:
            boards.append((a, b, None))
        else:
            table += 1
            boards.append((a, b, table))
    matches = write_pairings(rnd, boards, byes=[p for p in byes if p not in withdrawn], by=by)
    _auto_walkovers(rnd.tournament, matches, withdrawn, by)
    return matches


def _auto_walkovers(tournament: Tournament, matches: Sequence[Match], withdrawn: set[int], by) -> list[Result]:
    results = []
    pairs = {}
    for m in matches:
        a_out, b_out = m.pair_a_id in withdrawn, m.pair_b_id in withdrawn
        if a_out == b_out:
            continue  # both present, or both withdrew (the organizer decides)
        absent_id = m.pair_a_id if a_out else m.pair_b_id
        absent = pairs.get(absent_id) or Pair.objects.get(pk=absent_id)
        pairs[absent_id] = absent
        results.append(_walkover_result(m, tournament, absent=absent, by=None,
                                        reason=_("Withdrawn: %(reason)s") % {"reason": absent.withdrawal_reason}))
    return Result.objects.bulk_create(results)


def _withdrawn_ids(tournament: Tournament) -> set[int]:
    return set(Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN).values_list("pk", flat=True))


# ------------------------------------------------------------------------------ round robin


def _group_members(stage: Stage) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = defaultdict(list)
    for group, pair_id in stage.group_members.order_by("group", "number").values_list("group", "pair_id"):
        groups[group].append(pair_id)
    return dict(groups)


def _draw_groups(stage: Stage, order: Sequence[int]) -> None:
    groups = snake_groups(order, stage.group_count)
    minimum = 2 if stage.format == Stage.Format.ROUND_ROBIN else max(2, stage.qualifiers_per_group)
    if any(len(g) < minimum for g in groups):
        raise Conflict(_("%(count)s pairs do not fill %(groups)s groups of at least %(minimum)s pairs.")
                       % {"count": len(order), "groups": stage.group_count, "minimum": minimum}, "group_count")
    GroupMember.objects.bulk_create([
        GroupMember(stage=stage, pair_id=pair_id, group=g, number=i + 1)
        for g, members in enumerate(groups) for i, pair_id in enumerate(members)
    ])


def _group_round_count(groups: dict[int, list[int]]) -> int:
    return max((len(round_robin(m)) for m in groups.values()), default=0)


def _generate_group_round(stage: Stage, rnd: Round, schedule_round: int, by) -> list[Match]:
    groups = _group_members(stage)
    games: list[tuple[int, int]] = []
    byes: list[int] = []
    for g in sorted(groups):
        rounds = round_robin(groups[g])
        if schedule_round <= len(rounds):
            this = rounds[schedule_round - 1]
            games.extend((game.home, game.away) for game in this.games)
            if this.bye is not None:
                byes.append(this.bye)
    _mark_generated(rnd, Round.Phase.GROUPS)
    return _write_fixed_boards(rnd, games, byes, _withdrawn_ids(stage.tournament), by)


# ------------------------------------------------------------------------------------- Swiss


def _swiss_entrants_order(stage: Stage, entrant_ids: set[int]) -> list:
    """Swiss entrants in standing order (official results and byes so far)."""
    tournament = stage.tournament
    data = _load_results(tournament)
    pairs = [p for p in _ranked_pair_ids(tournament)]
    table = compute_standings(
        [r for r, _phase in data.results], stage.tiebreaks, pairs=pairs, byes=data.byes,
        lot_seed=stage.standings_lot_seed, count_walkover_scores=stage.walkover_scores,
    )
    entrants = entrants_from_standings(table, [r for r, _phase in data.results])
    return [e for e in entrants if e.pair_id in entrant_ids]


def _generate_swiss_round(stage: Stage, rnd: Round, by, *, first_order: Sequence[int] | None = None) -> list[Match]:
    if first_order is not None:
        entrants = entrants_from_history(first_order, {}, {})
    else:
        ids = {p.pk for p in _entrants(stage.tournament, rnd)}
        entrants = _swiss_entrants_order(stage, ids)
    if len(entrants) < 2:
        raise Conflict(_("At least 2 pairs are needed to pair a round."), "pairs")
    paired = pair_swiss_round(entrants)
    _mark_generated(rnd, Round.Phase.SWISS)
    boards = [(p.home, p.away, p.board) for p in paired.pairings]
    return write_pairings(rnd, boards, byes=[paired.bye] if paired.bye is not None else [], by=by)


# ----------------------------------------------------------------------------------- brackets


def _levels(bracket: EliminationBracket) -> dict[str, int]:
    """Play order of every bracket match: 1 + the latest of its sources (the reset follows the final)."""
    level: dict[str, int] = {}
    for m in bracket.matches():
        sources = [s.source.match_id for s in (m.top, m.bottom) if s.source is not None]
        level[m.match_id] = 1 + max((level[s] for s in sources), default=0)
    if len(bracket.finals) > 1:
        level[bracket.finals[1].match_id] = level[bracket.finals[0].match_id] + 1
    return level


def _round_name(stage: Stage, bracket: EliminationBracket, level: int, levels: dict[str, int]) -> str:
    last = max(levels.values())
    if bracket.double:
        if len(bracket.finals) > 1 and level == last:
            return _("Grand final reset")
        if level == levels[bracket.finals[0].match_id]:
            return _("Grand final")
        return ""
    from_end = last - level
    if from_end == 0:
        return _("Final")
    if from_end == 1:
        return _("Semifinals")
    if from_end == 2:
        return _("Quarterfinals")
    return _("Round of %(count)s") % {"count": 2 ** (from_end + 1)}


def _slot_layout(slot: Slot) -> tuple[int | None, str, str]:
    if slot.source is not None:
        return None, slot.source.match_id, slot.source.takes
    return slot.seed, "", ""


def _create_nodes(stage: Stage, bracket: EliminationBracket) -> list[BracketNode]:
    """Store the bracket's layout: one node per match (state empty until :func:`persist_bracket`)."""
    levels = _levels(bracket)
    rows = []
    for m in bracket.matches():
        top_seed, top_source, top_takes = _slot_layout(m.top)
        bottom_seed, bottom_source, bottom_takes = _slot_layout(m.bottom)
        rows.append({
            "stage_id": stage.pk, "code": m.match_id, "section": m.section.value, "bracket_round": m.round_number,
            "position": m.position, "level": levels[m.match_id], "top_seed": top_seed, "top_source": top_source,
            "top_takes": top_takes, "bottom_seed": bottom_seed, "bottom_source": bottom_source,
            "bottom_takes": bottom_takes,
        })
    return _fast_insert(BracketNode, rows, instances=True)


def _layout(stage: Stage, nodes: Sequence[BracketNode]) -> EliminationBracket:
    """The bracket as drawn (layout only, no results), rebuilt from its stored nodes."""
    seeds = tuple(stage.bracket_seeds)

    def slot(seed, source, takes) -> Slot:
        if source:
            return Slot(source=Source(source, takes))
        if seed <= len(seeds):
            return Slot(pair=seeds[seed - 1], seed=seed)
        return Slot(bye=True, seed=seed)

    sections: dict[str, dict[int, list[BracketMatch]]] = defaultdict(lambda: defaultdict(list))
    for n in sorted(nodes, key=lambda n: (n.bracket_round, n.position)):
        sections[n.section][n.bracket_round].append(BracketMatch(
            n.code, Section(n.section), n.bracket_round, n.position,
            slot(n.top_seed, n.top_source, n.top_takes), slot(n.bottom_seed, n.bottom_source, n.bottom_takes),
        ))

    def rounds(section: str) -> tuple:
        return tuple(tuple(sections[section][r]) for r in sorted(sections[section]))

    winners = rounds("winners")
    finals = tuple(m for r in rounds("grand_final") for m in r)
    third = [m for r in rounds("third_place") for m in r]
    return EliminationBracket(
        double=bool(finals), size=2 ** len(winners), seeds=seeds, winners=winners, losers=rounds("losers"),
        finals=finals, third_place=third[0] if third else None,
    )


def _draw_bracket(stage: Stage, rnd: Round, order: Sequence[int], by) -> None:
    if len(order) < 2:
        raise Conflict(_("At least 2 pairs are needed for a bracket."), "pairs")
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        bracket = double_elimination(order, reset=stage.grand_final_reset)
    else:
        bracket = single_elimination(order, third_place=stage.third_place)
    stage.bracket_seeds = list(order)
    stage.bracket_first_round = rnd.number
    stage.save(update_fields=["bracket_seeds", "bracket_first_round", "lot_seed", "swiss_rounds", "updated_at"])
    _start_bracket(stage, rnd, bracket, by)


def _start_bracket(stage: Stage, rnd: Round, bracket: EliminationBracket, by) -> None:
    _create_nodes(stage, bracket)
    rnd.name = _round_name(stage, bracket, 1, _levels(bracket))
    _mark_generated(rnd, Round.Phase.BRACKET)
    _advance_bracket(stage, by)


def _bracket_rounds(stage: Stage, bracket: EliminationBracket, levels: dict[str, int],
                    needed: set[int]) -> dict[int, Round]:
    """Rounds for the given levels (created, paired and named on first use)."""
    tournament = stage.tournament
    first = stage.bracket_first_round
    numbers = {level: first + level - 1 for level in needed}
    existing = {r.number: r for r in Round.objects.filter(tournament=tournament, number__in=numbers.values())}
    out = {}
    for level, number in numbers.items():
        rnd = existing.get(number)
        if rnd is None:
            rnd = Round.objects.create(tournament=tournament, number=number)
        if not rnd.is_generated:
            rnd.name = rnd.name or _round_name(stage, bracket, level, levels)
            _mark_generated(rnd, Round.Phase.BRACKET)
        rnd.tournament = tournament
        out[level] = rnd
    return out


def _node_state(m: BracketMatch) -> tuple:
    return (m.top.pair, m.bottom.pair, m.top.bye, m.bottom.bye, m.winner, m.unplayed)


def _stored_state(n: BracketNode) -> tuple:
    return (n.top_pair_id, n.bottom_pair_id, n.top_bye, n.bottom_bye, n.winner_id, n.unplayed)


def persist_bracket(stage: Stage, bracket: EliminationBracket, nodes: dict[str, BracketNode], by=None,
                    *, withdrawn: set[int] = frozenset()) -> list[Match]:
    """Write a resolved bracket: update the nodes whose state changed, and create (in the round of
    their play order, at the next free tables) the scoring matches of the nodes that became
    playable. A new match with a withdrawn pair gets no table. Returns the new matches.

    Raises :class:`Conflict` if a match already played no longer has the pairs the bracket
    now gives it (a result changed upstream)."""
    levels = {code: n.level for code, n in nodes.items()}
    changed: dict[str, BracketNode] = {}  # by code
    to_create: list[tuple[BracketNode, BracketMatch]] = []
    stale: list[tuple[BracketNode, BracketMatch]] = []
    for m in bracket.all_matches():
        node = nodes[m.match_id]
        state = _node_state(m)
        if state != _stored_state(node):
            (node.top_pair_id, node.bottom_pair_id, node.top_bye, node.bottom_bye, node.winner_id,
             node.unplayed) = state
            changed[node.code] = node
        wanted = (m.top.pair, m.bottom.pair) if _needs_match(m) else None
        if node.match_id is None:
            if wanted is not None:
                to_create.append((node, m))
        elif _match_pairs(node) != wanted:
            stale.append((node, m))
    for node, m in stale:
        _repair_stale(node, m, changed)
    created: list[Match] = []
    if to_create:
        rounds = _bracket_rounds(stage, bracket, levels, {node.level for node, _m in to_create})
        by_round: dict[int, list[tuple[BracketNode, BracketMatch]]] = defaultdict(list)
        for node, m in to_create:
            by_round[node.level].append((node, m))
        for level, items in sorted(by_round.items()):
            rnd = rounds[level]
            table = Match.objects.filter(round=rnd).aggregate(t=Max("table"))["t"] or 0
            boards = []
            for node, m in items:
                if m.top.pair in withdrawn or m.bottom.pair in withdrawn:
                    boards.append((m.top.pair, m.bottom.pair, None))
                else:
                    table += 1
                    boards.append((m.top.pair, m.bottom.pair, table))
            matches = write_pairings(rnd, boards, by=by)
            for (node, _m), match in zip(items, matches):
                node.match_id = match.pk
                node.match_pairs = (match.pair_a_id, match.pair_b_id)
                changed[node.code] = node
            created.extend(matches)
    _save_node_states(list(changed.values()))
    return created


NODE_STATE = ("top_pair_id", "bottom_pair_id", "top_bye", "bottom_bye", "winner_id", "unplayed", "match_id")


def _save_node_states(nodes: Sequence[BracketNode]) -> None:
    """Write the state fields of ``nodes``: one parametrized UPDATE run for every node
    (``executemany``), much faster than ``bulk_update``'s CASE expressions on a big bracket."""
    if not nodes:
        return
    from django.db import connection

    quote = connection.ops.quote_name
    fields = [BracketNode._meta.get_field(name) for name in NODE_STATE]
    table = quote(BracketNode._meta.db_table)
    rows = [[getattr(n, name) for name in NODE_STATE] + [n.pk] for n in nodes]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement joining the table to one array per column.
            names = [f"v{i}" for i in range(len(fields))]
            casts = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
            sets = ", ".join(f"{quote(f.column)} = v.{name}" for f, name in zip(fields, names))
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM unnest({casts}, %s::bigint[]) AS v({', '.join(names)}, id) "
                f"WHERE {table}.{quote('id')} = v.id",
                [list(column) for column in zip(*rows)],
            )
        else:
            sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE {quote('id')} = %s", rows)


def _needs_match(m: BracketMatch) -> bool:
    """A bracket match is played (needs a scoring match) once both pairs are known, unless it is a bye
    or a reset that is not needed."""
    return m.top.pair is not None and m.bottom.pair is not None and not m.unplayed


def _match_pairs(node: BracketNode) -> tuple | None:
    pairs = getattr(node, "match_pairs", None)
    if pairs is None:
        pairs = (node.match.pair_a_id, node.match.pair_b_id) if node.match_id is not None else None
        node.match_pairs = pairs
    return pairs


def _repair_stale(node: BracketNode, m: BracketMatch, changed: dict[str, BracketNode]) -> None:
    match = Match.objects.select_for_update().get(pk=node.match_id)
    if Result.objects.filter(match=match).exists() or _has_entries([match.pk]):
        raise Conflict(_("Match %(code)s of the bracket was already played between other pairs: change its "
                         "result first.") % {"code": node.code}, "match")
    if _needs_match(m):
        match.pair_a_id, match.pair_b_id = m.top.pair, m.bottom.pair
        match.save(update_fields=["pair_a", "pair_b", "updated_at"])
        node.match_pairs = (match.pair_a_id, match.pair_b_id)
    else:
        node.match_id = None
        node.match_pairs = None
        match.delete()
    changed[node.code] = node


def _load_nodes(stage: Stage) -> dict[str, BracketNode]:
    nodes = {}
    for n in BracketNode.objects.filter(stage=stage).select_related("match").order_by("pk"):
        n.match_pairs = (n.match.pair_a_id, n.match.pair_b_id) if n.match is not None else None
        nodes[n.code] = n
    return nodes


def _bracket_winners(nodes: dict[str, BracketNode]) -> dict[str, int]:
    by_match = {n.match_id: code for code, n in nodes.items() if n.match_id is not None}
    winners = {}
    for match_id, winner_id in (Result.objects.filter(match_id__in=list(by_match))
                                .values_list("match_id", "winner_id")):
        winners[by_match[match_id]] = winner_id
    return winners


def _advance_bracket(stage: Stage, by) -> EliminationBracket:
    """Bring the stored bracket in line with the official results: fill the next matches, create
    them, and turn matches of withdrawn pairs into walkovers (repeating until nothing changes)."""
    tournament = stage.tournament
    nodes = _load_nodes(stage)
    layout = _layout(stage, list(nodes.values()))
    withdrawn = _withdrawn_ids(tournament)
    while True:
        winners = _bracket_winners(nodes)
        try:
            bracket = record_results(layout, winners)
        except ValueError as error:
            raise Conflict(_("The results do not fit the bracket: %(error)s") % {"error": error}, "match") from None
        created = persist_bracket(stage, bracket, nodes, by, withdrawn=withdrawn)
        if not _auto_walkovers(tournament, created, withdrawn, by):
            return bracket


# ------------------------------------------------------------------------------------ rounds


def _round_json(rnd: Round) -> dict:
    matches = list(Match.objects.filter(round=rnd).order_by("table", "pk").values_list("pk", "pair_a_id",
                                                                                      "pair_b_id", "table"))
    return {"round": rnd.number, "lot_seed": rnd.lot_seed, "matches": [list(m) for m in matches],
            "byes": list(Bye.objects.filter(round=rnd).values_list("pair_id", flat=True))}


def _draw(stage: Stage, rnd: Round, by, seed: int | None) -> None:
    tournament = stage.tournament
    entrants = _entrants(tournament, rnd)
    if len(entrants) < 2:
        if tournament.check_in_required:
            raise Conflict(_("At least 2 confirmed pairs must be checked in for round %(number)s.")
                           % {"number": rnd.number}, "pairs")
        raise Conflict(_("At least 2 confirmed pairs are needed."), "pairs")
    seeding = _seed(stage, entrants, seed)
    stage.lot_seed = seeding.lot_seed
    rnd.lot_seed = seeding.lot_seed
    if stage.format == Stage.Format.SWISS and stage.swiss_rounds is None:
        stage.swiss_rounds = recommended_swiss_rounds(len(entrants))
    stage.save(update_fields=["lot_seed", "swiss_rounds", "updated_at"])
    order = list(seeding.order)
    if stage.is_bracket:
        _draw_bracket(stage, rnd, order, by)
    elif stage.has_groups:
        _draw_groups(stage, order)
        _generate_group_round(stage, rnd, 1, by)
    else:
        _generate_swiss_round(stage, rnd, by, first_order=order)


def generate_first_round(tournament: Tournament, by, *, seed: int | None = None) -> Round:
    """The draw: seed the entrants (confirmed pairs, checked in when required) by the stage's
    method — by lot with ``seed`` or a fresh one, recorded on the stage and the round — and
    create round 1: the bracket (all its nodes, byes to the top seeds, the playable matches),
    the groups and their first Berger round, or the first Swiss round. Matches get tables 1..N
    and the referees assigned to those tables."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        stage = _stage_of(tournament)
        seed = _check_lot_seed(stage, seed)
        if _drawn(tournament):
            raise Conflict(_("The draw was already made: generate the next round, or regenerate this one."),
                           "round")
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict(_("The tournament is finished."), "tournament")
        rnd = _round_numbered(tournament, 1)
        rnd.tournament = tournament
        _draw(stage, rnd, by, seed)
        tournament.status = Tournament.Status.IN_PROGRESS
        tournament.save(update_fields=["status"])
        _audit(tournament, by, AuditEntry.Action.ROUND_GENERATED, round=rnd,
               after={**_round_json(rnd), "seeding": stage.seeding, "order": _seeding_order(stage)})
        return rnd


def _seeding_order(stage: Stage) -> list[int]:
    if stage.is_bracket:
        return list(stage.bracket_seeds)
    if stage.has_groups:
        return [pk for members in _group_members(stage).values() for pk in members]
    return []


def _unofficial_matches(tournament: Tournament) -> int:
    return (Match.objects.filter(tournament=tournament, round__isnull=False)
            .exclude(pk__in=Result.objects.filter(tournament=tournament).values("match_id"))
            .count())


def generate_next_round(tournament: Tournament, by) -> Round:
    """The next round of a Swiss or a round robin, once every match so far has an official result:
    a Swiss round paired from the standings (no rematch while avoidable, checked-in pairs only
    when required); the next Berger round of every group; after the last group round of
    "groups then knockout", the knockout bracket (top K of each group, crossed). Bracket rounds
    are not generated: they fill in by themselves as results become official."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        stage = _stage_of(tournament)
        last = _last_generated(tournament)
        if last is None:
            raise Conflict(_("Make the draw first (generate the first round)."), "round")
        if stage.is_bracket or stage.bracket_first_round is not None:
            raise Conflict(_("Bracket rounds fill in by themselves as results become official."), "round")
        missing = _unofficial_matches(tournament)
        if missing:
            raise Conflict(_("%(count)s match(es) have no official result yet: every súmula must be received "
                             "(or a walkover recorded) first.") % {"count": missing}, "round")
        rnd = _upcoming(tournament)
        rnd.tournament = tournament
        if stage.format == Stage.Format.SWISS:
            played = Round.objects.filter(tournament=tournament, phase=Round.Phase.SWISS).count()
            if played >= stage.swiss_rounds:
                raise Conflict(_("All %(count)s rounds of the Swiss were generated.") % {"count": stage.swiss_rounds},
                               "round")
            _generate_swiss_round(stage, rnd, by)
        else:
            done = Round.objects.filter(tournament=tournament, phase=Round.Phase.GROUPS).count()
            total = _group_round_count(_group_members(stage))
            if done < total:
                _generate_group_round(stage, rnd, done + 1, by)
            elif stage.format == Stage.Format.GROUPS_KNOCKOUT:
                _build_knockout(stage, rnd, by)
            else:
                raise Conflict(_("All rounds of the round robin were generated."), "round")
        _audit(tournament, by, AuditEntry.Action.ROUND_GENERATED, round=rnd, after=_round_json(rnd))
        _refresh_status(tournament, stage)
        return rnd


def _build_knockout(stage: Stage, rnd: Round, by) -> None:
    tables = standings(stage.tournament)
    withdrawn = _withdrawn_ids(stage.tournament)
    rankings = []
    for name, rows in tables.groups:
        ranking = [row.pair.pk for row in rows if row.pair.pk not in withdrawn]
        if len(ranking) < stage.qualifiers_per_group:
            raise Conflict(_("Group %(group)s has fewer than %(count)s pairs left to qualify.")
                           % {"group": name, "count": stage.qualifiers_per_group}, "qualifiers_per_group")
        rankings.append(ranking)
    order = [q.pair_id for q in knockout_seeding(rankings, stage.qualifiers_per_group)]
    bracket = single_elimination(order, third_place=stage.third_place)
    stage.bracket_seeds = order
    stage.bracket_first_round = rnd.number
    stage.save(update_fields=["bracket_seeds", "bracket_first_round", "updated_at"])
    _start_bracket(stage, rnd, bracket, by)


def regenerate_round(round: Round, by, *, seed: int | None = None, reason: str = "") -> Round:
    """Delete and recreate the matches of the last round while none of its súmulas has an entry and
    none of its results exists (walkovers of withdrawn pairs excepted: they are recreated).

    Round 1 (and the first knockout round) is drawn again: by lot with ``seed`` or a fresh seed,
    recorded. A bracket is redrawn whole. A later Swiss round is paired again (with the check-ins
    as they are now). Audited with the matches before and after."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        stage = _stage_of(tournament)
        seed = _check_lot_seed(stage, seed)
        rnd = Round.objects.get(pk=round.pk)
        rnd.tournament = tournament
        if not rnd.is_generated:
            raise Conflict(_("Round %(number)s was not generated yet.") % {"number": rnd.number}, "round")
        bracket_start = stage.bracket_first_round
        if bracket_start is not None and rnd.number >= bracket_start:
            if rnd.number != bracket_start:
                raise Conflict(_("Bracket rounds fill in by themselves; only the draw (round %(number)s) can be "
                                 "made again.") % {"number": bracket_start}, "round")
            rounds = list(Round.objects.filter(tournament=tournament, number__gte=rnd.number))
        else:
            last = _last_generated(tournament)
            if last.pk != rnd.pk:
                raise Conflict(_("Only the last round (%(number)s) can be generated again.")
                               % {"number": last.number}, "round")
            rounds = [rnd]
        if seed is not None and rnd.number != 1:
            raise TournamentError(_("A seed is given only when the draw is made again."), "seed")
        match_ids = list(Match.objects.filter(round__in=rounds).values_list("pk", flat=True))
        results = Result.objects.filter(match_id__in=match_ids)
        kept = results.exclude(kind=Result.Kind.WALKOVER, absent__status=Pair.Status.WITHDRAWN)
        if kept.exists():
            raise Conflict(_("A result of this round exists: the round can no longer be generated again."), "round")
        if _has_entries(match_ids):
            raise Conflict(_("A súmula of this round has entries: the round can no longer be generated again."),
                           "round")
        before = {**_round_json(rnd), "stage_lot_seed": stage.lot_seed}
        results.delete()
        if rnd.number == bracket_start:
            BracketNode.objects.filter(stage=stage).delete()
            stage.bracket_seeds, stage.bracket_first_round = [], None
            stage.save(update_fields=["bracket_seeds", "bracket_first_round", "updated_at"])
        Match.objects.filter(pk__in=match_ids).delete()
        Bye.objects.filter(round__in=rounds).delete()
        for later in rounds:
            if later.pk != rnd.pk:
                if later.check_ins.exists():
                    later.phase, later.generated_at, later.name = "", None, ""
                    later.save(update_fields=["phase", "generated_at", "name"])
                else:
                    later.delete()
        rnd.phase, rnd.generated_at, rnd.lot_seed = "", None, None
        if rnd.number == bracket_start:
            rnd.name = ""
        rnd.save(update_fields=["phase", "generated_at", "lot_seed", "name"])
        if rnd.number == 1:
            GroupMember.objects.filter(stage=stage).delete()
            _draw(stage, rnd, by, seed)
        elif rnd.number == bracket_start:
            _build_knockout(stage, rnd, by)
        elif stage.format == Stage.Format.SWISS:
            _generate_swiss_round(stage, rnd, by)
        else:
            done = Round.objects.filter(tournament=tournament, phase=Round.Phase.GROUPS).count()
            _generate_group_round(stage, rnd, done + 1, by)
        _audit(tournament, by, AuditEntry.Action.ROUND_REGENERATED, reason=reason, round=rnd, before=before,
               after={**_round_json(rnd), "stage_lot_seed": stage.lot_seed})
        _refresh_status(tournament, stage)
        return rnd


def round_matches(round: Round) -> list[Match]:
    """The matches of a round by table (walkovers without a table last), with their pairs, players,
    referee, official result and bracket node, in a fixed number of queries."""
    return list(
        Match.objects.filter(round=round)
        .select_related("pair_a__first_player", "pair_a__second_player", "pair_b__first_player",
                        "pair_b__second_player", "referee", "tournament_result", "bracket_node")
        .order_by("table", "pk")
    )


# ------------------------------------------------------------------------------------ tables


def assign_referee(tournament: Tournament, by, *, table: int, referee, round: Round | None = None
                   ) -> TableAssignment | None:
    """Make ``referee`` (a user, or ``None`` to clear) the referee of ``table`` for every round, or
    for ``round`` only (which wins over the tournament-wide assignment). Matches at that table
    that are not signed yet take the new referee."""
    table = _int(table, "table", minimum=1, maximum=10_000)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        if round is not None and round.tournament_id != tournament.pk:
            raise TournamentError(_("Round %(number)s belongs to another tournament.") % {"number": round.number},
                                  "round")
        if referee is not None and not (getattr(referee, "pk", None) and getattr(referee, "is_active", False)):
            raise TournamentError(_("The referee is an active user."), "referee")
        current = TableAssignment.objects.filter(tournament=tournament, table=table, round=round).first()
        before = current.referee_id if current else None
        assignment = None
        if referee is None:
            if current is not None:
                current.delete()
        elif current is None:
            assignment = TableAssignment.objects.create(tournament=tournament, table=table, round=round,
                                                        referee=referee)
        else:
            current.referee = referee
            current.save(update_fields=["referee"])
            assignment = current
        matches = Match.objects.filter(tournament=tournament, table=table, status=Match.Status.OPEN,
                                       tournament_result__isnull=True)
        if round is not None:
            matches = matches.filter(round=round)
        else:
            own = TableAssignment.objects.filter(tournament=tournament, table=table, round__isnull=False)
            matches = matches.exclude(round__in=own.values("round"))
        for match in matches.select_related("round"):
            match.referee_id = _referees(tournament, match.round).get(table)
            match.save(update_fields=["referee", "updated_at"])
        _audit(tournament, by, AuditEntry.Action.REFEREE_ASSIGNED, round=round,
               before={"table": table, "referee": before},
               after={"table": table, "referee": referee.pk if referee is not None else None})
        return assignment


# ----------------------------------------------------------------------------------- results


def _result_json(result: Result | None) -> dict | None:
    if result is None:
        return None
    return {"kind": result.kind, "winner": result.winner_id, "absent": result.absent_id,
            "games": [result.games_a, result.games_b], "points": [result.points_a, result.points_b],
            "reason": result.reason}


def record_official_result(match: Match) -> Result | None:
    """Copy the official result of a tournament match (its súmula signed and received, art. 25) and
    advance the tournament: the ``result_official`` receiver calls this. Idempotent. A walkover or
    an organizer's result already recorded for the match stays (the súmula is then noted in the
    audit log); so does a result the bracket can no longer follow."""
    from scoring.services import official_result

    with transaction.atomic():
        match = _lock_match(match)
        if match.tournament_id is None:
            return None
        data = official_result(match)
        if data is None:
            return None
        tournament = _lock_tournament(match.tournament_id)
        winner = data["winner_pair_id"]
        values = {"kind": Result.Kind.SUMULA, "pair_a_id": match.pair_a_id, "pair_b_id": match.pair_b_id,
                  "winner_id": winner, "absent": None, "games_a": data["games"][0], "games_b": data["games"][1],
                  "points_a": data["points"][0], "points_b": data["points"][1], "reason": ""}
        existing = Result.objects.select_for_update().filter(match=match).first()
        if existing is not None and existing.kind != Result.Kind.SUMULA:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_IGNORED, match=match, round=match.round,
                   before=_result_json(existing), after={"sumula": data["digest"], "winner": winner},
                   reason=_("The organizer had already decided this match."))
            return existing
        if existing is not None and all(getattr(existing, k) == v for k, v in values.items() if k != "absent"):
            return existing
        before = _result_json(existing)
        try:
            with transaction.atomic():
                if existing is None:
                    result = Result.objects.create(match=match, tournament=tournament,
                                                   recorded_by=match.received_by, **values)
                else:
                    for key, value in values.items():
                        setattr(existing, key, value)
                    existing.recorded_at = timezone.now()
                    existing.save()
                    result = existing
                _after_results(tournament, None)
        except Conflict as error:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_IGNORED, match=match, round=match.round,
                   before=before, after={"sumula": data["digest"], "winner": winner}, reason=error.message[:300])
            return Result.objects.filter(match=match).first()
        if before is not None:
            _audit(tournament, match.received_by, AuditEntry.Action.RESULT_OFFICIAL, match=match,
                   round=match.round, before=before, after=_result_json(result))
        return result


def _check_match(match: Match, tournament: Tournament) -> None:
    if match.tournament_id != tournament.pk or match.round_id is None:
        raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")


def _managed_match(match: Match | int, by) -> tuple[Match, Tournament]:
    """Lock a match of a tournament's rounds and its tournament (in that order, as scoring's receipt
    does), for an organizer's action on it. Call inside a transaction."""
    match = _lock_match(match)
    tournament = _lock_tournament(match.tournament_id) if match.tournament_id else None
    if tournament is None:
        raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")
    _require_manager(by, tournament)
    _check_match(match, tournament)
    return match, tournament


def record_walkover(match: Match, absent: Pair | int, by, *, reason: str = "") -> Result:
    """W.O.: ``absent`` (one of the two pairs) did not play; the other wins, officially at once, with
    the match's games won 12-0 (counted in the standings only if the stage says so). Refused once
    the match has an official result or a signed súmula."""
    reason = _reason(reason, required=False)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        absent = _pair_of(tournament, absent, "absent")
        if absent.pk not in (match.pair_a_id, match.pair_b_id):
            raise TournamentError(_("The absent pair is one of the match's two pairs."), "absent")
        if Result.objects.filter(match=match).exists():
            raise Conflict(_("This match already has an official result: change it by hand, with a reason."),
                           "match")
        if match.status != Match.Status.OPEN:
            raise Conflict(_("The súmula of this match was signed: receive it instead."), "match")
        result = _walkover_result(match, tournament, absent=absent, by=by, reason=reason)
        result.save()
        _audit(tournament, by, AuditEntry.Action.WALKOVER, reason=reason, match=match, round=match.round,
               after=_result_json(result))
        _after_results(tournament, by)
        return result


def set_result(match: Match, by, *, winner: Pair | int, games: Sequence[int], points: Sequence[int] = (0, 0),
               reason: str) -> Result:
    """Override: the organizer sets (or replaces) a match's result by hand with a reason (art. 26);
    official at once, audited with the result before and after. ``games`` and ``points`` are
    ``[pair A, pair B]``; the winner wins the games the match format needs. A bracket follows the
    change unless a later match was already played with the old winner (refused)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        winner = _pair_of(tournament, winner, "winner")
        if winner.pk not in (match.pair_a_id, match.pair_b_id):
            raise TournamentError(_("The winner is one of the match's two pairs."), "winner")
        if not isinstance(games, (list, tuple)) or len(games) != 2:
            raise TournamentError(_("Give the games won as [pair A, pair B]."), "games")
        if not isinstance(points, (list, tuple)) or len(points) != 2:
            raise TournamentError(_("Give the points (tentos) as [pair A, pair B]."), "points")
        games_a, games_b = (_int(g, "games", maximum=5) for g in games)
        points_a, points_b = (_int(p, "points", maximum=12 * 5) for p in points)
        need = match.best_of // 2 + 1
        won, lost = (games_a, games_b) if winner.pk == match.pair_a_id else (games_b, games_a)
        if won != need or lost >= need:
            raise TournamentError(_("In a best of %(best_of)s the winner wins %(need)s games and the other fewer.")
                                  % {"best_of": match.best_of, "need": need}, "games")
        existing = Result.objects.select_for_update().filter(match=match).first()
        before = _result_json(existing)
        result = existing or Result(match=match, tournament=tournament)
        result.kind, result.pair_a_id, result.pair_b_id = Result.Kind.MANUAL, match.pair_a_id, match.pair_b_id
        result.winner, result.absent = winner, None
        result.games_a, result.games_b, result.points_a, result.points_b = games_a, games_b, points_a, points_b
        result.reason, result.recorded_by, result.recorded_at = reason, _actor(by), timezone.now()
        result.save()
        _audit(tournament, by, AuditEntry.Action.RESULT_SET, reason=reason, match=match, round=match.round,
               before=before, after=_result_json(result))
        _after_results(tournament, by)
        return result


def _after_results(tournament: Tournament, by) -> None:
    """Advance what follows from new official results: the bracket, and the tournament's status."""
    stage = Stage.objects.filter(tournament=tournament).first()
    if stage is None:
        return
    stage.tournament = tournament
    if stage.bracket_first_round is not None:
        _advance_bracket(stage, by)
    _refresh_status(tournament, stage)


def _refresh_status(tournament: Tournament, stage: Stage) -> None:
    """Finished once the bracket is complete, or every round of a Swiss / round robin is official."""
    if tournament.status not in (Tournament.Status.IN_PROGRESS, Tournament.Status.FINISHED):
        return
    if stage.bracket_first_round is not None:
        done = not BracketNode.objects.filter(stage=stage, winner__isnull=True, unplayed=False).exists()
    elif stage.format == Stage.Format.SWISS:
        rounds = Round.objects.filter(tournament=tournament, phase=Round.Phase.SWISS).count()
        done = rounds >= (stage.swiss_rounds or 0) and not _unofficial_matches(tournament)
    elif stage.format == Stage.Format.ROUND_ROBIN:
        rounds = Round.objects.filter(tournament=tournament, phase=Round.Phase.GROUPS).count()
        done = rounds >= _group_round_count(_group_members(stage)) and not _unofficial_matches(tournament)
    else:
        done = False
    status = Tournament.Status.FINISHED if done else Tournament.Status.IN_PROGRESS
    if status != tournament.status:
        tournament.status = status
        tournament.save(update_fields=["status"])


# --------------------------------------------------------------------------------- overrides


def _match_json(match: Match) -> dict:
    return {"id": match.pk, "pair_a": match.pair_a_id, "pair_b": match.pair_b_id, "table": match.table,
            "referee": match.referee_id}


def change_pairing(match: Match, by, *, pair_a: Pair | int, pair_b: Pair | int, reason: str) -> list[Match]:
    """Override (Swiss rounds only): the match is now ``pair_a`` v ``pair_b``. A pair taken from
    another match (or from the bye) of the round is replaced there by the pair it displaces, so
    everyone still plays once. Only matches without entries or results change. Returns the
    matches changed."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        match, tournament = _managed_match(match, by)
        rnd = match.round
        if rnd.phase != Round.Phase.SWISS:
            raise Conflict(_("Pairings are changed by hand only in a Swiss round; regenerate the round instead."),
                           "match")
        new = [_pair_of(tournament, pair_a, "pair_a"), _pair_of(tournament, pair_b, "pair_b")]
        if new[0].pk == new[1].pk:
            raise TournamentError(_("A match is played between two different pairs."), "pair_b")
        for key, pair in zip(("pair_a", "pair_b"), new):
            if pair.status == Pair.Status.WITHDRAWN:
                raise TournamentError(_("%(pair)s withdrew from the tournament.") % {"pair": pair.name}, key)
        others = {m.pk: m for m in Match.objects.filter(round=rnd).exclude(pk=match.pk)}
        place = {}
        for m in others.values():
            place[m.pair_a_id] = (m, "pair_a_id")
            place[m.pair_b_id] = (m, "pair_b_id")
        byes = {b.pair_id: b for b in Bye.objects.filter(round=rnd)}
        old = [match.pair_a_id, match.pair_b_id]
        new_ids = [p.pk for p in new]
        leaving = [p for p in old if p not in new_ids]
        entering = [p for p in new_ids if p not in old]
        touched = {match.pk: match}
        before = [_match_json(match)]
        bye_changes = []
        for enter, leave in zip(entering, leaving):
            if enter in place:
                other, side = place[enter]
                if other.pk not in touched:
                    before.append(_match_json(other))
                setattr(other, side, leave)
                touched[other.pk] = other
            elif enter in byes:
                bye_changes.append((byes[enter], leave))
        # Lock the other matches that change (after the tournament: none of them can be in the middle of
        # a receipt, which needs entries), then check they are still untouched.
        list(Match.objects.select_for_update().filter(pk__in=[pk for pk in touched if pk != match.pk]))
        if _has_entries(touched) or Result.objects.filter(match_id__in=list(touched)).exists():
            raise Conflict(_("A match involved already has entries or a result."), "match")
        match.pair_a_id, match.pair_b_id = new_ids
        for m in touched.values():
            m.save(update_fields=["pair_a", "pair_b", "updated_at"])
        for bye, pair_id in bye_changes:
            bye.pair_id = pair_id
            bye.save(update_fields=["pair"])
        _audit(tournament, by, AuditEntry.Action.PAIRING_CHANGED, reason=reason, match=match, round=rnd,
               before={"matches": before}, after={"matches": [_match_json(m) for m in touched.values()],
                                                  "byes": [b.pair_id for b in byes.values()]})
        return list(touched.values())


def swap_tables(match: Match, other: Match, by, *, reason: str) -> None:
    """Override: two matches of the same round exchange their tables (and the tables' referees)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        first, second = sorted([match.pk, other.pk])
        if first == second:
            raise TournamentError(_("Choose two different matches."), "other")
        # matches first, then the tournament: the order of scoring's receipt (then result_official)
        locked = {m.pk: m for m in Match.objects.select_for_update().filter(pk__in=[first, second]).order_by("pk")}
        tournament = _lock_tournament(match.tournament_id) if match.tournament_id else None
        if tournament is None:
            raise TournamentError(_("This match is not a match of the tournament's rounds."), "match")
        _require_manager(by, tournament)
        match, other = locked[match.pk], locked.get(other.pk)
        if other is None or other.round_id != match.round_id or other.tournament_id != tournament.pk:
            raise TournamentError(_("Both matches must be of the same round."), "other")
        _check_match(match, tournament)
        if match.table is None or other.table is None:
            raise Conflict(_("A walkover has no table."), "other")
        for m in (match, other):
            if m.status != Match.Status.OPEN:
                raise Conflict(_("The súmula of a match at these tables was already signed."), "match")
        before = [_match_json(match), _match_json(other)]
        match.table, other.table = other.table, match.table
        match.referee_id, other.referee_id = other.referee_id, match.referee_id
        for m in (match, other):
            m.save(update_fields=["table", "referee", "updated_at"])
        _audit(tournament, by, AuditEntry.Action.TABLES_SWAPPED, reason=reason, match=match, round=match.round,
               before={"matches": before}, after={"matches": [_match_json(match), _match_json(other)]})


# --------------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingLine:
    """One pair's row: rank, totals, the value of each tiebreak (in the stage's order) and its lot."""

    rank: int
    pair: Pair
    played: int
    won: int
    lost: int
    byes: int
    games_for: int
    games_against: int
    points_for: int
    points_against: int
    values: dict
    lot: int

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    def as_dict(self) -> dict:
        return {"rank": self.rank, "pair": self.pair.pk, "pair_name": self.pair.name,
                "withdrawn": self.pair.status == Pair.Status.WITHDRAWN, "played": self.played, "won": self.won,
                "lost": self.lost, "byes": self.byes, "games_for": self.games_for,
                "games_against": self.games_against, "points_for": self.points_for,
                "points_against": self.points_against, "point_difference": self.point_difference,
                "tiebreaks": self.values, "lot": self.lot}


@dataclass(frozen=True)
class StandingsTable:
    """The standings: overall ``rows``, and per group (``[(name, rows)]``) for round robin groups."""

    tiebreaks: list[str]
    lot_seed: int
    walkover_scores: bool
    rows: list[StandingLine]
    groups: list[tuple[str, list[StandingLine]]]

    def as_dict(self) -> dict:
        return {"tiebreaks": self.tiebreaks, "lot_seed": self.lot_seed, "walkover_scores": self.walkover_scores,
                "rows": [r.as_dict() for r in self.rows],
                "groups": [{"name": name, "rows": [r.as_dict() for r in rows]} for name, rows in self.groups]}


@dataclass
class _Loaded:
    results: list[tuple[MatchResult, str]]
    byes: list[int]


def _load_results(tournament: Tournament) -> _Loaded:
    """Official results (with their round's phase) and byes: two queries."""
    rows = (Result.objects.filter(tournament=tournament)
            .values_list("pair_a_id", "pair_b_id", "games_a", "games_b", "points_a", "points_b", "winner_id",
                         "kind", "match__round__phase").order_by("match_id"))
    results = [
        (MatchResult(a, b, ga, gb, pa, pb, w, kind == Result.Kind.WALKOVER), phase or "")
        for a, b, ga, gb, pa, pb, w, kind, phase in rows
    ]
    byes = list(Bye.objects.filter(round__tournament=tournament).values_list("pair_id", flat=True))
    return _Loaded(results, byes)


def _ranked_pair_ids(tournament: Tournament) -> list[int]:
    return list(Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
                .order_by("pk").values_list("pk", flat=True))


def _number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _lines(table: Standings, pairs: dict[int, Pair]) -> list[StandingLine]:
    return [
        StandingLine(rank=row.rank, pair=pairs[row.pair_id], played=row.played, won=row.won, lost=row.lost,
                     byes=row.byes, games_for=row.games_for, games_against=row.games_against,
                     points_for=row.points_for, points_against=row.points_against,
                     values={t.value: _number(v) for t, v in row.values.items()}, lot=row.lot)
        for row in table.rows
    ]


def standings(tournament: Tournament) -> StandingsTable:
    """The standings from the official results only (received súmulas, walkovers, organizer's
    results) and the byes, ranked by the stage's tiebreaks then by lot with the stage's recorded
    seed; per group too for round robin groups (group matches only). Pending registrations are
    left out; withdrawn pairs stay with what they played. Runs a constant number of queries
    (five) whatever the number of pairs."""
    stage = Stage.objects.filter(tournament=tournament).first()
    tiebreaks = stage.tiebreaks if stage else default_tiebreaks()
    lot_seed = stage.standings_lot_seed if stage else 0
    walkover_scores = stage.walkover_scores if stage else False
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.PENDING)
             .select_related("first_player", "second_player", "substitute").order_by("pk")}
    data = _load_results(tournament)
    results = [r for r, _phase in data.results if r.pair_a in pairs and r.pair_b in pairs]
    overall = compute_standings(results, tiebreaks, pairs=list(pairs), byes=[b for b in data.byes if b in pairs],
                                lot_seed=lot_seed, count_walkover_scores=walkover_scores)
    groups: list[tuple[str, list[StandingLine]]] = []
    if stage is not None and stage.has_groups:
        members: dict[int, list[int]] = defaultdict(list)
        for group, pair_id in (GroupMember.objects.filter(stage=stage).order_by("group", "number")
                               .values_list("group", "pair_id")):
            members[group].append(pair_id)
        group_of = {p: g for g, ids in members.items() for p in ids}
        for g in sorted(members):
            ids = [p for p in members[g] if p in pairs]
            inside = [r for r, phase in data.results
                      if phase == Round.Phase.GROUPS and group_of.get(r.pair_a) == g and group_of.get(r.pair_b) == g]
            byes = [b for b in data.byes if group_of.get(b) == g]
            table = compute_standings(inside, tiebreaks, pairs=ids, byes=byes, lot_seed=lot_seed,
                                      count_walkover_scores=walkover_scores)
            groups.append((group_name(g), _lines(table, pairs)))
    return StandingsTable(list(tiebreaks), lot_seed, walkover_scores, _lines(overall, pairs), groups)


# ----------------------------------------------------------------------------------- bracket


@dataclass(frozen=True)
class BracketView:
    """A bracket for pages: the pure structure (pair ids are ``Pair`` pks) with the official results
    recorded, the pairs' names, and per match code its node, scoring match and official result."""

    stage: Stage
    bracket: EliminationBracket
    names: dict[int, str]
    nodes: dict[str, BracketNode]
    results: dict[str, Result]
    champion: Pair | None
    first_round: int

    def round_of(self, code: str) -> int:
        """The tournament round number the match is played in."""
        return self.first_round + self.nodes[code].level - 1


def bracket_view(tournament: Tournament) -> BracketView | None:
    """The tournament's bracket (None before it is drawn; for groups then knockout, until the
    knockout is built), from the stored layout and the official results; constant queries."""
    stage = Stage.objects.filter(tournament=tournament).first()
    if stage is None or stage.bracket_first_round is None:
        return None
    stage.tournament = tournament
    nodes = {n.code: n for n in BracketNode.objects.filter(stage=stage).select_related("match").order_by("pk")}
    results = {}
    by_match = {n.match_id: code for code, n in nodes.items() if n.match_id is not None}
    for result in Result.objects.filter(match_id__in=list(by_match)):
        results[by_match[result.match_id]] = result
    bracket = record_results(_layout(stage, list(nodes.values())),
                             {code: r.winner_id for code, r in results.items()})
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament)}
    champion = pairs.get(bracket.champion) if bracket.champion is not None else None
    return BracketView(stage, bracket, {pk: p.name for pk, p in pairs.items()}, nodes, results, champion,
                       stage.bracket_first_round)


def bracket_json(tournament: Tournament) -> dict | None:
    """The bracket as JSON: sections of rounds of matches, each with its slots (pair, seed, bye,
    source), winner, scoring match id, table, round number and official result; and the champion."""
    view = bracket_view(tournament)
    if view is None:
        return None

    def slot(s: Slot) -> dict:
        return {"pair": s.pair, "name": view.names.get(s.pair) if s.pair is not None else None, "seed": s.seed,
                "bye": s.bye, "source": {"match": s.source.match_id, "takes": s.source.takes} if s.source else None}

    def match(m: BracketMatch) -> dict:
        node = view.nodes[m.match_id]
        result = view.results.get(m.match_id)
        return {"code": m.match_id, "section": m.section.value, "bracket_round": m.round_number,
                "position": m.position, "round": view.round_of(m.match_id), "top": slot(m.top),
                "bottom": slot(m.bottom), "winner": m.winner, "unplayed": m.unplayed,
                "match": node.match_id, "table": node.match.table if node.match is not None else None,
                "result": _result_json(result)}

    b = view.bracket
    return {
        "format": view.stage.format, "double": b.double, "size": b.size, "seeds": list(b.seeds),
        "first_round": view.first_round,
        "winners": [[match(m) for m in r] for r in b.winners],
        "losers": [[match(m) for m in r] for r in b.losers],
        "finals": [match(m) for m in b.finals],
        "third_place": match(b.third_place) if b.third_place is not None else None,
        "champion": b.champion, "champion_name": view.champion.name if view.champion else None,
        "complete": b.complete,
    }


__all__ = [
    "TournamentError", "Forbidden", "Conflict", "can_manage", "can_create_tournament", "create_tournament",
    "update_tournament", "register_pair", "update_pair", "withdraw_pair",
    "clean_registration", "clean_player", "clean_tiebreaks", "upcoming_round", "check_in", "undo_check_in",
    "configure_stage", "generate_first_round", "generate_next_round", "regenerate_round", "round_matches",
    "assign_referee", "record_official_result", "record_walkover", "set_result", "change_pairing",
    "swap_tables", "standings", "StandingsTable", "StandingLine", "bracket_view", "BracketView", "bracket_json",
    "write_pairings", "persist_bracket",
]
