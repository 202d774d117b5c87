"""The one write of a hand, with the ORM: a table's link reads its match and locks it in the entry's
transaction, the current game carries its last entries, the stored hand is the row the ORM reads,
and a table's entry costs a fixed, small number of statements, on SQLite and on PostgreSQL (CI's
second pass)."""
from __future__ import annotations

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from scoring import services
from tables import links as table_links
from scoring.models import Game, HandEntry, Match, MatchEvent
from tables.models import TableLink
from scoring.services import hand_entry
from scoring.services.game_state import current_game

from .sumula_setup import *  # noqa: F401,F403


def same_fields(a, b) -> None:
    for field in type(a)._meta.concrete_fields:
        assert getattr(a, field.attname) == getattr(b, field.attname), field.name


def test_the_link_reads_its_match_and_locks_it_in_a_transaction(match, referee):
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    link = table_links.ensure_links([match])[match.pk]
    with transaction.atomic():
        by_link = table_links.resolve(link.token)
        assert by_link.match.locked
        credential = table_links.TableCredential(by_link)
        assert hand_entry._lock(match.pk, credential) is by_link.match  # the entry uses the locked row once
        assert not by_link.match.locked
    same_fields(by_link.match, Match.objects.get(pk=match.pk))
    assert by_link.pk == link.pk and by_link.match_id == match.pk
    TableLink.objects.filter(pk=link.pk).update(revoked_at=by_link.match.created_at)
    assert table_links.resolve(link.token) is None


def test_the_current_game_carries_its_last_entries(match, referee):
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, referee)
    services.record_penalty(match, 1, 1, "art. 24", "", referee)
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    game = current_game(match)
    same_fields(game, Game.objects.get(pk=game.pk))
    last = HandEntry.objects.filter(game=game).order_by("-position").first()
    assert (game.last_hand_number, game.last_hand_dealer, game.last_hand_position) == (2, last.dealer, 3)
    assert game.last_penalty_position == 2
    assert (game.hand_count, game.entry_count) == (2, 3)
    assert current_game(Match(pk=10**9)) is None


def test_the_written_hand_is_the_stored_row(match, referee):
    hand = services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, referee)
    stored = HandEntry.objects.get(pk=hand.pk)
    same_fields(hand, stored)
    assert hand.game.number == 1 and hand.created_by == referee
    event = MatchEvent.objects.get(match=match, kind="hand")
    assert event.data["hand"] == 1 and event.data["score"] == [3, 0] and event.by == referee
    assert Game.objects.get(pk=stored.game_id).score == (3, 0)


def test_the_hand_that_ends_a_game_counts_it_on_the_match(match3, referee):
    for _hand in range(4):
        services.record_hand(match3, {"winner": 0, "ended_by": "tricks", "value": 3}, referee)
    match3.refresh_from_db()
    assert (match3.games_a, match3.games_b, match3.winner) == (1, 0, None)  # art. 3: 12 points win the game
    assert list(match3.games.order_by("number").values_list("number", "winner")) == [(1, 0), (2, None)]


def statements(queries) -> list[str]:
    """The statements that read or write data (SQLite logs BEGIN/COMMIT as queries, PostgreSQL does not)."""
    return [q["sql"] for q in queries if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]


@pytest.mark.django_db(transaction=True)  # as served: no test transaction around it (no savepoints)
def test_a_tables_entry_is_a_fixed_number_of_statements(match, django_assert_max_num_queries):
    link = table_links.ensure_links([match])[match.pk]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
    url = f"/api/scoring/matches/{match.pk}/hands/"
    assert api.post(url, {"winner": 0, "ended_by": "tricks", "value": 3}, format="json").status_code == 201
    with django_assert_max_num_queries(10) as queries:
        response = api.post(url, {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 2}, format="json",
                            HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201 and response.json()["state"]["score"] == [3, 1]
    sent = statements(queries.captured_queries)
    # the link with its match locked, the current game, the hand, its event, the game's score, the key
    assert len(sent) == 6, sent
    assert "FOR UPDATE" in sent[0] or connection.vendor != "postgresql"  # the link's read locks the match
    assert "idempotency" in sent[-1]  # the key claimed with the answer, last
    replay = api.post(url, {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 2}, format="json",
                      HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay.status_code == 201 and replay.json() == response.json() and replay["Idempotent-Replayed"] == "true"
    assert HandEntry.objects.filter(game__match=match).count() == 2
