"""Creating a tournament and editing its details (name, slug, venue, date, status, format of the
matches, rule set, whether check-in is required).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden
from referee.engine.errors import ReportError
from referee.engine.rules import rule_set_from

from events import access, organizations

from ..models import Tournament
from .base import TournamentError, _bool, _drawn, _is_user, _lock_tournament, _require_manager
from . import season_hooks


TOURNAMENT_FIELDS = ("name", "slug", "venue", "date", "status", "best_of", "rule_set", "check_in_required")


def can_create_tournament(user) -> bool:
    """Superusers, accounts with ``events.add_tournament`` and the members of an organization (for it) create
    tournaments."""
    return _is_user(user) and bool(access.operates_site(user) or user.has_perm("events.add_tournament")
                                   or access.organization_ids(user))


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
    ``check_in_required``; ``organization`` (an id) that owns it, one ``by`` acts for (by default their first,
    or one made in their name)."""
    from django.utils.text import slugify

    if not can_create_tournament(by):
        raise Forbidden(_("Only organizers create tournaments."))
    organization = values.pop("organization", None)
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
        return Tournament.objects.create(organizer=by, organization=organizations.home_of(by, organization),
                                         **cleaned)


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
        if "date" in cleaned and cleaned["date"] != tournament.date:  # the date places its matches in the ratings
            season_hooks.rating_order_changed(tournaments=[tournament.pk])
        for key, value in cleaned.items():
            setattr(tournament, key, value)
        tournament.save()
        return tournament
