"""The whole suite's settings: Hypothesis's profiles, and each test starting with an empty cache.

``default`` (``scripts/test``, CI's first pass): a modest number of examples per property, so the
suite answers in minutes; ``ci`` (CI's second pass, ``HYPOTHESIS_PROFILE=ci`` from ``.ci/run``):
more examples, the same properties. Choose one with ``HYPOTHESIS_PROFILE=ci scripts/test`` or
``scripts/test --hypothesis-profile ci``. A test's own ``@settings(max_examples=...)`` wins over
the profile: the suite keeps that for tests whose examples are expensive (a database, a process).
No deadline in either: the suite runs in parallel on shared machines, where a slow example says
nothing about the code.
"""
import os

import pytest
from hypothesis import settings

settings.register_profile("default", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _empty_local_cache():
    """The process's own caches (LocMemCache: built public pages, ``tournaments.conditional``) emptied
    before each test: a test process runs a different sequence of tests under pytest-xdist than in one
    process, and on SQLite ids restart after each test's rollback, so a page kept by an earlier test
    must not be served to a later one. A shared cache (Redis, ``DJANGO_CACHE_URL``) is left alone."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all(initialized_only=True):
        if isinstance(cache, LocMemCache):
            cache.clear()
