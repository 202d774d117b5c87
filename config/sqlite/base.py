"""The embedded default's database backend: Django's SQLite backend, with write turns that no waiter
loses for ever and WAL checkpoints off the request path.

Every transaction on the embedded SQLite is ``BEGIN IMMEDIATE`` (config/settings.py): it takes the
database's one write lock at once, so that the services' read-then-write never has to upgrade a read
lock (which fails at once). The turn is the whole transaction: two tables' entries never interleave.

- **The wait for a turn.** SQLite's own busy handler retries after 1, 2, 5, 10, ... then every 100 ms:
  a writer that has waited a while sleeps 100 ms between tries while a newcomer retries after 1 ms and
  takes the lock first. At 20 tables flat out some entries waited seconds behind hundreds of later
  ones (p99 5.2 s, max 12.8 s). Here each connection first takes its turn on a lock file
  beside the database (``<db>-writers``, an ``flock`` per connection), trying every millisecond like
  every other waiter (no backoff: the longest waiter is as likely as a newcomer to get the next turn),
  within the same ``SQLITE_TIMEOUT``; only the holder then issues
  ``BEGIN IMMEDIATE``, which finds the database free. The turn is given back at ``COMMIT`` or
  ``ROLLBACK`` (before the on-commit hooks run), or when the connection closes; a process that dies
  gives it back with its file descriptors.
- **Checkpoints.** In WAL mode SQLite copies the log back into the database every 1,000 pages, inside
  the ``COMMIT`` of whichever request crossed the mark, holding its turn (and fsyncing). Here
  ``wal_autocheckpoint`` is 0 and a thread (started with each process's first connection; the one of
  them holding ``<db>-checkpointer`` works, the others stand by) runs a ``PASSIVE`` checkpoint every
  2 s on a connection of its own: it blocks neither writers nor readers.

JSON's support is declared, not probed with a query on each connection's first JSON function.
In-memory databases (the test suite's) are otherwise left as Django's backend has them.
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base, features

CHECKPOINT_EVERY = 2.0  # seconds
_checkpointers: dict[str, int] = {}  # database file -> the pid whose thread checkpoints it
_checkpointers_lock = threading.Lock()


def _on_disk(name) -> bool:
    name = str(name)
    return bool(name) and name != ":memory:" and "mode=memory" not in name


def _checkpoint_forever(path: str) -> None:
    # one checkpointer per database among the processes (web, worker): the one holding this lock file
    elected = open(f"{path}-checkpointer", "a+b")  # noqa: SIM115 - kept for the life of the process
    while True:
        time.sleep(CHECKPOINT_EVERY)
        try:
            fcntl.flock(elected, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # another process checkpoints; this one takes over if that one stops
        try:
            connection = sqlite3.connect(path, timeout=0)
            try:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                connection.close()
        except sqlite3.Error:  # busy, or the file went away (a test's temporary folder): next time
            pass


def _start_checkpointer(path: str) -> None:
    with _checkpointers_lock:
        if _checkpointers.get(path) == os.getpid():
            return
        _checkpointers[path] = os.getpid()  # after a fork the child starts its own
    threading.Thread(target=_checkpoint_forever, args=(path,), name="sqlite-checkpoint", daemon=True).start()


class DatabaseFeatures(features.DatabaseFeatures):
    # JSON is built into SQLite (3.38+; the models' JSONFields need it): known without the query Django
    # runs on each connection's first use of a JSON function (public.freshness reads JSON objects)
    supports_json_field = True


class DatabaseWrapper(base.DatabaseWrapper):
    features_class = DatabaseFeatures
    turn_file = None
    holding_turn = False

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        name = self.settings_dict["NAME"]
        if _on_disk(name):
            connection.execute("PRAGMA wal_autocheckpoint=0")
            self.turn_file = open(f"{name}-writers", "a+b")  # noqa: SIM115 - closed with the connection
            _start_checkpointer(str(name))
        return connection

    def take_turn(self) -> None:
        """Wait for this connection's turn to write, trying every millisecond (as every waiter does)."""
        if self.turn_file is None or self.holding_turn:
            return
        # Polled at one pace by every waiter rather than a blocking flock: measured at 20 tables flat out,
        # the blocking wait (every waiter woken at each release) had the longer tail (p99 762 ms, 193 here).
        deadline = time.monotonic() + float(self.settings_dict.get("OPTIONS", {}).get("timeout", 30))
        while True:
            try:
                fcntl.flock(self.turn_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:  # as SQLite's own busy timeout says it (config.outage: a 503)
                    error = base.Database.OperationalError("database is locked (no write turn within the timeout)")
                    raise OperationalError(str(error)) from error
                time.sleep(0.001)
        self.holding_turn = True

    def give_turn_back(self) -> None:
        if self.holding_turn:
            self.holding_turn = False
            fcntl.flock(self.turn_file, fcntl.LOCK_UN)

    def set_autocommit(self, autocommit, force_begin_transaction_with_broken_autocommit=False):
        if not autocommit:
            self.ensure_connection()
            self.take_turn()
        try:
            super().set_autocommit(autocommit, force_begin_transaction_with_broken_autocommit)
        except BaseException:
            self.give_turn_back()
            raise
        if autocommit:
            self.give_turn_back()

    def commit(self):
        try:
            super().commit()
        finally:
            self.give_turn_back()

    def rollback(self):
        try:
            super().rollback()
        finally:
            self.give_turn_back()

    def close(self):
        try:
            super().close()
        finally:
            self.give_turn_back()
            if self.turn_file is not None and self.connection is None:
                self.turn_file.close()
                self.turn_file = None
