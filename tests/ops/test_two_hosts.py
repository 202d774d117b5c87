"""Two hosts of one site, as the README's "Several machines" runs them: two ``scripts/serve`` on one PostgreSQL,
one Redis and one shared media folder, driven as a venue would.

Host A runs the web and the print worker and prepares (``migrate``, a no-op on pytest-django's test database,
and the static files collected into its own ``var/``); host B runs the web only, prepares nothing
(``SERVE_PREPARE=0``: only the system checks) and serves the files A collected (``DJANGO_STATIC_ROOT``). Each
has its own ``TRUCO_VAR_DIR`` (its control files: gunicorn's ``gunicorn.ctl``), and both the settings of
several hosts: ``TRUCO_HOSTS`` naming two, ``TRUCO_SHARED_MEDIA_ROOT`` one folder, ``DJANGO_CACHE_URL`` one
Redis database, the same ``DJANGO_SECRET_KEY`` (the test process's: the table link's token is kept as its
keyed digest) and the same seal key file. The broker is a Redis database of its own, so A's worker takes no
task of another test.

Driven across the two: a table's hands entered alternately on A and on B, each following the last (its
position) and sent with an ``Idempotency-Key``, replayed on the other host; the organizer logs in on A and
opens the tournament's dashboard on B with the same cookies; a round printed on A, rendered by A's worker into
the shared folder, its PDF downloaded from B. A third start, B without the shared folder, is refused by the
system checks (``config.E002``). SIGTERM stops both, and every piece they started is gone.

Runs in CI's services pass (PostgreSQL and Redis), like ``test_serve.py``."""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.ops.test_serve import alive, children, free_port
from tests.printing.test_print_worker import BROKER, ROOT, database_url
from tests.scoring.sumula_setup import *  # noqa: F401,F403 (organizer, referee, tournament, pairs, match, link)

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not BROKER or not BROKER.startswith("redis"), reason="needs Redis (CELERY_BROKER_URL)"),
    pytest.mark.skipif("postgres" not in os.environ.get("DATABASE_URL", ""),
                       reason="several hosts share one PostgreSQL"),
]

STARTUP_SECONDS = 300  # a hang's limit only: every wait ends as soon as its condition holds
PASSWORD = "senha-da-olga"
#: what each host is given by this test, never inherited from the environment it runs in
HOST_OWN = {"TRUCO_S3_BUCKET", "DJANGO_MEDIA_ROOT", "DJANGO_STATIC_ROOT", "DJANGO_SECRET_KEY_FILE", "WEB_CONTROL_SOCKET",
            "SERVE_PREPARE", "SKIP_MIGRATE", "MIGRATE_DATABASE_URL", "SERVE_ROLES", "TRUCO_VAR_DIR"}


def redis_db(number: int) -> str:
    return re.sub(r"/\d*$", "", BROKER.rstrip("/")) + f"/{number}"


@dataclass
class Host:
    name: str
    process: subprocess.Popen
    port: int
    log: Path

    def tail(self) -> str:
        return f"--- host {self.name} ---\n{self.log.read_text(errors='replace')[-3000:]}"


def start(name: str, env: dict, var: Path, roles: str, **extra: str) -> Host:
    var.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = var.parent / f"serve-{name}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={**env, "TRUCO_VAR_DIR": str(var), "SERVE_ROLES": roles, "BIND": f"127.0.0.1:{port}", **extra})
    return Host(name, process, port, log)


def call(host: Host, method: str, path: str, body: bytes | None = None, cookies: dict | None = None,
         **headers: str) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request, redirects not followed; the cookies it sets are added to ``cookies``."""
    if cookies:
        headers["Cookie"] = "; ".join(f"{key}={value}" for key, value in cookies.items())
    connection = http.client.HTTPConnection("127.0.0.1", host.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    if cookies is not None:
        for line in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(line).items():
                cookies[key] = morsel.value
    return response.status, response.headers, data


def answering(host: Host) -> bool:
    try:
        return call(host, "GET", "/healthz")[0] == 200
    except OSError:
        return False


def wait_until(condition, hosts: list[Host], what: str, seconds: float = STARTUP_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        for host in hosts:
            assert host.process.poll() is None, f"host {host.name} exited ({host.process.returncode}):\n{host.tail()}"
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s\n" + "\n".join(h.tail() for h in hosts)
        time.sleep(0.25)


def csrf_token(page: bytes) -> str:
    found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found, "the page has no form with a CSRF token"
    return found.group(1).decode()


def post_form(host: Host, path: str, fields: dict, cookies: dict):
    return call(host, "POST", path, urlencode(fields).encode(), cookies,
                **{"Content-Type": "application/x-www-form-urlencoded"})


def stop(hosts: list[Host]) -> list[int]:
    """SIGTERM to each host's script; the pids of the pieces each had started (and the scripts' own)."""
    pieces = []
    for host in hosts:
        pieces += [host.process.pid, *children(host.process.pid)]
        if host.process.poll() is None:
            host.process.send_signal(signal.SIGTERM)
    for host in hosts:
        try:
            host.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(host.process.pid, signal.SIGKILL)
            host.process.wait(timeout=10)
            pytest.fail(f"host {host.name} did not stop within 60 s of SIGTERM:\n{host.tail()}")
    return pieces


@pytest.mark.django_db(transaction=True)  # committed: the hosts read it (emptied after the test)
def test_two_hosts_serve_one_site_a_table_a_login_and_a_print_job_across_them(
        match, link, organizer, tournament, tmp_path):
    import redis
    from django.conf import settings
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.db import connection

    from printing.models import PrintJob
    from scoring import integrity
    from scoring.models import HandEntry

    # the hosts keep the production hashers: a PBKDF2 hash they verify (few rounds: the login upgrades it)
    hasher = PBKDF2PasswordHasher()
    organizer.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1_000)
    organizer.save(update_fields=["password"])
    integrity.private_key()  # the seal key file exists before the hosts read it
    broker, cache = redis_db(10), redis_db(11)
    for url in (broker, cache):  # nothing left from an earlier run
        redis.Redis.from_url(url).flushdb()
    shared = tmp_path / "shared-media"
    shared.mkdir()
    env = {
        **{name: value for name, value in os.environ.items() if name not in HOST_OWN},
        "DATABASE_URL": database_url(connection.settings_dict), "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": "", "DJANGO_CACHE_URL": cache,
        "DJANGO_SECRET_KEY": settings.SECRET_KEY, "SUMULA_SIGNING_KEY": settings.SUMULA_SIGNING_KEY,
        "SUMULA_SIGNING_KEY_FILE": str(integrity.key_file()),
        "TRUCO_HOSTS": "host-a,host-b", "TRUCO_SHARED_MEDIA_ROOT": str(shared),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_HTTPS": "false", "DJANGO_DEBUG": "false",
        "TRUCO_SKIP_BOOTSTRAP": "1", "WEB_WORKERS": "1", "WEB_THREADS": "2", "CELERY_CONCURRENCY": "1",
    }
    static = tmp_path / "a" / "static"  # A's var/static, where A's preparation collects
    a = start("a", env, tmp_path / "a", "web,worker")
    # B without the shared folder: refused by the system checks before it serves anything
    unshared = {name: value for name, value in env.items() if name != "TRUCO_SHARED_MEDIA_ROOT"}
    refused = start("refused", unshared, tmp_path / "refused", "web", SERVE_PREPARE="0")
    hosts = [a]
    try:
        wait_until(lambda: (static / ".collected").is_file(), hosts, "host A's static files collected")
        b = start("b", env, tmp_path / "b", "web", SERVE_PREPARE="0", DJANGO_STATIC_ROOT=str(static))
        hosts.append(b)
        wait_until(lambda: answering(a) and answering(b), hosts, "both hosts answering")

        assert refused.process.wait(timeout=STARTUP_SECONDS) != 0, refused.tail()
        assert "config.E002" in refused.log.read_text(), refused.tail()
        assert not (tmp_path / "refused" / "gunicorn.ctl").exists()

        # B serves the static files A collected: hashed names, from A's manifest
        status, _, page = call(b, "GET", "/admin/login/")
        assert status == 200
        stylesheet = re.search(rb'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page)
        assert stylesheet, "B links no collected (hashed) stylesheet"
        assert call(b, "GET", stylesheet.group(1).decode())[0] == 200

        # a table's hands, alternating hosts, each following the one the other host took
        table = {"Authorization": f"Table {link.token}", "Content-Type": "application/json"}
        hands = f"/api/scoring/matches/{match.pk}/hands/"
        answers = []
        for number in range(1, 7):
            host = (a, b)[(number - 1) % 2]
            body = json.dumps({"winner": number % 2, "ended_by": "tricks", "value": 1, "game": 1, "hand": number})
            status, _, data = call(host, "POST", hands, body.encode(), **table, **{"Idempotency-Key": f"hand-{number}"})
            assert status == 201, (host.name, number, data[:500])
            answers.append((body, json.loads(data)))
            assert answers[-1][1]["state"]["hand"] == number + 1
        assert answers[-1][1]["state"]["score"] == [3, 3]
        # the last one sent again to the other host (a phone retrying through the balancer): the same answer
        body, first = answers[-1]
        status, headers, data = call(a, "POST", hands, body.encode(), **table, **{"Idempotency-Key": "hand-6"})
        assert status == 201 and headers["Idempotent-Replayed"] == "true" and json.loads(data) == first
        # a phone behind (it did not see B's last hand) is told so by A
        stale = json.dumps({"winner": 0, "ended_by": "tricks", "value": 1, "game": 1, "hand": 6})
        status, _, data = call(a, "POST", hands, stale.encode(), **table, **{"Idempotency-Key": "stale"})
        assert status == 409 and json.loads(data)["state"]["hand"] == 7
        assert HandEntry.objects.filter(game__match=match).count() == 6

        # the organizer logs in on A and goes on on B with the same cookies
        cookies: dict = {}
        status, _, page = call(a, "GET", "/entrar/", cookies=cookies)
        assert status == 200 and "csrftoken" in cookies
        status, headers, _ = post_form(a, "/entrar/", {"username": organizer.username, "password": PASSWORD,
                                                       "csrfmiddlewaretoken": csrf_token(page)}, cookies)
        assert status == 302 and "sessionid" in cookies, (status, headers)
        dashboard = f"/torneios/{tournament.slug}/painel/"
        status, _, page = call(b, "GET", dashboard, cookies=cookies)
        assert status == 200 and tournament.name in page.decode()

        # a round printed on A (its worker renders it into the shared folder), downloaded from B
        round_page = f"/sumulas/impressao/rodada/{match.round_id}/"
        status, _, page = call(a, "GET", round_page, cookies=cookies)
        assert status == 200
        status, headers, _ = post_form(a, round_page, {"kind": "blank", "csrfmiddlewaretoken": csrf_token(page)},
                                       cookies)
        assert status == 302, status
        job = int(re.search(r"/trabalho/(\d+)/", headers["Location"]).group(1))
        progress: dict = {}

        def finished() -> bool:
            status, _, data = call(b, "GET", f"/sumulas/impressao/trabalho/{job}/estado/", cookies=cookies)
            assert status == 200
            progress.update(json.loads(data))
            return progress["finished"]

        wait_until(finished, hosts, "the print job done by A's worker")
        assert progress["status"] == "done", (progress, a.tail())
        status, headers, data = call(b, "GET", f"/sumulas/impressao/trabalho/{job}/sumulas.pdf", cookies=cookies)
        assert status == 200 and headers["Content-Type"] == "application/pdf" and data.startswith(b"%PDF")
        stored = PrintJob.objects.get(pk=job).file.name
        assert (shared / stored).read_bytes() == data  # in the shared folder, not on A's disk
        assert not (tmp_path / "a" / "media").exists() and not (tmp_path / "b" / "media").exists()

        # each host's control files under its own var/
        for name in ("a", "b"):
            control = tmp_path / name / "gunicorn.ctl"
            assert control.exists() or len(str(control.resolve()).encode()) > 107  # (too long a path: none)
    finally:
        pieces = stop([*hosts, refused])

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pieces) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pieces if alive(pid)], "\n".join(host.tail() for host in hosts)
    for host in hosts:  # nothing went wrong on either host (a 500, a missing file, a refused session)
        assert not re.search(r"^\S+ (ERROR|CRITICAL) ", host.log.read_text(errors="replace"), re.M), host.tail()
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", host.port)) != 0, f"host {host.name}'s port still answers"
