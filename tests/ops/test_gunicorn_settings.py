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


def test_each_host_has_its_own_control_socket_under_its_var(monkeypatch, tmp_path):
    """gunicorn's default ``~/.gunicorn/gunicorn.ctl`` was claimed by every master of the user."""
    monkeypatch.delenv("WEB_CONTROL_SOCKET", raising=False)
    monkeypatch.delenv("TRUCO_VAR_DIR", raising=False)
    assert runpy.run_path(str(CONF))["control_socket"] == str(ROOT / "var" / "gunicorn.ctl")
    paths = set()
    for host in ("a", "b"):
        monkeypatch.setenv("TRUCO_VAR_DIR", str(tmp_path / host))
        conf = runpy.run_path(str(CONF))
        assert conf["control_socket"] == str(tmp_path / host / "gunicorn.ctl") and not conf["control_socket_disable"]
        paths.add(conf["control_socket"])
    assert len(paths) == 2
    monkeypatch.setenv("WEB_CONTROL_SOCKET", str(tmp_path / "web.ctl"))
    assert runpy.run_path(str(CONF))["control_socket"] == str(tmp_path / "web.ctl")
    monkeypatch.setenv("WEB_CONTROL_SOCKET", "/tmp/" + "x" * 120)  # longer than a Unix socket's address
    assert runpy.run_path(str(CONF))["control_socket_disable"] is True


def test_two_masters_on_one_machine_each_answer_on_their_own_socket(tmp_path):
    """Two gunicorn masters (two hosts' folders on one machine), each reached by ``gunicornc`` on its own
    socket; neither touches the user's ``~/.gunicorn``."""
    import json
    import os
    import subprocess
    import sys
    import time

    (tmp_path / "probe_app.py").write_text(
        "def app(environ, start_response):\n"
        "    start_response('200 OK', [('Content-Type', 'text/plain')])\n"
        "    return [b'ok']\n")
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = Path(sys.executable).parent
    masters, sockets = [], []
    try:
        for host in ("a", "b"):
            var = tmp_path / host
            env = {**os.environ, "TRUCO_VAR_DIR": str(var), "HOME": str(home), "BIND": "127.0.0.1:0",
                   "WEB_WORKERS": "1", "WEB_THREADS": "1", "WEB_PRELOAD": "0", "PYTHONPATH": str(tmp_path)}
            env.pop("WEB_CONTROL_SOCKET", None)
            env.pop("XDG_RUNTIME_DIR", None)
            masters.append(subprocess.Popen(
                [str(bin_dir / "gunicorn"), "probe_app:app", "--config", str(CONF)], cwd=ROOT, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            sockets.append(var / "gunicorn.ctl")
        deadline = time.monotonic() + 60
        while not all(path.exists() for path in sockets) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert all(path.exists() for path in sockets), sockets
        for master, path in zip(masters, sockets):
            stats = subprocess.run([str(bin_dir / "gunicornc"), "-s", str(path), "-c", "show stats", "-j"],
                                   capture_output=True, text=True, timeout=30)
            assert stats.returncode == 0, stats.stdout + stats.stderr
            assert json.loads(stats.stdout)["pid"] == master.pid  # each socket is its own master's
        assert not (home / ".gunicorn").exists()
    finally:
        for master in masters:
            master.terminate()
        for master in masters:
            master.wait(timeout=30)
