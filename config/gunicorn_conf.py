"""gunicorn's settings for the site, in one place: ``scripts/serve`` (hence compose.yaml) and
``benchmarks/table_load.py`` start gunicorn with ``--config config/gunicorn_conf.py``, so that
what is measured is what runs. Each setting reads the environment variable of ``scripts/serve``.

- ``preload_app``: the master imports Django, the URLconf with every view, the templates' engine
  and the translations once (``config.wsgi.warm_up``) and the workers fork from it warm. Without
  it each worker paid ~0.3-0.6 s on its first request (the tail of
  ``benchmarks/table_load.py``: with 8 workers, 8 of the first few hundred entries). A
  new release needs a restart (not ``HUP``), as with any preloaded app.
- ``workers`` x ``threads`` (gthread): 2 x cores + 1 processes of 4 threads. Threads let a
  process go on while another request waits for PostgreSQL (a durable commit) and keep idle
  phone connections alive cheaply; on PostgreSQL each process's threads share a bounded pool
  (config/database.py: at most ``WEB_THREADS`` connections a process, one kept when idle).
- ``control_socket`` (gunicorn 25.1+, ``gunicornc -s <path>``): the host's own, ``var/gunicorn.ctl``
  (``TRUCO_VAR_DIR``), not gunicorn's default ``~/.gunicorn/gunicorn.ctl``, which every master of the
  same user claims: a second host on the machine took the first one's socket, and removed it when it
  stopped. ``WEB_CONTROL_SOCKET`` names another path. A path longer than a Unix socket's address
  allows (107 bytes) turns the socket off (gunicornc is optional) instead of a warning at each start.
- ``logconfig_dict``: gunicorn's own lines (boot, workers, timeouts) in the site's one format, from
  ``config.logs.logging_config`` like Django's and Celery's, process name ``web``.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:  # gunicorn reads this file before it adds its directory to the path
    sys.path.insert(0, _ROOT)
os.environ.setdefault("TRUCO_PROCESS_NAME", "web")

from config.logs import logging_config  # noqa: E402

_cores = os.cpu_count() or 2

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_WORKERS") or 2 * _cores + 1)
threads = int(os.environ.get("WEB_THREADS") or 4)
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("WEB_TIMEOUT") or 60)
graceful_timeout = 30
preload_app = os.environ.get("WEB_PRELOAD", "1").strip().lower() not in {"0", "false", "no", "off"}
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
#: a Unix socket's path holds at most 107 bytes (sun_path)
_SOCKET_PATH_MAX = 107
control_socket = os.environ.get("WEB_CONTROL_SOCKET") or str(
    Path(os.environ.get("TRUCO_VAR_DIR", Path(_ROOT) / "var")).resolve() / "gunicorn.ctl")
control_socket_disable = len(control_socket.encode()) > _SOCKET_PATH_MAX
errorlog = "-"
logconfig_dict = logging_config()


def worker_exit(server, worker):
    """A worker that finished its requests (a stop, a restart, ``max_requests``) ends at once: its
    connections closed (the pool's too), its log lines flushed, then ``os._exit``. Python's own
    finalization of a process holding the preloaded site (every module, the templates, the fonts) took
    1.5-2.5 s of CPU a worker on a loaded 2-core machine, five workers at once: most of a stop's time.
    Any other ending (a worker that failed to boot: its status tells the master to stop) goes on as usual."""
    import logging

    ending = sys.exc_info()[1]
    if not (isinstance(ending, SystemExit) and ending.code in (0, None)):
        return

    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        close_pool = getattr(connection, "close_pool", None)  # PostgreSQL with OPTIONS["pool"]
        if close_pool is not None:
            close_pool()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
