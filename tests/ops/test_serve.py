"""The production path of the README run for real: ``scripts/serve`` migrates,
collects the static files and starts gunicorn, a Celery worker and Celery beat; the site answers
with debug off, WhiteNoise serves the static files compressed and cached, an unknown address
gets the site's own Portuguese 404, and SIGTERM stops every piece.

Runs in CI's services pass (PostgreSQL and Redis). ``scripts/serve`` reads the test database
(already migrated by pytest-django: its ``migrate`` is the README's step, a no-op here) and a
Redis database of its own as broker, so that its worker takes no task of another test.
``compose.yaml`` and the ``Dockerfile`` run the same script, one role per container; no
container runtime runs here, so ``test_compose_runs_the_same_script`` holds them to it."""
from __future__ import annotations

import gzip
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.printing.test_print_worker import BROKER, ROOT, database_url

# the settings and the modules they read the environment in (config/logs.py: the log settings)
SETTINGS = "".join(path.read_text() for path in sorted((ROOT / "config").glob("*.py")))
SERVE = (ROOT / "scripts" / "serve").read_text()
STARTUP_SECONDS = 300


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str, **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def children(pid: int) -> set[int]:
    """Every descendant process of ``pid`` (from /proc)."""
    found: set[int] = set()
    parents = {pid}
    while parents:
        new = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid in parents and int(entry.name) not in found:
                new.add(int(entry.name))
        found |= new
        parents = new
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.services
@pytest.mark.skipif(not BROKER or not BROKER.startswith("redis"), reason="needs Redis (CELERY_BROKER_URL)")
@pytest.mark.skipif("postgres" not in os.environ.get("DATABASE_URL", ""), reason="the README's production path is on PostgreSQL")
def test_scripts_serve_runs_web_worker_and_beat_with_debug_off_and_stops_them_all(
        django_db_setup, django_db_blocker, tmp_path):
    from django.db import connection

    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    port = free_port()
    broker = re.sub(r"/\d*$", "", BROKER.rstrip("/")) + "/9"
    env = {
        **os.environ,
        "DATABASE_URL": url, "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker, "CELERY_RESULT_BACKEND": "",
        "DJANGO_SECRET_KEY": "serve-test-" + "x" * 50, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "false", "DJANGO_DEBUG": "false",
        "TRUCO_SKIP_BOOTSTRAP": "1", "TRUCO_VAR_DIR": str(tmp_path),
        "BIND": f"127.0.0.1:{port}", "WEB_WORKERS": "1", "WEB_THREADS": "2", "CELERY_CONCURRENCY": "1",
    }
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        # Before it answers, the script migrates and collects the static files (compressing them: ~40 s of
        # CPU), on a machine that runs the rest of the suite beside it: the limit only catches a hang, the
        # loop ends as soon as the site answers or the script exits.
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                if fetch(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert serve.poll() is None, f"scripts/serve exited ({serve.returncode}):\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"no answer within {STARTUP_SECONDS} s:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)

        assert fetch(base + "/")[0] == 200
        status, _, body = fetch(base + "/admin/login/")
        assert status == 200
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', body.decode())
        assert stylesheet, "the admin's login page links no stylesheet"

        # WhiteNoise, with debug off: hashed names, compressed, cached for a long time.
        status, headers, body = fetch(base + stylesheet.group(1), **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert headers.get("Content-Encoding") == "gzip" and gzip.decompress(body)
        assert "max-age" in headers.get("Cache-Control", "")

        # Debug is off: the site's own 404, in Portuguese, with a way back; no URL list.
        status, _, body = fetch(base + "/nao-existe/", **{"Accept-Language": "pt-br"})
        assert status == 404
        assert "Página não encontrada" in body.decode() and "URLconf" not in body.decode()

        # The worker and beat are up beside gunicorn.
        deadline = time.monotonic() + 120
        while not (re.search(r"truco@\S+ ready", log.read_text()) and "beat: Starting" in log.read_text()):
            assert serve.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, f"worker or beat not ready:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
        pieces = children(serve.pid)
        assert len(pieces) >= 3
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(timeout=10)
            pytest.fail(f"scripts/serve did not stop within 60 s of SIGTERM:\n{log.read_text()[-3000:]}")

    # Every piece it started is gone (reaped within moments of the script's exit), and the port is free again.
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pieces) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pieces if alive(pid)], log.read_text()[-3000:]
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0


def test_compose_runs_the_same_script_one_role_per_container():
    """compose.yaml cannot be run here (no container runtime): it must stay the commands that CI runs."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    roles = {}
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["command"] == ["scripts/serve"], name
        roles[name] = service["environment"]["SERVE_ROLES"]
        for variable in service["environment"]:
            assert variable in SETTINGS or variable in SERVE or variable.startswith("AWS_"), \
                f"compose.yaml sets {variable}, which neither config/settings.py nor scripts/serve reads"
    assert roles == {"web": "web", "worker": "worker", "beat": "beat"}
    assert services["worker"]["environment"].get("SKIP_MIGRATE") == "1"
    assert services["beat"]["environment"].get("SKIP_MIGRATE") == "1"
    assert {"db", "redis"} <= set(services)
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    # gunicorn reachable by the proxy only: published on the loopback, X-Forwarded-* trusted
    # from the proxy's address only (the network's gateway, fixed in the file), never from anyone
    for name, service in services.items():
        for port in service.get("ports", []):
            if name == "proxy":  # the Caddy service (a profile): HTTP and HTTPS, nothing else
                assert str(port) in ("80:80", "443:443"), port
                continue
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} on every interface"
    assert services["web"]["ports"] == ["127.0.0.1:8000:8000"]
    trusted = services["web"]["environment"]["FORWARDED_ALLOW_IPS"]
    assert "*" not in trusted
    gateway = compose["networks"]["default"]["ipam"]["config"][0]["gateway"]
    proxy = services["proxy"]["networks"]["default"]["ipv4_address"]
    assert trusted == "${FORWARDED_ALLOW_IPS:-%s,%s}" % (gateway, proxy)  # the host's proxy, or the Caddy service
    assert services["proxy"]["profiles"] == ["proxy"] and "web:8000" in (ROOT / "deploy/Caddyfile").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "127.0.0.1:8000:8000" in readme and gateway in readme

    # one seal key for every container, a secret; the app's database role owns no table
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["secrets"] == ["sumula_signing_key"], name
        assert service["environment"]["SUMULA_SIGNING_KEY_FILE"] == "/run/secrets/sumula_signing_key", name
        assert service["environment"]["DATABASE_URL"].startswith("postgres://truco_app:"), name
    assert "file" in compose["secrets"]["sumula_signing_key"]
    assert "MIGRATE_DATABASE_URL" in services["web"]["environment"]
    init = [v for v in services["db"]["volumes"] if "docker-entrypoint-initdb.d" in v]
    assert init and (ROOT / init[0].split(":")[0]).exists()
    assert "secrets/sumula-signing.key" in readme

    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["scripts/serve"]' in dockerfile
    assert "RUN scripts/bootstrap" in dockerfile and "TRUCO_SKIP_BOOTSTRAP=1" in dockerfile
    for variable in ("SERVE_ROLES", "SKIP_MIGRATE", "BIND", "FORWARDED_ALLOW_IPS", "TRUCO_SKIP_BOOTSTRAP"):
        assert variable in SERVE, variable
