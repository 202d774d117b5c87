"""The format of a tournament (its :class:`~tournaments.models.Stage`): single or double
elimination, round robin in groups, Swiss, groups then knockout; seeding and tiebreaks.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict

from ..models import AuditEntry, Stage, Tournament
from ..pairing.standings import Tiebreak
from .base import SWISS_ONLY_TIEBREAKS, TournamentError, _audit, _bool, _drawn, _int, _lock_tournament, _require_manager


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
