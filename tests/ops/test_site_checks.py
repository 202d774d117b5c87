"""The site's own system checks (config/checks.py), run on the settings a process would read from the
environment (``config/settings.py`` read afresh): the secret key required in production like the seal key,
and a multi-host site (``TRUCO_HOSTS``) refused without a shared media store and a shared cache."""
from __future__ import annotations

import base64
import os

import pytest

from config import checks
from tests.ops.test_deploy_settings import manage, readme_production_env, settings_under

NAMES = ("DEBUG", "ALLOWED_HOSTS", "SECRET_KEY_FROM_ENVIRONMENT", "SECRET_KEY_FILE_CHOSEN", "SITE_HOSTS", "STORAGES", "CACHES",
         "MEDIA_ROOT", "SHARED_MEDIA_ROOT")
PRODUCTION = {"DJANGO_ALLOWED_HOSTS": "truco.example.org", "DJANGO_SECRET_KEY": "k" * 60}
REDIS = "redis://127.0.0.1:6379/2"  # only named: nothing connects while the checks run


def ids_under(env: dict, tmp_path, monkeypatch, settings) -> list[str]:
    read = settings_under(env, tmp_path, monkeypatch)
    for name in NAMES:
        setattr(settings, name, read[name])
    return [error.id for error in checks.secret_key() + checks.shared_stores()]


@pytest.mark.parametrize("env, expected", [
    ({}, []),  # this machine only (the embedded default): a key in var/ is fine
    ({"DJANGO_ALLOWED_HOSTS": "truco.example.org"}, ["config.E001"]),
    ({"DJANGO_ALLOWED_HOSTS": "192.168.0.10", "DJANGO_HTTPS": "false"}, ["config.E001"]),  # a LAN site too
    (PRODUCTION, []),
    ({"DJANGO_ALLOWED_HOSTS": "192.168.0.10", "DJANGO_SECRET_KEY_FILE": "{tmp}/lan/secret_key"}, []),  # on purpose
    ({"DJANGO_SECRET_KEY": " "}, []),
])
def test_the_secret_key_is_required_in_production(env, expected, tmp_path, monkeypatch, settings):
    env = {name: value.replace("{tmp}", str(tmp_path)) for name, value in env.items()}
    assert ids_under(env, tmp_path, monkeypatch, settings) == expected


def test_a_named_key_file_is_made_once_and_read_by_every_process(tmp_path, monkeypatch):
    env = {"DJANGO_SECRET_KEY_FILE": str(tmp_path / "keys" / "secret_key")}
    first = settings_under(env, tmp_path, monkeypatch)["SECRET_KEY"]
    assert (tmp_path / "keys" / "secret_key").read_text().strip() == first and len(first) >= 50
    assert settings_under(env, tmp_path, monkeypatch)["SECRET_KEY"] == first
    assert not (tmp_path / "secret_key").exists()  # not var/'s


def test_the_missing_secret_key_is_named_with_how_to_make_one(settings):
    settings.DEBUG, settings.ALLOWED_HOSTS, settings.SECRET_KEY_FROM_ENVIRONMENT = False, ["truco.example.org"], False
    settings.SECRET_KEY_FILE_CHOSEN = False
    [error] = checks.secret_key()
    assert "DJANGO_SECRET_KEY" in error.msg and "var/secret_key" in error.msg
    assert "secrets.token_urlsafe" in error.hint and "DJANGO_SECRET_KEY_FILE" in error.hint and error.is_serious()


@pytest.mark.parametrize("env, expected", [
    ({"TRUCO_HOSTS": "web1"}, []),  # one host: its own disk and memory are shared by all its processes
    ({"TRUCO_HOSTS": "web1, web2"}, ["config.E002", "config.E003"]),
    ({"TRUCO_HOSTS": "web1,web2", "DJANGO_CACHE_URL": REDIS}, ["config.E002"]),
    ({"TRUCO_HOSTS": "web1,web2", "TRUCO_S3_BUCKET": "truco"}, ["config.E003"]),
    ({"TRUCO_HOSTS": "web1,web2", "DJANGO_MEDIA_ROOT": "/srv/media", "DJANGO_CACHE_URL": REDIS},
     ["config.E002"]),  # a folder of its own is not declared shared
    ({"TRUCO_HOSTS": "web1,web2", "TRUCO_S3_BUCKET": "truco", "DJANGO_CACHE_URL": REDIS}, []),
    ({"TRUCO_HOSTS": "web1,web2", "TRUCO_SHARED_MEDIA_ROOT": "/mnt/truco-media", "DJANGO_CACHE_URL": REDIS}, []),
])
def test_several_hosts_want_a_shared_media_store_and_a_shared_cache(env, expected, tmp_path, monkeypatch, settings):
    assert ids_under({**PRODUCTION, **env}, tmp_path, monkeypatch, settings) == expected


def test_several_hosts_want_the_secret_key_even_on_local_names(tmp_path, monkeypatch, settings):
    """Two hosts on one machine's loopback (a drill) still sign sessions each with its own key without it."""
    env = {"TRUCO_HOSTS": "a,b", "TRUCO_SHARED_MEDIA_ROOT": str(tmp_path / "media"), "DJANGO_CACHE_URL": REDIS}
    assert ids_under(env, tmp_path, monkeypatch, settings) == ["config.E001"]


def test_the_shared_folder_is_the_media_root(tmp_path, monkeypatch):
    read = settings_under({"TRUCO_SHARED_MEDIA_ROOT": "/mnt/truco-media", "DJANGO_MEDIA_ROOT": "/srv/x"},
                          tmp_path, monkeypatch)
    assert str(read["MEDIA_ROOT"]) == "/mnt/truco-media"


def test_the_messages_name_the_settings(settings):
    settings.SITE_HOSTS = ["web1", "web2"]
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    settings.SHARED_MEDIA_ROOT = ""
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    media, cache = checks.shared_stores()
    assert "TRUCO_HOSTS names 2 hosts (web1, web2)" in media.msg
    assert "TRUCO_S3_BUCKET" in media.hint and "TRUCO_SHARED_MEDIA_ROOT" in media.hint
    assert "DJANGO_CACHE_URL" in cache.msg + cache.hint


@pytest.mark.embedded_only  # its process gets the README's variables, none of the caller's
def test_check_deploy_fails_without_the_secret_key(tmp_path):
    """Before, ``check --deploy`` said "no issues" and each host made its own var/secret_key."""
    env = readme_production_env()
    del env["DJANGO_SECRET_KEY"]
    env["SUMULA_SIGNING_KEY"] = base64.b64encode(os.urandom(32)).decode()
    result = manage("check", "--deploy", env=env, tmp_path=tmp_path)
    assert result.returncode != 0
    assert "(config.E001) DJANGO_SECRET_KEY is not set" in result.stderr
    assert "no issues" not in result.stdout
