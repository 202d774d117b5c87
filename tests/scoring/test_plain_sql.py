"""The one write path of a hand: the plain statements (scoring/plain_sql.py,
scoring/entry_sql.py) read and write what the ORM would, on SQLite and on PostgreSQL (CI's second
pass), and a table's entry costs the lock, the current game and one write (the key claimed in it)."""
from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models.signals import pre_save
from rest_framework.test import APIClient

from scoring import entry_sql, plain_sql, services, table_links
from scoring.models import Game, HandEntry, Match, MatchEvent, TableLink
from tournaments import freshness

from .sumula_setup import *  # noqa: F401,F403


def same_fields(a, b) -> None:
    for field in type(a)._meta.concrete_fields:
        assert getattr(a, field.attname) == getattr(b, field.attname), field.name


def test_the_match_read_by_its_link_and_locked_is_the_orms(match, referee):
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    link = table_links.ensure_links([match])[match.pk]
    with transaction.atomic():
        locked = entry_sql.lock_match(match.pk)
        by_link = entry_sql.link_with_match(link.token)
        assert locked.locked and by_link.match.locked  # inside a transaction the link's read locks the match
    orm = Match.objects.get(pk=match.pk)
    same_fields(locked, orm)
    same_fields(by_link.match, orm)
    assert isinstance(locked.rule_set, dict) and locked.created_at.tzinfo is not None  # converters ran
    assert by_link.pk == link.pk and by_link.match_id == match.pk
    TableLink.objects.filter(pk=link.pk).update(revoked_at=orm.created_at)
    assert entry_sql.link_with_match(link.token) is None
    assert entry_sql.lock_match(10**9) is None


def test_the_current_game_carries_its_last_entries(match, referee):
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, referee)
    services.record_penalty(match, 1, 1, "art. 24", "", referee)
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    game = entry_sql.current_game(match.pk)
    same_fields(game, Game.objects.get(pk=game.pk))
    last = HandEntry.objects.filter(game=game).order_by("-position").first()
    assert (game.last_hand_number, game.last_hand_dealer, game.last_hand_position) == (2, last.dealer, 3)
    assert game.last_penalty_position == 2
    assert entry_sql.current_game(10**9) is None


def test_the_written_hand_is_the_stored_row(match, referee):
    hand = services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, referee)
    stored = HandEntry.objects.get(pk=hand.pk)
    same_fields(hand, stored)
    assert hand.game.number == 1 and hand.created_by == referee  # the related objects it was given
    event = MatchEvent.objects.get(match=match, kind="hand")
    assert event.data["hand"] == 1 and event.data["score"] == [3, 0] and event.by == referee
    assert Game.objects.get(pk=stored.game_id).score == (3, 0)


def test_a_model_with_save_receivers_is_refused(match):
    def receiver(**kwargs):  # pragma: no cover - never sent
        pass

    pre_save.connect(receiver, sender=MatchEvent)
    try:
        with pytest.raises(TypeError, match="save signal"):
            plain_sql.write(MatchEvent(match=match, kind="hand", data={}))
    finally:
        pre_save.disconnect(receiver, sender=MatchEvent)


def test_the_fingerprint_reads_the_organizer_and_the_timestamps(match, referee, tournament, organizer,
                                                                 django_assert_num_queries):
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, referee)
    with django_assert_num_queries(1):
        state = freshness.state(tournament.slug)
        assert state.tournament.organizer.get_full_name() == organizer.get_full_name()  # no second query
    assert state.tournament.pk == tournament.pk and state.last_modified is not None
    assert freshness.state("no-such-slug") is None


def statements(queries) -> list[str]:
    """The statements that read or write data (SQLite logs BEGIN/COMMIT as queries, PostgreSQL does not)."""
    return [q["sql"] for q in queries if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]


@pytest.mark.django_db(transaction=True)  # as served: no test transaction around it (no savepoints)
def test_a_tables_entry_is_the_lock_the_current_game_and_one_write(match, django_assert_max_num_queries):
    link = table_links.ensure_links([match])[match.pk]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
    url = f"/api/scoring/matches/{match.pk}/hands/"
    assert api.post(url, {"winner": 0, "ended_by": "tricks", "value": 3}, format="json").status_code == 201
    together = connection.vendor == "postgresql"  # the writes in one WITH; SQLite runs them one by one
    with django_assert_max_num_queries(10) as queries:
        response = api.post(url, {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 2}, format="json",
                            HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201 and response.json()["state"]["score"] == [3, 1]
    sent = statements(queries.captured_queries)
    assert len(sent) == (3 if together else 6), sent  # the lock, the current game, the write (one WITH)
    assert "FOR UPDATE" in sent[0] or not together  # the link's read locks the match
    assert "idempotency" in sent[-1] and "ON CONFLICT" in sent[-1]  # the key claimed with the answer, last
    replay = api.post(url, {"winner": 1, "ended_by": "tricks", "value": 1, "game": 1, "hand": 2}, format="json",
                      HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay.status_code == 201 and replay.json() == response.json() and replay["Idempotent-Replayed"] == "true"
    assert HandEntry.objects.filter(game__match=match).count() == 2
