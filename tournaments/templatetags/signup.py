"""``{% signup_box tournament %}``: the public page's invitation to sign up, when the organizer opened it.
One query (the options) when closed; the counts only when open."""
from __future__ import annotations

from django import template

from ..models import SignUpSettings
from ..services import signup_review

register = template.Library()


@register.inclusion_tag("tournaments/_signup_box.html")
def signup_box(tournament):
    options = SignUpSettings.objects.filter(tournament=tournament, open=True).first()
    if options is None:
        return {"open": False}
    return {"open": True, "tournament": tournament, "info": signup_review.counts(tournament)}
