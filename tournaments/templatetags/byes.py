"""``{% bye_label tournament %}``: what a bye is worth in the tournament's current stage, in words
("Bye (counts as a win):", "... as half a win", "... a rest, no points"), for the round page, the
pair page, the projector and the wall sheet."""
from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from tournaments.models import Stage

register = template.Library()


@register.simple_tag
def bye_label(tournament, stage=None) -> str:
    if stage is None:
        stages = [st for st in Stage.objects.filter(tournament=tournament).order_by("-position")
                  if st.started_at is not None or st.position == 1]
        stage = stages[0] if stages else None
    value = stage.bye_value if stage is not None else Stage.ByeValue.WIN
    if value == Stage.ByeValue.DRAW:
        return _("Bye (counts as half a win)")
    if value == Stage.ByeValue.NOTHING:
        return _("Bye (a rest, no points)")
    return _("Bye (counts as a win)")
