"""The whole suite's settings: Hypothesis's profiles.

``default`` (``scripts/test``, CI's first pass): a modest number of examples per property, so the
suite answers in minutes; ``ci`` (CI's second pass, ``HYPOTHESIS_PROFILE=ci`` from ``.ci/run``):
more examples, the same properties. Choose one with ``HYPOTHESIS_PROFILE=ci scripts/test`` or
``scripts/test --hypothesis-profile ci``. A test's own ``@settings(max_examples=...)`` wins over
the profile: the suite keeps that for tests whose examples are expensive (a database, a process).
No deadline in either: the suite runs in parallel on shared machines, where a slow example says
nothing about the code.
"""
import os

from hypothesis import settings

settings.register_profile("default", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
