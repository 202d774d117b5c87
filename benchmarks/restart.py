"""How long a restart of ``scripts/serve`` takes to its first answered request.

Run: ``.venv/bin/python benchmarks/restart.py [--port 8300] [--roles web,worker,beat] [--no-baseline]``.
Uses ``DATABASE_URL`` if set (PostgreSQL: the README's production path), else SQLite in a temporary
``var/``; the broker is ``CELERY_BROKER_URL`` if set, else ``filesystem://`` in that ``var/``. The site
listens on 127.0.0.1 only. Each run: start ``scripts/serve`` (bootstrap skipped, as after an install),
poll ``/healthz`` every 50 ms until it answers 200, then (``--settle`` seconds later) SIGTERM and wait
for it to exit: ``stop_seconds`` is that wait.

1. ``first_start``: an empty ``STATIC_ROOT``: migrations and collectstatic, as on a new install;
2. ``restart`` (``--restarts`` times, the median is printed): nothing changed, the stamp skips
   collectstatic (the target: < 10 s on this machine);
3. the baseline in the same run, ``restart_collecting_every_time``: the stamp removed before each
   start, as scripts/serve did before the stamp (collectstatic on every start).

Prints ``name: value`` lines: the seconds of each, ``serve_exit_status_on_sigterm`` (0: what a
systemd unit calls a clean stop) and ``load_average`` at the start (the machine is shared: a wall
time says as much about the others' load as about this code).

Measured 2026-11-26 17:47-17:55 UTC on the shared 2-core machine (load average 14.4 to 15.0, other
engineers' suites running; SQLite, web+worker+beat, defaults): ``first_start_seconds: 188.2``,
``restart_seconds: 8.8`` (max 10.2), ``restart_collecting_every_time_seconds: 192.5``,
``serve_exit_status_on_sigterm: 0``. The README's "Restart and load figures" has them beside the figures first reported.
Again 2026-11-27 01:36 UTC on a quiet machine (load 0.8, ``--restarts 5 --no-baseline``):
``first_start_seconds: 20.9``, ``restart_seconds: 5.1`` (max 5.2), ``serve_exit_status_on_sigterm: 0``.
2026-11-29 10:05 UTC (load 6.2 to 9.1, PostgreSQL and Redis, ``WEB_WORKERS=5``): ``restart_seconds: 5.9``
(max 9.4), ``stop_seconds: 1.7`` (max 3.3); the README's "Restart and load figures" has the others.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


STOPS: list[float] = []


def start_and_time(env: dict, port: int, log: Path, settle: float = 0) -> tuple[float, int]:
    """Seconds from the start of scripts/serve to its first 200 on /healthz; its exit status after SIGTERM,
    sent ``settle`` seconds later (the worker and beat up by then); the stop's seconds go to ``STOPS``."""
    started = time.monotonic()
    with open(log, "ab") as out:
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if serve.poll() is not None:
                sys.exit(f"scripts/serve exited ({serve.returncode}); its log: {log}")
            if time.monotonic() - started > 900:
                sys.exit(f"no answer within 900 s; log: {log}")
            time.sleep(0.05)
        seconds = time.monotonic() - started
        time.sleep(settle)
    finally:
        stopping = time.monotonic()
        if serve.poll() is None:
            serve.send_signal(signal.SIGTERM)
        try:
            status = serve.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            status = serve.wait()
        STOPS.append(time.monotonic() - stopping)
    return seconds, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8300)
    parser.add_argument("--roles", default="web,worker,beat")
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true", help="skip the restarts collecting every time")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the first answer and SIGTERM (a stop from a running site)")
    args = parser.parse_args()

    var = Path(tempfile.mkdtemp(prefix="truco-restart-"))
    env = {
        **os.environ,
        "TRUCO_VAR_DIR": str(var), "TRUCO_SKIP_BOOTSTRAP": "1", "SERVE_ROLES": args.roles,
        "BIND": f"127.0.0.1:{args.port}", "WEB_WORKERS": os.environ.get("WEB_WORKERS", "2"),
        "CELERY_CONCURRENCY": os.environ.get("CELERY_CONCURRENCY", "1"),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_HTTPS": "false", "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "restart-benchmark-" + "x" * 40, "DJANGO_LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL") or "filesystem://",
    }
    log = var / "serve.log"
    print(f"load_average: {os.getloadavg()[0]:.1f}")
    print(f"database: {'postgresql' if 'postgres' in os.environ.get('DATABASE_URL', '') else 'sqlite'}")
    first, status = start_and_time(env, args.port, log)
    print(f"first_start_seconds: {first:.1f}")
    statuses = [status]
    restarts = []
    STOPS.clear()
    for _ in range(args.restarts):
        seconds, status = start_and_time(env, args.port, log, settle=args.settle)
        restarts.append(seconds)
        statuses.append(status)
    print(f"restart_seconds: {statistics.median(restarts):.1f}")
    print(f"restart_seconds_max: {max(restarts):.1f}")
    print(f"stop_seconds: {statistics.median(STOPS):.1f}")  # SIGTERM to the exit of scripts/serve
    print(f"stop_seconds_max: {max(STOPS):.1f}")
    if not args.no_baseline:
        static_root = Path(os.environ.get("DJANGO_STATIC_ROOT", var / "static"))
        (static_root / ".collected").unlink(missing_ok=True)
        seconds, status = start_and_time(env, args.port, log)
        statuses.append(status)
        (static_root / ".collected").unlink(missing_ok=True)
        print(f"restart_collecting_every_time_seconds: {seconds:.1f}")
    print(f"serve_exit_status_on_sigterm: {max(statuses, key=abs)}")
    print(f"load_average_end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
