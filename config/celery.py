"""The Celery application: eager when no broker is configured (see settings).

Logging: Celery keeps the site's configuration (``settings.LOGGING``, ``config.logs``): one format
for web, worker and beat lines, at the level given with ``-l``; a task's lines carry
its name and id where a request's carry the request.

- The site's configuration is in force from the worker's first step (``celeryd_init``, before Celery's
  check of the account it runs as warns) and again when Celery would set up its own
  (``setup_logging``: connected, Celery installs no handler nor format); Python's warnings go through it
  (``logging.captureWarnings``: logger ``py.warnings``) instead of raw to standard error.
- Celery's banners (the worker's ASCII art, beat's "Configuration ->") are printed outside logging:
  ``scripts/serve`` starts both with ``--quiet``, and what they said is one line here
  (:func:`_worker_said_what_it_runs`, :func:`_beat_said_what_it_runs`).

Stopping: a ``celery worker`` program ends with ``os._exit`` once it has stopped (:func:`_end_at_once`), as
gunicorn's workers do. Measured on the embedded default's worker (``--pool solo -B``, filesystem broker, a
2-core machine at load 8): SIGTERM to exit 3.0-3.9 s, instead of 5.5-6.2 s. The rest is Celery's: its
loop on a polling broker (``synloop``) notices the stop only after draining the broker once more, 2 s
twice at most, whatever the broker's ``polling_interval`` (0.1 s measured no faster than the default 1 s).
"""
import logging
import logging.config
import os
import sys

from celery import Celery, bootsteps, signals

from config.logs import process_name

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("truco")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger("truco.celery")


def _configure(level=None) -> None:
    from config.logs import logging_config

    level = logging.getLevelName(level) if isinstance(level, int) else (level or None)
    logging.config.dictConfig(logging_config(level=level.upper() if isinstance(level, str) else None))
    logging.captureWarnings(True)


@signals.celeryd_init.connect
def _log_from_the_start(options=None, **kwargs):
    """The worker's first step: its warnings (running as root, ...) in the site's format already."""
    _configure((options or {}).get("loglevel"))


@signals.setup_logging.connect
def keep_the_sites_logging(loglevel=None, **kwargs):
    """Connected, this keeps Celery from installing its own handlers and format."""
    _configure(loglevel)


@signals.celeryd_after_setup.connect
def _worker_said_what_it_runs(sender=None, instance=None, **kwargs):
    """The worker's banner in one line: its name, broker (password masked), pool, queues and tasks."""
    pool = instance.pool_cls if isinstance(instance.pool_cls, str) else instance.pool_cls.__module__
    queues = ",".join(sorted(instance.app.amqp.queues))
    tasks = ",".join(sorted(name for name in instance.app.tasks if not name.startswith("celery.")))
    log.info("worker %s: broker %s, concurrency %s (%s), queues %s, tasks %s", sender,
             instance.app.connection().as_uri(), instance.concurrency, pool.rsplit(".", 1)[-1], queues, tasks)


@signals.beat_init.connect
def _beat_said_what_it_runs(sender=None, **kwargs):
    """Beat's banner in one line: its broker, scheduler and schedule file."""
    scheduler = sender.scheduler_cls if isinstance(sender.scheduler_cls, str) else sender.scheduler_cls.__name__
    log.info("beat: broker %s, scheduler %s, schedule %s", sender.app.connection().as_uri(), scheduler,
             sender.schedule_filename)


@signals.worker_shutdown.connect
def _end_at_once(sender=None, **kwargs):
    """A worker program that stopped (warm shutdown: its tasks done, acknowledged, the pool and the broker
    connection closed) ends at once, as gunicorn's workers do (config.gunicorn_conf.worker_exit): its
    database connections closed, its log lines flushed, then ``os._exit`` with the worker's status.
    Python's own finalization of a process holding the site took seconds of CPU on a loaded machine.
    Only the ``celery worker`` program (not a worker embedded in another process)."""
    if process_name() != "worker" or getattr(getattr(sender, "blueprint", None), "state", None) not in (
            bootsteps.CLOSE, bootsteps.TERMINATE):  # not stopped yet (an error before the bootsteps): as usual
        return
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(getattr(sender, "exitcode", None) or 0)


@signals.task_prerun.connect
def _task_started(task_id=None, task=None, **kwargs):
    from config.logs import task_context

    task_context(getattr(task, "name", None) or "task", task_id)


@signals.task_postrun.connect
def _task_ended(**kwargs):
    from config.logs import task_context

    task_context(None, None)
