"""``{{ tournament|status_badge }}``: the tournament's status as it is, telling a public sign-up open on
its page ("Inscrições abertas") from registration by the organizer alone (the sign-up closed or past its
deadline): the model's "Registration open" said the first while the second was true.

Reads ``tournament.signup_settings`` (a list selects it: ``select_related("signup_settings")``)."""
from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Tournament

register = template.Library()


def public_signup_open(tournament: Tournament) -> bool:
    """The public page takes sign-ups: the organizer opened it and its deadline has not passed."""
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.DRAFT):
        return False
    try:
        options = tournament.signup_settings
    except ObjectDoesNotExist:
        return False
    if options is None or not options.open:
        return False
    return options.deadline is None or options.deadline > timezone.now()


@register.filter
def status_badge(tournament: Tournament) -> str:
    if tournament.status == Tournament.Status.REGISTRATION:
        return _("Sign-up open") if public_signup_open(tournament) else _("Registration by the organizer")
    return str(tournament.get_status_display())
