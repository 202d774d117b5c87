"""A full run's logs hold no key, PIN, password, password link or push endpoint.

Every line the site writes (the stdout handler of ``settings.LOGGING``: the access line, ``django.request``,
axes, the app's own loggers, gunicorn's and Celery's, which share that configuration) and every error mail
(``mail_admins``) is captured while a realistic run goes through every path that carries a secret: a table's
link and its API (``Authorization: Table``), a wrong and a right PIN, a PIN change, the organizer's PIN reset,
a password link used and reused, the sign-up, co-organizer, referee and personal data links (the login's
``?next=`` too), a push subscription and a failed push, an API token, and a server error on a keyed path.
Then the captured text is searched for each secret. The redaction is by rule (``config.log_keys``: every
route of the URLconf with a ``token`` parameter), and the rule's parameter list is held here too.
"""
from __future__ import annotations

import io
import json
import logging
import re
import socket

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from config import log_keys
from room.models import PushSubscription
from room.services import notify
from tests.room.test_call_notices import vapid  # noqa: F401 (fixture)

from ..scoring.sumula_setup import *  # noqa: F401,F403

PASSWORD = "Senha-Nova-Secreta-987"
FAKE_KEY = "QwErTy0123456789abcdefGHIJKL_-xyz"  # a key's shape: the same cut whether it exists or not
PUSH_PATH = "/push/secret-path-of-the-phone-7f3a"


@pytest.fixture
def logs(settings):
    """Everything the site's stdout handlers write and the error mails, as production would have them."""
    settings.ADMINS = [("Ops", "ops@example.com")]
    settings.ERROR_MAIL_EVERY_MINUTES = 0
    buffer = io.StringIO()
    loggers = [logging.getLogger()] + [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    handlers = {h for logger in loggers for h in getattr(logger, "handlers", [])
                if isinstance(h, logging.StreamHandler) and h.get_name() == "stdout"}
    assert handlers, "the stdout handler of settings.LOGGING"
    old = {h: h.setStream(buffer) for h in handlers}
    mail.outbox = []
    yield lambda: buffer.getvalue() + "\n".join(f"{m.subject}\n{m.body}" for m in mail.outbox)
    for h, stream in old.items():
        h.setStream(stream)


def test_every_url_parameter_is_named_a_key_or_not():
    """A new route parameter is classified on purpose: a key (cut in the logs) or not."""
    unknown = log_keys.parameters() - log_keys.SECRET_PARAMETERS - log_keys.PUBLIC_PARAMETERS
    assert not unknown, f"name these URL parameters in config.log_keys (SECRET_ or PUBLIC_PARAMETERS): {unknown}"
    found = set(log_keys.keyed_prefixes())
    assert {("mesa",), ("convite",), ("organizar",), ("inscricao",), ("dados",)} <= found
    assert set(log_keys.FALLBACK_PREFIXES) >= found, "the fallback (before the URLconf loads) covers every route"


def _api(client, method, path, auth, body=None):
    if method == "get":
        return client.get(path, HTTP_AUTHORIZATION=auth)
    return client.post(path, json.dumps(body or {}), content_type="application/json", HTTP_AUTHORIZATION=auth)


@pytest.mark.django_db
def test_a_full_run_logs_no_secret(client, logs, link, match, organizer, referee, vapid, monkeypatch):  # noqa: F811
    secrets = {"table link": link.token, "fake key": FAKE_KEY, "password": PASSWORD, "push path": PUSH_PATH}
    pin_a = PINS["Ana Souza"]
    secrets["PIN"] = f'"{pin_a}"'  # as a JSON value would carry it (four digits alone occur in times)

    # the table: its page, state, a PIN change refused and done, a page that does not exist, the API
    table = Client()
    table.get(f"/mesa/{link.token}/")
    table.get(f"/mesa/{link.token}/estado/")
    table.get(f"/mesa/{link.token}/nada/")
    player = match.pair_a.first_player_id
    table.post(f"/mesa/{link.token}/pin/", {"player": player, "current": "9999", "new": "135790"},
               content_type="application/json")
    table.post(f"/mesa/{link.token}/pin/", {"player": player, "current": pin_a, "new": "246801"},
               content_type="application/json")
    secrets["new PIN"] = "246801"
    _api(table, "post", f"/api/scoring/matches/{match.pk}/signatures/", f"Table {link.token}",
         {"role": "team0", "player": player, "pin": "0000"})
    _api(table, "post", f"/api/scoring/matches/{match.pk}/hands/", f"Table {link.token}", {"winner": 7})
    _api(table, "get", f"/api/scoring/matches/{match.pk}/", f"Table {FAKE_KEY}")
    _api(table, "get", f"/api/scoring/matches/{match.pk}/", f"Token truco_{FAKE_KEY}")

    # the organizer resets a PIN (shown on the page once, never logged)
    staff = Client()
    staff.force_login(organizer)
    shown = staff.post(reverse("tournaments:reset-pin", kwargs={"slug": match.tournament.slug,
                                                                "pk": match.pair_b.first_player_id}), follow=True)
    secrets["reset PIN"] = re.search(r": (\d{6})", " ".join(str(m) for m in shown.context["messages"])).group(1)

    # a password link: opened, used, opened again
    newcomer = get_user_model().objects.create_user("novata")
    uid, token = urlsafe_base64_encode(force_bytes(newcomer.pk)), default_token_generator.make_token(newcomer)
    secrets["password token"] = token
    browser = Client()
    form = browser.get(f"/conta/senha/{uid}/{token}/", follow=True)
    browser.post(form.redirect_chain[-1][0] if form.redirect_chain else f"/conta/senha/{uid}/{token}/",
                 {"new_password1": PASSWORD, "new_password2": PASSWORD})
    Client().get(f"/conta/senha/{uid}/{token}/")

    # the other keyed links, each also through the login's ?next=
    for prefix in ("inscricao", "organizar", "convite", "dados"):
        answer = Client().get(f"/{prefix}/{FAKE_KEY}/", follow=True)
        Client().post(f"/{prefix}/{FAKE_KEY}/")
        for url, _status in answer.redirect_chain:
            Client().get(url)
    Client().get("/entrar/?next=%2Forganizar%2F" + FAKE_KEY + "%2F")

    # a push subscription (with the player's PIN in its body) and a push that fails
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    endpoint = f"http://127.0.0.1:{port}{PUSH_PATH}"
    pair = match.pair_a
    Client().post(reverse("room:pair-push", kwargs={"slug": match.tournament.slug, "pair": pair.pk}),
                  json.dumps({"endpoint": endpoint, "keys": {"p256dh": "BAAA", "auth": "AAAA"},
                              "player": player, "pin": "0000"}), content_type="application/json")
    subscription = PushSubscription.objects.create(pair=pair, endpoint=endpoint, p256dh="BAAA", auth="AAAA")
    notify._push_all([(subscription, {"title": "x"})])

    # a server error on a keyed path: the traceback line and the error mail
    def fail(*args, **kwargs):
        raise RuntimeError("the table's match could not be read")

    monkeypatch.setattr("referee.table_views.load_match", fail)
    erring = Client(raise_request_exception=False)
    assert erring.get(f"/mesa/{link.token}/estado/").status_code == 500
    erring.post(f"/mesa/{link.token}/pin/", {"player": player, "current": pin_a, "new": "112233"},
                content_type="application/json")

    out = logs()
    assert "/mesa/" + link.token[:4] + "…" in out and mail.outbox, out  # the run did log, and mailed
    leaked = {what: secret for what, secret in secrets.items() if secret in out}
    assert not leaked, f"in the logs: {sorted(leaked)}\n{out}"
    for what, secret in secrets.items():
        if len(secret) >= 20:  # a key's first five characters are more than the rule keeps
            assert secret[:5] not in out, what


def test_the_error_mail_holds_no_secret_whatever_reaches_it(settings):
    """The mail handler given the request itself (today the stdout handler's filter has made it a line first;
    a handler order or a library that logs the request must not change what the mail says): the report's
    address, environment and form hold no key, PIN or password."""
    from django.test import RequestFactory

    from config.log_mail import AdminEmailHandler

    settings.ADMINS = [("Ops", "ops@example.com")]
    mail.outbox = []
    request = RequestFactory().post(f"/mesa/{FAKE_KEY}/pin/?next=%2Fconvite%2F{FAKE_KEY}%2F",
                                    {"player": "3", "pin": "97531", "new": "86420", "password": PASSWORD})
    try:
        raise RuntimeError("the table's match could not be read")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                                   (request.path,), sys.exc_info())
    record.request = request
    AdminEmailHandler().emit(record)
    [sent] = mail.outbox
    text = sent.subject + sent.body
    assert "RuntimeError" in text and "/mesa/QwEr…/pin/" in text
    for secret in (FAKE_KEY, FAKE_KEY[:5], "97531", "86420", PASSWORD):
        assert secret not in text, secret
