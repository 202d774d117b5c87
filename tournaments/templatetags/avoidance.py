"""``{% unavoided_pairs round as pairs %}``: the names of the pairs sharing an avoid tag (club, family)
that meet in a round, or share a group of its draw, because no pairing kept them apart
(``Round.unavoided``), for the round page and the dashboard. One query, only when there are
such pairs."""
from __future__ import annotations

from django import template

from tournaments.models import Pair

register = template.Library()


@register.simple_tag
def unavoided_pairs(rnd) -> list[tuple[str, str]]:
    pairs = list(getattr(rnd, "unavoided", None) or [])
    if not pairs:
        return []
    names = dict(Pair.objects.filter(pk__in={p for pair in pairs for p in pair}).values_list("pk", "name"))
    return [(names.get(a, "?"), names.get(b, "?")) for a, b in pairs]
