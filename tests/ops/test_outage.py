"""Honest health and errors while a service is down (and a print request while the broker is down).

The database down is a site process whose ``DATABASE_URL`` names PostgreSQL on a closed loopback
port (``tests/ops/outage_child.py``, a real connection refused by the OS, nothing mocked): it needs
no running service, so it runs in both passes. Before, with PostgreSQL stopped: HTML 500
pages from the API, ``/healthz`` 200, ~5 KB ``ERROR`` lines per request, 377 mails in 10 s.
The broker down for real (the print request) needs a database another process reads: CI's
services pass (PostgreSQL)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from email import message_from_bytes
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("outage_child.py")
TOKEN = "AbCdEfGhIjKlMnOpQrStUvWx12"


def closed_port() -> int:
    """A loopback port in this project's test range where nothing listens."""
    for port in range(8499, 8400, -1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8401-8499")


def run_child(tmp_path: Path, env: dict, requests: list, *, name: str = "child", login: str | None = None,
              root: Path = ROOT, var_dir: Path | None = None, python: str | None = None) -> tuple[list, list[str], float]:
    """Run the site in another process with ``env``; returns its answers, its log lines, the seconds taken."""
    result = tmp_path / f"{name}.json"
    spec = tmp_path / f"{name}-spec.json"
    spec.write_text(json.dumps({"result": str(result), "login": login, "requests": requests}))
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("DATABASE_", "CELERY_", "DJANGO_", "EMAIL_", "PYTEST", "TRUCO_"))}
    full_env = {**base, "PYTHONDONTWRITEBYTECODE": "1", "DJANGO_LOG_LEVEL": "INFO",
                "TRUCO_VAR_DIR": str(var_dir or tmp_path / "var"), **env}
    start = time.monotonic()
    done = subprocess.run([python or sys.executable, str(CHILD), str(spec)], cwd=root, env=full_env,
                          capture_output=True, timeout=180)
    elapsed = time.monotonic() - start
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return json.loads(result.read_text()), done.stdout.decode().splitlines(), elapsed


def database_down_env(tmp_path: Path) -> dict:
    return {"DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed_port()}/gfail_down",
            "DJANGO_ADMINS": "Ops <ops@example.org>",
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(tmp_path / "mail")}


def mails(tmp_path: Path) -> list:
    folder = tmp_path / "mail"
    found = []
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        for chunk in path.read_bytes().split(b"-" * 79):
            if chunk.strip():
                found.append(message_from_bytes(chunk.strip()))
    return found


OUTAGE_REQUESTS = [
    {"path": "/api/tournaments/", "repeat": 3},
    {"method": "POST", "path": "/api/scoring/matches/1/hands/", "json": True, "data": {"after": 0},
     "headers": {"Authorization": f"Table {TOKEN}", "X-Request-ID": "phone-7.hand-42"}},
    {"path": "/"},
    {"path": f"/mesa/{TOKEN}/"},
    {"path": "/healthz"},
    {"path": "/readyz"},
]


def test_with_the_database_down_the_api_answers_json_503_and_each_request_logs_one_short_line(tmp_path):
    answers, lines, _ = run_child(tmp_path, database_down_env(tmp_path), OUTAGE_REQUESTS)
    by_path = {}
    for answer in answers:
        by_path.setdefault(answer["path"], []).append(answer)
    for answer in by_path["/api/tournaments/"] + by_path["/api/scoring/matches/1/hands/"]:
        assert answer["status"] == 503, answer
        assert answer["content_type"] == "application/json", answer
        assert answer["retry_after"] and int(answer["retry_after"]) > 0
        body = json.loads(answer["body"])
        assert set(body) >= {"field", "message", "detail", "error"}
        assert "database" in body["message"] or "banco de dados" in body["message"]
    assert by_path["/api/scoring/matches/1/hands/"][0]["request_id"] == "phone-7.hand-42"  # echoed back
    for path in ("/", f"/mesa/{TOKEN}/"):
        [page] = by_path[path]
        assert page["status"] == 503 and page["content_type"].startswith("text/html") and page["retry_after"]
        assert "<h1>" in page["body"] and "Traceback" not in page["body"] and len(page["body"]) < 600
    assert by_path["/healthz"][0]["status"] == 200  # the process is alive
    [ready] = by_path["/readyz"]
    assert ready["status"] == 503 and ready["retry_after"]
    assert json.loads(ready["body"])["database"].startswith("unreachable")
    # one short line per request, none a traceback (before: ~5 KB each)
    assert len(lines) == len(answers), "\n".join(lines)
    assert all(len(line) < 400 and "Traceback" not in line for line in lines), max(lines, key=len)
    assert sum("database unreachable" in line for line in lines) == len(answers) - 1  # all but healthz
    assert TOKEN[:5] not in "\n".join(lines)  # the redaction holds on these lines too
    assert all(" web[" in line or " outage_child[" in line for line in lines)


def test_during_an_outage_two_processes_send_one_mail_between_them(tmp_path):
    """Before, a 10 s outage sent 377 mails. The limit is counted in the cache every process shares
    (files in var/ here, Redis with DJANGO_CACHE_URL), not in one process's memory."""
    env = database_down_env(tmp_path)
    shared = tmp_path / "shared-var"
    requests = [{"path": "/api/tournaments/", "repeat": 10}, {"path": "/", "repeat": 5}]
    for name in ("web-1", "web-2"):
        answers, _, _ = run_child(tmp_path, env, requests, name=name, var_dir=shared)
        assert {a["status"] for a in answers} == {503}
    sent = mails(tmp_path)
    assert len(sent) == 1, [m["Subject"] for m in sent]
    assert "database unreachable" in sent[0]["Subject"]


@pytest.mark.services
@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs DATABASE_URL on PostgreSQL: another process reads the test's round")
def test_with_the_broker_down_for_real_the_print_request_answers_503_at_once(transactional_db, tmp_path):
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import connection

    from printing import jobs as printing
    from printing.models import PrintJob
    from tests.scoring.documents import make_document, store_round
    from tests.printing.test_print_worker import database_url
    from tournaments.models import Round, Tournament

    organizer = get_user_model().objects.create_user("org-sem-fila", password="x")
    tournament = Tournament.objects.create(name="Copa Sem Fila", slug="copa-sem-fila",
                                           date=datetime.date(2026, 11, 21), organizer=organizer)
    round_ = Round.objects.create(tournament=tournament, number=1)
    store_round(round_, [make_document(7, match_id=1, table=1, best_of=1, style="typical", corrections=0)])
    env = {"DATABASE_URL": database_url(connection.settings_dict), "DATABASE_CONN_MAX_AGE": "0",
           "CELERY_BROKER_URL": f"redis://127.0.0.1:{closed_port()}/8"}
    answers, lines, _ = run_child(tmp_path, env, [
        {"method": "POST", "path": f"/sumulas/impressao/rodada/{round_.pk}/", "data": {"kind": "blank"}},
        {"path": "/readyz"},
    ], login="org-sem-fila")
    printed, ready = answers
    assert printed["status"] == 503, printed  # before: 500
    assert printed["content_type"].startswith("text/html") and printed["retry_after"]
    [job] = PrintJob.objects.filter(round=round_)
    assert job.status == "failed" and job.error == printing.broker_unreachable_reason() and not job.task_id
    assert ready["status"] == 503 and json.loads(ready["body"])["broker"].startswith("unreachable")
    assert json.loads(ready["body"])["database"] == "ok"
    assert not any("Traceback" in line for line in lines), lines


@pytest.mark.services
@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs DATABASE_URL on PostgreSQL: a real session ended by the server")
def test_once_postgresql_is_back_a_connection_it_ended_costs_no_503(db, tmp_path):
    """A PostgreSQL stop or restart ends every open session (``pg_terminate_backend`` here: the same
    "terminating connection due to administrator command"). Each web thread keeps its connection
    (``DATABASE_CONN_MAX_AGE``, 60 s), so before this test the first request of each thread after the
    outage answered a false 503 (up to WEB_WORKERS x WEB_THREADS of them, hands of tables among them) and
    ``/readyz`` said "unreachable" with the database up. Django's health check of a reused connection
    (``CONN_HEALTH_CHECKS``) reconnects instead."""
    from django.db import connection

    from tests.printing.test_print_worker import database_url

    env = {"DATABASE_URL": database_url(connection.settings_dict), "DATABASE_CONN_MAX_AGE": "60"}
    answers, lines, _ = run_child(tmp_path, env, [
        {"path": "/api/tournaments/"},
        {"terminate": True},
        {"path": "/api/tournaments/"},
        {"terminate": True},
        {"path": "/readyz"},
        {"path": "/api/tournaments/"},
    ])
    assert [a["status"] for a in answers] == [200, 200, 200, 200], "\n".join(lines)
    assert not any("unreachable" in line for line in lines), lines
