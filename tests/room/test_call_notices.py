"""Telling a pair its match was called: Web Push to a fake push service on loopback (the
encrypted POST read back with the phone's keys) and opt-in e-mail (locmem); no external network."""
from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import AuditEntry, Player
from room.models import CallNotice, PushSubscription
from tournaments.pins import issue_for_pairs
from room.services import notify

pytestmark = pytest.mark.usefixtures("eager_celery")  # the notices are sent by a task: run it here

PORT = 0  # the fake push service's port on loopback, chosen by the system (two test processes run side by side)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def point(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


@pytest.fixture(scope="module")
def push_service():
    """A push service on 127.0.0.1 that keeps what it receives; answers ``status[0]``."""
    received, status = [], [201]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            received.append({"path": self.path, "headers": dict(self.headers), "body": body})
            self.send_response(status[0])
            self.end_headers()

        def log_message(self, *args):
            pass

    global PORT
    server = HTTPServer(("127.0.0.1", 0), Handler)
    PORT = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield received, status
    server.shutdown()
    server.server_close()


@pytest.fixture
def vapid(settings):
    server_key = ec.generate_private_key(ec.SECP256R1())
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64(server_key.private_numbers().private_value.to_bytes(32, "big"))
    settings.WEBPUSH_VAPID_PUBLIC_KEY = b64(point(server_key))
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:org@example.com"
    settings.WEBPUSH_HTTP_HOSTS = ["127.0.0.1"]
    settings.EMAIL_CONFIGURED = True
    return settings


def _phone(path: str) -> tuple[dict, ec.EllipticCurvePrivateKey, bytes]:
    """A browser's subscription: endpoint on the fake service, its keys, and the private parts."""
    key, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    return ({"endpoint": f"http://127.0.0.1:{PORT}{path}", "keys": {"p256dh": b64(point(key)), "auth": b64(auth)}},
            key, auth)


def signed(pair, data: dict) -> dict:
    """``data`` with the pair's first player and their PIN (a subscription needs one: a stranger has none)."""
    pins = issue_for_pairs([pair]) if not getattr(pair, "pins", None) else pair.pins
    pair.pins = pins
    return {**data, "player": pair.first_player_id, "pin": pins[pair.first_player_id]}


def _post(client, name: str, t, pair, data):
    return client.post(reverse(f"room:{name}", kwargs={"slug": t.slug, "pair": pair.pk}),
                       json.dumps(data), content_type="application/json")


@pytest.mark.django_db
def test_a_called_match_is_pushed_encrypted_to_the_phones_of_both_pairs_once(client, vapid, push_service, org, t,
                                                                            django_capture_on_commit_callbacks):
    received, status = push_service
    received.clear()
    a, b, c, d = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    subscription, key, auth = _phone("/push/phone-a")
    subscription = signed(a, subscription)
    answer = _post(client, "pair-push", t, a, subscription)
    assert answer.status_code == 201 and "127.0.0.1" not in answer.content.decode()  # the endpoint never comes back
    assert _post(client, "pair-push", t, a, subscription).status_code == 201  # the same phone twice: stored once
    assert PushSubscription.objects.filter(pair=a).count() == 1
    page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": a.pk})).content.decode()
    assert 'data-testid="pair-notify"' in page and "phone-a" not in page  # a secret of the phone's browser
    with django_capture_on_commit_callbacks(execute=True):
        services.generate_first_round(t, org)  # round 1 paired with its tables: each match is called
    match = Match.objects.get(tournament=t, pair_a=a) if Match.objects.filter(tournament=t, pair_a=a).exists() \
        else Match.objects.get(tournament=t, pair_b=a)
    [push] = [r for r in received if r["path"] == "/push/phone-a"]
    headers = {k.lower(): v for k, v in push["headers"].items()}
    assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid t=")
    message = json.loads(http_ece.decrypt(push["body"], private_key=key, auth_secret=auth, version="aes128gcm"))
    assert message["title"] == f"Mesa {match.table}: seu jogo foi chamado"
    assert message["url"].endswith(f"/torneios/{t.slug}/duplas/{a.pk}/")
    notice = CallNotice.objects.get(match=match)
    assert notice.pushes == 1
    assert notify.send_call(match.pk, match.table) is None  # told once, whatever the retries
    assert len([r for r in received if r["path"] == "/push/phone-a"]) == 1

    # the push service says the subscription is gone (410): it is revoked, nothing more is sent to it
    status[0] = 410
    CallNotice.objects.all().delete()
    notify.send_call(match.pk, match.table)
    status[0] = 201
    assert PushSubscription.objects.get(pair=a).revoked_at is not None


@pytest.mark.django_db
def test_subscriptions_go_only_to_push_services_and_are_revocable(client, vapid, org, t, settings):
    [a] = f.pairs(t, 1)
    evil = signed(a, {"endpoint": "https://10.0.0.5/admin", "keys": {"p256dh": "BAAA", "auth": "AAAA"}})
    answer = _post(client, "pair-push", t, a, evil)
    assert answer.status_code == 400 and answer.json()["field"] == "endpoint"  # the server never posts there
    settings.WEBPUSH_HTTP_HOSTS = []
    assert _post(client, "pair-push", t, a, signed(a, _phone("/push/x")[0])).status_code == 400  # plain HTTP: tests only
    fcm = signed(a, {"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": {"p256dh": "BAAA", "auth": "AAAA"}})
    assert _post(client, "pair-push", t, a, fcm).status_code == 201
    assert _post(client, "pair-push-stop", t, a, {"endpoint": "https://fcm.googleapis.com/fcm/send/other"}).json() \
        == {"revoked": False}  # only the phone knows its endpoint
    assert _post(client, "pair-push-stop", t, a, {"endpoint": fcm["endpoint"]}).json() == {"revoked": True}
    _post(client, "pair-push", t, a, fcm)
    with pytest.raises(services.TournamentError):
        notify.revoke_all(a, f.user("stranger"))
    client.force_login(org)
    assert 'data-testid="clear-push-' in client.get(reverse("tournaments:pair-actions", kwargs={"slug": t.slug, "pk": a.pk})).content.decode()
    client.post(reverse("room:clear-push", kwargs={"slug": t.slug, "pk": a.pk}))  # the organizer clears them
    assert not PushSubscription.objects.filter(pair=a, revoked_at__isnull=True).exists()
    assert AuditEntry.objects.get(tournament=t, action="push_revoked").after == {"pair": a.pk, "revoked": 1}


@pytest.mark.django_db
def test_an_opted_in_player_gets_one_email_to_their_own_address(client, vapid, org, t,
                                                                  django_capture_on_commit_callbacks):
    settings = vapid
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""  # e-mail alone
    pairs = f.pairs(t, 4)
    a = pairs[0]
    first, second = a.first_player, a.second_player
    Player.objects.filter(pk=first.pk).update(contact="ana@example.com")
    Player.objects.filter(pk=second.pk).update(contact="bia@example.com")  # did not opt in
    pins = issue_for_pairs([a])
    url = reverse("room:pair-email", kwargs={"slug": t.slug, "pair": a.pk})
    client.post(url, {"player": first.pk, "pin": "0000" if pins[first.pk] != "0000" else "1111", "on": "1"})
    assert not Player.objects.get(pk=first.pk).call_email  # a wrong PIN: nothing
    client.post(url, {"player": first.pk, "pin": pins[first.pk], "on": "1"})
    assert Player.objects.get(pk=first.pk).call_email
    page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": a.pk})).content.decode()
    assert "ana@example.com" not in page and 'data-testid="email-form"' in page
    services.configure_stage(t, org, format="round_robin", seeding="order")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.generate_first_round(t, org)
    [sent] = mail.outbox
    assert sent.to == ["ana@example.com"] and not sent.cc and not sent.bcc
    assert sent.subject.startswith("Mesa ") and sent.subject.endswith(": seu jogo foi chamado")


@pytest.mark.django_db
def test_off_without_keys_or_mail(client, org, t, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    settings.EMAIL_CONFIGURED = False
    [a] = f.pairs(t, 1)
    assert _post(client, "pair-push", t, a, _phone("/push/y")[0]).status_code == 409
    page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": a.pk})).content.decode()
    assert 'data-testid="pair-notify"' not in page


@pytest.mark.django_db
def test_a_bracket_match_made_at_its_table_tells_its_pairs(vapid, org, t, django_capture_on_commit_callbacks):
    """A bracket's next match exists (at a table) once both feeders are decided: that is its call."""
    vapid.WEBPUSH_VAPID_PRIVATE_KEY = vapid.WEBPUSH_VAPID_PUBLIC_KEY = ""  # e-mail alone
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination", seeding="order")
    services.generate_first_round(t, org)
    for pair in pairs:
        Player.objects.filter(pk=pair.first_player_id).update(contact=f"p{pair.pk}@example.com", call_email=True)
    semis = list(Match.objects.filter(tournament=t).order_by("table"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for match in semis:
            f.play(match, match.pair_a, org)
    final = Match.objects.filter(tournament=t).exclude(pk__in=[m.pk for m in semis]).get()
    assert final.table is not None
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"p{p}@example.com" for p in (final.pair_a_id, final.pair_b_id))
