"""``{{ value|long_date }}``: a date written out as the reader's language writes it — in Portuguese
"23 de novembro de 2026" (the month names come in lower case from the project's catalog, see
``scoring/words/month_names.py``), in English "November 23, 2026"."""
from django import template
from django.utils import formats

register = template.Library()


@register.filter
def long_date(value):
    if not value:
        return ""
    return formats.date_format(value, "DATE_FORMAT")
