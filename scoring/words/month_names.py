"""Month names as Portuguese writes them: in lower case ("23 de novembro de 2026").

Django's own pt_BR catalog capitalises the months ("Novembro"); the project's catalog
(``LOCALE_PATHS``, which Django reads last, so it wins) gives them in lower case, so every
``|date``, ``date_format`` and ``{{ value }}`` of a date reads right. This module only marks the
month names for ``makemessages`` so their entries stay in ``locale/pt_BR``: ``F`` and ``E`` of
Django's date formats use these two sets (``MONTHS`` and ``MONTHS_ALT`` in
``django.utils.dates``). Nothing imports it. It sits in scoring, the lowest app that writes a
month out (the súmula's "received on 23 de novembro de 2026", ``templates/scoring/_signing.html``);
tournaments' ``long_date`` filter (``tournaments/templatetags/dates.py``) and referee's pages read
them too.
"""
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MONTHS = (
    _("January"), _("February"), _("March"), _("April"), _("May"), _("June"),
    _("July"), _("August"), _("September"), _("October"), _("November"), _("December"),
)
MONTHS_ALT = (
    pgettext_lazy("alt. month", "January"), pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"), pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"), pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"), pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"), pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"), pgettext_lazy("alt. month", "December"),
)
