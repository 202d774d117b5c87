"""The API under fuzzing (schemathesis over the OpenAPI schema): no server error, and every answer as
the schema documents it — its status code, its content type, its headers and its body (errors in the
``Error`` shape, lists whole or paginated) —, for anonymous callers and for the organizer, with data
that reaches past the 404s (a tournament with pairs, a round, a match with hands, a ruling and a
signed súmula). The fast SQLite-side checks of the same agreement: tests/test_api_schema_conformance.py.

Part of CI's services pass (it runs when ``DATABASE_URL`` is set, i.e. on PostgreSQL, where a NUL
or an overflowing number would reach the database). Bounded: ``API_FUZZ_EXAMPLES`` examples per
operation and role (default 5: about 4 minutes, some 10,000 requests). Run by hand:
``DATABASE_URL=postgres://... .venv/bin/pytest tests/test_api_fuzz.py -q``.
"""
from __future__ import annotations

import datetime
import os
import re
from collections import Counter, defaultdict

import pytest

if not os.environ.get("DATABASE_URL") and not os.environ.get("API_FUZZ"):
    pytest.skip("DATABASE_URL not set: the fuzzing runs in CI's services pass", allow_module_level=True)

schemathesis = pytest.importorskip("schemathesis")

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    unsupported_method,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application  # noqa: E402

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "5"))
# Every answer as documented, and the schema's promises about the requests kept: a method the path has not
# is a 405, a required header missing is refused; and (asked without the organizer's session: schemathesis
# cannot tell a session given in the call's cookies from one it generated) an operation that declares a
# credential refuses a request without one (a public read declares it optional, ``{}``). 0 mismatches is
# asserted.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, missing_required_header, unsupported_method]
ANONYMOUS_CHECKS = [*CHECKS, ignored_auth]
# Measured, not asserted (API_FUZZ_ALL_CHECKS=1): a schema-valid body refused by the tournament's state or a
# rule of the regulation (a pair id 0 "in this tournament", a correction without its reason, art. 25), which
# no schema can say, and DRF's leniencies (a number accepted for a text, an unknown query parameter ignored).
if os.environ.get("API_FUZZ_ALL_CHECKS"):
    CHECKS += [positive_data_acceptance, negative_data_rejection]
    ANONYMOUS_CHECKS += [positive_data_acceptance, negative_data_rejection]
STATUSES: Counter = Counter()
# An operation closed to anonymous callers answers them 401/403 before it reads the request (DRF checks
# permissions first), so the coverage phase's hundreds of boundary cases would each ask the same
# question: an operation that refused its first ANONYMOUS_TRIES anonymous cases is asked as the
# organizer only from then on (about 9,000 anonymous requests fewer). An operation that answered an
# anonymous caller with anything else is asked anonymously for every case.
ANONYMOUS_TRIES = 3
ANONYMOUS_ASKED: Counter = Counter()
ANONYMOUS_OPEN: dict = defaultdict(bool)
CSRF = "fuzzcsrftokenfuzzcsrftokenfuzzcs"  # 32 characters: the cookie's secret, sent back as the header
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)

# Real commits, as in production: a request's failed query must not poison the next one's transaction.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def summary():
    """Prints how many answers of each status the fuzzing got (past the 404s, or not)."""
    yield
    print(f"\napi fuzz statuses: {dict(sorted(STATUSES.items()))}")  # shown with -s


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """As Django's test client does: the app must not close the test's connection after a request."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(transactional_db, settings):
    """A tournament with pairs, a round, a match with hands, a ruling, and a signed súmula."""
    from referee import services as referee
    from scoring import services as scoring
    from tournaments.models import Pair, Player, Round, Tournament

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    organizer = users.create_user("fuzz-org", password="x", first_name="Olga")
    referee_user = users.create_user("fuzz-ref", password="x", first_name="Rita")
    tournament = Tournament.objects.create(name="Fuzz", slug="fuzz", date=datetime.date(2026, 5, 1),
                                           organizer=organizer)
    pairs = []
    for n in range(4):
        players = []
        for side in "ab":
            player = Player(name=f"P{n}{side}", contact=f"p{n}{side}@example.org")
            player.set_pin("1234")
            player.save()
            players.append(player)
        pairs.append(Pair.objects.create(tournament=tournament, name=f"Dupla {n}", first_player=players[0],
                                         second_player=players[1]))
    rnd = Round.objects.create(tournament=tournament, number=1)
    live = scoring.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, round=rnd, table=1,
                                referee=referee_user, by=organizer)
    scoring.record_hand(live, {"winner": 0, "ended_by": "tricks", "value": 1}, referee_user)
    ruling = referee.propose(live, 1, 0, "guidance_word", {}, referee_user)
    done = scoring.create_match(pair_a=pairs[2], pair_b=pairs[3], tournament=tournament, round=rnd, table=2,
                                referee=referee_user, by=organizer)
    for _ in range(4):
        scoring.record_hand(done, {"winner": 0, "ended_by": "tricks", "value": 3}, referee_user)
    scoring.sign(done, "team0", pairs[2].first_player, pin="1234")
    version = done.versions.get()
    client = Client()
    client.force_login(organizer)
    return {"slug": tournament.slug, "match": live.pk, "done": done.pk, "ruling": ruling.pk, "pair": pairs[0].pk,
            "round": rnd.number, "digest": version.digest, "session": client.cookies["sessionid"].value}


def _aim(case, world) -> None:
    """Point the path at the world's rows (random ids only meet 404s)."""
    path = case.operation.path
    values = {"slug": world["slug"], "match_id": world["match"], "pair_id": world["pair"], "number": world["round"],
              "digest": world["digest"]}
    for name in ("pk", "id"):
        if "{%s}" % name in path:
            values[name] = (world["ruling"] if "/rulings/" in path else world["pair"] if "/pairs/" in path
                            else world["done"] if re.search(r"signatures|countersign|received|versions", path)
                            else world["match"])
    for name in list(case.path_parameters or {}):
        if name in values:
            case.path_parameters[name] = values[name]


# The site compresses answers (GZipMiddleware) for clients that accept it, as schemathesis's WSGI client
# says it does, but that client hands the body on undecoded: the fuzzing asks for the plain body.
PLAIN = {"Accept-Encoding": "identity"}


# pytest >= 9.2 builds a test's node id from its function's name and its parameters: schemathesis names
# its items "test[GET /path]" but gives them no parameters, so all 98 had one node id and pytest-xdist ran
# one of them. With a parametrization each item's id keeps its operation ("test[GET /path][...]");
# tests/conftest.py refuses a collection with two items of one id.
@pytest.mark.parametrize("callers", ["anonymous-and-organizer"])
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_answers_as_documented(case, world, callers):
    _aim(case, world)
    label = case.operation.label
    if ANONYMOUS_OPEN[label] or ANONYMOUS_ASKED[label] < ANONYMOUS_TRIES:
        status = case.call_and_validate(checks=ANONYMOUS_CHECKS, headers=PLAIN).status_code  # anonymous
        STATUSES[status] += 1
        ANONYMOUS_ASKED[label] += 1
        ANONYMOUS_OPEN[label] = ANONYMOUS_OPEN[label] or status not in (401, 403)
    STATUSES[case.call_and_validate(checks=CHECKS, cookies={"sessionid": world["session"], "csrftoken": CSRF},
                                    headers={"X-CSRFToken": CSRF, **PLAIN}).status_code] += 1  # the organizer
