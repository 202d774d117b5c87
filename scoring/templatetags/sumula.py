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


@register.filter
def seat_player(teams, seat):
    """``{{ document.teams|seat_player:e.dealer }}``: the player at an engine seat (seats 0 and 2 are
    the first pair's, partners opposite), as the PDF names them; the seat number when unknown."""
    try:
        seat = int(seat)
        return teams[seat % 2]["players"][seat // 2]
    except (TypeError, ValueError, IndexError, KeyError):
        return seat


@register.filter
def rules_words(rules):
    """The rule set in words: the preset's name and each option that differs from it."""
    from ..pdf_sheets import rules_in_words

    preset, options = rules_in_words(rules)
    return "; ".join([str(preset), *[str(o) for o in options]])
