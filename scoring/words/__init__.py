"""The Portuguese that names pairs, fields and months (words live in the lowest app
that shows them, never in ``config``). Scoring is that app: its pages, PDFs and services use them,
and tournaments and referee, above it, use the same ones.

- ``pair_names``: a pair's name inside a Portuguese sentence (verb agreement, "dos Zapeiros");
- ``engine_messages``: the rules engine's messages (verdicts, refusals, rulings, penalties' reasons: data)
  rendered in the page's language with the pairs named instead of numbered;
- ``field_words``: the page's word for the field a refused request names ("PIN: …");
- ``month_names``: the month names marked for ``makemessages`` (lower case in pt_BR).

Text functions and lazy translations, no models; the template filters are in
``scoring/templatetags/pair_names.py``.
"""
