"""The one exception of the engine, a report that cannot be read, and how input is echoed safely."""
from __future__ import annotations

from .error_messages import ERRORS
from .messages import render


MAX_FIELD = 120  # characters of an error's field (a path such as events[3].play, or an unknown key)
MAX_MESSAGE = 400  # characters of an error's message


#: the refusals whose article is a parameter (the infraction's; art. 11.4 or art. 20)
ARTICLE_IN_PARAMS = frozenset({"infraction.refused", "summary.all_tied"})


class ReportError(ValueError):
    """A malformed hand report: ``field`` names where (``events[3].play``), ``code`` what
    (``referee.engine.error_messages.ERRORS``), ``params`` its parameters; ``article`` the regulation's article
    it applies (the code's own, or ``params["article"]``); ``message`` the Portuguese sentence."""

    def __init__(self, field: str, code: str, params: dict | None = None) -> None:
        # What an error echoes (an unknown key, a card's text) is never more than a bounded prefix.
        if len(field) > MAX_FIELD:
            field = field[:MAX_FIELD] + "…"
        params = dict(params or {})
        # a claim refused, three tied tricks: the article is the infraction's, or art. 11.4 / art. 20
        article = params["article"] if code in ARTICLE_IN_PARAMS else ERRORS[code][0]
        message = render(code, params)
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "…"
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.code = code
        self.article = article
        self.params = params
        self.message = message

    def as_dict(self) -> dict:
        return {"field": self.field, "code": self.code, "article": self.article, "params": self.params,
                "message": self.message}


def printable(value: object) -> object:
    """``value`` with every string that UTF-8 cannot encode (a lone surrogate, ``"\\ud800"``) escaped.

    What a report echoes (its ``id``, an unknown key, a false call's words) must be writable as
    UTF-8 JSON: the escaped form shows the referee what was sent (``\\ud800``), never a crash. Lists and
    objects are copied without recursion: an ``id`` nested as deep as the JSON reader allows is echoed too.
    """
    kind = type(value)
    if kind is str:
        return _printable_text(value)
    if kind is not list and kind is not dict:
        return value
    root: list | dict = [] if kind is list else {}
    todo: list[tuple[list | dict, list | dict]] = [(value, root)]
    while todo:
        source, copy = todo.pop()
        if type(source) is list:
            for item in source:
                copy.append(_copied(item, todo))
        else:
            for key, item in source.items():
                copy[_copied(key, todo)] = _copied(item, todo)
    return root


def _printable_text(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def _copied(item: object, todo: list) -> object:
    """``item`` for :func:`printable`'s copy: a text escaped, a list or object an empty one filled later."""
    kind = type(item)
    if kind is str:
        return _printable_text(item)
    if kind is list or kind is dict:
        copy: list | dict = [] if kind is list else {}
        todo.append((item, copy))
        return copy
    return item


#: How much of a long text a message echoes: a report's words, not the report's size.
ECHO_CHARS = 60


def echo(text: str) -> str:
    """``text`` for a message: printable (see :func:`printable`), cut to ``ECHO_CHARS`` with "…" when longer."""
    if len(text) > ECHO_CHARS:
        text = text[:ECHO_CHARS] + "…"
    return printable(text)


def shown(value: object) -> str:
    """What was sent, for an error's parameters: a text quoted and cut (:func:`echo`), anything else as Python
    writes it, cut the same way."""
    if type(value) is str:
        return repr(echo(value))
    return echo(repr(value))
