"""The format of a tournament's first :class:`~tournaments.models.Stage` (single or double
elimination, round robin in groups, Swiss; "groups then knockout" is the shortcut for a round
robin followed by a knockout stage), and the checks of every stage's settings: seeding,
tiebreaks (a Swiss defaults to Buchholz), Swiss pairing order, legs, match format per stage and
per round, and a later stage's qualifiers rule.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict

from ..models import AuditEntry, Stage, Tournament, default_tiebreaks
from draw.pairing.standings import Tiebreak
from .base import SWISS_ONLY_TIEBREAKS, TournamentError, _audit, _bool, _drawn, _int, _lock_tournament, _require_manager


STAGE_FIELDS = ("format", "seeding", "third_place", "grand_final_reset", "group_count", "qualifiers_per_group",
                "swiss_rounds", "tiebreaks", "walkover_scores", "swiss_order", "legs", "best_of", "round_best_of",
                "withdrawn_last", "third_place_best_of", "bye_value", "bye_played", "avoid_rounds", "classification")
# a knockout's own options: after "groups then knockout" they are set on its knockout stage
KNOCKOUT_OPTIONS = ("third_place", "classification", "third_place_best_of", "grand_final_reset")
LATER_STAGE_FIELDS = STAGE_FIELDS + ("name", "qualification", "qualifiers", "qualify_from", "unequal_groups")


def stage_json(stage: Stage) -> dict:
    return ({name: getattr(stage, name) for name in LATER_STAGE_FIELDS}
            | {"position": stage.position, "standings_lot_seed": stage.standings_lot_seed})


_stage_json = stage_json


def clean_tiebreaks(value: object, format: str) -> list[str]:
    """A list of distinct tiebreak names (``draw.pairing.standings.Tiebreak``); Buchholz only in a Swiss."""
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


def _clean_round_best_of(value: object) -> dict:
    if not isinstance(value, dict):
        raise TournamentError(_('Give the match format per round as {"round": games}, e.g. {"-1": 3}.'),
                              "round_best_of")
    out = {}
    for key, games in value.items():
        try:
            number = int(key)
        except (TypeError, ValueError):
            number = 0
        if number == 0 or abs(number) > 64:
            raise TournamentError(_("A round is 1, 2, ... from the first, or -1, -2, ... from the last (%(key)s)?")
                                  % {"key": key}, "round_best_of")
        if games not in (1, 3, 5) or type(games) is not int:
            raise TournamentError(_("A match is played to the best of 1, 3 or 5 games."), "round_best_of")
        out[str(number)] = games
    return out


def clean_stage_settings(stage: Stage, settings: dict, *, later: bool) -> None:
    """Check ``settings`` and set them on ``stage`` (not saved). A format change without tiebreaks
    gives the new format's default tiebreaks (a Swiss: Buchholz after matches won) unless the
    organizer had chosen his own."""
    allowed = LATER_STAGE_FIELDS if later else STAGE_FIELDS
    unknown = set(settings) - set(allowed)
    if unknown:
        raise TournamentError(_("Unknown setting: %(name)s.") % {"name": sorted(unknown)[0]}, sorted(unknown)[0])
    old_format = stage.format or None
    values = {name: settings.get(name, getattr(stage, name)) for name in allowed}
    formats = [f for f in Stage.Format.values if later is False or f != Stage.Format.GROUPS_KNOCKOUT]
    if values["format"] not in formats:
        raise TournamentError(_("Unknown format; use: %(names)s.") % {"names": ", ".join(formats)}, "format")
    if values["seeding"] not in Stage.Seeding.values:
        raise TournamentError(_("Unknown seeding; use: %(names)s.")
                              % {"names": ", ".join(Stage.Seeding.values)}, "seeding")
    for name in ("third_place", "grand_final_reset", "walkover_scores", "withdrawn_last", "bye_played",
                 "classification"):
        _bool(values[name], name)
    _int(values["group_count"], "group_count", minimum=1, maximum=64)
    _int(values["qualifiers_per_group"], "qualifiers_per_group", minimum=1, maximum=64)
    _int(values["swiss_rounds"], "swiss_rounds", minimum=1, maximum=64, allow_none=True)
    _int(values["avoid_rounds"], "avoid_rounds", minimum=1, maximum=64, allow_none=True)
    if values["bye_value"] not in Stage.ByeValue.values:
        raise TournamentError(_("A bye is worth a win, a draw or nothing (win, draw, nothing)."), "bye_value")
    if values["swiss_order"] not in Stage.SwissOrder.values:
        raise TournamentError(_("Swiss order: fold (top half against bottom half) or neighbour."), "swiss_order")
    if values["legs"] not in (1, 2) or type(values["legs"]) is not int:
        raise TournamentError(_("A round robin is played once (1) or twice (2)."), "legs")
    if values["best_of"] is not None and (type(values["best_of"]) is not int or values["best_of"] not in (1, 3, 5)):
        raise TournamentError(_("A match is played to the best of 1, 3 or 5 games."), "best_of")
    for name in ("best_of", "third_place_best_of"):
        if values[name] is not None and (type(values[name]) is not int or values[name] not in (1, 3, 5)):
            raise TournamentError(_("A match is played to the best of 1, 3 or 5 games."), name)
    values["round_best_of"] = _clean_round_best_of(values["round_best_of"])
    if "tiebreaks" not in settings and (old_format is None or list(values["tiebreaks"]) == default_tiebreaks(old_format)):
        values["tiebreaks"] = default_tiebreaks(values["format"])
    values["tiebreaks"] = clean_tiebreaks(values["tiebreaks"], values["format"])
    if later:
        if values["qualification"] not in Stage.Qualification.values:
            raise TournamentError(_("Qualifiers: overall (top N) or per_group (top K of each group)."),
                                  "qualification")
        _int(values["qualifiers"], "qualifiers", minimum=0 if values["qualification"] == "per_group" else 2,
             maximum=4096, allow_none=True)
        _int(values["qualify_from"], "qualify_from", minimum=1, maximum=4096)
        if values["unequal_groups"] not in Stage.UnequalGroups.values:
            raise TournamentError(_("Groups of different sizes: drop_last (leave out the results against the last "
                                    "of the larger groups) or per_match."), "unequal_groups")
        if not isinstance(values["name"], str) or len(values["name"]) > 80:
            raise TournamentError(_("A name of at most 80 characters."), "name")
    for name, value in values.items():
        setattr(stage, name, value)


def configure_stage(tournament: Tournament, by, *, knockout: dict | None = None, **settings) -> Stage:
    """Set the tournament's format before the draw. Settings: ``format`` (required the first
    time: single_elimination, double_elimination, round_robin, swiss, groups_knockout),
    ``seeding`` (order, rating, lot), ``third_place``, ``grand_final_reset``, ``group_count``,
    ``qualifiers_per_group``, ``swiss_rounds`` (``None``: enough rounds for one unbeaten pair,
    fixed at the draw), ``tiebreaks`` (ordered names; default per format, a Swiss with Buchholz),
    ``walkover_scores``, ``swiss_order`` (fold: top half v bottom half; neighbour), ``legs`` (2: a
    double round robin), ``best_of`` (the stage's match format; None: the tournament's) and
    ``round_best_of`` (per round of the stage: ``{"-1": 3}`` the final). ``groups_knockout``
    makes two stages: this one a round robin, then a single-elimination knockout of the top
    ``qualifiers_per_group`` of each group (see ``stages``); changed afterwards, the knockout's
    options (``third_place``, art. 11.4; ``classification``, ``third_place_best_of``,
    ``grand_final_reset``) are set on that knockout stage too (the round robin keeps a copy the
    Format panel shows). ``knockout``: a groups → knockout event's own knockout settings, as for a later stage
    (``qualifiers``: the best of the next place; ``round_best_of``: a best-of-3 final), set in the same step:
    the whole format is one audit entry, not one per stage."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        if _drawn(tournament):
            raise Conflict(_("The draw was made: the format no longer changes."), "stage")
        stage = Stage.objects.filter(tournament=tournament, position=1).first()
        before = stage_json(stage) if stage else None
        if stage is None:
            if "format" not in settings:
                raise TournamentError(_("Choose a format."), "format")
            stage = Stage(tournament=tournament, position=1)
        shortcut = settings.get("format") == Stage.Format.GROUPS_KNOCKOUT
        if knockout and not shortcut:
            raise TournamentError(_("Only for: %(formats)s.") % {"formats": Stage.Format.GROUPS_KNOCKOUT.label},
                                  sorted(knockout)[0])
        clean_stage_settings(stage, settings, later=False)
        if shortcut:
            if stage.group_count * stage.qualifiers_per_group < 2:
                raise TournamentError(_("The knockout needs at least 2 qualifiers: more groups or more qualifiers "
                                        "per group."), "qualifiers_per_group")
            stage.format = Stage.Format.ROUND_ROBIN
        stage.save()
        knockout_options = {name: getattr(stage, name) for name in KNOCKOUT_OPTIONS if name in settings}
        if not shortcut and knockout_options and stage.format == Stage.Format.ROUND_ROBIN:
            # groups then knockout made earlier: the knockout's options are the knockout stage's
            later_stage = Stage.objects.filter(tournament=tournament, position=2, started_at__isnull=True).first()
            if later_stage is not None and later_stage.is_bracket:
                before_knockout = stage_json(later_stage)
                for name, value in knockout_options.items():
                    setattr(later_stage, name, value)
                later_stage.save(update_fields=[*knockout_options, "updated_at"])
                _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED, before=before_knockout,
                       after=stage_json(later_stage))
        if shortcut:  # groups then knockout: two stages
            later_stage = Stage.objects.filter(tournament=tournament, position=2).first() or Stage(
                tournament=tournament, position=2, name=_("Knockout"))
            later_stage.format = Stage.Format.SINGLE_ELIMINATION
            later_stage.qualification = Stage.Qualification.PER_GROUP
            later_stage.qualifiers_per_group = stage.qualifiers_per_group
            later_stage.third_place = stage.third_place
            later_stage.classification = stage.classification
            later_stage.third_place_best_of = stage.third_place_best_of
            later_stage.walkover_scores = stage.walkover_scores
            later_stage.standings_lot_seed = stage.standings_lot_seed
            later_stage.tiebreaks = default_tiebreaks(later_stage.format)
            if knockout:  # the best of the next place, the final's match format: the same step, one entry
                clean_stage_settings(later_stage, dict(knockout), later=True)
            later_stage.save()
        _audit(tournament, by, AuditEntry.Action.STAGE_CONFIGURED, before=before,
               after=stage_json(stage) | ({"knockout": stage_json(later_stage)} if shortcut else {}))
        return stage
