"""The whole suite's settings: Hypothesis's profiles, each test starting with an empty cache, and the
longest tests dealt out first (``LONGEST_FIRST``).

``default`` (``scripts/test``, CI's first pass): a modest number of examples per property, so the
suite answers in minutes; ``ci`` (CI's second pass, ``HYPOTHESIS_PROFILE=ci`` from ``.ci/run``):
more examples, the same properties. Choose one with ``HYPOTHESIS_PROFILE=ci scripts/test`` or
``scripts/test --hypothesis-profile ci``. A test's own ``@settings(max_examples=...)`` wins over
the profile: the suite keeps that for tests whose examples are expensive (a database, a process).
No deadline in either: the suite runs in parallel on shared machines, where a slow example says
nothing about the code.
"""
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

# too_slow is a wall-clock check too: on a loaded machine it fails a test for the machine's sake
settings.register_profile("default", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """SQLite's test database (the embedded default's pass) is made from the models, not by running the
    migrations (Django's ``TEST["MIGRATE"] = False``): the same tables, indexes and constraints — the
    migrations are generated from the models and ``tests/test_migrations.py`` fails if they drift —
    in a second instead of ~10 s of CPU per test process. On SQLite the migrations' ``RunPython``
    steps do nothing to an empty database (the append-only triggers are PostgreSQL's). PostgreSQL's
    test database (CI's services pass) is still made by the migrations, triggers included; the
    migrations' own tests (``test_migration_*``) run them on both."""
    from django.conf import settings as django_settings

    database = django_settings.DATABASES["default"]
    if database["ENGINE"] in ("config.sqlite", "django.db.backends.sqlite3"):
        database.setdefault("TEST", {})["MIGRATE"] = False


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing(django_test_environment):
    """Passwords hashed with MD5 and PINs with few rounds in the tests: the production hashers cost
    ~0.5 s (PBKDF2, Django's 1,000,000 rounds) and ~25 ms (``tournaments.pins.PinHasher``) a hash on a
    2-core CI machine, about 50 s of the suite's time. The PIN hasher keeps its algorithm name and
    code path; the rounds are written into each hash, so checking reads them from the hash.
    Processes the tests start (a server, a worker) keep the production hashers."""
    from django.test.utils import override_settings

    override = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher",
                                                   "tests.hashers.FewRoundsPinHasher"])
    override.enable()
    yield
    override.disable()


@pytest.fixture(scope="session", autouse=True)
def _quick_flush_on_postgresql():
    """Emptying PostgreSQL's test database after a test that committed (``transaction=True``, a live server):
    Django's flush is one ``TRUNCATE`` of all ~70 tables, which makes new files for every table and index
    (~0.17 s, ~0.25 s with the content types made again; 0.3-0.4 s on a loaded 2-core machine), after each
    of the ~170 such tests of CI's services pass (the API fuzzing's 98 among them). Deleting the rows instead
    takes ~3 ms. The append-only triggers (and the foreign keys' checks, also triggers) refuse that, so the
    deletes run with ``session_replication_role = replica``, which only a superuser may set (CI's
    ``postgres``): for another role, for a flush that resets sequences, or for one that cascades (a test's
    ``available_apps``), Django's ``TRUNCATE`` stays. The tests' processes only: the site keeps Django's.

    No plan depends on a table once being empty: a DELETE leaves the table's pages, and statistics taken
    then (autovacuum's ANALYZE after a flush; an ANALYZE here would do the same) say 0 rows over those pages,
    a density of 0 that the planner applies to every later size (5,000 rows inserted after a DELETE and an
    ANALYZE: estimated 1; a match-lock query's nested loops ran 19 minutes). So the first flush of each
    database is Django's ``TRUNCATE``, which leaves every table "never analyzed" (``reltuples = -1``), and
    turns autovacuum off on the tables it empties: statistics are never taken again, and the planner
    estimates each table from its size on disk as it is at the time (the same 5,000 rows: ~6,000)."""
    from django.conf import settings as django_settings

    if django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        yield
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush
    superuser: dict[str, bool] = {}
    flushed: set[str] = set()

    def may_replicate(connection) -> bool:
        name = connection.settings_dict["NAME"]
        if name not in superuser:
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('is_superuser') = 'on'")
                superuser[name] = cursor.fetchone()[0]
        return superuser[name]

    def delete_rows(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables or not may_replicate(self.connection):
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        if self.connection.settings_dict["NAME"] not in flushed:
            flushed.add(self.connection.settings_dict["NAME"])
            return [*truncate(self, style, tables),
                    *(f"ALTER TABLE {self.quote_name(table)} SET (autovacuum_enabled = off)" for table in tables)]
        # one transaction (execute_sql_flush's atomic block): SET LOCAL ends with it
        return ["SET LOCAL session_replication_role = replica",
                *(f"DELETE FROM {self.quote_name(table)}" for table in tables)]

    DatabaseOperations.sql_flush = delete_rows
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language (``LANGUAGE_CODE``, Portuguese): a test, or a request
    of the test client (LocaleMiddleware activates the visitor's language in this thread and leaves it so),
    may leave English active, and a later test of the same process would then speak it (CI's services
    pass once read "Plays and calls" where a test expected "Jogadas e pedidos")."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_local_cache():
    """The process's own caches (LocMemCache: built public pages, ``public.conditional``) emptied
    before each test: a test process runs a different sequence of tests under pytest-xdist than in one
    process, and on SQLite ids restart after each test's rollback, so a page kept by an earlier test
    must not be served to a later one. A shared cache (Redis, ``DJANGO_CACHE_URL``) is left alone."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all(initialized_only=True):
        if isinstance(cache, LocMemCache):
            cache.clear()


# The files whose tests take longest (measured with --durations in CI's two passes, 2026-11-26), run
# first, longest first: pytest-xdist hands out tests in collection order, and a long test dealt out last
# keeps one worker busy while the other has nothing left. Browser tests come next, then the rest in
# collection order. A file missing here only loses its place in the queue.
LONGEST_FIRST = (
    "tests/draw/test_migration_move.py",  # every move by concern, one trip up the migrations
    "tests/scoring/test_table_round.py",
    "tests/scoring/test_backups.py",
    "tests/tournaments/test_first_organizer.py",
    "tests/printing/test_print_worker_lost.py",
    "tests/tournaments/test_migration_stages.py",
    "tests/referee/test_check_hand_cli.py",
    "tests/ops/test_serve.py",
    "tests/ops/test_two_hosts.py",
    "tests/ops/test_supervision.py",
    "tests/ops/test_run_log_format.py",
    "tests/browser/test_tournament_flow.py",
    "tests/ops/test_deploy_settings.py",
    "tests/printing/test_print_site_url.py",
    "tests/printing/test_print_jobs.py",
    "tests/printing/test_print_faults.py",
    "tests/printing/test_print_upkeep.py",
    "tests/scoring/test_pdf.py",
    "tests/scoring/test_public_blank_sumula.py",
    "tests/tournaments/test_stages.py",
    "tests/scoring/test_sumula_properties.py",
)


def pytest_collection_modifyitems(session, config, items):
    # pytest-xdist hands tests out by node id: two items of one id run as one (schemathesis's items once
    # shared theirs, and 97 of the API fuzzing's 98 operations never ran in parallel): refuse such a suite.
    shared = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if shared:
        raise pytest.UsageError("tests that share a node id (pytest-xdist would run one of each): " + ", ".join(shared))

    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    browser = len(rank)

    def place(item):
        path = item.nodeid.split("::", 1)[0]
        return rank.get(path, browser if path.startswith("tests/browser/") else browser + 1)

    items.sort(key=place)  # stable: within a place, collection order

    # CI's services pass (DATABASE_URL set) runs the suite again against PostgreSQL and a worker; a test
    # whose own process drops those variables (``embedded_only``) would run the same code a second time.
    # A browser test marked ``presentation`` asserts what the page itself does (its size, its accessibility, the
    # taps, keys and focus it takes, the screenshots): the same page over either database, while the services it
    # drives run on PostgreSQL through their own tests; the services pass skips it too (README, CI).
    # The same holds, without a mark, for a test that reaches no database at all (pytest-django refuses it one)
    # and reads nothing of the services' environment: see :func:`same_in_both_passes`.
    if os.environ.get("DATABASE_URL"):
        again = pytest.mark.skip(reason="embedded_only: ran in the embedded pass; it never reads DATABASE_URL")
        same = pytest.mark.skip(reason="ran in the embedded pass: it reaches no database and reads no service")
        page = pytest.mark.skip(reason="presentation: ran in the embedded pass; it asserts the page, not the database")
        for item in items:
            if item.get_closest_marker("embedded_only"):
                item.add_marker(again)
            elif item.get_closest_marker("presentation"):
                item.add_marker(page)
            elif same_in_both_passes(item):
                item.add_marker(same)


DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                     "live_server", "admin_user", "admin_client", "django_user_model"}
SERVICES_WORDS = ("DATABASE_URL", "CELERY_", "REDIS", "redis", "postgres", "vendor")
_module_words: dict[str, bool] = {}


def same_in_both_passes(item) -> bool:
    """A test that runs the same code in CI's two passes, so the services pass need not run it again: it asks
    for no database (no ``django_db`` mark, no database fixture, not a Django ``TestCase``: pytest-django
    refuses it the database, so it cannot touch one), is not marked ``services``, is no property test (the
    services pass gives those the "ci" profile's extra examples), and its module names neither the services'
    settings nor a database vendor (a test that reads the environment may choose another path there)."""
    from django.test import SimpleTestCase, TestCase, TransactionTestCase

    if item.get_closest_marker("django_db") or item.get_closest_marker("services"):
        return False
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return False
    case = getattr(item, "cls", None)
    if case is not None and issubclass(case, SimpleTestCase) and issubclass(case, (TestCase, TransactionTestCase)):
        return False
    function = getattr(item, "obj", None)
    if getattr(function, "is_hypothesis_test", False):
        return False
    path = str(item.path)
    if path not in _module_words:
        source = item.path.read_text(encoding="utf-8")
        _module_words[path] = any(word in source for word in SERVICES_WORDS)
    return not _module_words[path]


@pytest.fixture
def eager_celery():
    """Tasks run in-process, even when a broker is configured (.ci/run's services pass): for the tests
    that check what a task does to their own database (a real worker has a database of its own)."""
    from config.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
