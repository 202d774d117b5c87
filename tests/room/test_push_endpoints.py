"""Push endpoints a stranger sends: the server posts only to a known push service's host on HTTPS 443,
as one strict parser reads it; no endpoint in the logs; a pair's phones cannot be filled by a stranger;
a call's pushes go out together, each waiting a short time."""
from __future__ import annotations

import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments import factories as f
from tests.room.test_call_notices import _phone, _post, signed, vapid  # noqa: F401 (fixture)
from room.models import PushSubscription
from room.services import notify

KEYS = {"p256dh": "BAAA", "auth": "AAAA"}


@pytest.mark.parametrize("endpoint", [
    "https://127.0.0.1\\.fcm.googleapis.com/x",  # urlsplit: host "127.0.0.1\.fcm..."; requests: 127.0.0.1
    "https://127.0.0.2\\@fcm.googleapis.com/fcm/send/abc",
    "https://evil@fcm.googleapis.com/fcm/send/abc",  # userinfo
    "https://fcm.googleapis.com:8443/fcm/send/abc",  # another port
    "https://fcm.googleapis.com:22/fcm/send/abc",
    "https://evil.fcm.googleapis.com/fcm/send/abc",  # a subdomain is not the push service
    "https://fcm.googleapis.com.evil.example/x",
    "https://fcm.googleapis.com#@127.0.0.1/x",
    "https://fcm.googleapis.com/x\\y",
    "https://fcm.googleapis.com",  # no path
    "http://fcm.googleapis.com/fcm/send/abc",  # plain HTTP
    "https://[::1]/x",
    "https://fcm.googleapis.com/x y",
    "https://fcm.googleapis.com./x",
])
def test_an_endpoint_that_any_library_could_read_as_another_host_is_refused(endpoint, settings):
    settings.WEBPUSH_HTTP_HOSTS = []
    assert notify.endpoint_of(endpoint) is None


def test_the_push_services_endpoints_are_kept_as_posted(settings):
    settings.WEBPUSH_HTTP_HOSTS = []
    fcm = "https://fcm.googleapis.com/fcm/send/dXyZ:APA91bH-k_x%3D"
    assert notify.endpoint_of(fcm) == fcm
    assert notify.endpoint_of("https://FCM.googleapis.com:443/fcm/send/a") == "https://fcm.googleapis.com/fcm/send/a"
    assert notify.endpoint_of("https://updates.push.services.mozilla.com/wpush/v2/gAAA") is not None
    assert notify.endpoint_of("https://web.push.apple.com/QGx-1") is not None
    assert notify.endpoint_of("https://wns2-bl2p.notify.windows.com/w/?token=BQYA%3d") is not None
    assert notify.endpoint_of("https://a.b.notify.windows.com/w/") is None  # one label only


@pytest.mark.django_db
def test_a_backslash_endpoint_is_refused_and_never_posted_to(client, vapid, t, monkeypatch):  # noqa: F811
    [a] = f.pairs(t, 1)
    vapid.WEBPUSH_HTTP_HOSTS = []
    for endpoint in ("https://127.0.0.1\\.fcm.googleapis.com/x", "https://127.0.0.2\\@fcm.googleapis.com/fcm/send/x",
                     "https://fcm.googleapis.com:8443/fcm/send/x"):
        answer = _post(client, "pair-push", t, a, signed(a, {"endpoint": endpoint, "keys": KEYS}))
        assert answer.status_code == 400 and answer.json()["field"] == "endpoint", endpoint
    assert not PushSubscription.objects.exists()
    # one stored before this check (a restore, an old row): revoked at the call, never posted to
    old = PushSubscription.objects.create(pair=a, endpoint="https://127.0.0.1\\.fcm.googleapis.com/x", **KEYS)
    posted = []
    monkeypatch.setattr(notify, "_push", lambda *args: posted.append(args) or "sent")
    assert notify._push_all([(old, {"title": "x"})]) == 0
    assert posted == [] and PushSubscription.objects.get(pk=old.pk).revoked_at is not None


@pytest.mark.django_db
def test_a_stranger_without_a_pin_subscribes_nothing_and_cannot_keep_the_pairs_phone_out(client, vapid, t):  # noqa: F811
    [a] = f.pairs(t, 1)
    junk = {"endpoint": "http://127.0.0.1:9/push/junk", "keys": KEYS}
    assert _post(client, "pair-push", t, a, junk).status_code == 400  # no player, no PIN
    wrong = {**signed(a, junk), "pin": "0000" if a.pins[a.first_player_id] != "0000" else "1111"}
    answer = _post(client, "pair-push", t, a, wrong)
    assert answer.status_code == 400 and answer.json()["field"] == "pin"
    assert not PushSubscription.objects.exists()
    # even the pair's own player, subscribing phone after phone, never locks out their newest phone
    for n in range(notify.PHONES_PER_PLAYER + 10):
        assert _post(client, "pair-push", t, a, signed(a, {**junk, "endpoint": f"http://127.0.0.1:9/p/{n}"})).status_code == 201
    real = _post(client, "pair-push", t, a, signed(a, {**junk, "endpoint": "http://127.0.0.1:9/p/real"}))
    assert real.status_code == 201
    active = PushSubscription.objects.filter(pair=a, revoked_at__isnull=True)
    assert active.count() == notify.PHONES_PER_PLAYER and active.filter(endpoint__endswith="/p/real").exists()


@pytest.mark.django_db
def test_an_unreachable_push_service_leaves_no_endpoint_in_the_logs(vapid, t, caplog):  # noqa: F811
    [a] = f.pairs(t, 1)
    with socket.socket() as probe:  # a closed port: the connection is refused, the error names the URL
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subscription = PushSubscription.objects.create(
        pair=a, endpoint=f"http://127.0.0.1:{port}/push/secret-path-of-the-phone", **KEYS)
    with caplog.at_level(logging.DEBUG):
        assert notify._push_all([(subscription, {"title": "x"})]) == 0
    assert "secret-path-of-the-phone" not in caplog.text
    assert f"subscription {subscription.pk} not delivered" in caplog.text


@pytest.fixture
def slow_push_service():
    """A push service on loopback that answers each push after ``delay[0]`` seconds; ``delay[1]``: the most
    pushes it held at once."""
    delay = [1.0, 0]
    held = [0]
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with lock:
                held[0] += 1
                delay[1] = max(delay[1], held[0])
            time.sleep(delay[0])
            with lock:
                held[0] -= 1
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], delay
    server.shutdown()
    server.server_close()


@pytest.mark.django_db
def test_a_calls_pushes_go_out_together_each_waiting_a_short_time(vapid, t, slow_push_service, monkeypatch):  # noqa: F811
    port, delay = slow_push_service
    [a] = f.pairs(t, 1)
    jobs = []
    for n in range(6):
        data = _phone(f"/push/slow-{n}")[0]
        jobs.append((PushSubscription.objects.create(pair=a, endpoint=f"http://127.0.0.1:{port}/push/slow-{n}",
                                                     **data["keys"]), {"title": "x"}))
    assert notify._push_all(jobs) == 6
    assert delay[1] == 6  # six pushes of 1 s each, held by the service together (one after the other: one at a time)
    assert PushSubscription.objects.filter(sent_at__lte=timezone.now()).count() == 6
    monkeypatch.setattr(notify, "PUSH_TIMEOUT", 0.5)
    delay[0] = 5.0  # a push service that hangs: the worker does not wait for it (waiting, each would be delivered)
    assert notify._push_all(jobs[:3]) == 0


@pytest.mark.django_db
def test_the_pair_page_asks_a_pin_to_notify_a_phone(client, vapid, t):  # noqa: F811
    [a] = f.pairs(t, 1)
    page = client.get(reverse("tournaments:pair", kwargs={"slug": t.slug, "pair": a.pk})).content.decode()
    assert "data-push-pin" in page and "data-push-player" in page
