"""N tables entering their súmulas through their table links, on PostgreSQL behind gunicorn (issue 10).

Run: ``DATABASE_URL=postgres://… .venv/bin/python benchmarks/table_load.py [--tables 200] [--port 8130]``,
or ``--sqlite`` for the embedded default (issue 22 §9: ``--sqlite --tables 20 --clients 20 --pace-seconds
10``; ``table_flat_p50_ms``/``_p99_ms``/``_max_ms`` are every entry's latency flat out). Measured
2026-11-26 18:15-18:30 UTC, shared machine at load 15-21, before/after config/sqlite alternating: 20
tables flat-out p99 1153 / 632 ms before, 200 / 268 / 377 ms after (max 2679 / 659 against 200 / 418 /
422 ms); 60 tables p99 1325 against 414 ms (max 2055 against 581 ms); nothing lost or doubled. The
README's "Restart and load figures" has the table.
Needs PostgreSQL (``DATABASE_URL``; the script migrates it and leaves a tournament "bench-…" there)
and gunicorn. The server listens on 127.0.0.1 only, for a bounded time, with the production settings
(``config/gunicorn_conf.py``, as ``scripts/serve``: preloaded and warmed-up app, 2 x cores + 1
processes of 4 threads; ``--workers``/``--threads`` override them).

The tables (one thread each) enter hands through ``Authorization: Table <token>`` with an
``Idempotency-Key`` per hand and the position they expect; 5 % of the hands are re-sent with the
same key (the reply "was lost"). A warm-up (``--warmup-seconds`` flat out, not measured: a real
server has served and connected already), two phases, then the trivial view on the same server:

- realistic pace: a hand per table every 30 to 90 s, compressed ``--compress`` times
  (default 6: every 5 to 15 s, ~20 hands/s offered by 200 tables) for ``--pace-seconds``;
- flat out: every table sends its next hand as soon as the last one is answered, for
  ``--flat-seconds``;
- the trivial view (``/mesa/sw.js``: a template, no database) flat out by as many clients.

Prints ``name: value`` lines:

- ``table_hands_lost``: hands answered 201 that are not in the database (target 0);
- ``table_hands_doubled``: hands in the database beyond the distinct keys answered (target 0);
- ``table_entry_p50_ms``, ``table_entry_p99_ms``: latency at the realistic pace (target p99 < 100);
- ``table_entry_capacity_hands_per_s``: flat out;
- ``trivial_view_per_s``: the same server, the same clients, a trivial view;
- ``table_capacity_ratio``: capacity / trivial (target ≥ 0.2);
- ``table_entry_server_cpu_ms``, ``trivial_view_server_cpu_ms`` (gunicorn's processes and this
  database's PostgreSQL backends; ``table_entry_database_cpu_ms``: the backends' part) and the
  ``..._client_cpu_ms`` (this process) per request, flat out,
  read from /proc, and ``table_cpu_ratio``: what a request costs, much less sensitive than the
  rates to what else the machine runs.

Measured 2026-11-25 on the shared 2-core machine (other engineers' suites and benchmarks running:
the rates say as much about them as about this code), 200 tables, defaults, the code before this
work (8 sync workers, no preload, no warm-up) and after it alternating within minutes:

- 18:49-18:54 UTC, load average 8 to 13: before p50 11.9 / 23.8 ms, p99 397 / 221 ms, capacity
  85.6 / 77.6 hands/s, trivial 494 / 283 /s (ratio 0.17 / 0.27: the trivial view starved by the
  load); after p50 7.7 / 10.6 ms, **p99 24.5 / 63.7 ms**, capacity 129.1 / 112.6 hands/s (+50 %),
  trivial 900 / 682 /s, **ratio 0.14 / 0.17**; server CPU per entry 8.7 / 8.8 ms (client 0.5),
  per trivial view 0.7 / 0.6 ms (client 0.25): table_cpu_ratio 0.10 / 0.09;
- 18:13-18:25 UTC, load average 13 to 24: the old query path under the new server settings cost
  14.9 / 12.1 ms of server CPU per entry, the new one 10.3 / 10.0 ms;
- lost 0 and doubled 0 in every run (5 % of the entries re-sent with their key, each replayed).

Where the time went, found in-process (Django's test client on PostgreSQL, 200 tables, CPU time
per entry, load-insensitive proportions): 7.1 to 7.7 ms of Python per entry before (10.5 ms with the
per-step timers), 4.4 to 5.5 ms after; PostgreSQL's backend 2.3 to 2.6 ms both (0.5 ms of it the
durable commit); the trivial view 0.5 to 0.75 ms. The tail at the realistic pace was the cold start:
each gunicorn worker imported the URLconf (every view and serializer, ~0.3 s), built the templates'
engine and its translations on its first request (0.3-0.6 s measured here; with 8 workers, 8 of the
~400 paced entries: which matches the p99 of 637 ms the lead measured on a quiet machine). The app
is now imported and warmed up once before the workers fork (``config/wsgi.py``, ``preload_app``).
Of the Python cost, most was the ORM compiling the same statements on every entry: the link's
lookup sorted by the model's ordering through the match's (2.5-3 ms in a request), the match locked
(~1 ms), the current game (~0.6 ms), the hand's and the event's INSERTs (~1 and ~0.6 ms); they are
compiled once per connection then (``config/compiled_sql.py``, since removed) and the idempotency answer is stored
by a plain UPDATE. Still one commit and eight statements (tests/scoring/test_table_links.py). Left:
the game's UPDATE through the ORM (~0.5 ms), the middleware and DRF (~1.5 ms, paid by every request
alike), PostgreSQL's own work.

Re-measured on a QUIET 2-core machine (nothing else running; load average 2 to 5 at the start,
the benchmark's own server, PostgreSQL and client then load it), 200 tables, defaults, 2026-11-25
19:05-19:09 UTC. Before this work (same machine, 17:40): p50 9.5 ms, p99 637.5 ms, capacity 188.5
hands/s, trivial 1356 /s, ratio 0.14. After, three runs: p99 17.9 / 22.6 ms (p50 9.5 / 9.8 ms):
**the p99 target (< 100 ms) is met**; capacity 200.4 / 217.3 / 200.3 hands/s against a trivial view
at 1035 / 1201 / 1024 /s: **ratio 0.19 / 0.18 / 0.20, at the edge of the target (≥ 0.2)**; server
CPU per entry 8.4 to 9.2 ms (gunicorn and PostgreSQL) against 0.54 to 0.69 ms for the trivial view.
Lost 0, doubled 0. An entry is BEGIN, eight statements, COMMIT (the link, the idempotency claim,
the match lock, the current game, the hand, the event, the game's score, the stored answer); what
is left of its cost is Django's request/response and DRF (~2 ms of Python, as for any API call) and
PostgreSQL. Server-side binding (psycopg prepared statements) was tried and gave no measurable gain.

The hot path (``scoring/hot_entry.py``, 2026-11-26, since removed): a table's plain next hand on PostgreSQL is
answered before DRF in BEGIN, three statements, COMMIT (the link with its match locked, the current
game, one ``WITH`` that claims the key and writes hand, event, score and answer). In-process
(Django's WSGI handler on PostgreSQL, 200 tables, three rounds of entries, game ends included): 7.5
to 8.2 ms of Python and ~3 ms of PostgreSQL backend per entry before, 4.3 to 5.0 ms and 2.4 to 2.9
ms after (the trivial view: 0.61 ms). On a quiet 2-core machine (a slower one than above: the
trivial view serves 480 to 800 /s here against 1000 to 1350 there), 200 tables, defaults, lost 0
and doubled 0 in every run:

- before, 01:21-01:26 UTC, three runs: ratio **0.24 / 0.17 / 0.16**, capacity 146.5 / 103.6 /
  128.4 hands/s, server CPU per entry 12.5 / 17.7 / 14.2 ms;
- after, 01:40-02:05 UTC, seven runs: ratio **0.25 / 0.23 / 0.30 / 0.24 / 0.28 / 0.29 / 0.25**
  (the target ≥ 0.2 is met in every run), capacity 135.6 to 176.6 hands/s against a trivial
  view at 481 to 728 /s, p99 17.6 to 23.6 ms, server CPU per entry 10.1 to 13.2 ms, of which
  PostgreSQL 3.0 to 3.3 ms (``table_entry_database_cpu_ms``); inside the app (thread CPU time
  around the WSGI call, one run) 5.6 ms, the rest is gunicorn's handling of the request and its
  threads' switches. Fewer threads and more processes (9 x 2, 12 x 1) did no better than 5 x 4.

One write path (issue 19 §1, 2026-11-26): the hot path and ``config/compiled_sql.py`` are gone; every
hand goes through the API view and ``hand_entry.record_hand``, whose statements are plain SQL written
once (``scoring/entry_sql.py``, ``scoring/plain_sql.py``, Django's public API only). A table's plain
next hand is BEGIN, three statements, COMMIT on PostgreSQL: the link's read locks the match in the
entry's transaction, the current game, one ``WITH`` writing the hand, its event, the score and the key
claimed with its answer (``INSERT … ON CONFLICT``). The runs below were of the step before, with the
key's claim a fourth statement after the ``WITH``. Side by side on this session's machine (faster than the one above:
the trivial view serves ~1,400 /s), quiet but for the benchmark itself, 200 tables, defaults,
alternating, the one path (main) against the two paths (7e774fe):

- one path, 15:53 and 15:55 UTC: ratio **0.22 / 0.23**, capacity 305.5 / 325.4 hands/s (trivial
  1395 / 1428 /s), p99 **12.4 / 12.8 ms**, server CPU per entry 5.93 / 5.53 ms (PostgreSQL 1.69 /
  1.62), lost 0, doubled 0;
- two paths, 15:54 and 15:56 UTC: ratio 0.24 / 0.24, capacity 347.3 / 344.6 hands/s (trivial 1447 /
  1423 /s), p99 9.3 / 12.5 ms, server CPU per entry 5.18 / 5.18 ms (PostgreSQL 1.78 / 1.81);
- what the one path costs: +0.35 to +0.75 ms of server CPU per entry (+7 to +14 %, DRF's request,
  authentication classes, serializer and response, which the hot path skipped), 6 to 12 % less
  capacity; the targets (p99 < 100 ms, ratio ≥ 0.2, nothing lost or doubled) hold. In-process
  (Django's test client, CPU per entry, a loaded machine): 3.1 against 2.0 ms with four statements,
  2.5 against 2.2 ms once the key's claim was folded into the ``WITH`` (three statements, as now);
- three statements (main at 4ad0ee2, with issue 21's keyed idempotency digest), 17:02 UTC, against the
  two paths at 17:03: ratio **0.25** against 0.25, capacity 321.1 against 343.5 hands/s (trivial 1260
  / 1381 /s), p99 **12.0** against 9.6 ms, server CPU per entry 5.55 against 5.22 ms (+0.33 ms, +6 %;
  PostgreSQL 1.63 against 1.75), lost 0, doubled 0.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def make_tables(n: int) -> list[tuple[int, str]]:
    """A tournament with ``n`` matches (best of 5, so that tables keep entering), their links."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scoring import services, table_links
    from tournaments.models import Pair, Player, Tournament

    call_command("migrate", verbosity=0)
    org = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}")
    t = Tournament.objects.create(name="Bench", slug=f"bench-{uuid.uuid4().hex[:10]}", organizer=org,
                                  date=datetime.date.today(), best_of=5)
    players = Player.objects.bulk_create([Player(name=f"B{i}") for i in range(4 * n)])
    pairs = Pair.objects.bulk_create([Pair(tournament=t, name=f"Dupla {i}", first_player=players[2 * i],
                                           second_player=players[2 * i + 1]) for i in range(2 * n)])
    matches = [services.create_match(pair_a=pairs[2 * i], pair_b=pairs[2 * i + 1], tournament=t, table=i + 1, by=org)
               for i in range(n)]
    links = table_links.ensure_links(matches)
    return [(m.pk, links[m.pk].token) for m in matches]


class Table:
    def __init__(self, match_id: int, token: str, port: int, rng: random.Random, resend: float) -> None:
        self.match_id, self.token, self.port, self.rng, self.resend = match_id, token, port, rng, resend
        self.position = (1, 1)
        self.value = 1
        self.acked: set[str] = set()
        self.over = False
        self.latencies: list[float] = []
        self.errors = 0

    def _post(self, body: bytes, key: str) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("POST", f"/api/scoring/matches/{self.match_id}/hands/", body=body,
                         headers={"Content-Type": "application/json", "Authorization": f"Table {self.token}",
                                  "Idempotency-Key": key})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            conn.close()

    def follow(self, state: dict) -> None:
        """The next position and the smallest value allowed (3 in the mão de onze: art. 18)."""
        self.position = (state["game"], state["hand"])
        self.value = state["allowed"]["tricks"][0]

    def hand(self) -> None:
        if self.over:
            return
        body = json.dumps({"winner": 0, "ended_by": "tricks", "value": self.value, "game": self.position[0],
                           "hand": self.position[1]}).encode()
        key = str(uuid.uuid4())
        start = time.perf_counter()
        try:
            status, data = self._post(body, key)
        except OSError:
            self.errors += 1
            return
        self.latencies.append(time.perf_counter() - start)
        if self.rng.random() < self.resend:  # the reply was lost: the phone sends the same entry again
            try:
                again, data2 = self._post(body, key)
                if again != status:
                    self.errors += 1
            except OSError:
                self.errors += 1
        if status == 201:
            self.acked.add(key)
            state = data["state"]
            if state["over"]:
                self.over = True
            else:
                self.follow(state)
        elif status == 409 and "state" in data and not data["state"].get("over"):
            self.follow(data["state"])
        else:
            self.errors += 1
            if status == 409:
                self.over = True


def run_pace(tables: list[Table], seconds: float, compress: float) -> None:
    stop = time.monotonic() + seconds

    def loop(table: Table) -> None:
        time.sleep(table.rng.uniform(0, 90 / compress))
        while time.monotonic() < stop and not table.over:
            table.hand()
            time.sleep(table.rng.uniform(30, 90) / compress)

    threads = [threading.Thread(target=loop, args=(t,)) for t in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def run_flat(tables: list[Table], seconds: float, clients: int) -> int:
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    count = [0]
    queue = list(tables)

    def loop(index: int) -> None:
        mine = queue[index::clients]
        while time.monotonic() < stop:
            active = [t for t in mine if not t.over]
            if not active:
                return
            for table in active:
                before = len(table.acked)
                table.hand()
                with lock:
                    count[0] += len(table.acked) - before
                if time.monotonic() >= stop:
                    return

    start = time.monotonic()
    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return count[0] / (time.monotonic() - start)


def run_trivial(port: int, seconds: float, clients: int) -> float:
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    count = [0]

    def loop() -> None:
        while time.monotonic() < stop:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request("GET", "/mesa/sw.js")
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    with lock:
                        count[0] += 1
            finally:
                conn.close()

    start = time.monotonic()
    threads = [threading.Thread(target=loop) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return count[0] / (time.monotonic() - start)


class CpuMeter:
    """CPU seconds used by the server (gunicorn's processes and this database's PostgreSQL backends) and
    by the client (this process), read from /proc: what a request costs, whatever else the machine runs."""

    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, server_group: int) -> None:
        self.server_group = server_group

    @classmethod
    def _stat(cls, pid: int) -> tuple[int, float] | None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return int(fields[2]), (int(fields[11]) + int(fields[12])) / cls.TICK  # process group, utime + stime

    def _backends(self) -> list[int]:
        from django.db import connection

        if connection.vendor != "postgresql":  # SQLite: the database's work is in gunicorn's processes
            return []
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            return [row[0] for row in cursor.fetchall()]

    def read(self) -> tuple[float, float, float]:
        """(server, client, database) CPU seconds so far: server = gunicorn + database (PostgreSQL's backends)."""
        web = database = 0.0
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                stat = self._stat(int(entry.name))
                if stat is not None and stat[0] == self.server_group:
                    web += stat[1]
        for pid in self._backends():
            stat = self._stat(pid)
            database += stat[1] if stat else 0.0
        times = os.times()
        return web + database, times.user + times.system, database


def wait_up(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/mesa/sw.js")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--port", type=int, default=8130)
    parser.add_argument("--workers", type=int, default=None, help="gunicorn processes (config/gunicorn_conf.py's default)")
    parser.add_argument("--threads", type=int, default=None, help="threads per process (config/gunicorn_conf.py's default)")
    parser.add_argument("--warmup-seconds", type=float, default=3.0, help="flat out, not measured")
    parser.add_argument("--compress", type=float, default=6.0)
    parser.add_argument("--pace-seconds", type=float, default=20.0)
    parser.add_argument("--flat-seconds", type=float, default=15.0)
    parser.add_argument("--clients", type=int, default=16, help="client threads flat out (entries and trivial)")
    parser.add_argument("--resend", type=float, default=0.05)
    parser.add_argument("--sqlite", action="store_true",
                        help="the embedded default: SQLite in a new var/ (TRUCO_VAR_DIR, else a temporary folder)")
    args = parser.parse_args()
    if args.sqlite:
        os.environ.pop("DATABASE_URL", None)
        if not os.environ.get("TRUCO_VAR_DIR"):
            import tempfile

            os.environ["TRUCO_VAR_DIR"] = tempfile.mkdtemp(prefix="truco-table-load-")
    elif not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to your own PostgreSQL database (or --sqlite)")
    setup_django()
    made = make_tables(args.tables)
    from django.db import connection

    connection.close()
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "bench-" + "x" * 50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_LOG_LEVEL": os.environ.get("DJANGO_LOG_LEVEL", "WARNING"),
           "BIND": f"127.0.0.1:{args.port}"}
    env.update({name: str(value) for name, value in (("WEB_WORKERS", args.workers), ("WEB_THREADS", args.threads))
                if value is not None})
    gunicorn = Path(sys.executable).with_name("gunicorn")
    # the production settings (scripts/serve): config/gunicorn_conf.py
    server = subprocess.Popen([str(gunicorn), "config.wsgi:application", "--config", "config/gunicorn_conf.py",
                               "--log-level", "warning"], cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_up(args.port)
        rng = random.Random(10)
        tables = [Table(pk, token, args.port, random.Random(rng.random()), args.resend) for pk, token in made]
        if args.warmup_seconds > 0:  # a real server is warm: its processes and threads have served and connected
            run_flat(tables, args.warmup_seconds, args.clients)
            for t in tables:
                t.latencies = []
        run_pace(tables, args.pace_seconds, args.compress)
        paced = sorted(x for t in tables for x in t.latencies)
        for t in tables:
            t.latencies = []
        meter = CpuMeter(server.pid)
        before, acked_before = meter.read(), sum(len(t.acked) for t in tables)
        capacity = run_flat(tables, args.flat_seconds, args.clients)
        middle, acked_flat = meter.read(), sum(len(t.acked) for t in tables) - acked_before
        flat = sorted(x for t in tables for x in t.latencies)
        trivial_seconds = min(args.flat_seconds, 10)
        trivial = run_trivial(args.port, trivial_seconds, args.clients)
        after = meter.read()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    from scoring.models import HandEntry

    acked = sum(len(t.acked) for t in tables)
    recorded = HandEntry.objects.filter(game__match_id__in=[pk for pk, _ in made]).count()
    p = (lambda q: 1000 * paced[min(len(paced) - 1, int(q * len(paced)))]) if paced else (lambda q: float("nan"))
    print(f"table_tables: {args.tables}")
    print(f"table_hands_acknowledged: {acked}")
    print(f"table_hands_lost: {max(0, acked - recorded)}")
    print(f"table_hands_doubled: {max(0, recorded - acked)}")
    print(f"table_entry_p50_ms: {p(0.50):.1f}")
    print(f"table_entry_p99_ms: {p(0.99):.1f}")
    print(f"table_entry_capacity_hands_per_s: {capacity:.1f}")
    if flat:  # every entry's latency flat out (issue 22 §9: the embedded default's tail)
        print(f"table_flat_p50_ms: {1000 * flat[len(flat) // 2]:.1f}")
        print(f"table_flat_p99_ms: {1000 * flat[min(len(flat) - 1, int(0.99 * len(flat)))]:.1f}")
        print(f"table_flat_max_ms: {1000 * flat[-1]:.1f}")
    print(f"trivial_view_per_s: {trivial:.1f}")
    print(f"table_capacity_ratio: {capacity / trivial if trivial else float('nan'):.2f}")
    print(f"table_client_errors: {sum(t.errors for t in tables)}")
    # what one request costs in CPU (load-insensitive, unlike the rates): server = gunicorn + PostgreSQL backends
    served = max(1, round(trivial * trivial_seconds))
    entry_server, entry_client, entry_db = ((middle[i] - before[i]) * 1000 / max(1, acked_flat) for i in (0, 1, 2))
    trivial_server, trivial_client = ((after[i] - middle[i]) * 1000 / served for i in (0, 1))
    print(f"table_entry_server_cpu_ms: {entry_server:.2f}")
    print(f"table_entry_database_cpu_ms: {entry_db:.2f}")  # of which PostgreSQL's backends
    print(f"table_entry_client_cpu_ms: {entry_client:.2f}")
    print(f"trivial_view_server_cpu_ms: {trivial_server:.2f}")
    print(f"trivial_view_client_cpu_ms: {trivial_client:.2f}")
    print(f"table_cpu_ratio: {(trivial_server + trivial_client) / (entry_server + entry_client):.2f}")


if __name__ == "__main__":
    main()
