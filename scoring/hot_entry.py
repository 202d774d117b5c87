"""The next hand on PostgreSQL in three statements: the hot path of a round (issue 10 §4).

While a round is played nearly every write is one request: the next hand, a plain summary with the
position the device expects and an ``Idempotency-Key``, sent by a table (``Authorization: Table
<token>``) or by the súmula page of its referee or organizer (the session). The API view
(``scoring.api.HandView``) serves it through DRF and the generic idempotency mechanism
(scoring/idempotency.py): BEGIN, seven or eight statements, COMMIT, and DRF's request, serializer
and response. This module answers that one case itself, with BEGIN, three statements and COMMIT
(and the session's two reads, for a user):

1. the match locked (a table's link joined to it, ``FOR UPDATE OF``): every writer of a match locks
   it before it reads the game, so two entries of one table (or a repeat of one) run one after the
   other, and the second reads what the first wrote;
2. the current game with its last hand and penalty (``hand_entry.current_game``);
3. one data-modifying ``WITH``: the ``Idempotency-Key`` is claimed with the answer already in it
   (``INSERT … ON CONFLICT DO NOTHING`` on the unique (credential, key)), and only if the claim
   took, the hand, its audit event and the game's new score are written. A key already used writes
   nothing.

The credential is found in DRF's order (an active session user, with DRF's CSRF check, then the
table link). The checks are the API's own, in the same order (``hand_entry.check_entry``: who may
enter, the súmula's state, the expected position, the dealer, the engine), and so are the rows
written (``hand_values``, ``hand_event_data``) and the answer (``hand_data``, ``state_of``, DRF's JSON
renderer). Every other case falls through to the API view with nothing written, and the view's answer
is the answer: another database, no key, a body the serializer would coerce or refuse, no credential,
a failed CSRF check, an unknown or revoked link or another match's, a refusal (403, 409, 400), a key
used before (a replay, or 422), the first hand of a game with the table's draw, and a hand that ends
a game (the next game, the match's result and its version are the service's). So this path changes
no behaviour: ``tests/scoring/test_hot_entry.py`` plays random evenings through both and compares the
answers and the rows.
"""
from __future__ import annotations

import json

from django.db import connection, transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import PermissionDenied
from rest_framework.renderers import JSONRenderer

from config.compiled_sql import CompiledSelect
from referee.engine.game import game_winner, next_dealer

from . import idempotency
from .models import Game, HandEntry, Match, MatchEvent, TableLink
from .serializers import ENDED_BY
from .services import base as services_base
from .services import hand_entry
from .table_links import SCHEME, TableCredential

FIELDS = frozenset({"winner", "ended_by", "value", "game", "hand"})
MAX_BODY = 1024  # a summary is ~70 bytes; anything longer is left to the API's parser
ENDINGS = frozenset(ENDED_BY)

# The link with its match, the match locked: compiled once per connection (config/compiled_sql.py).
_LOCKED_LINK = CompiledSelect(
    lambda token: TableLink.objects.select_related("match").select_for_update(of=("match",))
    .filter(token=token).order_by()[:1], "compiled-marker")


class _FallThrough(Exception):
    """Not the plain case: roll back (nothing was written) and let the API view answer."""


def enter(request, match_id: int) -> HttpResponse | None:
    """The answer to a plain next hand (201), or None: the API view answers."""
    parsed = _plain_entry(request)
    if parsed is None:
        return None
    try:
        with transaction.atomic():
            return _enter(request, match_id, *parsed)
    except _FallThrough:
        return None


def _plain_entry(request) -> tuple[str | None, str, dict] | None:
    """``(token or None, key, body)`` of a summary with its expected position, or None. Only what the
    serializer would take as it is: ints that are ints (not strings, floats or booleans), a known
    ``ended_by``, no other field."""
    if request.method != "POST" or connection.vendor != "postgresql":
        return None
    authorization = request.META.get("HTTP_AUTHORIZATION", "").split()
    if authorization and (len(authorization) != 2 or authorization[0].lower().encode() != SCHEME
                          or len(authorization[1]) > 64):
        return None
    key = request.META.get(idempotency.HEADER, "").strip()
    if not key or len(key) > idempotency.MAX_KEY or request.content_type != "application/json":
        return None
    try:
        if not 0 < int(request.META.get("CONTENT_LENGTH") or 0) <= MAX_BODY:  # chunked or long: the parser's
            return None
        body = json.loads(request.body)
    except (ValueError, RecursionError):
        return None
    if type(body) is not dict or not body.keys() <= FIELDS:
        return None
    if not all(type(body.get(name)) is int and body[name] >= 1 for name in ("game", "hand")):
        return None
    if "value" in body and type(body["value"]) is not int:
        return None
    if body.get("winner") is not None and type(body["winner"]) is not int:
        return None
    if body.get("ended_by", "tricks") not in ENDINGS:
        return None
    return (authorization[1] if authorization else None), key, body


def _locked(request, match_id: int, token: str | None) -> tuple[Match, object]:
    """The match, locked, and who acts: DRF's order (an active session user, then the table link)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_active:
        try:
            SessionAuthentication().enforce_csrf(request)
            return hand_entry._lock(match_id), user
        except (PermissionDenied, Match.DoesNotExist):
            raise _FallThrough from None
    if token is None:
        raise _FallThrough
    link = _LOCKED_LINK.first(token)
    if link is None or link.revoked_at is not None or link.match_id != match_id:
        raise _FallThrough
    return link.match, TableCredential(link)


def _enter(request, match_id: int, token: str | None, key: str, body: dict) -> HttpResponse:
    match, by = _locked(request, match_id, token)
    game = hand_entry.current_game(match) if match.winner is None else None  # as record_hand reads it
    rules = services_base.rules_of(match)
    item = {name: body[name] for name in ("winner", "value") if name in body}
    item["ended_by"] = body.get("ended_by", "tricks")  # the serializer's default
    try:
        dealer, drawn, checked = hand_entry.check_entry(match, game, rules, item, by,
                                                        position=(body["game"], body["hand"]))
    except services_base.ScoringError:
        raise _FallThrough from None
    if drawn or game_winner(checked["score"]) is not None:
        raise _FallThrough
    now = timezone.now()
    hand = HandEntry(**hand_entry.hand_values(game, dealer, checked, by, now))
    event = MatchEvent(match=match, kind=MatchEvent.Kind.HAND, by=hand.created_by,
                       data=hand_entry.hand_event_data(hand, game, by))
    state = hand_entry.state_of(match, game.number, checked["score"], next_dealer(dealer), hand.number + 1,
                                hand.position, rules)
    content = JSONRenderer().render({"created": hand_entry.hand_data(hand), "state": state, "game_over": None})
    claim = (idempotency.credential_of_actor(by), key, idempotency.request_hash(request))
    if not _write(hand, event, game, claim, content, now):
        raise _FallThrough  # the key was used before: the API view replays it or refuses it (422)
    response = HttpResponse(content, status=201, content_type="application/json")
    response["Allow"] = "POST, OPTIONS"
    return response


_SQL: str | None = None


def _write_sql() -> str:
    """The one statement of the writes (PostgreSQL), built once."""
    global _SQL
    if _SQL is None:
        q = connection.ops.quote_name

        def insert(compiled) -> str:
            columns = compiled.columns(connection)
            return (f"INSERT INTO {q(compiled.model._meta.db_table)} ({', '.join(columns)}) "
                    f"SELECT {', '.join(['%s'] * len(columns))} FROM claim")

        _SQL = (f"WITH claim AS ({idempotency.claim_sql()}), "
                f"hand AS ({insert(hand_entry._INSERT_HAND)}), "
                f"event AS ({insert(services_base._INSERT_EVENT)}), "
                f"game AS (UPDATE {q(Game._meta.db_table)} SET {q('score_a')} = %s, {q('score_b')} = %s "
                f"WHERE {q('id')} = %s AND EXISTS (SELECT 1 FROM claim)) "
                f"SELECT {q('id')} FROM claim")
    return _SQL


def _write(hand: HandEntry, event: MatchEvent, game: Game, claim: tuple[str, str, str], content: bytes,
           now) -> bool:
    """Claim the key with the answer and write the hand, its event and the game's score, in one
    statement; False (nothing written) when the key was taken."""
    params = [*claim, 201, "application/json", content.decode(), now,
              *hand_entry._INSERT_HAND.params(hand, connection),
              *services_base._INSERT_EVENT.params(event, connection),
              hand.score_a, hand.score_b, game.pk]
    with connection.cursor() as cursor:
        cursor.execute(_write_sql(), params)
        return cursor.fetchone() is not None
