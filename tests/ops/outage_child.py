"""A site process that meets a service down (issue 22 §5): run by ``tests/ops/test_outage.py`` and
``benchmarks/outage.py`` as ``python tests/ops/outage_child.py SPEC.json`` with the working directory
at a checkout and the environment naming the services (a database or a broker on a closed port).

Django is set up as a web process would be (``settings.LOGGING`` on its standard output, which the
parent reads: the lines logged); each request of the spec goes through Django's test client (no
exception re-raised: the answers a phone would get). The answers are written to the spec's
``result`` file as JSON: status, content type, ``Retry-After``, ``X-Request-ID``, the body's start.

Spec: ``{"result": path, "login": username or null, "requests": [{"method": "GET", "path": "/",
"headers": {...}, "data": {...}, "json": bool, "repeat": 1}]}``.
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

    client = Client(raise_request_exception=False)
    if spec.get("login"):
        from django.contrib.auth import get_user_model

        client.force_login(get_user_model().objects.get(username=spec["login"]))
    answers = []
    for item in spec["requests"]:
        for _ in range(item.get("repeat", 1)):
            kwargs = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in item.get("headers", {}).items()}
            data = item.get("data")
            if item.get("json"):
                kwargs["content_type"] = "application/json"
                data = json.dumps(data)
            response = getattr(client, item.get("method", "GET").lower())(item["path"], data, **kwargs)
            body = b"".join(response) if response.streaming else response.content
            answers.append({
                "path": item["path"], "status": response.status_code,
                "content_type": response.get("Content-Type", ""), "retry_after": response.get("Retry-After"),
                "request_id": response.get("X-Request-ID"), "body": body[:600].decode("utf-8", "replace"),
            })
    with open(spec["result"], "w", encoding="utf-8") as handle:
        json.dump(answers, handle)


if __name__ == "__main__":
    main(sys.argv[1])
