"""A pair's name inside a Portuguese sentence.

Pairs are often named with an article: "Os Zapeiros", "As Comadres", "O Bando", "A Turma do
Zap". Portuguese then wants the verb to agree ("Os Zapeiros venceram", "O Bando venceu") and the
article to join the preposition before it ("vitória dos Zapeiros", "vencida pela Turma do Zap",
"nos Zapeiros"). A name that starts with a plural article (Os/As) is plural; any other name is
singular ("Ana e Bia" is one pair: "a dupla Ana e Bia venceu").

- ``number(name)`` is the count to hand ``ngettext`` so the verb agrees (1 singular, 2 plural:
  pt_BR's plural rule is n > 1); English msgids give the same text for both.
- ``contract(text, *names)`` rewrites "de Os Zapeiros" into "dos Zapeiros" (de, em, por, a
  before o/a/os/as) in a Portuguese text already formatted with the names, also across HTML tags
  ("por <strong>Os Zapeiros" → "pelos <strong>Zapeiros"). Other languages are left alone.

Pure text functions; the template filters are in ``scoring/templatetags/pair_names.py``.
"""
from __future__ import annotations

import re

from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

ARTICLES = ("os", "as", "o", "a")
PLURAL_ARTICLES = ("os", "as")

# preposition + article -> the contracted word
_CONTRACTIONS = {
    "de": {"o": "do", "a": "da", "os": "dos", "as": "das"},
    "em": {"o": "no", "a": "na", "os": "nos", "as": "nas"},
    "por": {"o": "pelo", "a": "pela", "os": "pelos", "as": "pelas"},
    "a": {"o": "ao", "a": "à", "os": "aos", "as": "às"},
}


def split_article(name: str) -> tuple[str | None, str]:
    """("os", "Zapeiros") for "Os Zapeiros"; (None, name) when the name has no leading article
    (or is the article alone)."""
    parts = (name or "").strip().split(None, 1)
    if len(parts) == 2 and parts[0].lower() in ARTICLES:
        return parts[0].lower(), parts[1]
    return None, (name or "").strip()


def is_plural(name: str) -> bool:
    """A name that starts with a plural article (Os, As) is plural."""
    return split_article(name)[0] in PLURAL_ARTICLES


def number(name: str) -> int:
    """The count for ``ngettext`` that makes the verb agree with the name: 2 if plural, else 1."""
    return 2 if is_plural(name) else 1


def contracted(preposition: str, name: str) -> str:
    """``contracted("de", "Os Zapeiros")`` → "dos Zapeiros"; "de Ana e Bia" without an article."""
    article, rest = split_article(name)
    if article is None:
        return f"{preposition} {name}"
    word = _CONTRACTIONS[preposition.lower()][article]
    if preposition[:1].isupper():
        word = word[:1].upper() + word[1:]
    return f"{word} {rest}"


def _portuguese(language: str | None) -> bool:
    return (language or get_language() or "").lower().startswith("pt")


def contract(text: str, *names: str, language: str | None = None) -> str:
    """The text with each "preposition + name-with-article" contracted (Portuguese only).

    Keeps a safe string safe: the names are matched in their escaped form and the text around
    them is not touched."""
    if not text or not _portuguese(language):
        return text
    safe = isinstance(text, SafeData)
    for name in {n for n in names if n}:
        article, rest = split_article(str(name))
        if article is None:
            continue
        shown_article, shown_rest = (str(name).strip().split(None, 1) + [""])[:2]
        if safe:
            shown_article, shown_rest = conditional_escape(shown_article), conditional_escape(shown_rest)
        pattern = re.compile(
            r"(?<![\w])(de|em|por|a|De|Em|Por|A)(\s+(?:<[^>]+>\s*)*)" + re.escape(shown_article) + r"\s+"
            + re.escape(shown_rest) + r"(?![\w])"
        )

        def _join(match, rest=shown_rest, article=article):
            preposition = match.group(1)
            word = _CONTRACTIONS[preposition.lower()][article]
            if preposition[:1].isupper():
                word = word[:1].upper() + word[1:]
            return f"{word}{match.group(2)}{rest}"

        text = pattern.sub(_join, text)
    return mark_safe(text) if safe else text
