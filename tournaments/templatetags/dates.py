"""``{{ value|long_date }}``: a date written out as the reader's language writes it — in Portuguese
"23 de novembro de 2026" (month names are lower case in Portuguese; Django's catalog capitalises
them), in English "November 23, 2026"."""
from django import template
from django.utils import formats
from django.utils.translation import get_language

register = template.Library()


@register.filter
def long_date(value):
    if not value:
        return ""
    text = formats.date_format(value, "DATE_FORMAT")
    return text.lower() if (get_language() or "").startswith("pt") else text
