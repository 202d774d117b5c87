"""Template filters for a pair's name inside a sentence (the rules in ``scoring/words/pair_names.py``):

- ``{% blocktranslate count n=pair|pair_number with pair=pair %}`` makes the verb agree
  ("Os Zapeiros venceram", "O Bando venceu");
- ``{% filter contract:pair %}…{% endfilter %}`` joins a preposition and the name's article
  ("vencida pelos Zapeiros"); ``contract`` also takes a list of names;
- ``{{ violation|engine_message:match }}`` renders a verdict's violation or note (data: key and params)
  in the page's language with the pairs' names (``scoring/words/engine_messages.py``);
- ``{{ verdict.error|engine_error:match }}`` renders the engine's refusal of a report (a code and its
  parameters) the same way;
- ``{{ ruling|ruling_message:match }}`` a ruling's message and ``{{ entry|penalty_reason:teams }}`` a
  penalty's reason (a row or a súmula's entry), stored as data; what was stored as text before is shown
  as written. ``teams`` is a match, a súmula's ``teams`` or two names.
"""
from django import template

from ..words import engine_messages, pair_names

register = template.Library()


@register.filter
def pair_number(name):
    return pair_names.number(str(name or ""))


@register.filter
def contract(text, names):
    if isinstance(names, (list, tuple)):
        return pair_names.contract(text, *[str(n) for n in names if n])
    return pair_names.contract(text, str(names or ""))


@register.filter
def engine_error(error, teams):
    return engine_messages.render_error(error, teams)


@register.filter
def ruling_message(ruling, teams):
    return engine_messages.render_stored(ruling.message_data, ruling.message, teams)


@register.filter
def penalty_reason(entry, teams):
    if isinstance(entry, dict):
        return engine_messages.render_stored(entry.get("reason_data"), entry.get("reason") or "", teams)
    return engine_messages.render_stored(entry.reason_data, entry.reason, teams)


@register.filter
def engine_message(item, teams):
    return engine_messages.render(item, teams)
