"""Why each pair of the final table is where it is, in words ("5º–8º: perderam nas quartas"): the
bracket round it lost, its group place, the standings of the stage it left, a withdrawal or the
organizer's decision (art. 26). Read by the placings page and the API (``StandingLine.why``); the
reasons themselves come from ``standings.final_ranking`` and ``draw.pairing.placings``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Pair, Stage
from draw.pairing.placings import PlacingReason
from draw.pairing.round_robin import group_name


def _bracket_words(reason: PlacingReason, count: int) -> str:
    fixed = {
        "champion": _("champion"),
        "final": _("lost the final"),
        "third_place_won": _("won the third-place match"),
        "third_place_lost": _("lost the third-place match"),
        "fifth_place_won": _("won the fifth-place match"),
        "fifth_place_lost": _("lost the fifth-place match"),
        "seventh_place_won": _("won the seventh-place match"),
        "seventh_place_lost": _("lost the seventh-place match"),
    }
    if reason.kind in fixed:
        return fixed[reason.kind]
    if reason.kind == "classification_won":
        return ngettext("won a semifinal of places 5 to 8", "won the semifinals of places 5 to 8", count)
    if reason.kind == "classification_lost":
        return ngettext("lost a semifinal of places 5 to 8", "lost the semifinals of places 5 to 8", count)
    if reason.kind == "losers_round":
        if reason.last:
            return _("lost the losers' final")
        return ngettext("out in losers' round %(round)s", "out in losers' round %(round)s", count) % {
            "round": reason.round}
    if reason.kind == "winners_round":
        if reason.pairs == 4:
            return ngettext("lost in the semifinals", "lost in the semifinals", count)
        if reason.pairs == 8:
            return ngettext("lost in the quarterfinals", "lost in the quarterfinals", count)
        if reason.pairs == 16:
            return ngettext("lost in the round of 16", "lost in the round of 16", count)
        return ngettext("lost in the round of %(pairs)s", "lost in the round of %(pairs)s", count) % {
            "pairs": reason.pairs}
    return ""


def _reason_words(reason: tuple | None, stage: Stage | None, count: int, several_stages: bool) -> str:
    if reason is None:
        return ""
    if reason[0] == "bracket":
        return _bracket_words(reason[1], count)
    if reason[0] == "group" and stage is not None and stage.group_count > 1:
        return _("place %(place)s in group %(group)s, then by record among the pairs of that place") % {
            "place": reason[2], "group": group_name(reason[1])}
    if several_stages and stage is not None:
        return _("by the standings of %(stage)s") % {"stage": stage.display_name}
    return _("by the standings (the tiebreaks in order)")


def place_label(place: int, count: int) -> str:
    """"5º" or, for a place shared by ``count`` pairs, "5º–8º"."""
    if count > 1:
        return _("places %(first)s–%(last)s") % {"first": place, "last": place + count - 1}
    return _("place %(place)s") % {"place": place}


def explained(lines: list, reasons: dict[int, tuple], deciding: dict[int, Stage], stages: list[Stage],
              withdrawn_last: bool) -> list:
    """``lines`` (the final table's ``StandingLine``) each with its ``why``: the place (a shared
    one as its range) and the reason."""
    started = [st for st in stages if st.started_at is not None] or stages[:1]
    last_stage = started[-1] if started else None
    several = len(stages) > 1
    bracket = any(line.place is not None for line in lines)  # places: pairs still in a bracket have none
    shared = Counter(line.rank for line in lines if line.place is not None or not bracket)
    out = []
    for line in lines:
        if line.place is None and bracket:
            out.append(replace(line, why=_("still in the bracket")))
            continue
        count = shared.get(line.rank, 1)
        if line.decided_by == "organizer":
            words = _("placed by the organizer: %(reason)s") % {"reason": line.override_reason}
        elif withdrawn_last and line.pair.status == Pair.Status.WITHDRAWN:
            words = (_("disqualified: after the pairs still in") if line.pair.disqualified
                     else _("withdrew: after the pairs still in"))
        else:
            stage = deciding.get(line.pair.pk, stages[0] if stages else None)
            words = _reason_words(reasons.get(line.pair.pk), stage, count, several)
            if several and stage is not None and last_stage is not None and stage.pk != last_stage.pk:
                words = _("out in %(stage)s: %(why)s") % {"stage": stage.display_name, "why": words}
        out.append(replace(line, why=f"{place_label(line.rank, count)}: {words}" if words else ""))
    return out
