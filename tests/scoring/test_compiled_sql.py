"""The hot lookups of a table's entry compiled once per connection (config/compiled_sql.py, issue 10 §4):
they give what the querysets give, with the value of each call, in one query."""
from __future__ import annotations

import pytest
from django.db import transaction

from config.compiled_sql import CompiledSelect
from referee.engine.game import next_dealer
from scoring import services, table_links
from scoring.models import Match, TableLink
from scoring.services import hand_entry

from .sumula_setup import *  # noqa: F401,F403


def same_row(found, expected) -> bool:
    fields = type(expected)._meta.concrete_fields
    return all(getattr(found, f.attname) == getattr(expected, f.attname) for f in fields)


def test_the_link_by_token_is_the_querysets_with_its_match_in_one_query(match, match3, django_assert_num_queries):
    links = table_links.ensure_links([match, match3])
    for made in (match, match3):  # the token of each call, not the first one compiled
        with django_assert_num_queries(1):
            found = table_links.resolve(links[made.pk].token)
            assert found.match.status == Match.Status.OPEN  # select_related: the match came with it
        expected = TableLink.objects.select_related("match").get(token=links[made.pk].token)
        assert same_row(found, expected) and same_row(found.match, expected.match)
        assert found.match.created_at.tzinfo is not None  # the database's converters applied
    assert table_links.resolve("y" * 32) is None


def test_the_current_game_carries_its_annotations(match):
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 3}, match.referee)
    with transaction.atomic():
        game = hand_entry.current_game(hand_entry._lock(match.pk))
    assert (game.number, game.score, game.hand_count, game.entry_count) == (1, (3, 0), 1, 1)
    assert game.dealer == next_dealer(game.first_dealer)  # art. 4: the deal passes to the right


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_the_locked_match_needs_a_transaction_and_an_existing_match(match):
    with pytest.raises(transaction.TransactionManagementError):
        hand_entry._lock(match.pk)
    with transaction.atomic():
        assert same_row(hand_entry._lock(match.pk), Match.objects.get(pk=match.pk))
        with pytest.raises(Match.DoesNotExist):
            hand_entry._lock(match.pk + 1000)


def test_only_a_queryset_whose_one_parameter_is_the_value_compiles(db):
    two = CompiledSelect(lambda pk: Match.objects.filter(pk=pk, table=3)[:1], 0)
    with pytest.raises(ValueError, match="one parameter"):
        two.first(1)


def test_a_compiled_insert_saves_what_create_saves_and_no_model_it_writes_has_save_signals(match, referee):
    from django.db.models.signals import post_save, pre_save

    from config.compiled_sql import CompiledInsert
    from scoring.models import HandEntry, MatchEvent

    for model in (HandEntry, MatchEvent):  # CompiledInsert sends no signal: none may be listening
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)
    made = CompiledInsert(MatchEvent).create(match=match, kind="hand", by=referee, data={"score": [3, 0], "via": None})
    again = CompiledInsert(MatchEvent).create(match=match, kind="undo", by=None, data={})
    assert made.pk and again.pk > made.pk and not made._state.adding
    stored = MatchEvent.objects.get(pk=made.pk)
    assert (stored.match_id, stored.kind, stored.by_id, stored.data) == (match.pk, "hand", referee.pk,
                                                                         {"score": [3, 0], "via": None})
    assert stored.at == made.at and MatchEvent.objects.get(pk=again.pk).by_id is None
