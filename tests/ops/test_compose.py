"""compose.yaml and the Dockerfile. No container runtime runs here (nor ``docker compose``),
so the files are read and held to what the README documents:

- the web container's healthcheck asks with an allowed host and as the TLS proxy does: run against the
  site with production settings it answers 200 (the earlier one asked ``127.0.0.1``, not an allowed
  host: 400 and a ``DisallowedHost`` traceback every 30 s, a container never healthy);
- every variable of the README's settings table is passed through to web, worker and beat;
- the production image has no test tools (a separate ``test`` stage), and ``var/`` is a volume.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
README = (ROOT / "README.md").read_text()
# the settings and the modules they read the environment in (config/logs.py: the log settings)
SETTINGS = "".join(path.read_text() for path in sorted((ROOT / "config").glob("*.py")))
OLD_HEALTHCHECK = "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def production_site(settings):
    """The site with compose's production settings (debug off, a public host, HTTPS behind the proxy),
    on a loopback port; yields the port."""
    from django.core.handlers.wsgi import WSGIHandler

    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["truco.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    server = make_server("127.0.0.1", 0, WSGIHandler(), server_class=WSGIServer, handler_class=Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def run_check(code: str, port: int) -> subprocess.CompletedProcess:
    code = code.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    return subprocess.run([sys.executable, "-c", code], env={"DJANGO_ALLOWED_HOSTS": "truco.example.org,www.example.org",
                                                             "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=60)


def test_the_healthcheck_asks_as_an_allowed_host_and_the_site_answers(production_site):
    test = SERVICES["web"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    assert run_check(test[3], production_site).returncode == 0
    # asked by address, as a load balancer does (once a 400 with an error mail): the probes answer any Host
    assert run_check(OLD_HEALTHCHECK, production_site).returncode == 0


def readme_settings() -> set[str]:
    table = README[README.index("| variable | meaning | default |"):]
    table = table[: table.index("\n\n")]
    names = set()
    for row in table.splitlines()[2:]:
        names |= set(re.findall(r"`([A-Z][A-Z0-9_]{2,})`", row.split("|")[1] + row.split("|")[2]))
    # TRUCO_PROCESS_NAME names one process (each container's is its role already): not one value for all
    return {name for name in names if name in SETTINGS or name.startswith("AWS_")} - {"TRUCO_PROCESS_NAME"}


def test_every_documented_setting_is_passed_to_web_worker_and_beat():
    documented = readme_settings()
    assert {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "TRUCO_S3_ENDPOINT_URL", "SUMULA_SIGNING_KEY"} <= documented
    # the seal key comes as the Docker secret "sumula_signing_key" (SUMULA_SIGNING_KEY_FILE), never as a
    # variable every container could print
    for name in ("web", "worker", "beat"):
        environment = SERVICES[name]["environment"]
        missing = documented - set(environment) - {"SUMULA_SIGNING_KEY"}
        assert not missing, f"{name}: compose.yaml does not pass {sorted(missing)}"
        assert environment["SUMULA_SIGNING_KEY_FILE"] == "/run/secrets/sumula_signing_key"
        assert "sumula_signing_key" in SERVICES[name]["secrets"]
    env = SERVICES["web"]["environment"]
    assert env["AWS_ACCESS_KEY_ID"] is None  # passed through when set; unset stays unset


def test_var_is_a_volume_shared_by_the_three_and_the_image_is_the_production_stage():
    for name in ("web", "worker", "beat"):
        assert "var:/app/var" in SERVICES[name]["volumes"]
        assert SERVICES[name]["build"] == {"context": ".", "target": "production"}
    assert "var" in COMPOSE["volumes"]

    dockerfile = (ROOT / "Dockerfile").read_text()
    stages = re.split(r"^FROM ", dockerfile, flags=re.M)[1:]
    by_name = {stage.split()[2]: stage for stage in stages}
    assert set(by_name) == {"runtime", "test", "production"}
    assert stages[-1].startswith("runtime AS production")  # the default target
    runtime, production = by_name["runtime"], by_name["production"]
    assert "scripts/bootstrap --production" in runtime
    for tool in ("chromium", "poppler", "zbar", "[dev]", "scripts/bootstrap\n", "scripts/bootstrap &&"):
        assert tool not in runtime + production, tool
    assert re.search(r"^RUN scripts/bootstrap &&", by_name["test"], re.M)  # the test tools, in their own stage
    assert 'VOLUME ["/app/var"]' in production and "TRUCO_VAR_DIR=/app/var" in runtime
