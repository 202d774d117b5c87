"""A site process that meets a service down: run by ``tests/ops/test_outage.py`` and
``benchmarks/outage.py`` as ``python tests/ops/outage_child.py SPEC.json`` with the working directory
at a checkout and the environment naming the services (a database or a broker on a closed port).

Django is set up as a web process would be (``settings.LOGGING`` on its standard output, which the
parent reads: the lines logged); each request of the spec goes through Django's test client (no
exception re-raised: the answers a phone would get), with the connections looked after around it as
Django's WSGI handler does (``close_old_connections`` at a request's start and end: the test client
leaves that out), so a persistent connection (``DATABASE_CONN_MAX_AGE``) lives as in gunicorn. The answers are written to the spec's
``result`` file as JSON: status, content type, ``Retry-After``, ``X-Request-ID``, the body's start.

Spec: ``{"result": path, "login": username or null, "requests": [{"method": "GET", "path": "/",
"headers": {...}, "data": {...}, "json": bool, "repeat": 1}]}``. An item ``{"terminate": true}``
instead ends this process's PostgreSQL session from another one (``pg_terminate_backend``: what a
stop or restart of PostgreSQL does to every open connection) and answers nothing.
"""
from __future__ import annotations

import json
import os
import sys


def main(spec_path: str) -> None:
    spec = json.loads(open(spec_path, encoding="utf-8").read())
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    if os.environ.get("EMAIL_FILE_PATH"):  # mail to files, for the parent to count
        settings.EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]

    from django.db import close_old_connections, connection

    client = Client(raise_request_exception=False)
    if spec.get("login"):
        from django.contrib.auth import get_user_model

        client.force_login(get_user_model().objects.get(username=spec["login"]))
    answers = []
    for item in spec["requests"]:
        if item.get("terminate"):
            terminate_own_session(connection)
            continue
        for _ in range(item.get("repeat", 1)):
            close_old_connections()  # request_started, as in the WSGI handler
            kwargs = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in item.get("headers", {}).items()}
            data = item.get("data")
            if item.get("json"):
                kwargs["content_type"] = "application/json"
                data = json.dumps(data)
            response = getattr(client, item.get("method", "GET").lower())(item["path"], data, **kwargs)
            body = b"".join(response) if response.streaming else response.content
            close_old_connections()  # request_finished
            answers.append({
                "path": item["path"], "status": response.status_code,
                "content_type": response.get("Content-Type", ""), "retry_after": response.get("Retry-After"),
                "request_id": response.get("X-Request-ID"), "body": body[:600].decode("utf-8", "replace"),
            })
    with open(spec["result"], "w", encoding="utf-8") as handle:
        json.dump(answers, handle)


def terminate_own_session(connection) -> None:
    """End this process's open PostgreSQL session from another session, as a PostgreSQL stop does."""
    import psycopg

    if connection.connection is None:  # none open (an error closed it at the last request's end)
        return
    pid = connection.connection.info.backend_pid
    db = connection.settings_dict
    params = {"dbname": db["NAME"], "user": db.get("USER") or None, "password": db.get("PASSWORD") or None,
              "host": db.get("HOST") or None, "port": db.get("PORT") or None}
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


if __name__ == "__main__":
    main(sys.argv[1])
