"""The site's answers while PostgreSQL is down, measured beside a baseline checkout.

Run: ``.venv/bin/python benchmarks/outage.py [--baseline /path/to/older/checkout] [--processes 2]
[--rounds 20]``.

Each web process is ``tests/ops/outage_child.py`` (Django as a web process sets it up, its logs on
standard output) with ``DATABASE_URL`` naming PostgreSQL on a closed loopback port: connections are
refused by the OS, as when PostgreSQL is stopped. ``DJANGO_ADMINS`` is set, mail goes to files. The
processes share one ``var/`` (the error-mail limit's cache on the embedded default). Each round
sends what a venue sends: an API list, a table's hand entry through its link, the public home page,
a table page, ``/healthz`` and ``/readyz``. With ``--baseline`` the same runs with the older
checkout's code (its own ``.venv`` when it has one).

Prints ``name: value`` lines, per checkout (``after_…`` this one, ``before_…`` the baseline):
``*_api_status`` / ``*_api_content_type`` (the API's answers), ``*_page_status``,
``*_healthz_status``, ``*_readyz_status``, ``*_requests``, ``*_log_lines``, ``*_log_bytes``,
``*_log_bytes_per_request``, ``*_tracebacks``, ``*_mails`` (sent by all processes together).

Measured 2026-11-26 on the 2-core machine, 2 processes x 20 rounds (164 requests), baseline main at
ee4f37b: before, the API 500 ``text/html`` x80, pages 500 x80, ``/healthz`` 200, ``/readyz`` 404, 326
lines, 1,155,134 bytes (7,044 per request), 160 tracebacks, 160 mails; after, the API 503
``application/json`` x80, pages 503 ``text/html`` x80, ``/healthz`` 200, ``/readyz`` 503, 164 lines
(one per request), 45,766 bytes (279 per request), 0 tracebacks, 1 mail.
"""
from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.test_outage import TOKEN, database_down_env, mails, run_child  # noqa: E402


def requests(rounds: int) -> list[dict]:
    return [
        {"path": "/api/tournaments/", "repeat": rounds},
        {"method": "POST", "path": "/api/scoring/matches/1/hands/", "json": True, "data": {"after": 0},
         "headers": {"Authorization": f"Table {TOKEN}"}, "repeat": rounds},
        {"path": "/", "repeat": rounds},
        {"path": f"/mesa/{TOKEN}/", "repeat": rounds},
        {"path": "/healthz"},
        {"path": "/readyz"},
    ]


def measure(label: str, root: Path, processes: int, rounds: int) -> None:
    python = root / ".venv" / "bin" / "python"
    with tempfile.TemporaryDirectory(prefix="gfail-outage-") as tmp:
        tmp_path = Path(tmp)
        env = database_down_env(tmp_path)
        answers, lines = [], []
        for n in range(processes):
            got, logged, _ = run_child(tmp_path, env, requests(rounds), name=f"web-{n}", root=root,
                                       var_dir=tmp_path / "var", python=str(python) if python.exists() else None)
            answers += got
            lines += logged
        sent = mails(tmp_path)

    def summary(paths, key):
        counts = collections.Counter(str(a[key]).split(";")[0] for a in answers if a["path"] in paths)
        return ", ".join(f"{value} ({count})" for value, count in counts.most_common())

    api = ("/api/tournaments/", "/api/scoring/matches/1/hands/")
    pages = ("/", f"/mesa/{TOKEN}/")
    size = sum(len(line) + 1 for line in lines)
    print(f"{label}_api_status: {summary(api, 'status')}")
    print(f"{label}_api_content_type: {summary(api, 'content_type')}")
    print(f"{label}_page_status: {summary(pages, 'status')}")
    print(f"{label}_page_content_type: {summary(pages, 'content_type')}")
    print(f"{label}_healthz_status: {summary(('/healthz',), 'status')}")
    print(f"{label}_readyz_status: {summary(('/readyz',), 'status')}")
    print(f"{label}_requests: {len(answers)}")
    print(f"{label}_log_lines: {len(lines)}")
    print(f"{label}_log_bytes: {size}")
    print(f"{label}_log_bytes_per_request: {size / max(1, len(answers)):.0f}")
    print(f"{label}_tracebacks: {sum('Traceback' in line for line in lines)}")
    print(f"{label}_mails: {len(sent)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an older checkout to measure beside this one")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if args.baseline:
        measure("before", args.baseline.resolve(), args.processes, args.rounds)
    measure("after", ROOT, args.processes, args.rounds)


if __name__ == "__main__":
    main()
