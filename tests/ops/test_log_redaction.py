"""No table link or invitation key in any log line: ``config.logs.RedactFilter`` on every
handler of ``settings.LOGGING`` and the one-line formatter cut the key to its first four characters,
whoever logs it (``django.request``, axes, gunicorn's, the app's own access line)."""
from __future__ import annotations

import io
import logging

import pytest

from tables import links as table_links

from ..scoring.sumula_setup import *  # noqa: F401,F403

TOKEN = "AbCd" + "x1Y2z3W4v5U6t7S8r9Q0p_-Lk"  # 29 characters of a key's alphabet


@pytest.fixture
def lines():
    """Everything the site's stdout handler writes meanwhile, as the production logs would have it."""
    buffer = io.StringIO()
    handlers = {h for name in ("", "django", "django.request", "django.security", "truco.access", "axes.watch_login",
                              "gunicorn.error")
                for h in logging.getLogger(name).handlers
                if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
                and h.get_name() == "stdout"}
    assert handlers, "the stdout handler of settings.LOGGING"
    old = {h: h.setStream(buffer) for h in handlers}
    yield buffer
    for h, stream in old.items():
        h.setStream(stream)


def test_every_logger_writes_at_most_four_characters_of_a_key(lines):
    logging.getLogger("django.request").warning("Forbidden: %s", f"/mesa/{TOKEN}/pin/")
    logging.getLogger("django.request").warning("Bad Request: /convite/%s/", TOKEN)
    logging.getLogger("axes.watch_login").warning(
        "AXES: User login failed, running database handler for failure. path_info=%r", f"/convite/{TOKEN}/")
    logging.getLogger("some.library").error("GET http://192.168.0.10:8000/mesa/%s?x=1 failed", TOKEN,
                                            exc_info=ValueError(f"at /mesa/{TOKEN}/estado/"))
    # gunicorn's own lines (config/gunicorn_conf.py: the same configuration); its access log writes nothing,
    # the request's one line is truco.access
    logging.getLogger("gunicorn.error").error("Error handling request /mesa/%s/estado/", TOKEN)
    logging.getLogger("gunicorn.access").warning('192.168.0.10 "GET /mesa/%s/ HTTP/1.1" 200', TOKEN)
    out = lines.getvalue()
    assert out.count("\n") == 5, out
    assert TOKEN[:5] not in out and "AbCd…" in out
    assert "Error handling request /mesa/AbCd…/estado/" in out
    assert "Forbidden: /mesa/AbCd…/pin/" in out and "path_info='/convite/AbCd…/'" in out


def test_a_refused_request_to_a_table_page_logs_no_token(client, match, lines):
    link = table_links.ensure_links([match])[match.pk]
    client.get(f"/mesa/{TOKEN}/")  # not a link: 404, logged by django.request and the access line
    client.post(f"/mesa/{link.token}/pin/", {"player": match.pair_a.first_player_id, "current": "0000",
                                             "new": "2468"}, content_type="application/json")
    form = client.post(f"/mesa/{link.token}/pin/", {"player": match.pair_a.first_player_id})
    assert form.status_code == 400  # a form post to the JSON endpoint: refused, not a server error
    out = lines.getvalue()
    assert "/mesa/AbCd…/" in out
    assert TOKEN[:5] not in out and link.token[:5] not in out and link.token[:4] + "…" in out


def test_sign_up_and_co_organizer_links_are_cut_too(client, db, lines):
    """A player's confirmation link and a co-organizer's invitation are keys as well."""
    client.get(f"/inscricao/{TOKEN}/")  # not a link: 404, logged with the access line
    logging.getLogger("django.request").warning("Gone: /organizar/%s/", TOKEN)
    out = lines.getvalue()
    assert TOKEN[:5] not in out and "/inscricao/AbCd…/" in out and "/organizar/AbCd…/" in out
