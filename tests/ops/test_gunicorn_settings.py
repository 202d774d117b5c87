"""gunicorn runs with one set of settings (config/gunicorn_conf.py), in production (scripts/serve) and in the
table-load benchmark (benchmarks/table_load.py) alike; the app is imported and warmed up once, before the
workers fork."""
from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "config" / "gunicorn_conf.py"


def test_serve_and_the_table_benchmark_start_gunicorn_with_the_same_settings():
    assert "gunicorn config.wsgi:application --config config/gunicorn_conf.py" in (ROOT / "scripts/serve").read_text()
    assert '"--config", "config/gunicorn_conf.py"' in (ROOT / "benchmarks/table_load.py").read_text()


def test_the_settings_read_the_variables_of_serve(monkeypatch):
    for name in ("WEB_WORKERS", "WEB_THREADS", "WEB_TIMEOUT", "WEB_PRELOAD", "BIND"):
        monkeypatch.delenv(name, raising=False)
    conf = runpy.run_path(str(CONF))
    assert conf["preload_app"] is True and conf["worker_class"] == "gthread" and conf["threads"] == 4
    assert conf["bind"] == "127.0.0.1:8000" and conf["workers"] >= 3 and conf["timeout"] == 60
    monkeypatch.setenv("WEB_WORKERS", "8")
    monkeypatch.setenv("WEB_THREADS", "1")
    monkeypatch.setenv("WEB_PRELOAD", "0")
    conf = runpy.run_path(str(CONF))
    assert conf["workers"] == 8 and conf["worker_class"] == "sync" and conf["preload_app"] is False


def test_the_wsgi_application_warms_up_the_urls_and_the_translations(monkeypatch):
    from django.urls import clear_url_caches, get_resolver
    from django.utils.translation import trans_real

    from config.wsgi import warm_up

    clear_url_caches()
    monkeypatch.setattr(trans_real, "_translations", {})
    assert not get_resolver()._populated
    warm_up()
    assert get_resolver()._populated and "pt-br" in trans_real._translations
