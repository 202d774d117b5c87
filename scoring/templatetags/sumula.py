"""Template filters for súmula documents: team names by index, ending labels, short digests."""
from django import template

from ..display import ENDING_LABELS
from ..numbering import number_of

register = template.Library()


@register.filter
def team_name(teams, index):
    """``{{ document.teams|team_name:entry.winner }}``: the pair's name, or an em dash for nobody."""
    try:
        return teams[int(index)]["name"]
    except (TypeError, ValueError, IndexError, KeyError):
        return "—"


@register.filter
def ending_label(code):
    return ENDING_LABELS.get(code, code)


@register.filter
def short_digest(value):
    return f"{value[:12]}…" if isinstance(value, str) and len(value) > 12 else value


@register.filter
def index(sequence, position):
    try:
        return sequence[int(position)]
    except (TypeError, ValueError, IndexError, KeyError):
        return ""


@register.filter
def match_number(match):
    """``{{ match|match_number }}``: the number the tournament gives the match (its bracket's), or None."""
    return number_of(match)
