"""``{% pair_url tournament.slug pair_id %}``: a pair's public page, as ``{% url 'tournaments:pair' %}``
gives it, without resolving the URL again for every row: the standings and the round pages of a
256-pair tournament link 256 pairs, and each ``{% url %}`` cost ~50 µs (page builds)."""
from functools import lru_cache

from django import template
from django.urls import get_script_prefix, reverse

register = template.Library()

_MARK = 987654321


@lru_cache(maxsize=256)
def _pair_url_prefix(script_prefix: str, slug: str) -> tuple[str, str]:
    url = reverse("tournaments:pair", kwargs={"slug": slug, "pair": _MARK})
    before, _mark, after = url.rpartition(str(_MARK))
    return before, after


@register.simple_tag
def pair_url(slug: str, pair) -> str:
    before, after = _pair_url_prefix(get_script_prefix(), slug)
    return f"{before}{int(pair)}{after}"
