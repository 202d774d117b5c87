"""Production settings: ``check --deploy`` is clean with the README's variables; debug is
never served to the network; HTTPS behind the proxy; static files with debug off."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def readme_production_env() -> dict[str, str]:
    """The variables of the README's production block (between the ``production-env`` marks)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- production-env -->\s*```sh\n(.*?)```", text, re.S)
    assert block, "README.md has no production-env block"
    env = {}
    for line in block.group(1).splitlines():
        match = re.match(r"\s*export\s+([A-Z_]+)=(\S+)", line)
        if match:
            env[match.group(1)] = match.group(2).strip("'\"")
    return env


def manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**clean, "TRUCO_VAR_DIR": str(tmp_path), **env},
    )


def settings_under(env: dict[str, str], tmp_path: Path, monkeypatch) -> dict:
    """``config/settings.py`` read afresh under ``env`` (as ``manage`` would start it, without the
    caller's DJANGO_/DATABASE_/CELERY_ variables): its values, or the exception it raises. The module
    reads the environment only at its own top level, so this is what a new process would get, without
    starting Django (about 3 s a process here)."""
    import runpy

    for name in list(os.environ):
        if name.startswith(("DJANGO_", "DATABASE_", "CELERY_")):
            monkeypatch.delenv(name)
    for name, value in {"TRUCO_VAR_DIR": str(tmp_path), **env}.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings.py"))


@pytest.mark.embedded_only  # its process gets the README's variables, none of the caller's
def test_check_deploy_reports_no_issue_with_the_readme_production_variables(tmp_path):
    env = readme_production_env()
    assert {"DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL"} <= set(env)
    if env["DJANGO_SECRET_KEY"].startswith("$("):  # the README generates one
        env["DJANGO_SECRET_KEY"] = "k" * 10 + os.urandom(30).hex()
    assert "SUMULA_SIGNING_KEY" in env  # else scoring.E001 fails the check
    if env["SUMULA_SIGNING_KEY"].startswith("$("):
        import base64

        env["SUMULA_SIGNING_KEY"] = base64.b64encode(os.urandom(32)).decode()
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_generated_seal_key_fails_the_check_in_production(tmp_path, monkeypatch, settings):
    """scoring.E001, the check run on the settings a production process would read; the
    whole ``check --deploy`` of such a process is the test above."""
    from scoring.checks import seal_key

    names = ("DEBUG", "ALLOWED_HOSTS", "SUMULA_SIGNING_KEY", "SUMULA_SIGNING_KEY_FILE", "SUMULA_SIGNING_KEY_FILE_CHOSEN")
    env = {"DJANGO_ALLOWED_HOSTS": "truco.example.org", "DJANGO_SECRET_KEY": "k" * 60}
    for variables, errors in ((env, ["scoring.E001"]),
                              ({**env, "SUMULA_SIGNING_KEY_FILE": str(tmp_path / "seal.key")}, [])):
        production = settings_under(variables, tmp_path, monkeypatch)
        for name in names:
            setattr(settings, name, production[name])
        assert [error.id for error in seal_key()] == errors, variables


def test_debug_is_off_unless_asked_for(tmp_path, monkeypatch):
    assert settings_under({}, tmp_path, monkeypatch)["DEBUG"] is False
    assert settings_under({"DJANGO_DEBUG": "true"}, tmp_path, monkeypatch)["DEBUG"] is True


def test_debug_is_refused_for_hosts_of_other_machines(tmp_path, monkeypatch):
    with pytest.raises(RuntimeError, match="DJANGO_DEBUG=true is for this machine only"):
        settings_under({"DJANGO_DEBUG": "true", "DJANGO_ALLOWED_HOSTS": "192.168.0.10"}, tmp_path, monkeypatch)


def test_https_settings_follow_the_environment(tmp_path, monkeypatch):
    def https(env):
        s = settings_under(env, tmp_path, monkeypatch)
        return (s["SECURE_SSL_REDIRECT"], s["SESSION_COOKIE_SECURE"], s["CSRF_COOKIE_SECURE"],
                s["SECURE_HSTS_SECONDS"] > 0, s.get("SECURE_PROXY_SSL_HEADER"), s["CSRF_TRUSTED_ORIGINS"])

    public = {"DJANGO_ALLOWED_HOSTS": "truco.example.org", "DJANGO_SECRET_KEY": "x" * 60}
    assert https(public) == (True, True, True, True, ("HTTP_X_FORWARDED_PROTO", "https"),
                             ["https://truco.example.org"])
    lan = {**public, "DJANGO_ALLOWED_HOSTS": "192.168.0.10", "DJANGO_HTTPS": "false"}
    assert https(lan) == (False, False, False, False, None, ["http://192.168.0.10"])
    origins = {**public, "DJANGO_CSRF_TRUSTED_ORIGINS": "https://a.example,https://b.example",
               "DJANGO_PROXY_SSL_HEADER": "X-Scheme: https"}
    assert https(origins)[4:] == (("HTTP_X_SCHEME", "https"), ["https://a.example", "https://b.example"])


def test_behind_the_proxy_a_post_passes_the_csrf_origin_check(client, settings, django_user_model):
    """The TLS proxy says https: the Origin https://<host> is the site's own."""
    settings.ALLOWED_HOSTS = ["truco.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    headers = {"HTTP_HOST": "truco.example.org", "HTTP_X_FORWARDED_PROTO": "https"}
    page = browser.get("/entrar/", **headers)
    assert page.status_code == 200
    token = browser.cookies["csrftoken"].value
    response = browser.post("/entrar/", {"username": "nobody", "password": "x", "csrfmiddlewaretoken": token},
                            HTTP_ORIGIN="https://truco.example.org", HTTP_REFERER="https://truco.example.org/entrar/",
                            **headers)
    assert response.status_code == 200  # the form's answer (wrong password), not CSRF's 403
    assert "CSRF" not in response.content.decode()
    plain = browser.get("/entrar/", HTTP_HOST="truco.example.org")
    assert plain.status_code == 301 and plain["Location"].startswith("https://truco.example.org/")


def test_debug_pages_are_for_this_machine_only(client, settings):
    settings.DEBUG = True
    response = client.get("/nao-existe/", REMOTE_ADDR="192.168.0.23")
    assert response.status_code == 403
    assert b"debug mode" in response.content and b"DATABASE" not in response.content
    assert client.get("/nao-existe/", REMOTE_ADDR="127.0.0.1").status_code == 404


@pytest.mark.django_db
def test_static_files_are_served_with_debug_off(client, settings):
    assert not settings.DEBUG
    response = client.get("/static/admin/css/base.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"/*")
