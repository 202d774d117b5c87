"""Template filters for a pair's name inside a sentence (the rules in ``scoring/words/pair_names.py``):

- ``{% blocktranslate count n=pair|pair_number with pair=pair %}`` makes the verb agree
  ("Os Zapeiros venceram", "O Bando venceu");
- ``{% filter contract:pair %}…{% endfilter %}`` joins a preposition and the name's article
  ("vencida pelos Zapeiros"); ``contract`` also takes a list of names;
- ``{{ violation|engine_message:match }}`` renders a verdict's violation or note (data: key and params)
  in the page's language with the pairs' names (``scoring/words/engine_messages.py``);
- ``{{ message|name_pairs:match }}`` names the pairs in a rules engine's sentence ("Os Zapeiros
  perdem o tento em jogo", ``scoring/words/engine_words.py``); also takes a súmula's ``teams``.
"""
from django import template

from ..words import engine_messages, engine_words, pair_names

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
def name_pairs(text, teams):
    return engine_words.name_pairs(text, teams)


@register.filter
def engine_message(item, teams):
    return engine_messages.render(item, teams)
