"""Every line a run of the stack prints is in the site's one format (config/logs.py):

    2026-11-21T14:03:07.412-03:00 INFO web[4121] truco.access [id=… user=… ip=… GET /] 200 12ms

time with its UTC offset, level, process[pid], logger, [request], message: one event per line, for ``grep``
by whoever keeps the site and for a log collector alike (``DJANGO_LOG_FORMAT=json``: the same fields as
one JSON object per line). ``scripts/serve`` is run for real (gunicorn, a Celery worker and beat, on
SQLite and the filesystem broker in a folder of the test's own), asked a few pages and a Celery task,
then stopped; every line of its output must parse: the script's own lines (scripts/log.sh), bootstrap's
and the management commands' output, gunicorn's, Django's, Celery's (its banners are off, its "Warm
shutdown" relayed), warnings printed before logging is set up. WeasyPrint's progress lines and the shell
function's JSON lines are held here too.

Before, 38 of 69 lines of a start were not in the format (57 of 82 with JSON): Celery's banners, the
serve script's ``serve: …`` lines, Celery's warnings on standard error."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.ops.test_log_format import LINE, configured  # noqa: F401 (fixture)
from tests.ops.test_serve import STARTUP_SECONDS, children, fetch, free_port

ROOT = Path(__file__).resolve().parents[2]
JSON_FIELDS = {"time", "level", "process", "pid", "logger", "request_id", "request", "message"}


def wait_for(what, condition, log: Path, serve: subprocess.Popen, seconds: float = STARTUP_SECONDS):
    """Until ``condition()``; a limit only to catch a hang (the machine may be loaded)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert serve.poll() is None, f"scripts/serve exited ({serve.returncode}):\n{log.read_text()[-3000:]}"
        assert time.monotonic() < deadline, f"{what} not within {seconds} s:\n{log.read_text()[-3000:]}"
        time.sleep(0.5)


def answers(url: str) -> bool:
    try:
        return fetch(url)[0] == 200
    except OSError:
        return False


@pytest.mark.embedded_only  # its processes drop DATABASE_URL and the broker: SQLite and the filesystem broker
def test_every_line_of_a_run_of_scripts_serve_is_in_the_sites_format(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_", "DJANGO_LOG"))}
    env.update({
        "CELERY_BROKER_URL": "filesystem://", "TRUCO_VAR_DIR": str(tmp_path), "TRUCO_SKIP_BOOTSTRAP": "1",
        "DJANGO_SECRET_KEY": "log-test-" + "x" * 50, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "false", "DJANGO_DEBUG": "false", "SUMULA_SIGNING_KEY_FILE": str(tmp_path / "seal.key"),
        "BIND": f"127.0.0.1:{port}", "WEB_WORKERS": "1", "WEB_THREADS": "2", "CELERY_CONCURRENCY": "1",
        "PYTHONUNBUFFERED": "1",
    })
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for("an answer on /healthz", lambda: answers(base + "/healthz"), log, serve)
        wait_for("the worker and beat", lambda: re.search(r"truco@\S+ ready", log.read_text())
                 and "beat: Starting" in log.read_text(), log, serve)
        assert fetch(base + "/")[0] == 200
        assert fetch(base + "/nao-existe/")[0] == 404
        assert fetch(base + "/healthz", Host="10.0.0.5:8000")[0] == 200  # a load balancer's probe
        assert fetch(base + "/admin/login/")[0] == 200
        sent = subprocess.run([str(ROOT / ".venv" / "bin" / "celery"), "-A", "config", "call", "scoring.ping"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert sent.returncode == 0, sent.stderr
        task = sent.stdout.strip().splitlines()[-1]
        wait_for("the task", lambda: re.search(rf"Task scoring.ping\[{task}\] succeeded", log.read_text()),
                 log, serve)
        pieces = children(serve.pid)
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            status = serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            raise
    assert status == 0, log.read_text()[-3000:]
    # the relays write the pieces' last words after the script's exit: read once every piece is gone
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in pieces) and time.monotonic() < deadline:
        time.sleep(0.2)

    lines = log.read_text().splitlines()
    unparsed = [line for line in lines if not LINE.match(line)]
    assert not unparsed, "not in the site's format:\n" + "\n".join(unparsed[:30])
    parsed = [LINE.match(line) for line in lines]
    processes = {m["process"] for m in parsed}
    loggers = {m["logger"] for m in parsed}
    assert {"serve", "web", "worker", "beat"} <= processes, processes
    assert {"truco.serve", "gunicorn.error", "truco.access", "celery.apps.worker", "celery.beat", "truco.celery",
            "celery.app.trace"} <= loggers, loggers
    assert not [line for line in lines if " ERROR " in line[:40] or " CRITICAL " in line[:40]], lines
    assert any("worker truco@" in line and "scoring.ping" in line for line in lines)  # the banner's one line
    assert any("Warm shutdown" in line for line in lines)  # Celery prints it outside logging: relayed


def shell(code: str, **env) -> str:
    result = subprocess.run(["bash", "-c", f"set -euo pipefail; . scripts/log.sh; {code}"], cwd=ROOT,
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stdout
    return result.stdout


def test_the_shell_function_writes_the_sites_lines_and_relays_what_is_not():
    formatted = "2026-11-21T14:03:07.412-03:00 INFO web[4121] truco.access [-] 200 3ms"
    out = shell(f"log WARNING 'a \"quoted\" word'; printf '%s\\n' ' -------------- banner' '' "
                f"'{formatted}' | relay INFO worker 42 celery.stdout", DJANGO_LOG_FORMAT="text")
    lines = out.splitlines()
    assert all(LINE.match(line) for line in lines), lines
    assert len(lines) == 3 and formatted in lines  # the blank line dropped, a line in the format kept as is
    assert LINE.match(lines[0])["process"] == "serve" and lines[0].endswith('a "quoted" word')
    assert "worker[42] celery.stdout [-]  -------------- banner" in lines[1]


def test_the_shell_function_writes_json_lines_with_the_fields_of_the_site(configured):  # noqa: F811
    out = shell("log INFO 'a \"quoted\" \\ word\tand a tab'; printf 'x\\033[1m\\n' | relay WARNING beat 7 celery.stderr",
                DJANGO_LOG_FORMAT="json")
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 2
    assert all(set(record) == JSON_FIELDS for record in records)
    assert records[0]["message"] == 'a "quoted" \\ word\tand a tab' and records[0]["process"] == "serve"
    assert records[1]["level"] == "WARNING" and records[1]["pid"] == 7 and records[1]["message"].startswith("x")
    # the Python processes' JSON lines carry the same fields
    buffer = configured(process="worker", fmt="json")
    import logging

    logging.getLogger("truco.test").info("one")
    assert set(json.loads(buffer.getvalue().splitlines()[0])) == JSON_FIELDS


def test_weasyprints_progress_lines_are_in_the_format(configured):  # noqa: F811
    from weasyprint import HTML

    buffer = configured(process="worker")
    HTML(string="<p>súmula</p>").write_pdf()
    lines = buffer.getvalue().splitlines()
    assert any(LINE.match(line)["logger"] == "weasyprint.progress" for line in lines if LINE.match(line)), lines
    assert all(LINE.match(line) for line in lines), lines
