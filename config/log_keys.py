"""Which paths carry a key, read from the URLconf: the rule that :func:`config.logs.redact` applies.

A URL parameter named in :data:`SECRET_PARAMETERS` is a key (a table link, an invitation, a sign-up
confirmation, a personal data link, a password link...). Every route of the URLconf that has one gives
its prefix up to that parameter (``mesa/``, ``conta/senha/<any>/``...), and a path in a log line that
starts with such a prefix keeps the key's first four characters only. A new view with a ``token`` in
its route is covered the day it is added, by the same rule; every other parameter's name is listed as
not secret in :data:`PUBLIC_PARAMETERS` (``tests/ops/test_full_run_logs.py`` fails on a name in neither).

The separators may be percent-encoded (``/entrar/?next=%2Forganizar%2F<token>%2F``). Until the URLconf
can be read (a process still starting, gunicorn's arbiter), :data:`FALLBACK_PREFIXES` is used; the test
holds that it covers every prefix the URLconf gives.
"""
from __future__ import annotations

import functools
import re

#: the URL parameters whose value is a key
SECRET_PARAMETERS = frozenset({"token"})
#: the URL parameters whose value is not a secret (ids, slugs, a public digest, a file format, a user's id)
PUBLIC_PARAMETERS = frozenset({"slug", "pk", "pair", "table", "digest", "fmt", "uidb64", "number", "player",
                               "match", "round", "stage", "circuit", "category", "id", "path", "object_id",
                               "app_label", "content_type_id", "url", "model_name", "user_id", "assignment_id",
                               "check_in_id", "conflict", "match_id", "member", "merge_id", "pair_id", "player_id",
                               "position", "team_id", "user", "signup_id", "invitation_id"})
_SEP = r"(?:/|%2[Ff])"
_ANY = r"[^/?#&=\s\"'<>%]+"
_KEY = r"[^/?#&=\s\"'<>%.\\]"
#: the prefixes used before the URLconf can be read (each one its segments, as regular expressions)
FALLBACK_PREFIXES = (("mesa",), ("convite",), ("organizar",), ("inscricao",), ("dados",), ("conta", "senha", _ANY),
                     ("equipes", "capitao"))
_PARAMETER = re.compile(r"\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>")


def _segments(text: str, regex: bool) -> list[tuple[str, str]]:
    """A route's text as segments: ``("literal", "mesa")`` or ``("parameter", name)``."""
    if regex:
        text = text.removeprefix("^").removesuffix("$").removesuffix(r"\Z")
    out = []
    for part in text.split("/"):
        if not part:
            continue
        names = [a or b for a, b in _PARAMETER.findall(part)]
        if names:
            out.append(("secret" if SECRET_PARAMETERS & set(names) else "parameter", ",".join(names)))
        else:
            out.append(("literal", part.replace("\\", "")))
    return out


def _walk(patterns, prefix: list) -> list[list[tuple[str, str]]]:
    routes = []
    for entry in patterns:
        pattern = entry.pattern
        segments = prefix + _segments(str(pattern), regex=type(pattern).__name__ == "RegexPattern")
        inner = getattr(entry, "url_patterns", None)
        if inner is not None:
            routes.extend(_walk(inner, segments))
        else:
            routes.append(segments)
    return routes


def routes() -> list[list[tuple[str, str]]]:
    """Every route of the URLconf as its segments."""
    from django.urls import get_resolver

    return _walk(get_resolver().url_patterns, [])


def parameters() -> set[str]:
    """The names of every parameter in the URLconf."""
    return {name for route in routes() for kind, names in route if kind != "literal" for name in names.split(",")}


def keyed_prefixes() -> list[tuple[str, ...]]:
    """The prefix of every route up to its first key, its segments as regular expressions
    (``("conta", "senha", "[^/]+")``)."""
    found = set()
    for route in routes():
        head = []
        for kind, value in route:
            if kind == "secret":
                found.add(tuple(head))
                break
            head.append(re.escape(value) if kind == "literal" else _ANY)
    return sorted(found)


def _compile(prefixes) -> re.Pattern:
    heads = "|".join(_SEP.join(p) for p in sorted(prefixes, key=len, reverse=True))
    # a key: eight characters or more (``mesa.js``, ``sw.js`` are files, not keys), no dot
    return re.compile(rf"({_SEP}(?:{heads}){_SEP})({_KEY}{{4}}){_KEY}{{4,}}(?!{_KEY})")


_fallback = _compile(FALLBACK_PREFIXES)


@functools.cache
def _from_urlconf() -> re.Pattern:
    return _compile(set(keyed_prefixes()) | set(FALLBACK_PREFIXES))


def keyed_path() -> re.Pattern:
    """The regular expression of a keyed path: group 1 the prefix, group 2 the key's first characters."""
    try:
        from django.apps import apps

        if apps.ready:
            return _from_urlconf()
    except Exception:  # noqa: BLE001 - a URLconf being imported, settings not configured: the fallback
        pass
    return _fallback
